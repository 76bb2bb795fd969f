"""What the dashboard shows, from the engine's comparison as plain data.

The answer's JSON (`Comparison.output()` dumped, or a share's frozen `results`) in; rows
for the results table, the headline's parts, and the three charts' data out. No request, no
database: the editor, the shared page, the compare page and the CSV exports all
read the same rows, so a figure never differs between them.

Money stays `Decimal` here (the engine's strings, exact to the cent); only the
chart data turns to floats, rounded to the cent.

Sentences (labels, notes, reasons, payback) come as the engine's messages, read back
from each object's `messages` list, so the pages say them in the reader's language
(`{{ note|message }}`). A share frozen before messages has none: its stored English
text stands in (`common.text`), except payback, which is rebuilt from its month.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from benchmarks_app.evidence import side_labels
from common.django.message_render import render
from common.messages import Message, Money, Number, Percent, ProfileRef, TierRef, msg, plain
from common.units import HOURS_PER_MONTH
from planner.compute.message_fields import MESSAGES, by_field
from planner.compute.tco import payback_message
from planner.web import bill_commitments

CHART_OPTIONS = 8  # bars in the monthly and capacity charts besides the baseline
CUMULATIVE_OPTIONS = 4  # lines in the cumulative chart besides the baseline


@dataclass
class PriceSource:
    tier: str
    name: str
    amount: Decimal
    unit: str
    currency: str
    effective_from: str | None
    source: str
    source_url: str
    confirmed: bool
    stale: bool
    fx_rate: float | None = None
    fx_date: str | None = None

    @property
    def effective_day(self) -> dt.date | None:
        """The price's date, for the page to show in the reader's format."""
        return _day(self.effective_from)

    @property
    def fx_day(self) -> dt.date | None:
        return _day(self.fx_date)


def _day(iso: str | None) -> dt.date | None:
    try:
        return dt.date.fromisoformat(iso) if iso else None
    except ValueError:
        return None


@dataclass
class Evidence:
    """Where one workload's capacity figure on one tier came from."""

    workload: str
    kind: str  # measured | predicted | estimate | none
    run_id: str = ""
    host: str = ""
    profile: str = ""
    scale: str = ""
    threads: int | None = None
    value: float | None = None
    unit: str = ""
    fit: str | None = None
    extrapolation: Message | None = None
    reason: Message | None = None
    factor: dict[str, Any] | None = None
    published: dict[str, Any] | None = None  # an estimate from published CPU scores
    # what its CPUs lack, said beside the basis: no public row (a nearest neighbour stands
    # in), only a family label
    cpu_notes: list[Message] = field(default_factory=list)


@dataclass
class Row:
    key: str
    label: str  # the title in English (the CSV exports say it so)
    title: Message  # the option as people tell it apart: tiers with provider and pricing model
    figure: str  # measured | estimate | entered
    servers: list[tuple[int, Message]]  # (count in month 1, the tier's title) per part
    usage: list[Message]
    monthly: Decimal  # the steady month after the months of running both (issue 21)
    one_time: Decimal
    one_time_items: dict[str, Decimal]
    total: Decimal
    saving: Decimal
    saving_pct: Decimal | None
    payback_month: int | None
    payback_label: str
    payback: Message
    fits_in_ram: bool | None
    prices: list[PriceSource]
    evidence: list[Evidence]
    notes: list[Message]
    best: bool = False
    npv: Decimal | None = None  # of switching; None in a share frozen before it was kept
    changed: bool = False  # the shared page: differs from the frozen figures
    transition: Decimal = Decimal(0)  # the months of running both, once (issue 21)
    # the switch's one-time costs it carries (keys of onetime.COSTS); None: a share frozen
    # before the rule (issue 21, item 2)
    one_time_costs: list[str] | None = None
    stays: bool | None = None  # on the baseline's provider and instance family
    # a fixed count against the work (issue 21, item 5): carries | cannot_carry |
    # not_checked, and its sentence; None: no workloads or no fixed count
    capacity: str | None = None
    capacity_said: Message | None = None
    owned: bool = False  # bought servers: no catalog price

    @property
    def one_time_costs_said(self) -> str:
        """What the one-time column says it carries ("" for a share frozen before)."""
        if self.one_time_costs is None:
            return ""
        if not self.one_time_costs:
            return _("no migration, running both or re-validation: it stays")
        return _("carries %(costs)s") % {"costs": one_time_costs_text(self.one_time_costs)}

    retired: bool = False  # the shared page: a tier it names is no longer offered
    # a cloud commitment on the baseline's instance (issue 27): its break-even, or spot's risk
    commitment: Message | None = None

    @property
    def dearer_by(self) -> Decimal:
        """How much more than the baseline it costs over the horizon (when it saves nothing)."""
        return -self.saving

    @property
    def server_count(self) -> int:
        return sum(count for count, _name in self.servers)


@dataclass
class NoNumber:
    """A tier without a figure, and why."""

    tier: str
    reasons: list[Message]
    title: str = ""  # as a reader knows the tier (`name_reasons`); empty: its key


@dataclass
class Results:
    currency: str
    as_of: dt.date | None
    horizon: int
    baseline_monthly: Decimal
    baseline_total: Decimal
    baseline_quoted: bool  # the manager's own figure (else a catalog tier's price)
    baseline_source: str  # the tier's key when priced from the catalog
    rows: list[Row]
    headline: dict[str, Any]
    not_entered: list[str]
    stays_on_gpu: list[dict[str, Any]]
    no_number: list[NoNumber]
    assumptions: list[dict[str, Any]]
    charts: dict[str, dict[str, Any]] = field(default_factory=dict)
    # Where the baseline came from when a bill gave it: the bill, its tier lines, the types
    # with no catalog tier and the trend, as messages (empty: no bill).
    baseline_bill: list[Message] = field(default_factory=list)
    commitments_missing: list[Message] = field(default_factory=list)  # slots with no rate
    # a bill baseline's commitments weighed against the bill (issue 27); None: no bill
    bill_commitments: bill_commitments.BillCommitments | None = None
    vs_bill_commitments: Message | None = None  # the best move against committing the bill

    @property
    def best(self) -> Row | None:
        """The cheapest option that can carry the work (issue 21: one that cannot never is)."""
        return self.rows[0] if self.rows and self.rows[0].best else None

    @property
    def vs_commitment(self) -> Message | None:
        """The best move weighed against the best cloud commitment (issue 27)."""
        moves = [r for r in self.rows if r.commitment is None]
        stays = [r for r in self.rows if r.commitment is not None]
        if not moves or not stays:
            return None
        move, stay = moves[0], stays[0]
        code = "engine.headline_move_beats_commitment"
        if stay.total <= move.total:
            code = "engine.headline_commitment_beats_move"
        return msg(code, move=move.title, commitment=stay.title, months=self.horizon,
                   difference=Money(abs(stay.total - move.total), self.currency))  # fmt: skip


def vs_bill_commitments(view: Results) -> Message | None:
    """The best move against staying and committing the bill's instances (issue 27)."""
    said = view.bill_commitments
    moves = [r for r in view.rows if r.commitment is None and r.capacity != "cannot_carry"]
    if said is None or said.saving is None or not said.tiers or not moves:
        return None
    move = moves[0]
    move_saving = view.baseline_monthly - move.monthly
    move_said = msg("bills.commitments.move_saves" if move_saving >= 0
                    else "bills.commitments.move_costs_more",
                    amount=Money(abs(move_saving), view.currency))  # fmt: skip
    commit_said = msg("bills.commitments.commit_saves" if said.saving >= 0
                      else "bills.commitments.commit_costs_more",
                      amount=Money(abs(said.saving), said.currency))  # fmt: skip
    return msg("bills.commitments.vs_move", move=move.title, move_said=move_said,
               commit_said=commit_said)  # fmt: skip


def dec(value: Any) -> Decimal:
    return Decimal(str(value)) if value not in (None, "") else Decimal(0)


def _price(part: Mapping[str, Any]) -> PriceSource:
    p = part["price"]
    return PriceSource(
        tier=part["tier"],
        name=part.get("name") or part["tier"],
        amount=dec(p.get("amount")),
        unit=p.get("unit") or "",
        currency=p.get("currency") or "",
        effective_from=p.get("effective_from"),
        source=p.get("source") or "",
        source_url=p.get("source_url") or "",
        confirmed=bool(p.get("confirmed")),
        stale=bool(p.get("stale")),
        fx_rate=p.get("fx_rate"),
        fx_date=p.get("fx_date"),
    )


class Said:
    """One object's sentences as messages, by field path, with the stored text as fallback."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.messages = by_field(data.get(MESSAGES))

    def __call__(self, path: str, text: Any) -> Message:
        found = self.messages.get(path)
        return found[0] if found else msg("common.text", text=str(text or ""))

    def maybe(self, path: str, text: Any) -> Message | None:
        return self(path, text) if text or path in self.messages else None

    def first(self, paths: Sequence[str], text: Any) -> Message:
        """The message of the first path that has one (a newer field, then an older one)."""
        for path in paths:
            if path in self.messages:
                return self.messages[path][0]
        return msg("common.text", text=str(text or ""))


def _evidence(part: Mapping[str, Any], said: Said, at: str) -> list[Evidence]:
    cap = part.get("capacity") or {}
    out = []
    for k, w in enumerate(cap.get("workloads") or []):
        basis = w.get("basis") or {}
        name = w.get("name") or w.get("kind", "")
        path = f"{at}.capacity.workloads[{k}].basis"
        if "none" in basis:
            out.append(Evidence(name, "none", reason=said(f"{path}.none", basis["none"])))
            continue
        factor = None
        if "estimate" in basis:
            factor = basis["estimate"].get("speed_factor")
            basis = basis["estimate"].get("reference") or {}
            path = f"{path}.estimate.reference"
        out.append(
            Evidence(
                workload=name,
                kind="estimate" if factor else basis.get("kind", "measured"),
                run_id=str(basis.get("run_id", "")),
                host=basis.get("host", ""),
                profile=basis.get("profile", ""),
                scale=basis.get("scale", ""),
                threads=basis.get("threads"),
                value=basis.get("value"),
                unit=basis.get("unit", ""),
                fit=basis.get("fit"),
                extrapolation=said.maybe(f"{path}.extrapolation", basis.get("extrapolation")),
                factor=factor,
                published=basis.get("published_estimate"),
                cpu_notes=side_labels(basis.get("published_estimate") or {}),
            )
        )
    return out


def _fits(parts: Sequence[Mapping[str, Any]]) -> bool | None:
    flags = [(p.get("capacity") or {}).get("fits_in_ram") for p in parts]
    known = [f for f in flags if f is not None]
    return all(known) if known else None


def _row(option: Mapping[str, Any]) -> Row:
    money = option["money"]
    parts = option.get("parts") or []
    monthly = money.get("monthly") or ["0"]
    said = Said(option)
    # A share frozen before titles has only the label: it still shows, as it was.
    title = said.first(["title", "label"], option.get("title") or option["label"])
    return Row(
        key=option["key"],
        label=plain(title),
        title=title,
        figure=option.get("figure", "entered"),
        servers=[
            (
                int((p.get("servers_by_month") or [0])[0]),
                said.first([f"parts[{j}].title"], p.get("name") or p["tier"]),
            )
            for j, p in enumerate(parts)
            if p.get("mode") != "usage"
        ],
        usage=[
            said(f"parts[{j}].usage_hours", p["usage_hours"])
            for j, p in enumerate(parts)
            if p.get("usage_hours")
        ],
        monthly=dec(money.get("steady_monthly") or monthly[0]),
        transition=dec(money.get("transition_cost") or "0"),
        one_time_costs=(option.get("one_time_costs") or {}).get("charged"),
        stays=(option.get("one_time_costs") or {}).get("stays"),
        capacity=(option.get("capacity_check") or {}).get("status"),
        capacity_said=said.maybe(
            "capacity_check.said", (option.get("capacity_check") or {}).get("said")
        ),
        one_time=dec(money["one_time"]),
        one_time_items={k: dec(v) for k, v in (option.get("one_time_items") or {}).items()},
        total=dec(money["total"]),
        saving=dec(money["saving"]),
        saving_pct=dec(money["saving_pct"]) if money.get("saving_pct") is not None else None,
        payback_month=money.get("payback_month"),
        payback_label=money.get("payback_label") or "never",
        payback=_payback(said, money),
        fits_in_ram=_fits(parts),
        prices=[_price(p) for p in parts if p.get("price")],
        evidence=[e for j, p in enumerate(parts) for e in _evidence(p, said, f"parts[{j}]")],
        notes=[said(f"notes[{i}]", note) for i, note in enumerate(option.get("notes") or [])],
        npv=dec(money["npv"]) if money.get("npv") is not None else None,
        commitment=said("commitment.summary", option["commitment"].get("summary"))
        if option.get("commitment")
        else None,
    )


def _payback(said: Said, money: Mapping[str, Any]) -> Message:
    """When the option pays back; a share frozen before messages rebuilds it from the figures."""
    if "money.payback_label" in said.messages:
        return said("money.payback_label", "")
    return payback_message(money.get("payback_month"), dec(money.get("one_time")),
                           money.get("payback_label"), len(money.get("monthly") or ()))  # fmt: skip


def _no_number(entry: Mapping[str, Any]) -> NoNumber:
    said = Said(entry)
    if "reasons" in entry:
        reasons = [said(f"reasons[{i}]", r) for i, r in enumerate(entry["reasons"] or [])]
    else:
        reasons = [said("reason", entry.get("reason"))]
    return NoNumber(str(entry.get("tier", "")), reasons)


def results(comparison: Mapping[str, Any]) -> Results:
    """The comparison as the dashboard reads it: rows sorted by total cost, cheapest first."""
    rows = sorted((_row(o) for o in comparison.get("options") or []),
                  key=lambda r: (r.capacity == "cannot_carry", r.total))  # fmt: skip
    if rows and rows[0].capacity != "cannot_carry":
        rows[0].best = True
    bought = (comparison.get("plan") or {}).get("owned") or []
    for row in rows:  # an owned option's servers: the count the plan buys (issue 21)
        if row.key.startswith("owned:") and not row.servers:
            index = int(row.key.split(":", 1)[1])
            if index < len(bought):
                row.owned = True
                row.servers = [(int(bought[index].get("count") or 1), row.title)]
    baseline = comparison["baseline"]
    headline = dict(comparison.get("headline") or {})
    out = Results(
        currency=comparison["currency"],
        as_of=dt.date.fromisoformat(comparison["as_of"]) if comparison.get("as_of") else None,
        horizon=len(baseline.get("monthly") or []),
        baseline_monthly=dec((baseline.get("monthly") or ["0"])[0]),
        baseline_total=dec(baseline.get("total")),
        baseline_quoted="quoted_monthly" in baseline,
        baseline_source=str(baseline.get("tier") or ""),
        rows=rows,
        headline=headline,
        not_entered=list(headline.get("not_entered") or []),
        stays_on_gpu=list(comparison.get("stays_on_gpu") or []),
        no_number=[_no_number(n) for n in comparison.get("no_number") or []],
        assumptions=list(comparison.get("assumptions") or []),
        commitments_missing=[
            Said(m)("reason", m.get("reason")) for m in comparison.get("commitments_missing") or []
        ],
    )
    out.charts = chart_data(comparison, rows)
    out.baseline_bill = bill_lines((baseline.get("provenance") or {}).get("bill"))
    if out.baseline_bill:  # issue 25: the options sized to the bill's machines
        out.baseline_bill += matched_lines(baseline.get("matched"))
    out.bill_commitments = bill_commitments.view(comparison.get("bill_commitments"))
    out.vs_bill_commitments = vs_bill_commitments(out)
    return out


BILL_LINES_SHOWN = 8  # instance-type lines the marker names; the rest counted


def bill_lines(said: Mapping[str, Any] | None) -> list[Message]:
    """The bill a baseline was taken from, as the plan page's provenance marker says it."""
    if not said:
        return []
    if said.get("deleted"):
        return [msg("bills.plan.deleted", bill=said["bill"])]
    cur = str(said["currency"])

    def money(value: Any) -> Money:
        return Money(dec(value), cur)

    if said.get("shared") and "period_end" not in said:  # a share the owner kept private
        return [msg("bills.plan.baseline_private", monthly=money(said["monthly"]))]
    end = dt.date.fromisoformat(said["period_end"]) - dt.timedelta(days=1)
    if said.get("shared") and "name" not in said:  # a share frozen before issue 25's choice
        return [msg("bills.plan.baseline_shared", kind=said["kind"],
                    start=dt.date.fromisoformat(said["period_start"]), end=end,
                    lines=int(said["lines"]), monthly=money(said["monthly"]))]  # fmt: skip
    out = [msg("bills.plan.baseline", name=said["name"], kind=said["kind"],
               start=dt.date.fromisoformat(said["period_start"]), end=end,
               lines=int(said["lines"]), monthly=money(said["monthly"]))]  # fmt: skip
    # The dearest lines first, matched or not; the rest counted (the API lists them all).
    lines = [(line, True) for line in said.get("tiers") or []]
    lines += [(line, False) for line in said.get("unmatched") or []]
    lines.sort(key=lambda entry: -dec(entry[0]["monthly"]))
    for line, matched in lines[:BILL_LINES_SHOWN]:
        if matched:
            machines = dec(line["hours_a_month"]) / HOURS_PER_MONTH  # the count, unrounded
            out.append(msg("bills.plan.tier_line", count=Number(machines, 3),
                           instance_type=line["instance_type"], region=line["region"],
                           hours=Number(dec(line["hours_a_month"])),
                           monthly=money(line["monthly"])))  # fmt: skip
        else:
            out.append(msg("bills.plan.unmatched", instance_type=line["instance_type"],
                           region=line["region"], provider=line["provider"],
                           monthly=money(line["monthly"])))  # fmt: skip
    if len(lines) > BILL_LINES_SHOWN:
        rest = lines[BILL_LINES_SHOWN:]
        out.append(msg("bills.plan.more_lines", count=len(rest),
                       monthly=money(sum(dec(line["monthly"]) for line, _m in rest))))  # fmt: skip
    if (seen := said.get("trend")) and seen.get("growth") is not None:
        out.append(msg("bills.plan.growth", growth=Percent(dec(seen["growth"]), 2),
                       first=seen["first"], last=seen["last"]))  # fmt: skip
    return out


def matched_lines(said: Mapping[str, Any] | None) -> list[Message]:
    """The matched sizing (`baseline.matched`) as the baseline's marker says it."""
    if not said:
        return []
    if said.get("capacity") is None:
        missing = [t for t in said.get("missing") or [] if t]
        if not missing:
            return [msg("matched.no_tiers")]
        return [msg("matched.no_capacity", tiers=", ".join(missing))]
    return [msg("bills.plan.matched", capacity=Number(dec(said["capacity"]), 2))]


def tier_titles(comparison: Mapping[str, Any]) -> dict[str, str]:
    """{tier key: its title in the reader's language} for each tier the options name."""
    out: dict[str, str] = {}
    for option in comparison.get("options") or []:
        said = Said(option)
        for j, part in enumerate(option.get("parts") or []):
            title = said.first([f"parts[{j}].title"], part.get("name") or part["tier"])
            out.setdefault(part["tier"], render(title))
    return out


# --- reasons in the reader's words ------------------------------------------------------


@dataclass(frozen=True)
class Names:
    """How a reader knows what the engine's messages name by key, in the reader's language."""

    tiers: Callable[[str], str]  # tier key → title ("AWS c5.4xlarge · spot"); the key if unknown
    profiles: Mapping[str, str]  # profile name → title ("XGBoost hist training")
    classes: Mapping[str, str]  # workload class or kind → label ("gradient boosting")
    workloads: Mapping[str, str]  # workload kind → the editor's title ("CPU inference")


# The capacity model calls a workload the plan left unnamed "<kind> #<position>".
_NUMBERED = re.compile(r"^([a-z_]+) #(\d+)$")
_CLASS_PARAMS = ("class", "kind")  # parameters that hold a workload class or kind


def named(message: Message, names: Names) -> Message:
    """The message with every tier, profile, workload class and unnamed workload it names
    by key said by name instead: the same code, its parameters rewritten, however deep."""
    params = {key: _named(value, names) for key, value in message.params.items()}
    for key in _CLASS_PARAMS:
        value = params.get(key)
        if isinstance(value, str):  # a class ("gbm"), quoted or not, or a pinned profile
            said = names.classes.get(value.strip("'")) or names.profiles.get(value.strip("'"))
            params[key] = said or value
    if message.code == "capacity.workload_reason" and isinstance(params.get("workload"), str):
        params["workload"] = _workload(params["workload"], names)
    return Message(message.code, params)


def _named(value: Any, names: Names) -> Any:
    match value:
        case Message():
            return named(value, names)
        case TierRef(slug, name) if not name:
            title = names.tiers(slug)
            return TierRef(slug, title if title != slug else "")
        case ProfileRef(name, _version, title) if not title and name in names.profiles:
            return replace(value, title=names.profiles[name])
        case list() | tuple():
            return [_named(v, names) for v in value]
    return value


def _workload(name: str, names: Names) -> Message | str:
    """ "inference #2" → "CPU inference #2"; a name the manager gave stays as given."""
    match = _NUMBERED.match(name)
    if match is None or match.group(1) not in names.workloads:
        return name
    return msg("engine.workload_numbered", kind=names.workloads[match.group(1)],
               n=int(match.group(2)))  # fmt: skip


def name_reasons(view: Results, names: Names) -> None:
    """Say the reasons a tier has no figure (and each missing measurement) by the names a
    reader knows: tier titles, profile titles, workload classes, never their keys."""
    for entry in view.no_number:
        entry.title = names.tiers(entry.tier)
        entry.reasons = [named(reason, names) for reason in entry.reasons]
    for row in view.rows:
        for evidence in row.evidence:
            if evidence.reason is not None:
                evidence.reason = named(evidence.reason, names)
            workload = _workload(evidence.workload, names)
            evidence.workload = render(workload) if isinstance(workload, Message) else workload


def mark_changes(frozen: Results, today: Results, retired: set[str]) -> None:
    """Flag today's rows whose figures moved since the snapshot, and rows on retired tiers."""
    before = {row.key: row for row in frozen.rows}
    for row in today.rows:
        then = before.get(row.key)
        row.changed = then is None or (then.monthly, then.total) != (row.monthly, row.total)
    for row in [*frozen.rows, *today.rows]:
        row.retired = any(p.tier in retired for p in row.prices)


ONE_TIME_COST_NAMES = {
    "migration": gettext_lazy("migration"),
    "running_both": gettext_lazy("running both"),
    "retraining": gettext_lazy("re-validation"),
}


def one_time_costs_text(charged: list[str]) -> str:
    """The switch's one-time costs an option carries, in the reader's language."""
    return ", ".join(str(ONE_TIME_COST_NAMES.get(c, c)) for c in charged)


def not_entered_text(item: str) -> str:
    """A one-time cost the plan has not entered yet, by the schema's key."""
    known = {
        "migration": _("migration work"),
        "running both": _("running both systems side by side"),
        "retraining": _("retraining and re-validating models"),
    }
    return known.get(item, item)


# --- chart data ------------------------------------------------------------------------------


def _cents(value: Any) -> float:
    return round(float(dec(value)), 2)


def _unit_monthly(price: PriceSource) -> Decimal:
    monthly = price.amount * (HOURS_PER_MONTH if price.unit == "hour" else 1)
    return monthly * Decimal(str(price.fx_rate or 1))


def _servers_cost(option: Mapping[str, Any]) -> Decimal:
    total = Decimal(0)
    for part in option.get("parts") or []:
        if part.get("mode") == "usage" or not part.get("price"):
            continue
        count = (part.get("servers_by_month") or [0])[0]
        total += _unit_monthly(_price(part)) * count
    return total


def chart_data(comparison: Mapping[str, Any], rows: Sequence[Row]) -> dict[str, dict[str, Any]]:
    """The three charts' inputs: JSON-able, so each has a content hash."""
    currency = comparison["currency"]
    baseline = comparison["baseline"]
    cumulative = baseline.get("cumulative") or []
    by_key = {o["key"]: o for o in comparison.get("options") or []}
    ordered = [by_key[r.key] for r in rows]
    titles = [render(r.title) for r in rows[:CHART_OPTIONS]]  # in the active language
    horizon = max(len(cumulative) - 1, 1)
    out: dict[str, dict[str, Any]] = {
        "cumulative": {
            "currency": currency,
            "months": list(range(len(cumulative))),
            "baseline": [_cents(v) for v in cumulative],
            "options": [
                {
                    "label": title,
                    "values": [_cents(v) for v in o["money"]["cumulative"]],
                    "payback_month": o["money"].get("payback_month"),
                }
                for o, title in zip(ordered[:CUMULATIVE_OPTIONS], titles, strict=False)
            ],
        },
    }
    base_monthly = dec((baseline.get("monthly") or ["0"])[0])
    bars = [
        {"label": _("Baseline (today)"), "servers": _cents(base_monthly), "operations": 0.0,
         "one_time": 0.0}
    ]  # fmt: skip
    for o, title in zip(ordered[:CHART_OPTIONS], titles, strict=False):
        # The steady month after running both (issue 21); those months apart, once.
        money = o["money"]
        monthly = dec(money.get("steady_monthly") or (money.get("monthly") or ["0"])[0])
        servers = min(_servers_cost(o), monthly)
        stays = (o.get("one_time_costs") or {}).get("charged") == []
        label = _("%(option)s (stays: no migration)") % {"option": title} if stays else title
        bars.append(
            {
                "label": label,
                "servers": _cents(servers),
                "operations": _cents(monthly - servers),
                "one_time": _cents(dec(money["one_time"]) / horizon),
                "transition": _cents(dec(money.get("transition_cost") or "0") / horizon),
            }
        )
    out["monthly"] = {"currency": currency, "bars": bars, "more": _more(len(rows))}
    capacity_bars = [
        b for o, title in zip(ordered[:CHART_OPTIONS], titles, strict=False)
        if (b := _capacity_bar(o, title))
    ]  # fmt: skip
    if capacity_bars:
        target = (comparison.get("plan") or {}).get("utilisation_target")
        out["capacity"] = {
            "utilisation_target": float(target) if target is not None else None,
            "bars": capacity_bars,
        }
    return out


def _more(options: int) -> str:
    """ "3 more options in the table": what the bar charts leave out, said under their bars."""
    rest = options - CHART_OPTIONS
    if rest <= 0:
        return ""
    return ngettext(
        "%(count)s more option in the table", "%(count)s more options in the table", rest
    ) % {"count": rest}


def _capacity_bar(option: Mapping[str, Any], title: str) -> dict[str, Any] | None:
    threads_have = threads_need = memory_have = memory_need = 0.0
    sized = False
    for part in option.get("parts") or []:
        cap = part.get("capacity")
        if not cap or cap.get("servers") is None:
            continue
        count = (part.get("servers_by_month") or [0])[0]
        if cap.get("threads_per_server"):
            threads_have += count * float(cap["threads_per_server"])
            threads_need += float(cap.get("threads_needed") or 0)
        if cap.get("ram_gib"):
            memory_have += count * float(cap["ram_gib"])
            memory_need += float(cap.get("memory_need_gib") or 0)
        sized = sized or bool(cap.get("workloads"))
    if not sized or not threads_have:
        return None
    return {
        "label": title,
        "threads_pct": round(100 * threads_need / threads_have, 1),
        "memory_pct": round(100 * memory_need / memory_have, 1) if memory_have else None,
    }
