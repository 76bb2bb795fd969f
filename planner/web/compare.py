"""Two to four plans side by side, in a manager's words: what the compare page shows.

Inputs by their labels ("Candidate 1 · Tier", not `candidates[0].parts[0].tier`) with
values in the reader's formats (money with its currency, rates as percentages, tiers by
their titles); the best option of each plan with the same payback words as the plan page;
and the cumulative chart's data: each plan's best option against its own baseline.
No request and no database: the view hands in the plans' inputs and results.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _

from common import formatting
from common.django.message_render import render
from planner.web import fields
from planner.web.dashboard import Results, dec

MAX_PLANS = 4
CHOICES = {**fields.KIND_TITLES, **fields.CHOICE_LABELS}  # the editor's words for a choice
# The unit beside a number, by the editor's unit names (fields.UNITS translates them).
UNITS = {
    "horizon_months": "months", "one_time.migration_hours": "engineer hours",
    "one_time.running_both_months": "months", "commitments.months_remaining": "months",
    "min_term_months": "months", "monthly.ops_hours_per_server": "hours/server/month",
    "dataset_gb": "GB (decimal)", "deadline_hours": "hours", "trial_hours_single_thread": "hours",
    "p99_ms": "ms", "peak_rps": "requests/s",
}  # fmt: skip
# Where an input's label key differs from its path, the editor's key for it (fields.LABELS).
_PART_FIELDS = {"name", "tier", "mode", "count", "gpu_hours_per_month",
                "instance_hours_per_month", "min_term_months"}  # fmt: skip
MONEY = {
    "baseline.monthly", "commitments.monthly", "one_time.migration_rate", "one_time.retraining",
    "one_time.other", "monthly.ops_rate", "monthly.egress", "monthly.other",
}  # fmt: skip
SHARES = {"annual_discount_rate", "utilisation_target", "monthly_growth",
          "spot_interruption_allowance"}  # fmt: skip
TIERS = {"baseline.tier", "commitments.tier", "tier"}
_INDEX = re.compile(r"\[(\d+)\]")


@dataclass
class InputRow:
    label: str
    values: list[str]

    @property
    def changed(self) -> bool:
        return any(value != self.values[0] for value in self.values[1:])


@dataclass
class Cell:
    value: Any  # a Decimal amount, or a payback Message
    currency: str
    delta: Decimal | None = None  # against the first plan's (amounts only)


@dataclass
class SummaryRow:
    key: str  # baseline_total | monthly | total | saving | payback_month (the page's data-delta)
    label: str
    cells: list[Cell]

    @property
    def changed(self) -> bool:
        return any(cell.delta for cell in self.cells) or any(
            cell.value != self.cells[0].value for cell in self.cells[1:]
        )


def flatten(value: Any, path: str = "") -> dict[str, Any]:
    """A plan's inputs as {"baseline.monthly": "480.00", "workloads[0].rows": 1000000, …}."""
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key, item in value.items():
            out.update(flatten(item, f"{path}.{key}" if path else str(key)))
        return out
    if isinstance(value, list | tuple) and path.startswith("baseline.bill."):
        return {path: ", ".join(str(v) for v in value)}  # a bill's filter: one row
    if isinstance(value, list | tuple):
        out = {}
        for i, item in enumerate(value):
            out.update(flatten(item, f"{path}[{i}]"))
        return out or {path: None}
    return {path: value}


def _where(path: str) -> tuple[str, list[int]]:
    """ "candidates[0].parts[1].tier" → ("candidates.parts.tier", [0, 1])."""
    return _INDEX.sub("", path), [int(i) for i in _INDEX.findall(path)]


def _group(generic: str, indices: list[int], plan: Mapping[str, Any]) -> str:
    """Which candidate, commitment or workload an input belongs to, as a reader counts."""
    head = generic.split(".")[0]
    if head == "candidates":
        candidate = (plan.get("candidates") or [])[indices[0]]
        title = _("Candidate %(n)s") % {"n": indices[0] + 1}
        if len(candidate.get("parts") or []) > 1 and len(indices) > 1:
            title = _("%(candidate)s, part %(n)s") % {"candidate": title, "n": indices[1] + 1}
        return title
    if head == "workloads":
        workload = (plan.get("workloads") or [])[indices[0]]
        return _("Workload %(n)s (%(kind)s)") % {
            "n": indices[0] + 1,
            "kind": workload.get("name") or CHOICES.get(workload.get("kind"), workload.get("kind")),
        }
    if generic.startswith("baseline.commitments"):
        return _("Commitment %(n)s") % {"n": indices[0] + 1}
    return ""


def _field(generic: str) -> str:
    """The label's key: "baseline.commitments.monthly" → "commitments.monthly"."""
    if generic.startswith("baseline.commitments."):
        return "commitments." + generic.rsplit(".", 1)[1]
    if generic.startswith(("candidates.", "workloads.")):
        return generic.rsplit(".", 1)[1]
    return generic


def _label_key(generic: str, key: str) -> str:
    """The editor's label key (fields.LABELS) of an input: "commitments.monthly" →
    "commitment.monthly", a candidate's "tier" → "part.tier", a workload's "name" →
    "workload.name", an owned server's "count" → "owned.count"."""
    head = generic.split(".")[0]
    if key.startswith("commitments."):
        return "commitment." + key.split(".", 1)[1]
    if head == "candidates" and key in _PART_FIELDS:
        return f"part.{key}"
    if head == "workloads" and key == "name":
        return "workload.name"
    if head == "owned":
        last = key.rsplit(".", 1)[-1]
        return f"owned.{last}" if last in {"name", "count"} else last
    return key


def label_of(path: str, plan: Mapping[str, Any]) -> str:
    generic, indices = _where(path)
    key = _field(generic)
    label_key = _label_key(generic, key)
    label = str(
        fields.LABELS.get(label_key) or key.rsplit(".", 1)[-1].replace("_", " ").capitalize()
    )
    group = _group(generic, indices, plan)
    return f"{group} · {label}" if group else label


def value_text(
    path: str, value: Any, currency: str, language: str, tier_title: Callable[[str], str]
) -> str:
    """One input's value as the reader writes it."""
    if value in (None, ""):
        return formatting.DASH
    key = _field(_where(path)[0])
    if key in MONEY:
        return formatting.money(dec(value), currency, language)
    if key in SHARES:
        return formatting.percent(dec(value), _places(dec(value) * 100), language)
    if key in TIERS:
        return tier_title(str(value))
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, int | float | Decimal):
        number = formatting.number(value, _places(Decimal(str(value))), language)
        return f"{number} {fields.unit_text(UNITS[key])}" if key in UNITS else number
    return str(CHOICES.get(str(value), value))


def _places(value: Decimal) -> int:
    exponent = value.normalize().as_tuple().exponent
    return min(max(0, -exponent), 6) if isinstance(exponent, int) else 0


def input_rows(
    plans: Sequence[Mapping[str, Any]], language: str, tier_title: Callable[[str], str]
) -> list[InputRow]:
    """Every input any plan sets, one row each, values in the plans' order."""
    flat = [flatten(plan) for plan in plans]
    paths = list(dict.fromkeys(path for inputs in flat for path in inputs))
    rows = []
    for path in paths:
        raw = [inputs.get(path) for inputs in flat]
        if path == "name" or _unused_count(path, flat):
            continue  # the plan's name heads its column; a count without its tier says nothing
        if all(_nothing(v) for v in raw):
            continue  # nothing any plan entered (a zero default is nothing entered either)
        owner = next(plan for plan, v in zip(plans, raw, strict=True) if v not in (None, ""))
        values = [
            value_text(path, v, str(plan.get("currency") or ""), language, tier_title)
            for plan, v in zip(plans, raw, strict=True)
        ]
        rows.append(InputRow(label_of(path, owner), values))
    return rows


def _nothing(value: Any) -> bool:
    """Not entered: empty, zero, or a box not ticked."""
    if value in (None, "") or isinstance(value, bool):
        return not value
    try:
        return Decimal(str(value)) == 0
    except ArithmeticError:
        return False


def _unused_count(path: str, flat: Sequence[Mapping[str, Any]]) -> bool:
    """A baseline's or commitment's server count where no plan gives its tier."""
    if not path.endswith(".count") or not path.startswith("baseline"):
        return False
    tier = path[: -len("count")] + "tier"
    return all(inputs.get(tier) in (None, "") for inputs in flat)


def summary_rows(sides: Sequence[Results]) -> list[SummaryRow]:
    """Best option against best option, each plan against the first."""
    currencies = [s.currency for s in sides]
    rows = [("baseline_total", _("Baseline total"), [s.baseline_total for s in sides])]
    if all(s.best is not None for s in sides):
        best = [s.best for s in sides if s.best is not None]
        rows += [
            ("monthly", _("Monthly"), [b.monthly for b in best]),
            ("total", _("Total over the horizon"), [b.total for b in best]),
            ("saving", _("Saving"), [b.saving for b in best]),
        ]
    out = [_amounts(key, label, values, currencies) for key, label, values in rows]
    if len(rows) > 1:
        cells = [Cell(s.best.payback, s.currency) for s in sides if s.best is not None]
        out.append(SummaryRow("payback_month", _("Payback"), cells))
    return out


def _amounts(key: str, label: str, values: list[Decimal], currencies: list[str]) -> SummaryRow:
    first = values[0]
    cells = [
        Cell(v, c, None if i == 0 or c != currencies[0] else v - first)
        for i, (v, c) in enumerate(zip(values, currencies, strict=True))
    ]
    return SummaryRow(key, label, cells)


# --- the chart ---------------------------------------------------------------------------


def chart_data(names: Sequence[str], sides: Sequence[Results]) -> dict[str, Any] | None:
    """Each plan's cumulative cost: its best option (solid) and its baseline (dashed).

    None when the plans use different currencies: one axis cannot hold both.
    """
    currencies = {side.currency for side in sides}
    if len(currencies) != 1:
        return None
    series = []
    for name, side in zip(names, sides, strict=True):
        best = side.best
        series.append({
            "plan": name,
            "best": render(best.title) if best else "",
            "baseline": [_cents(v) for v in side.baseline_cumulative],
            "values": [_cents(v) for v in best.cumulative] if best else [],
            "payback_month": best.payback_month if best else None,
        })  # fmt: skip
    return {"currency": currencies.pop(), "plans": series}


def _cents(value: Any) -> float:
    return round(float(dec(value)), 2)
