"""The cloud's commitments for a baseline taken from a bill (issue 27, items 4 and 5).

`for_plan` reads the plan's bill through `bills.chosen_baseline` (the bill's matched
instance types: tier, machine count, effective cost a month), how much of each type's
cost the bill already had under a commitment or on spot (`bills.selectors.cost_by_pricing`),
the commitment slots of each tier's instance from the plan's catalog frame
(`catalog.commitments.alternatives`) and hands them to the pure weighing
(`planner.compute.bill_commitments`). `summary_of` is the one adapter to the bill's own
commitment figures (`bills.commitments.bill_commitment_summary`, as the bill page keeps
them: `bills.page.commitments`).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from bills import page as bill_page
from bills.baseline import hours_per_unit
from bills.models import Bill
from bills.selectors import cost_by_pricing
from catalog import commitments as cloud_commitments
from common.messages import Message, TierRef, msg
from planner.compute import bill_commitments as weighing
from planner.compute import engine, schema
from planner.compute.answer_bill import BillCommitments
from planner.services.bills import FILTERS, chosen_baseline


@dataclass(frozen=True)
class Today:
    """The bill's own commitment figures as the weighing reads them (`weighing.SUMMARY`)."""

    utilisation: Decimal | None
    coverage: Decimal | None
    unused: Decimal | None
    negotiated_savings: Decimal | None
    commitment_savings: Decimal | None
    reason: str | None  # why the first figure that is None is None (a `bills.commitments` code)


# `Summary` field → the answer's name, in the order the first reason is taken from.
_FIELDS = {"utilisation": "utilisation", "coverage": "coverage", "unused": "unused",
           "negotiated": "negotiated_savings", "commitment": "commitment_savings"}  # fmt: skip


def summary_of(bill: Bill) -> Today:
    """The bill's own commitment figures (utilisation, coverage, unused spend, negotiated
    and commitment savings, why one is missing), the same the bill page shows: its kept
    figures' `commitments` (`bills.page.commitments`, over the page's last twelve months,
    by `bills.commitments.bill_commitment_summary`)."""
    found = bill_page.commitments(bill)
    reasons = found.get("reasons") or {}
    values = {ours: None if found.get(theirs) is None else Decimal(found[theirs])
              for theirs, ours in _FIELDS.items()}  # fmt: skip
    reason = next((reasons[name] for name in _FIELDS if name in reasons), None)
    return Today(**values, reason=reason)


def _said(prices: engine.Prices, slug: str) -> TierRef | Message:
    name = prices.name(slug)
    provider = str(prices.get(slug, "provider") or "")
    tier = TierRef(slug, name)
    if provider and not name.lower().startswith(provider.lower()):
        return msg("engine.tier_of_provider", provider=provider, tier=tier)
    return tier


def slot_prices(prices: engine.Prices, slug: str) -> list[weighing.SlotPrice]:
    """The commitment slots of `slug`'s instance, each priced per machine (none made up)."""
    out = []
    for alt in cloud_commitments.alternatives(prices.frame, slug):
        if alt.slug is None or alt.slug not in prices:
            reason = alt.missing or prices.missing_reason(str(alt.slug))
            out.append(weighing.SlotPrice(alt.group, alt.years, None, missing=reason))
            continue
        term = int(prices.get(alt.slug, "min_term_months") or 12 * alt.years)
        out.append(weighing.SlotPrice(
            alt.group, alt.years, alt.slug, alt.pricing_model, _said(prices, alt.slug),
            monthly=prices.monthly(alt.slug), upfront=prices.setup(alt.slug), term_months=term,
            price=prices.provenance(alt.slug),
        ))  # fmt: skip
    return out


def for_plan(plan: schema.Plan, prices: engine.Prices | None) -> BillCommitments | None:
    """`bill_commitments` of the answer: None for a plan whose baseline is no bill."""
    choice = plan.baseline.bill
    if choice is None or prices is None:
        return None
    bill = Bill.objects.filter(pk=choice.id).first()
    if bill is None:
        return None  # the provenance says the bill is deleted
    found = chosen_baseline(bill, {name: list(getattr(choice, name)) for name in FILTERS})
    summary = summary_of(bill)
    currency = bill.currency
    if currency != plan.currency:  # the catalog frame is in the plan's currency
        out: dict[str, Any] = {"currency": currency, "cost": "effective",
                               "tiers_total": len(found.tiers), "tiers_shown": 0,
                               "limit": weighing.LIMIT, "tiers": [], "commit_saving_monthly": None,
                               "reason": msg("bills.commitments.other_currency",
                                             bill=currency, plan=plan.currency)}  # fmt: skip
    else:
        lines = _bill_tiers(found)
        slots = {t.tier: slot_prices(prices, t.tier) for t in lines if t.tier in prices}
        allowance = plan.spot_interruption_allowance
        out = weighing.weigh(lines, slots, allowance=allowance, currency=currency)
    out["today"] = weighing.today(summary, currency)
    return BillCommitments.model_validate(out)


def _bill_tiers(found: Any) -> list[weighing.BillTier]:
    """The bill's matched instance types, with the cost and hours already committed or on
    spot, a month."""
    months = Decimal(found.months)
    split: dict[tuple[str, str, str], dict[str, Decimal]] = defaultdict(
        lambda: defaultdict(Decimal)
    )
    for row in cost_by_pricing(found.chosen.exclude(instance_type="")):
        per = hours_per_unit(row["unit"])
        if per is None:
            continue  # not time: not in the tier line (bills.baseline)
        key = (row["provider"], row["instance_type"], row["region"])
        split[key][row["pricing_category"]] += row["cost"] / months
        split[key][row["pricing_category"] + ":hours"] += row["quantity"] * per / months
    out = []
    for t in found.tiers:
        got = split.get((t.provider, t.instance_type, t.region), {})
        zero = Decimal(0)
        out.append(weighing.BillTier(
            t.instance_type, t.region, t.tier, t.count, t.monthly,
            committed=got.get("Committed", zero), spot=got.get("Dynamic", zero),
            committed_hours=got.get("Committed:hours", zero),
            spot_hours=got.get("Dynamic:hours", zero),
        ))  # fmt: skip
    return out
