"""Commitment figures from a bill (issue 26, item 3): pure arithmetic on decimals, no Django.

- utilisation = used ÷ (used + unused): the commitment's quantity (or, where the file
  gives none, its effective cost) that covered usage against what went unused;
- coverage = committed list cost ÷ eligible list cost: of the usage a commitment could
  cover (priced at list), the part it did cover;
- unused spend: the effective cost of the unused part;
- savings, split into negotiated (list - contracted) and commitment (contracted -
  effective); their sum is list - effective.

Three entries: `from_focus_rows` reads FOCUS cost rows (dicts of column → text, as the
spec's worked examples under ../shared/reference/bills/focus/spec_examples are),
`Figures` takes sums a caller already made, and `bill_commitment_summary` reads a bill's
stored aggregate lines (one grouped query; `summarise` is its pure arithmetic) into a
`Summary` (docs/design.md, Bills: "Commitments from the bill").

The spec's flexibility example with one resource gives the committed row the whole
resource-hour's list cost (3.00) beside the on-demand remainder (2.25), and states 25 %
covered: so per resource and charge period the eligible list cost is that hour's list
cost (the largest ListUnitPrice x ConsumedQuantity among its usage rows), and the
covered part is what is left once the on-demand rows' list cost is taken away.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from django.db.models import Count, Q, Sum

ZERO = Decimal(0)
# Usage a commitment could cover: these categories always, and any other in which the bill
# shows a commitment (a database reservation, say).
ALWAYS_ELIGIBLE = ("Compute", "AI and Machine Learning")
# Why a figure is None (`Summary.reasons`): each names what the bill lacks.
NO_COMMITMENT = "no_commitment"  # utilisation: no commitment used or unused in the bill
NO_COMMITMENT_COST = "commitment_cost_zero"  # utilisation: its lines have no effective cost
NO_LIST_COST = "no_list_cost"  # coverage: the eligible usage has no list cost
NO_CONTRACTED_COST = "no_contracted_cost"  # the split: a line without a contracted cost


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


@dataclass(frozen=True)
class Summary:
    """A bill's commitment figures, amounts in the bill's currency (`currency`); a figure
    that cannot be computed is None and `reasons[name]` says why (see the codes above)."""

    currency: str
    utilisation: Decimal | None  # used ÷ (used + unused), by effective cost
    coverage: Decimal | None  # committed list cost ÷ eligible list cost
    unused: Decimal  # the unused commitment's cost
    negotiated: Decimal | None  # list - contracted
    commitment: Decimal | None  # contracted - effective
    savings: Decimal  # list - effective: negotiated + commitment where both are known
    used: Decimal  # effective cost of the usage a commitment covered
    committed_list: Decimal
    eligible_list: Decimal
    list_cost: Decimal
    contracted: Decimal | None
    effective: Decimal  # of the eligible usage, with the unused commitment
    categories: tuple[str, ...]  # the service categories counted as eligible
    reasons: dict[str, str] = field(default_factory=dict)

    def as_json(self) -> dict:
        """Plain data: decimals as strings, None as null."""
        out: dict = {"currency": self.currency, "categories": list(self.categories),
                     "reasons": dict(self.reasons)}  # fmt: skip
        for name in ("utilisation", "coverage", "unused", "negotiated", "commitment", "savings",
                     "used", "committed_list", "eligible_list", "list_cost", "contracted",
                     "effective"):  # fmt: skip
            value = getattr(self, name)
            out[name] = None if value is None else f"{value.normalize():f}"
        return out


def summarise(groups: Iterable[Mapping], currency: str) -> Summary:
    """The summary of grouped sums of bill lines: each group a mapping with the line keys
    `service_category`, `charge_category`, `pricing_category`, `commitment_status` and the
    sums `list`, `eligible`, `effective`, `unused`, `contracted` (None: no line of the
    group gives one) and `no_contract` (lines without a contracted cost). Pure."""
    groups = list(groups)
    usage = [g for g in groups if g["charge_category"] == "Usage"]
    categories = set(ALWAYS_ELIGIBLE) | {
        g["service_category"] for g in usage
        if g["commitment_status"] or g["pricing_category"] == "Committed"
    }  # fmt: skip
    d = lambda v: v or ZERO  # noqa: E731
    used = sum((d(g["effective"]) for g in usage if g["commitment_status"] == "Used"), ZERO)
    unused = sum((d(g["unused"]) for g in groups), ZERO)
    eligible = [g for g in usage if g["service_category"] in categories]
    covering = [g for g in eligible if g["commitment_status"] != "Unused"]
    eligible_list = sum((d(g["eligible"]) for g in covering), ZERO)
    on_demand = sum((d(g["list"]) for g in covering if g["pricing_category"] != "Committed"),
                    ZERO)  # fmt: skip
    list_cost = sum((d(g["list"]) for g in covering), ZERO)
    effective = sum((d(g["effective"]) for g in covering), ZERO) + sum(
        (d(g["unused"]) for g in groups if g["service_category"] in categories), ZERO
    )
    missing = any(g["no_contract"] and (g["list"] or g["effective"]) for g in covering) or all(
        g["contracted"] is None for g in covering
    )
    contracted = None if missing else sum((d(g["contracted"]) for g in covering), ZERO)
    reasons = {}
    utilisation = used / (used + unused) if used + unused else None
    if utilisation is None:
        touched = any(g["commitment_status"] for g in usage) or any(g["unused"] for g in groups)
        reasons["utilisation"] = NO_COMMITMENT_COST if touched else NO_COMMITMENT
    coverage = None
    if eligible_list > 0:
        coverage = max(eligible_list - on_demand, ZERO) / eligible_list
    else:
        reasons["coverage"] = NO_LIST_COST
    if contracted is None:
        reasons["negotiated"] = reasons["commitment"] = NO_CONTRACTED_COST
    return Summary(
        currency=currency, utilisation=utilisation, coverage=coverage, unused=unused,
        negotiated=None if contracted is None else list_cost - contracted,
        commitment=None if contracted is None else contracted - effective,
        savings=list_cost - effective, used=used,
        committed_list=max(eligible_list - on_demand, ZERO), eligible_list=eligible_list,
        list_cost=list_cost, contracted=contracted, effective=effective,
        categories=tuple(sorted(categories)), reasons=reasons,
    )  # fmt: skip


def bill_commitment_summary(bill, lines=None) -> Summary:
    """The commitment figures of `bill` (a `bills.models.Bill`) from its stored lines, or
    from `lines` (a queryset of its BillLines, e.g. a baseline's chosen lines), by one
    grouped query. See `summarise` and docs/design.md (Bills: "Commitments from the bill")."""
    if lines is None:
        lines = bill.lines.all()
    groups = lines.values(
        "service_category", "charge_category", "pricing_category", "commitment_status"
    ).annotate(
        sum_list=Sum("list_cost"), sum_eligible=Sum("eligible_list"),
        sum_effective=Sum("effective"), sum_unused=Sum("unused"),
        sum_contracted=Sum("contracted"),
        no_contract=Count("pk", filter=Q(contracted__isnull=True)),
    ).order_by()  # fmt: skip
    sums = ("list", "eligible", "effective", "unused", "contracted")
    return summarise(({**g, **{k: g[f"sum_{k}"] for k in sums}} for g in groups), bill.currency)
