"""What a page or the API reads of a user's bills: each query scoped to its owner, the
sums made by the database, one cost view at a time (actual and amortized never added)."""

from __future__ import annotations

from django.db.models import Count, Max, Min, Sum
from django.db.models.functions import TruncMonth

from bills.models import Bill, BillLine, BillUpload

SUMS = {"billed": Sum("billed"), "effective": Sum("effective"), "list_cost": Sum("list_cost"),
        "cost": Sum("cost"), "quantity": Sum("quantity"), "rows": Sum("rows")}  # fmt: skip


def bills_of(owner):
    return Bill.objects.filter(owner=owner)


def bill_of(owner, bill_id: int) -> Bill | None:
    return Bill.objects.filter(owner=owner, pk=bill_id).first()


def upload_of(owner, upload_id: int) -> BillUpload | None:
    return BillUpload.objects.filter(owner=owner, pk=upload_id).first()


def totals(bill: Bill) -> dict:
    return BillLine.objects.filter(bill=bill).aggregate(
        **SUMS, lines=Count("id"), first=Min("day"), last=Max("day")
    )


def by_service(bill: Bill) -> list[dict]:
    """Per provider and service category: the page's first table."""
    return list(
        BillLine.objects.filter(bill=bill)
        .values("provider", "service_category")
        .annotate(**SUMS)
        .order_by("provider", "service_category")
    )


def by_month(bill: Bill) -> list[dict]:
    return list(
        BillLine.objects.filter(bill=bill)
        .annotate(month=TruncMonth("day"))
        .values("month")
        .annotate(**SUMS)
        .order_by("month")
    )


def compute_lines(bill: Bill) -> list[dict]:
    """Compute usage per account, region, instance type and pricing category: what a
    baseline is chosen from."""
    return list(
        BillLine.objects.filter(bill=bill, service_category="Compute", charge_category="Usage")
        .values("provider", "account", "region", "instance_type", "pricing_category", "unit")
        .annotate(**SUMS)
        .order_by("provider", "account", "region", "instance_type")
    )


def cost_by_pricing(lines) -> list[dict]:
    """The cost and quantity of chosen compute lines (a BillLine queryset) per provider,
    instance type, region, unit and pricing category: how much of an instance type's cost
    and hours on the bill was already under a commitment (Committed) or on spot (Dynamic)."""
    return list(
        lines.values("provider", "instance_type", "region", "unit", "pricing_category")
        .annotate(cost=Sum("cost"), quantity=Sum("quantity"))
        .order_by("provider", "instance_type", "region", "unit", "pricing_category")
    )
