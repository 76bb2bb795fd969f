"""Commitment figures from a bill (issue 26, item 3): pure arithmetic on decimals, no Django.

- utilisation = used ÷ (used + unused): the commitment's quantity (or, where the file
  gives none, its effective cost) that covered usage against what went unused;
- coverage = committed list cost ÷ eligible list cost: of the usage a commitment could
  cover (priced at list), the part it did cover;
- unused spend: the effective cost of the unused part;
- savings, split into negotiated (list - contracted) and commitment (contracted -
  effective); their sum is list - effective.

Two entries: `from_focus_rows` reads FOCUS cost rows (dicts of column → text, as the
spec's worked examples under ../shared/reference/bills/focus/spec_examples are), and
`Figures` takes sums a caller already made (the bill page's stored aggregates).

The spec's flexibility example with one resource gives the committed row the whole
resource-hour's list cost (3.00) beside the on-demand remainder (2.25), and states 25 %
covered: so per resource and charge period the eligible list cost is that hour's list
cost (the largest ListUnitPrice x ConsumedQuantity among its usage rows), and the
covered part is what is left once the on-demand rows' list cost is taken away.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

ZERO = Decimal(0)


@dataclass(frozen=True)
class Figures:
    used: Decimal = ZERO  # commitment quantity (or effective cost) that covered usage
    unused: Decimal = ZERO  # the part that went unused
    unused_cost: Decimal = ZERO  # effective cost of the unused part
    committed_list: Decimal = ZERO  # list cost of the usage a commitment covered
    eligible_list: Decimal = ZERO  # list cost of all usage a commitment could cover
    list_cost: Decimal = ZERO
    contracted: Decimal | None = None  # None: the file gives no contracted cost
    effective: Decimal = ZERO

    @property
    def utilisation(self) -> Decimal | None:
        whole = self.used + self.unused
        return self.used / whole if whole else None

    @property
    def coverage(self) -> Decimal | None:
        return self.committed_list / self.eligible_list if self.eligible_list else None

    @property
    def savings(self) -> Decimal:
        return self.list_cost - self.effective

    @property
    def negotiated(self) -> Decimal | None:
        return None if self.contracted is None else self.list_cost - self.contracted

    @property
    def commitment_savings(self) -> Decimal | None:
        return None if self.contracted is None else self.contracted - self.effective


def _number(row: Mapping[str, str], column: str) -> Decimal | None:
    text = (row.get(column) or "").strip()
    if not text or text.lower() == "null":
        return None
    try:
        return Decimal(text)
    except InvalidOperation:
        return None


def _text(row: Mapping[str, str], column: str) -> str:
    text = (row.get(column) or "").strip()
    return "" if text.lower() == "null" else text


def from_focus_rows(rows: Iterable[Mapping[str, str]]) -> Figures:
    """The figures of FOCUS cost rows (blank lines, as the spec's files hold, skipped)."""
    used = unused = unused_cost = list_cost = effective = ZERO
    contracted: Decimal | None = None
    hour_list: dict[tuple[str, str], Decimal] = defaultdict(Decimal)
    on_demand_list: dict[tuple[str, str], Decimal] = defaultdict(Decimal)
    for number, row in enumerate(rows):
        if not any((v or "").strip() for v in row.values()):
            continue
        charge = _text(row, "ChargeCategory")
        status = _text(row, "CommitmentDiscountStatus")
        committed = _text(row, "PricingCategory") == "Committed"
        row_effective = _number(row, "EffectiveCost") or ZERO
        row_list = _number(row, "ListCost")
        if _number(row, "ContractedCost") is not None:
            contracted = (contracted or ZERO) + (_number(row, "ContractedCost") or ZERO)
        if charge != "Usage":
            continue  # a purchase is paid for, not used: its use shows on the usage rows
        effective += row_effective
        list_cost += row_list or ZERO
        amount = _number(row, "CommitmentDiscountQuantity")
        amount = row_effective if amount is None else amount
        if committed and status == "Unused":
            unused += amount
            unused_cost += row_effective
            continue
        if committed:
            used += amount
        resource = _text(row, "ResourceId")  # without one, each row is its own usage
        key = (resource, _text(row, "ChargePeriodStart")) if resource else ("", str(number))
        unit_price = _number(row, "ListUnitPrice")
        consumed = _number(row, "ConsumedQuantity")
        whole = unit_price * consumed if unit_price is not None and consumed is not None else None
        hour_list[key] = max(hour_list[key], whole if whole is not None else row_list or ZERO)
        if not committed:
            on_demand_list[key] += row_list or ZERO
    eligible = sum(hour_list.values(), ZERO)
    covered = sum((hour_list[k] - on_demand_list[k] for k in hour_list), ZERO)
    return Figures(
        used=used, unused=unused, unused_cost=unused_cost, committed_list=covered,
        eligible_list=eligible, list_cost=list_cost, contracted=contracted, effective=effective,
    )  # fmt: skip
