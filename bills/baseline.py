"""A plan's baseline from an imported bill (issue 25, item 4; first part).

The chosen compute usage lines of a bill (filtered by provider, account, region, service,
instance type and tag) become a tier baseline: per instance type, the catalog tier of that
provider and type (the region's own, else any region's), the count of machines = hours a
month ÷ 730, priced at the bill's effective cost (`BillLine.cost`: the effective cost, or the billed
cost where a quality flag says the effective one was unusable). Instance types with no
catalog tier, and compute lines with no instance type, are listed, not dropped.

`BillBaseline.plan_baseline()` is what the plan schema takes (`{"monthly": ...}`: the
schema holds one tier per baseline, a bill many; `baseline.bill` names the bill and the
lines chosen); `provenance()` names the bill, its period and the lines. `trend()` is the
chosen lines' monthly growth over the bill's whole months, for `monthly_growth`.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

from django.db.models import Q

from bills.models import Bill, BillLine
from catalog.models import Tier
from common.units import HOURS_PER_MONTH

_HOURS = re.compile(r"^\s*(\d+(?:\.\d+)?)?\s*(hours?|hrs?|instance hours?)\s*$", re.IGNORECASE)
PROVIDERS = {"AWS": "AWS", "Microsoft": "Azure"}  # a bill's provider → the catalog's


def hours_per_unit(unit: str) -> Decimal | None:
    """Hours in one unit of quantity ("Hrs": 1, Azure's "10 Hours": 10), None if not time."""
    found = _HOURS.match(unit or "")
    if not found:
        return None
    return Decimal(found.group(1) or 1)


@dataclass
class TierLine:
    provider: str
    instance_type: str
    region: str
    tier: str | None  # the catalog tier's key, None: unmatched
    hours_a_month: Decimal
    count: Decimal  # machines: hours a month ÷ 730
    monthly: Decimal  # at the bill's effective cost, in the bill's currency
    lines: int


@dataclass
class BillBaseline:
    bill: Bill
    months: int
    currency: str
    tiers: list[TierLine] = field(default_factory=list)
    unmatched: list[TierLine] = field(default_factory=list)
    no_instance_type: Decimal = Decimal(0)  # monthly cost of compute lines without a type
    lines: int = 0
    filters: dict = field(default_factory=dict)
    chosen: object = None  # the BillLine queryset the baseline was read from

    @property
    def monthly(self) -> Decimal:
        total = sum((t.monthly for t in self.tiers + self.unmatched), Decimal(0))
        return (total + self.no_instance_type).quantize(Decimal("0.01"), ROUND_HALF_UP)

    def plan_baseline(self) -> dict:
        """The plan's `baseline` input as the schema takes it today."""
        return {"monthly": str(self.monthly)}

    def provenance(self) -> dict:
        bill = self.bill
        return {
            "source": "bill", "bill": bill.pk, "name": bill.name, "sha256": bill.sha256,
            "kind": bill.kind, "view": bill.view, "currency": bill.currency,
            "period_start": bill.period_start.isoformat(),
            "period_end": bill.period_end.isoformat(), "months": self.months,
            "lines": self.lines, "filters": self.filters, "cost": "effective",
            "tiers": [_line(t) for t in self.tiers],
            "unmatched": [_line(t) for t in self.unmatched],
            "no_instance_type_monthly": str(self.no_instance_type.quantize(Decimal("0.01"))),
        }  # fmt: skip


@dataclass(frozen=True)
class Trend:
    """The chosen compute lines' cost month by month and its compound monthly growth from
    the first whole month to the last (`growth` None: fewer than two months, or a first
    month without cost)."""

    months: tuple[str, ...]  # "YYYY-MM", every month of the bill with chosen lines
    monthly: tuple[Decimal, ...]
    growth: Decimal | None

    @property
    def first(self) -> str:
        return self.months[0] if self.months else ""

    @property
    def last(self) -> str:
        return self.months[-1] if self.months else ""

    def said(self) -> dict:
        return {
            "months": list(self.months), "first": self.first, "last": self.last,
            "monthly": [str(m.quantize(Decimal("0.01"))) for m in self.monthly],
            "growth": None if self.growth is None else str(self.growth),
        }  # fmt: skip


GROWTH_MAX = Decimal("0.5")  # the plan schema's bound on monthly_growth


def trend(baseline: BillBaseline) -> Trend:
    """Compound monthly growth of the chosen lines' cost, first month to last, rounded to
    six places and kept within the schema's 0 to 0.5 (a falling bill is growth 0: the plan
    does not model a shrinking baseline)."""
    by_month: dict[str, Decimal] = defaultdict(Decimal)
    for day, cost in baseline.chosen.values_list("day", "cost"):
        by_month[f"{day.year:04d}-{day.month:02d}"] += cost
    months = tuple(sorted(by_month))
    monthly = tuple(by_month[m] for m in months)
    growth = None
    if len(months) >= 2 and monthly[0] > 0 and monthly[-1] >= 0:
        ratio = float(monthly[-1] / monthly[0]) ** (1 / (len(months) - 1)) - 1
        growth = min(max(Decimal(str(round(ratio, 6))), Decimal(0)), GROWTH_MAX)
    return Trend(months, monthly, growth)


def _line(t: TierLine) -> dict:
    return {
        "provider": t.provider, "instance_type": t.instance_type, "region": t.region,
        "tier": t.tier, "hours_a_month": str(t.hours_a_month.quantize(Decimal("0.01"))),
        "count": str(t.count.quantize(Decimal("0.01"))),
        "monthly": str(t.monthly.quantize(Decimal("0.01"))), "lines": t.lines,
    }  # fmt: skip


def _tier_for(provider: str, instance_type: str, region: str) -> str | None:
    name = PROVIDERS.get(provider)
    if name is None:  # GCP, OCI: no instance types in the catalog yet
        return None
    tiers = Tier.objects.filter(provider__name=name, name=instance_type, retired=False)
    chosen = (
        tiers.filter(region=region, pricing_model="on_demand").first()
        or tiers.filter(pricing_model="on_demand").order_by("region").first()
        or tiers.order_by("region").first()
    )
    return chosen.slug if chosen else None


def tag_filter(tags: list[str]) -> Q:
    """Lines carrying any of `tags` (OR): "k=v" a tag of that key and value, "k" alone that
    key with any value. A line keeps its tags as "k=v;k=v" (`BillLine.tags`)."""
    found = Q(pk__in=[])
    for given in tags:
        key, equals, value = given.partition("=")
        key = key.strip().replace(";", ",")
        if not equals:
            found |= Q(tags__startswith=f"{key}=") | Q(tags__contains=f";{key}=")
            continue
        pair = f"{key}={value.strip().replace(';', ',')}"
        found |= (Q(tags=pair) | Q(tags__startswith=f"{pair};") | Q(tags__endswith=f";{pair}")
                  | Q(tags__contains=f";{pair};"))  # fmt: skip
    return found


def baseline_from_bill(
    bill: Bill,
    accounts: list[str] | None = None,
    regions: list[str] | None = None,
    services: list[str] | None = None,
    instance_types: list[str] | None = None,
    providers: list[str] | None = None,
    tags: list[str] | None = None,
) -> BillBaseline:
    """The chosen compute usage lines of `bill` as a tier baseline (see the module)."""
    chosen = BillLine.objects.filter(bill=bill, service_category="Compute", charge_category="Usage")
    filters = {}
    for name, values, column in (("providers", providers, "provider"),
                                 ("accounts", accounts, "account"), ("regions", regions, "region"),
                                 ("services", services, "service_name"),
                                 ("instance_types", instance_types, "instance_type")):  # fmt: skip
        if values:
            chosen = chosen.filter(**{f"{column}__in": values})
            filters[name] = sorted(values)
    if tags:  # OR within the tags listed, AND with the other choices
        chosen = chosen.filter(tag_filter(tags))
        filters["tags"] = sorted(tags)
    months = len({(d.year, d.month) for d in chosen.values_list("day", flat=True).distinct()}) or 1
    groups: dict[tuple, list] = defaultdict(lambda: [Decimal(0), Decimal(0), 0])
    result = BillBaseline(bill=bill, months=months, currency=bill.currency, filters=filters,
                          chosen=chosen)  # fmt: skip
    for line in chosen.only("provider", "instance_type", "region", "unit", "quantity", "cost"):
        result.lines += 1
        per = hours_per_unit(line.unit)
        if not line.instance_type or per is None:
            result.no_instance_type += line.cost / months
            continue
        group = groups[(line.provider, line.instance_type, line.region)]
        group[0] += line.quantity * per
        group[1] += line.cost
        group[2] += 1
    for (provider, instance_type, region), (hours, cost, count) in sorted(groups.items()):
        a_month = hours / months
        tier = _tier_for(provider, instance_type, region)
        entry = TierLine(provider, instance_type, region, tier, a_month,
                         a_month / HOURS_PER_MONTH, cost / months, count)  # fmt: skip
        (result.tiers if tier else result.unmatched).append(entry)
    return result
