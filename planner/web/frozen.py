"""A share's frozen answer (its snapshot's `results`: the answer's JSON as it was stored,
possibly by an older version) read into the dashboard's view.

Transitional: the live pages read the answer's model (`dashboard.results`); a stored
answer is JSON, read here by its fields and its objects' `messages` lists until
`Answer.read` rebuilds the model from it (then this module is `dashboard.results` of
that). A share frozen before messages has none: its stored English text stands in
(`common.text`), except payback, which is rebuilt from its month.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from common.django.message_render import render
from common.messages import Message, msg, plain
from planner.compute.answer import Headline
from planner.compute.message_fields import MESSAGES, by_field
from planner.compute.tco import payback_message
from planner.web.dashboard import (
    Evidence,
    NoNumber,
    PriceSource,
    Results,
    Row,
    Use,
    dec,
    evidence_of,
    finish,
    servers_monthly,
)


def price_source(tier: str, name: str, p: Mapping[str, Any]) -> PriceSource:
    return PriceSource(
        tier=tier,
        name=name or tier,
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
        reason = said(f"{path}.none", basis["none"]) if "none" in basis else None
        found = evidence_of(name, basis, reason)
        if "none" not in basis:
            inner = f"{path}.estimate.reference" if "estimate" in basis else path
            reference = (basis.get("estimate") or {}).get("reference") or basis
            found.extrapolation = said.maybe(
                f"{inner}.extrapolation", reference.get("extrapolation")
            )
        out.append(found)
    return out


def _use(parts: Sequence[Mapping[str, Any]]) -> Use | None:
    threads_have = threads_need = memory_have = memory_need = 0.0
    sized = False
    for part in parts:
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
    return Use(threads_have, threads_need, memory_have, memory_need)


def _row(option: Mapping[str, Any]) -> Row:
    money = option["money"]
    parts = option.get("parts") or []
    monthly = money.get("monthly") or ["0"]
    said = Said(option)
    # A share frozen before titles has only the label: it still shows, as it was.
    title = said.first(["title", "label"], option.get("title") or option["label"])
    priced = [
        (p, price_source(p["tier"], p.get("name") or p["tier"], p["price"]))
        for p in parts
        if p.get("price")
    ]
    flags = [(p.get("capacity") or {}).get("fits_in_ram") for p in parts]
    known = [f for f in flags if f is not None]
    costs = option.get("one_time_costs") or {}
    check = option.get("capacity_check") or {}
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
        one_time_costs=costs.get("charged"),
        stays=costs.get("stays"),
        capacity=check.get("status"),
        capacity_said=said.maybe("capacity_check.said", check.get("said")),
        one_time=dec(money["one_time"]),
        one_time_items={k: dec(v) for k, v in (option.get("one_time_items") or {}).items()},
        total=dec(money["total"]),
        saving=dec(money["saving"]),
        saving_pct=dec(money["saving_pct"]) if money.get("saving_pct") is not None else None,
        payback_month=money.get("payback_month"),
        payback_label=money.get("payback_label") or "never",
        payback=_payback(said, money),
        fits_in_ram=all(known) if known else None,
        prices=[price for _p, price in priced],
        evidence=[e for j, p in enumerate(parts) for e in _evidence(p, said, f"parts[{j}]")],
        notes=[said(f"notes[{i}]", note) for i, note in enumerate(option.get("notes") or [])],
        npv=dec(money["npv"]) if money.get("npv") is not None else None,
        commitment=said("commitment.summary", option["commitment"].get("summary"))
        if option.get("commitment")
        else None,
        cumulative=[dec(v) for v in money.get("cumulative") or []],
        servers_monthly=servers_monthly(
            [
                (price, (p.get("servers_by_month") or [0])[0])
                for p, price in priced
                if p.get("mode") != "usage"
            ]
        ),
        use=_use(parts),
        fixed=any(p.get("mode") == "fixed" for p in parts),
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
    """A frozen answer as the dashboard reads it (`dashboard.results` of a live one)."""
    baseline = comparison["baseline"]
    headline = comparison.get("headline") or {}
    view = Results(
        currency=comparison["currency"],
        as_of=dt.date.fromisoformat(comparison["as_of"]) if comparison.get("as_of") else None,
        horizon=len(baseline.get("monthly") or []),
        baseline_monthly=dec((baseline.get("monthly") or ["0"])[0]),
        baseline_total=dec(baseline.get("total")),
        baseline_quoted="quoted_monthly" in baseline,
        baseline_source=str(baseline.get("tier") or ""),
        rows=[_row(o) for o in comparison.get("options") or []],
        headline=Headline.model_construct(  # the figures the page reads of it
            best=headline.get("best"),
            saving_per_month=_amount(headline.get("saving_per_month")),
            saving_per_year=_amount(headline.get("saving_per_year")),
            not_entered=list(headline.get("not_entered") or []),
        ),
        not_entered=list(headline.get("not_entered") or []),
        stays_on_gpu=list(comparison.get("stays_on_gpu") or []),
        no_number=[_no_number(n) for n in comparison.get("no_number") or []],
        assumptions=list(comparison.get("assumptions") or []),
        commitments_missing=[
            Said(m)("reason", m.get("reason")) for m in comparison.get("commitments_missing") or []
        ],
        baseline_cumulative=[dec(v) for v in baseline.get("cumulative") or []],
        utilisation_target=_float((comparison.get("plan") or {}).get("utilisation_target")),
    )
    bill = (baseline.get("provenance") or {}).get("bill")
    plan = comparison.get("plan") or {}
    return finish(view, plan, bill, baseline.get("matched"), comparison.get("bill_commitments"))


def _amount(value: Any) -> Decimal | None:
    return dec(value) if value not in (None, "") else None


def _float(value: Any) -> float | None:
    return float(value) if value is not None else None


def tier_titles(comparison: Mapping[str, Any]) -> dict[str, str]:
    """{tier key: its title in the reader's language} for each tier the options name."""
    out: dict[str, str] = {}
    for option in comparison.get("options") or []:
        said = Said(option)
        for j, part in enumerate(option.get("parts") or []):
            title = said.first([f"parts[{j}].title"], part.get("name") or part["tier"])
            out.setdefault(part["tier"], render(title))
    return out
