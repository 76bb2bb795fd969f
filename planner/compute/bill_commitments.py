# ruff: noqa: RUF002, RUF003  (money notation: ×, −, ÷)
"""Staying and committing, weighed against the bill (issue 27, items 4 and 5, for a plan
whose baseline is taken from an imported bill).

A bill baseline is many instance types, each with a catalog tier and a machine count
(`bills.baseline.TierLine`: hours a month ÷ 730) and what the bill charged for it (its
effective cost). For the dearest few of them (`LIMIT`, by the bill's monthly cost; the
answer says how many there were), this module weighs each commitment slot of the same
instance (reserved, savings plan, committed use, 1 and 3 years, and spot) at the bill's
machine count against the bill's own effective cost, not the list price:

- **monthly**: count × (the slot's monthly + its upfront spread over its term); spot:
  count × its monthly × (1 + the plan's interruption allowance, the re-run hours);
- **saving**: the bill's monthly − that;
- **break-even month**: the first month m with upfront + m × monthly ≤ m × the bill's
  rate of one machine (`commitments.break_even_month`, against the bill's rate);
- **loses below utilisation**: the slot's effective rate ÷ the bill's rate of one machine:
  a machine busy less than that share of the month costs less as the bill pays now.

Where part of an instance type's hours on the bill already ran under a commitment (FOCUS
PricingCategory "Committed") or on spot ("Dynamic"), the bill's rate includes those
discounts: the answer says which share, so a saving is read as one on top of them; where
the committed hours carry no cost at all (the commitment paid elsewhere: an upfront
purchase, an "actual" cost view), it says the bill understates what those hours cost.

`today(summary)` says what the bill's own commitments did (utilisation, coverage, unused
spend, negotiated and commitment savings), from any object with those attributes
(`bills.commitments.bill_commitment_summary`, read through the service layer).

Pure: no Django.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from common.messages import Message, Money, Number, Percent, TierRef, msg
from common.units import HOURS_PER_MONTH
from planner.compute import commitments as stay

LIMIT = 5  # instance types weighed: the bill's dearest
CENT = Decimal("0.01")
ZERO = Decimal(0)


@dataclass(frozen=True)
class BillTier:
    """One instance type of the bill's baseline, matched to a catalog tier."""

    instance_type: str
    region: str
    tier: str  # the catalog tier the bill's lines matched
    count: Decimal  # machines: hours a month ÷ 730
    monthly: Decimal  # the bill's effective cost a month, in the bill's currency
    committed: Decimal = ZERO  # of which under a commitment (PricingCategory Committed)
    spot: Decimal = ZERO  # of which on spot (PricingCategory Dynamic)
    committed_hours: Decimal = ZERO  # machine-hours a month under a commitment
    spot_hours: Decimal = ZERO  # machine-hours a month on spot

    @property
    def hours(self) -> Decimal:
        return self.count * HOURS_PER_MONTH


@dataclass(frozen=True)
class SlotPrice:
    """A commitment slot of a tier's instance, priced from the catalog (per machine, in the
    bill's currency); `tier` None where the catalog has no rate (`missing` says so)."""

    group: str  # reserved | savings_plan | committed_use | spot
    years: int  # 1 or 3; 0 for spot
    tier: str | None
    pricing_model: str | None = None
    said: TierRef | Message | None = None  # the instance as a reader knows it
    monthly: Decimal = ZERO  # per machine, billed monthly or hourly × 730
    upfront: Decimal = ZERO  # per machine, once a term
    term_months: int = 0
    missing: Message | None = None
    price: dict[str, Any] | None = None  # the price row it comes from (provenance)


def _cents(value: Decimal) -> str:
    return str(value.quantize(CENT, ROUND_HALF_UP))


def weigh_slot(line: BillTier, slot: SlotPrice, allowance: Decimal, currency: str) -> dict:
    """One slot at the bill's machine count against the bill's effective cost."""
    assert slot.tier is not None
    out: dict[str, Any] = {
        "group": slot.group, "years": slot.years, "tier": slot.tier,
        "pricing_model": slot.pricing_model, "break_even_month": None,
        "loses_below_utilisation": None,
    }  # fmt: skip
    rate = line.monthly / line.count if line.count > 0 else ZERO  # one machine on the bill
    out["label"] = msg(f"engine.option_stay_{slot.group}", tier=slot.said or TierRef(slot.tier),
                       years=slot.years)  # fmt: skip
    if slot.group == "spot":
        monthly = line.count * slot.monthly * (1 + allowance)
        out.update(monthly=_cents(monthly), upfront="0.00",
                   saving_monthly=_cents(line.monthly - monthly))  # fmt: skip
        out["summary"] = msg("bills.commitments.spot", share=Percent(allowance, 0))
    else:
        spread = slot.upfront / slot.term_months if slot.term_months > 0 else ZERO
        monthly = line.count * (slot.monthly + spread)
        out.update(monthly=_cents(monthly), upfront=_cents(line.count * slot.upfront),
                   saving_monthly=_cents(line.monthly - monthly))  # fmt: skip
        month = stay.break_even_month(slot.upfront, slot.monthly, rate)
        share = stay.loses_below(slot.upfront, slot.monthly, slot.term_months, rate)
        out["break_even_month"] = month
        out["loses_below_utilisation"] = str(share) if share is not None else None
        if month is None or share is None:
            out["summary"] = msg("bills.commitments.never_beats")
        else:
            out["summary"] = msg("bills.commitments.break_even", month=month,
                                 share=Percent(share, 2))  # fmt: skip
    out["saving_said"] = msg("bills.commitments.saving",
                             saving=Money(Decimal(out["saving_monthly"]), currency),
                             monthly=Money(Decimal(out["monthly"]), currency))  # fmt: skip
    if slot.price is not None:
        out["price"] = slot.price
    return out


def weigh_tier(
    line: BillTier, slots: Sequence[SlotPrice], allowance: Decimal, currency: str
) -> dict[str, Any]:
    """An instance type of the bill with its commitment options and the slots with no rate."""
    count = Number(line.count.quantize(Decimal("0.001"), ROUND_HALF_UP), 3)
    out: dict[str, Any] = {
        "instance_type": line.instance_type, "region": line.region, "tier": line.tier,
        "count": str(line.count.quantize(Decimal("0.001"), ROUND_HALF_UP)),
        "bill_monthly": _cents(line.monthly),
        "bill_rate_monthly": _cents(line.monthly / line.count) if line.count > 0 else None,
        "committed_share": _share(line.committed, line.monthly),
        "committed_hours_share": _share(line.committed_hours, line.hours),
        "spot_share": _share(line.spot, line.monthly),
        "spot_hours_share": _share(line.spot_hours, line.hours),
        "said": msg("bills.commitments.tier", count=count, instance_type=line.instance_type,
                    region=line.region, monthly=Money(Decimal(_cents(line.monthly)), currency)),
        "options": [], "missing": [], "notes": [],
    }  # fmt: skip
    if line.committed_hours > 0 or line.committed > 0:
        share = Decimal(out["committed_hours_share"] or out["committed_share"] or 0)
        out["notes"].append(msg("bills.commitments.includes_committed", share=Percent(share, 0)))
        if line.committed <= 0:  # covered hours at no cost: the commitment is paid elsewhere
            out["notes"].append(msg("bills.commitments.committed_unpriced"))
    if line.spot_hours > 0 or line.spot > 0:
        share = Decimal(out["spot_hours_share"] or out["spot_share"] or 0)
        out["notes"].append(msg("bills.commitments.includes_spot", share=Percent(share, 0)))
    if not slots:
        out["notes"].append(msg("bills.commitments.no_slots", tier=TierRef(line.tier)))
    for slot in slots:
        if slot.tier is None:
            reason = slot.missing or msg("bills.commitments.no_rate")
            out["missing"].append({"group": slot.group, "years": slot.years, "reason": reason})
            continue
        out["options"].append(weigh_slot(line, slot, allowance, currency))
    out["options"].sort(key=lambda o: (Decimal(o["monthly"]), o["group"], o["years"]))
    return out


def _share(part: Decimal, whole: Decimal) -> str | None:
    if whole <= 0:
        return None
    return str((part / whole).quantize(stay.SHARE, ROUND_HALF_UP))


def weigh(
    lines: Sequence[BillTier],
    slots: Mapping[str, Sequence[SlotPrice]],
    *,
    allowance: Decimal,
    currency: str,
    limit: int = LIMIT,
) -> dict[str, Any]:
    """The bill's dearest `limit` matched instance types, each weighed (see the module)."""
    ordered = sorted(lines, key=lambda t: (-t.monthly, t.instance_type, t.region))
    shown = [t for t in ordered if t.count > 0][:limit]
    out: dict[str, Any] = {
        "currency": currency, "cost": "effective", "tiers_total": len(ordered),
        "tiers_shown": len(shown), "limit": limit,
        "tiers": [weigh_tier(t, slots.get(t.tier, ()), allowance, currency) for t in shown],
    }  # fmt: skip
    saving = ZERO  # each weighed type at its cheapest reservation, savings plan or CUD
    for tier in out["tiers"]:
        kept = [Decimal(o["saving_monthly"]) for o in tier["options"] if o["group"] != "spot"]
        saving += max([s for s in kept if s > 0], default=ZERO)
    out["commit_saving_monthly"] = _cents(saving)
    if len(ordered) > len(shown):
        rest = sum((t.monthly for t in ordered if t not in shown), ZERO)
        out["more"] = msg("bills.commitments.more", count=len(ordered) - len(shown),
                          monthly=Money(Decimal(_cents(rest)), currency))  # fmt: skip
    return out


SUMMARY = ("utilisation", "coverage", "unused", "negotiated_savings", "commitment_savings")


def today(summary: Any, currency: str) -> dict[str, Any]:
    """What the bill's own commitments did, from an object with the attributes `SUMMARY`
    names (Decimals or None) and `reason` (why a figure is None: a code, or None): each
    figure as a string and a sentence, None where the bill cannot say."""
    reason = getattr(summary, "reason", None)
    out: dict[str, Any] = {"reason": reason if isinstance(reason, Message) or reason is None
                           else str(reason)}  # fmt: skip
    said: list[Message] = []
    for name in SUMMARY:
        value = getattr(summary, name, None)
        if value is None:
            out[name] = None
            continue
        share = name in ("utilisation", "coverage")
        value = Decimal(value).quantize(stay.SHARE if share else CENT, ROUND_HALF_UP)
        out[name] = str(value)
        shown: Any = Percent(value, 1) if share else Money(value, currency)
        said.append(msg(f"bills.commitments.today_{name}", value=shown))
    if not said:
        said.append(reason if isinstance(reason, Message)
                    else msg("bills.commitments.today_none", reason=str(reason or "")))  # fmt: skip
    out["said"] = said
    return out
