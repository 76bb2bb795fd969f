"""Where each figure of a comparison comes from: the answer's `provenance` fields.

The engine puts a price row on every part and a measurement basis on every sized
workload. This service fills the answer's `provenance` fields with them where the figures
are: each option, its capacity, the baseline (with a bill, read here), the headline,
price/performance rows and exchange rates (their rows, read here), so a reader (or the
API's provenance test) finds the source of any number by walking up to the nearest object
with a "provenance" (or "price"/"basis").
"""

from __future__ import annotations

from collections.abc import Set
from decimal import Decimal
from typing import Any

from django.db import models
from pydantic import BaseModel

from catalog.models import ExchangeRate
from changes.selectors import Generation
from planner.compute.answer import Answer, Option, constructed
from planner.compute.answer_bill import BillCommitments
from planner.compute.answer_parts import (
    Baseline,
    BaselineSources,
    CapacityProvenance,
    Fx,
    OptionProvenance,
    OptionRef,
    PriceRow,
    RateRow,
)
from planner.compute.message_fields import split
from planner.services.bills import bill_provenance

ONE_TIME_INPUTS = {
    "migration": ["one_time.migration_hours", "one_time.migration_rate"],
    "retraining": ["one_time.retraining"],
    "other": ["one_time.other"],
}


def with_provenance(
    answer: Answer,
    generation: Generation | None = None,
    bill_commitments: BillCommitments | None = None,
) -> Answer:
    """`answer` with the sources of its figures (the exchange-rate rows in one query;
    `generation` is the one the figures were computed at) and, for a bill baseline, its
    commitments (`bill_commitments`). The engine's parts the answer shares with its
    comparison (the baseline, the headline, the rows, the capacities) are copied, never
    changed."""
    plan = answer.plan
    baseline = answer.baseline
    carried = _baseline_carried(plan, baseline)
    bases: dict[int, tuple[dict, dict]] = {}  # a basis's plain form, by the basis
    options = [_option_provenance(option, plan, carried, bases) for option in answer.options]
    headline = _with(
        answer.headline,
        provenance=OptionRef(option=best) if (best := answer.headline.best) else OptionRef(),
    )
    prices = {p.tier: p.price for o in options for p in o.parts}
    rows = [
        _with(row, price=prices[row.tier]) if row.tier in prices else row
        for row in answer.price_performance
    ]
    update: dict[str, Any] = {
        "baseline": _with(baseline, provenance=_baseline_provenance(baseline, plan)),
        "headline": headline,
        "options": options,
        "price_performance": rows,
        "fx": _fx_provenance(answer.fx, generation),
    }
    if bill_commitments is not None:
        update["bill_commitments"] = bill_commitments
    return answer.model_copy(update=update)


def _with[M: BaseModel](model: M, **update: Any) -> M:
    """`model.model_copy(update=update)` (the same fields, in their order, and the same
    fields set) made through `answer.constructed`: a capacity for each shown option's part
    and the rows of their tiers, copied (pydantic's copy was ~0.5 ms of an answer at 2,018
    tiers, bench, CPU). For the answer's models, which keep no private or extra fields."""
    return constructed(
        type(model), {**model.__dict__, **update}, model.model_fields_set | update.keys()
    )


def _bases(capacity_result: Any, kept: dict[int, tuple[dict, dict]]) -> tuple[list, list]:
    """A capacity's measured runs and estimates, as plain data (sentences as their text).
    `kept`: each basis said once for the answer, by the basis (kept beside: its id holds),
    its plain form shared by the options whose tiers rest on it (a large catalog's shown
    tiers share a few: an estimate's reference, a CPU model's published scores)."""
    runs, estimates = [], []
    for workload in capacity_result.workloads if capacity_result is not None else []:
        given = workload.basis or {}
        said = kept.get(id(given))
        if said is None:
            said = kept[id(given)] = (split(given)[0], given)
        basis = said[0]
        if "run_id" in basis:
            runs.append(basis)
        elif "estimate" in basis:
            estimates.append(basis["estimate"])
    return runs, estimates


def _baseline_carried(plan: dict[str, Any], baseline: Baseline) -> tuple[list[str], list[PriceRow]]:
    """What of today's spend an option's months carry: the whole baseline during the months
    of running both, and the commitments until they run out (the engine's `shared_monthly`).
    Their entered fields and price rows are inputs of the option as much as of the baseline.
    """
    given = plan["baseline"]
    entered: list[str] = []
    prices: list[PriceRow] = []
    both = (plan.get("one_time") or {}).get("running_both_months") or 0
    if both:
        entered.append("one_time.running_both_months")
        if given.get("monthly") is not None:
            entered.append("baseline.monthly")
        elif baseline.price is not None:
            entered.append("baseline.count")
            prices.append(baseline.price)
    for i, commitment in enumerate(given.get("commitments") or []):
        entered.append(f"baseline.commitments[{i}].months_remaining")
        if commitment.get("monthly") is not None:
            entered.append(f"baseline.commitments[{i}].monthly")
        else:
            entered.append(f"baseline.commitments[{i}].count")
            prices += [c.price for c in baseline.commitment_prices or [] if c.index == i]
    return entered, prices


OWNED_INPUTS = ("count", "purchase_price", "setup", "depreciation_years", "resale", "watts",
                "pue", "kwh_price", "colocation_monthly", "support_share", "spares_monthly",
                "financing", "resale_percent", "loan_annual_rate", "loan_months")  # fmt: skip


def _owned_entered(option: Option, plan: dict[str, Any]) -> list[str]:
    """An owned server's option rests on its own fields (the defaults among them carry their
    source in the comparison's assumptions)."""
    if not option.key.startswith("owned:"):
        return []
    index = int(option.key.split(":", 1)[1])
    given = (plan.get("owned") or [])[index]
    return [f"owned[{index}].{name}" for name in OWNED_INPUTS if given.get(name) is not None]


def _option_provenance(
    option: Option,
    plan: dict[str, Any],
    carried: tuple[list[str], list[PriceRow]],
    bases: dict[int, tuple[dict, dict]],
) -> Option:
    """The option (its own, fresh from `Comparison.output`, its parts too) with its sources
    and its capacities' (each capacity copied: the capacity table built it, and the engine's
    comparison holds it too). `carried`: `_baseline_carried`'s, the same for every option."""
    runs: list[dict] = []
    estimates: list[dict] = []
    for part in option.parts:
        cap = part.capacity
        part_runs, part_estimates = _bases(cap, bases)
        if cap is not None:
            sources = constructed(
                CapacityProvenance,
                {"tier": part.tier, "runs": part_runs, "estimates": part_estimates},
                _CAPACITY_SOURCES,
            )
            part.capacity = _with(cap, provenance=sources)
        if part.mode == "sized":
            runs += part_runs
            estimates += part_estimates
    entered = []
    for item, amount in option.one_time_items.items():
        if item in ONE_TIME_INPUTS and Decimal(amount):
            entered += ONE_TIME_INPUTS[item]
    monthly = plan.get("monthly") or {}
    entered += [f"monthly.{k}" for k in ("egress", "other") if Decimal(monthly.get(k) or 0)]
    entered += carried[0]
    entered += _owned_entered(option, plan)
    option.provenance = constructed(
        OptionProvenance,
        {"prices": [part.price for part in option.parts] + carried[1], "runs": runs,
         "estimates": estimates, "entered": entered},
        _OPTION_SOURCES,
    )  # fmt: skip
    return option


# `model_construct`'s fields set of the two (every field given, in their order above)
_CAPACITY_SOURCES = tuple(CapacityProvenance.model_fields)
_OPTION_SOURCES = tuple(OptionProvenance.model_fields)


def _baseline_provenance(baseline: Baseline, plan: dict[str, Any]) -> BaselineSources:
    given = plan["baseline"]
    entered = ["baseline.monthly"] if given.get("monthly") is not None else []
    prices = [baseline.price] if baseline.price is not None else []
    prices += [c.price for c in baseline.commitment_prices or []]
    for i, commitment in enumerate(given.get("commitments") or []):
        if commitment.get("monthly") is not None:
            entered.append(f"baseline.commitments[{i}].monthly")
    if (bill := bill_provenance(given.get("bill"))) is None:
        return BaselineSources.model_construct(prices=prices, entered=entered)
    # the bill, its period and lines: the monthly's source
    if not bill.get("deleted") and given.get("monthly") == bill["monthly"]:
        entered = [e for e in entered if e != "baseline.monthly"]
    return BaselineSources.model_construct(prices=prices, entered=entered, bill=bill)


def _fx_provenance(rates: list[Fx], generation: Generation | None) -> list[Fx]:
    """Each exchange rate the prices were converted at, with its rows: one query for all.
    Not kept in this process: bench/memo_pays.py measured 0.4-0.5 ms a read (2,018 and
    20,000 tiers), and it is read only when an answer is computed, not served from cache."""
    found = _rate_rows(frozenset((entry.date, entry.into) for entry in rates))
    row = RateRow.model_construct
    return [
        entry.model_copy(update={"rows": [
            row(rate_id=r["rate_id"], from_=r["from"], to=r["to"], rate=r["rate"],
                date=r["date"], source=r["source"])
            for r in found.get((entry.date, entry.into), [])
        ]})
        for entry in rates
    ]  # fmt: skip


def _rate_rows(wanted: Set[tuple[str | None, str]]) -> dict[tuple[str, str], list[dict]]:
    pairs = {(date, currency) for date, currency in wanted if date is not None}
    if not pairs:
        return {}
    either = models.Q()
    for currency in {currency for _date, currency in pairs}:
        either |= models.Q(to_currency=currency) | models.Q(from_currency=currency)
    rows = ExchangeRate.objects.filter(either, date__in={date for date, _c in pairs})
    found: dict[tuple[str, str], list[dict]] = {}
    for row in rows:
        day = row.date.isoformat()
        for currency in (row.to_currency, row.from_currency):
            if (day, currency) in pairs:
                found.setdefault((day, currency), []).append(_rate_row(row))
    return found


def _rate_row(row: ExchangeRate) -> dict[str, Any]:
    return {
        "rate_id": row.pk,
        "from": row.from_currency,
        "to": row.to_currency,
        "rate": str(row.rate),
        "date": row.date.isoformat(),
        "source": row.source,
    }
