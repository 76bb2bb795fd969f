# ruff: noqa: RUF002, RUF003  (money notation: ×, −, ÷)
"""Staying and committing: the cloud's own best deal for the baseline's instance (issue 27).

`inputs.gather` hands the engine the baseline tier's alternatives as plain data
(`Alternatives`, read from `catalog.commitments.alternatives`); the engine makes each a
`commitment:<group>-<years>y` option (spot: `commitment:spot`) on the baseline's own
instance, so "move" is always weighed against "stay and commit". This module holds the
plain data and the arithmetic beside each option:

- **break-even month**: the first m ≥ 1 with upfront + m × committed monthly ≤ m ×
  on-demand monthly (per server; 1 with no upfront and a lower rate; None where the
  commitment never beats on demand);
- **loses below utilisation**: the commitment's effective rate ÷ the on-demand rate
  (upfront spread over the term): a server busy less than that share of the month costs
  less on demand, switched off when idle.

Pure: no Django.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

from common.messages import Message

SHARE = Decimal("0.0001")


@dataclass(frozen=True)
class Slot:
    """One slot of `catalog.commitments.Alternative`, as plain data."""

    group: str  # reserved | savings_plan | committed_use | spot
    years: int  # 1 or 3; 0 for spot
    slug: str | None  # the slot's cheapest tier; None: the catalog has no rate
    pricing_model: str | None
    missing: Message | None = None  # why there is no tier


@dataclass(frozen=True)
class Interruption:
    """A spot tier's interruption rate: a range and where it comes from (issue 27, item 6)."""

    low: Decimal
    base: Decimal
    high: Decimal
    source: str  # "aggregator" (the feed's pct_interrupt bucket) | "assumption"
    bucket: str = ""  # the feed's own words ("<5%", "5-10%"), where it has them


@dataclass(frozen=True)
class Alternatives:
    """The baseline tier's alternatives: its on-demand tier (break-even is against it) and
    the slots its provider sells; `interruption` by spot tier slug, where the feed says."""

    baseline: str
    on_demand: str | None
    slots: tuple[Slot, ...] = ()
    interruption: dict[str, Interruption] = field(default_factory=dict)


ASSUMED_LOW, ASSUMED_HIGH = Decimal("0.05"), Decimal("0.20")


def assumed(rate: Decimal) -> Interruption:
    """The planner's range where no published figure exists: 5-20 % around the plan's
    allowance (widened to include it), labelled an assumption."""
    return Interruption(min(rate, ASSUMED_LOW), rate, max(rate, ASSUMED_HIGH), "assumption")


def key_of(slot: Slot) -> str:
    return "commitment:spot" if slot.group == "spot" else f"commitment:{slot.group}-{slot.years}y"


def break_even_month(upfront: Decimal, committed: Decimal, on_demand: Decimal) -> int | None:
    """The first month m ≥ 1 with upfront + m × committed ≤ m × on_demand (monthly amounts
    of one server); None where the commitment never beats on demand."""
    gain = on_demand - committed
    if upfront <= 0:
        return 1 if gain >= 0 else None
    if gain <= 0:
        return None
    return max(1, math.ceil(upfront / gain))


def loses_below(
    upfront: Decimal, committed: Decimal, term_months: int, on_demand: Decimal
) -> Decimal | None:
    """(committed + upfront ÷ term) ÷ on_demand, to four places; None without an on-demand
    price. Above 1: it loses even running all month."""
    if on_demand <= 0:
        return None
    spread = upfront / term_months if term_months > 0 else Decimal(0)
    return ((committed + spread) / on_demand).quantize(SHARE, ROUND_HALF_UP)
