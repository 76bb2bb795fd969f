"""What the bill page shows (issue 26, item 2), read once per bill and kept.

A bill never changes after its import (a newer export replaces it: a new bill, a new
id), so its page figures are computed once, by four grouped queries over its aggregate
lines, and kept in the cache under the bill's id and SHA-256; the upload task computes
them right after the import, so even the first view reads them (docs/design.md, Bills:
"The bill page"). Plain data out (JSON-able: decimals as strings), no request, no text:
the view and the charts say it in the reader's language.
"""

from __future__ import annotations

import calendar
from collections import defaultdict
from datetime import date
from decimal import Decimal

from django.core.cache import cache
from django.db.models import Sum
from django.db.models.functions import TruncMonth

from bills.baseline import hours_per_unit
from bills.commitments import bill_commitment_summary
from bills.models import Bill, BillLine
from catalog.models import Tier

MONTHS = 12  # the page shows up to the last twelve months of a bill
COMPUTE = "Compute"
AI_ML = "AI and Machine Learning"
MACHINE_CATEGORIES = (COMPUTE, AI_ML)  # instance- and GPU-hours, floor and commitments
PRICING = ("Standard", "Dynamic", "Committed", "Other")  # on demand, spot, committed, other
VERSION = "2"  # bump when the figures' shape changes
ZERO = Decimal(0)


def _key(bill: Bill) -> str:
    return f"bills:page:{VERSION}:{bill.pk}:{bill.sha256}"


def figures(bill: Bill) -> dict:
    """The page's figures, from the cache or computed (and kept) now."""
    found = kept(bill)
    if found is None:
        found = compute(bill)
        cache.set(_key(bill), found, None)
    return found


def kept(bill: Bill) -> dict | None:
    """The page's figures if kept, else None (the page then has them rebuilt: `claim`)."""
    return cache.get(_key(bill))


REBUILD_SECONDS = 600  # one rebuild of a lost cache queued at a time, for at most this long


def claim(bill: Bill) -> bool:
    """True once per lost cache (until `warm` or REBUILD_SECONDS): the caller queues the
    rebuild (`bills.warm_page` on the control queue); the others wait for it."""
    return cache.add(f"{_key(bill)}:rebuild", True, REBUILD_SECONDS)


def warm(bill_id: int) -> None:
    """Compute and keep a bill's figures (after its import: the upload task and
    `manage.py import_bill`; a lost cache: the `bills.warm_page` task)."""
    bill = Bill.objects.filter(pk=bill_id).first()
    if bill is not None:
        cache.set(_key(bill), compute(bill), None)
        cache.delete(f"{_key(bill)}:rebuild")


def window(bill: Bill):
    """The bill's lines the page counts: up to the last `MONTHS` months."""
    return BillLine.objects.filter(bill=bill, day__gte=_month_start(bill.last_day, MONTHS - 1))


def commitments(bill: Bill) -> dict:
    """The page's commitment figures (`Summary.as_json()`) as the page shows them: kept
    with its figures, else computed now over the same months by one grouped query (not
    kept: the whole page's figures are the upload task's or the queued rebuild's)."""
    found = kept(bill)
    if found is not None and "commitments" in found:
        return found["commitments"]
    return bill_commitment_summary(bill, window(bill)).as_json()


def _month_start(day: date, back: int) -> date:
    index = day.year * 12 + day.month - 1 - back
    return date(index // 12, index % 12 + 1, 1)


def _s(value: Decimal | None) -> str:
    return f"{(value or ZERO).normalize():f}"


def compute(bill: Bill) -> dict:
    lines = window(bill)
    monthly = (
        lines.annotate(month=TruncMonth("day"))
        .values("month", "service_category")
        .annotate(billed=Sum("billed"), effective=Sum("effective"), list=Sum("list_cost"))
        .order_by("month", "service_category")
    )
    months = sorted({r["month"] for r in monthly})
    by_month = [
        {"month": r["month"].isoformat()[:7], "category": r["service_category"] or "Other",
         "billed": _s(r["billed"]), "effective": _s(r["effective"]), "list": _s(r["list"])}
        for r in monthly
    ]  # fmt: skip
    usage = lines.filter(service_category__in=MACHINE_CATEGORIES, charge_category="Usage")
    return {
        "months": [m.isoformat()[:7] for m in months],
        "by_month": by_month,
        "apart": _apart(by_month),
        "hours": _hours(usage),
        "floor": _floor(usage),
        "commitments": bill_commitment_summary(bill, lines).as_json(),
    }


def _apart(by_month: list[dict]) -> dict:
    """Compute and AI/ML, each on its own: billed, effective and list over the months."""
    out = {}
    for category in MACHINE_CATEGORIES:
        rows = [r for r in by_month if r["category"] == category]
        out[category] = {k: _s(sum((Decimal(r[k]) for r in rows), ZERO))
                         for k in ("billed", "effective", "list")}  # fmt: skip
    return out


def _gpus(types: set[str]) -> dict[str, int]:
    """GPUs per instance of each type, from the catalog's tiers of that name."""
    found: dict[str, int] = {}
    for name, gpus in Tier.objects.filter(name__in=types, gpus__gt=0).values_list("name", "gpus"):
        found[name] = max(found.get(name, 0), gpus)
    return found


def _hours(usage) -> list[dict]:
    """Instance-hours and GPU-hours by instance type and pricing category."""
    sums: dict[tuple[str, str], Decimal] = defaultdict(Decimal)
    rows = (
        usage.exclude(instance_type="")
        .values("instance_type", "pricing_category", "unit")
        .annotate(quantity=Sum("quantity"))
    )
    for row in rows:
        per = hours_per_unit(row["unit"])
        if per is not None:
            pricing = row["pricing_category"] if row["pricing_category"] in PRICING else "Other"
            sums[(row["instance_type"], pricing)] += (row["quantity"] or ZERO) * per
    gpus = _gpus({t for t, _ in sums})
    return [
        {"instance_type": t, "pricing": p, "hours": _s(h), "gpus": gpus.get(t),
         "gpu_hours": _s(h * gpus[t]) if t in gpus else None}
        for (t, p), h in sorted(sums.items(), key=lambda kv: (-kv[1], kv[0]))
    ]  # fmt: skip


def _floor(usage) -> list[dict]:
    """Per month: the steady floor (the fewest machines running on any day of the month,
    so the hours that ran all month) against the mean and the peak day, in machines
    (a day's machine-hours ÷ 24). A day of the month with no usage is a floor of 0."""
    daily: dict[date, Decimal] = defaultdict(Decimal)
    for row in usage.values("day", "unit").annotate(quantity=Sum("quantity")):
        per = hours_per_unit(row["unit"])
        if per is not None:
            daily[row["day"]] += (row["quantity"] or ZERO) * per
    months: dict[date, list[Decimal]] = defaultdict(list)
    for day, hours in daily.items():
        months[day.replace(day=1)].append(hours)
    out = []
    for month, hours in sorted(months.items()):
        days = calendar.monthrange(month.year, month.month)[1]
        floor = min(hours) if len(hours) == days else ZERO
        out.append({
            "month": month.isoformat()[:7], "days": days, "days_with_usage": len(hours),
            "floor": _s(floor / 24), "mean": _s(sum(hours, ZERO) / days / 24),
            "peak": _s(max(hours) / 24), "floor_hours": _s(floor * days),
            "hours": _s(sum(hours, ZERO)),
        })  # fmt: skip
    return out
