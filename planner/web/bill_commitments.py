"""The answer's `bill_commitments` as the plan page shows it (issue 27): per instance type of
the bill, the cloud's commitments of the same instance weighed against the bill, and the
bill's own commitment figures today. Sentences stay messages (the page says them in the
reader's language); amounts are Decimals."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from common.messages import Message
from planner.compute.message_fields import MESSAGES, by_field


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


def view(data: Mapping[str, Any] | None) -> BillCommitments | None:
    """The page's view of `bill_commitments` (None: the plan's baseline is no bill)."""
    if not data:
        return None
    messages = by_field(data.get(MESSAGES))

    def said(path: str) -> Message | None:
        found = messages.get(path)
        return found[0] if found else None

    out = BillCommitments(currency=str(data.get("currency") or ""), more=said("more"),
                          reason=said("reason"), shown=int(data.get("tiers_shown") or 0),
                          total=int(data.get("tiers_total") or 0),
                          saving=_dec(data.get("commit_saving_monthly")))  # fmt: skip
    today = data.get("today") or {}
    out.today = [m for i in range(len(today.get("said") or [])) if (m := said(f"today.said[{i}]"))]
    for i, tier in enumerate(data.get("tiers") or []):
        at = f"tiers[{i}]"
        options = [
            Option(
                f"{o['group']}-{o['years']}",
                said(f"{at}.options[{j}].label"),
                _dec(o.get("monthly")),
                _dec(o.get("saving_monthly")),
                said(f"{at}.options[{j}].summary"),
                bool((o.get("price") or {}).get("confirmed", True)),
            )
            for j, o in enumerate(tier.get("options") or [])
        ]
        notes = [said(f"{at}.notes[{k}]") for k in range(len(tier.get("notes") or []))]
        missing = [said(f"{at}.missing[{k}].reason") for k in range(len(tier.get("missing") or []))]
        out.tiers.append(
            TierView(
                said=said(f"{at}.said"),
                notes=[m for m in notes if m],
                options=options,
                missing=[m for m in missing if m],
            )
        )
    return out
