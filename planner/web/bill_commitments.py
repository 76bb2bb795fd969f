"""The answer's `bill_commitments` (its model) as the plan page shows it (issue 27): per
instance type of the bill, the cloud's commitments of the same instance weighed against the
bill, and the bill's own commitment figures today. Sentences stay messages (the page says
them in the reader's language); amounts are Decimals."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from common.messages import Message
from planner.compute import answer_bill


def _dec(value: Any) -> Decimal | None:
    return None if value in (None, "") else Decimal(str(value))


@dataclass
class Option:
    key: str  # group-years, for the page's tests
    label: Message
    monthly: Decimal | None
    saving: Decimal | None
    summary: Message
    confirmed: bool = True  # the price row is confirmed (a quoted one is not)


@dataclass
class TierView:
    said: Message
    notes: list[Message]
    options: list[Option]
    missing: list[Message]


@dataclass
class BillCommitments:
    currency: str
    tiers: list[TierView] = field(default_factory=list)
    today: list[Message] = field(default_factory=list)
    more: Message | None = None
    reason: Message | None = None
    shown: int = 0
    total: int = 0
    saving: Decimal | None = None  # a month, each weighed type at its cheapest commitment


def view(data: answer_bill.BillCommitments | None) -> BillCommitments | None:
    """The page's view of the answer's `bill_commitments` (None: the baseline is no bill)."""
    if data is None:
        return None
    out = BillCommitments(currency=data.currency, more=data.more, reason=data.reason,
                          shown=data.tiers_shown, total=data.tiers_total,
                          saving=_dec(data.commit_saving_monthly))  # fmt: skip
    out.today = list(data.today.said) if data.today is not None else []
    for tier in data.tiers:
        options = [
            Option(f"{o.group}-{o.years}", o.label, _dec(o.monthly), _dec(o.saving_monthly),
                   o.summary, o.price.confirmed if o.price is not None else True)
            for o in tier.options
        ]  # fmt: skip
        out.tiers.append(
            TierView(
                said=tier.said,
                notes=list(tier.notes),
                options=options,
                missing=[m.reason for m in tier.missing],
            )
        )
    return out
