"""Where each figure of a comparison comes from (the adapter over the engine's dict).

The engine puts a price row on every part and a measurement basis on every sized
workload. This adapter lifts them to where the figures are: each option, its
capacity, the baseline, the headline, price/performance rows and exchange rates,
so a reader (or the API's provenance test) finds the source of any number by
walking up to the nearest object with a "provenance" (or "price"/"basis").
"""

from __future__ import annotations

from collections.abc import Set
from decimal import Decimal
from typing import Any

from django.db import models

from catalog.models import ExchangeRate
from changes.selectors import Generation
from planner.services.bills import bill_provenance

ONE_TIME_INPUTS = {
    "migration": ["one_time.migration_hours", "one_time.migration_rate"],
    "retraining": ["one_time.retraining"],
    "other": ["one_time.other"],
}


def with_provenance(
    comparison: dict[str, Any], generation: Generation | None = None
) -> dict[str, Any]:
    """`comparison` with the sources of its figures (the exchange-rate rows in one query;
    `generation` is the one the figures were computed at)."""
    plan = comparison["plan"]
    for option in comparison["options"]:
        _option_provenance(option, plan, comparison["baseline"])
    comparison["baseline"]["provenance"] = _baseline_provenance(comparison["baseline"], plan)
    headline = comparison["headline"]
    headline["provenance"] = {"option": headline["best"]} if headline.get("best") else {}
    prices = {p["tier"]: p["price"] for o in comparison["options"] for p in o["parts"]}
    for row in comparison.get("price_performance", []):
        if row["tier"] in prices:
            row["price"] = prices[row["tier"]]
    _fx_provenance(comparison.get("fx", []), generation)
    return comparison


def _bases(capacity_result: dict[str, Any] | None) -> tuple[list[dict], list[dict]]:
    runs, estimates = [], []
    for workload in (capacity_result or {}).get("workloads", []):
        basis = workload.get("basis") or {}
        if "run_id" in basis:
            runs.append(basis)
        elif "estimate" in basis:
            estimates.append(basis["estimate"])
    return runs, estimates


def _baseline_carried(
    plan: dict[str, Any], baseline: dict[str, Any]
) -> tuple[list[str], list[dict[str, Any]]]:
    """What of today's spend an option's months carry: the whole baseline during the months
    of running both, and the commitments until they run out (the engine's `shared_monthly`).
    Their entered fields and price rows are inputs of the option as much as of the baseline.
    """
    given = plan["baseline"]
    entered: list[str] = []
    prices: list[dict[str, Any]] = []
    both = (plan.get("one_time") or {}).get("running_both_months") or 0
    if both:
        entered.append("one_time.running_both_months")
        if given.get("monthly") is not None:
            entered.append("baseline.monthly")
        elif "price" in baseline:
            entered.append("baseline.count")
            prices.append(baseline["price"])
    for i, commitment in enumerate(given.get("commitments") or []):
        entered.append(f"baseline.commitments[{i}].months_remaining")
        if commitment.get("monthly") is not None:
            entered.append(f"baseline.commitments[{i}].monthly")
        else:
            entered.append(f"baseline.commitments[{i}].count")
            prices += [c["price"] for c in baseline.get("commitment_prices", []) if c["index"] == i]
    return entered, prices


OWNED_INPUTS = ("count", "purchase_price", "setup", "depreciation_years", "resale", "watts",
                "pue", "kwh_price", "colocation_monthly", "support_share", "spares_monthly",
                "financing", "resale_percent", "loan_annual_rate", "loan_months")  # fmt: skip


def _owned_entered(option: dict[str, Any], plan: dict[str, Any]) -> list[str]:
    """An owned server's option rests on its own fields (the defaults among them carry their
    source in the comparison's assumptions)."""
    if not str(option.get("key", "")).startswith("owned:"):
        return []
    index = int(option["key"].split(":", 1)[1])
    given = (plan.get("owned") or [])[index]
    return [f"owned[{index}].{name}" for name in OWNED_INPUTS if given.get(name) is not None]


def _option_provenance(
    option: dict[str, Any], plan: dict[str, Any], baseline: dict[str, Any]
) -> None:
    runs, estimates = [], []
    fits: list[bool] = []
    for part in option["parts"]:
        cap = part.get("capacity")
        part_runs, part_estimates = _bases(cap)
        if cap is not None:
            cap["provenance"] = {
                "tier": part["tier"],
                "runs": part_runs,
                "estimates": part_estimates,
            }
            if cap.get("fits_in_ram") is not None:
                fits.append(bool(cap["fits_in_ram"]))
        if part["mode"] == "sized":
            runs += part_runs
            estimates += part_estimates
    entered = []
    for item, amount in option.get("one_time_items", {}).items():
        if item in ONE_TIME_INPUTS and Decimal(amount):
            entered += ONE_TIME_INPUTS[item]
    monthly = plan.get("monthly") or {}
    entered += [f"monthly.{k}" for k in ("egress", "other") if Decimal(monthly.get(k) or 0)]
    carried, carried_prices = _baseline_carried(plan, baseline)
    entered += carried
    entered += _owned_entered(option, plan)
    option["servers"] = sum(
        p["servers_by_month"][0] for p in option["parts"] if p["servers_by_month"]
    )
    option["fits_in_ram"] = None if not fits else all(fits)
    option["provenance"] = {
        "prices": [part["price"] for part in option["parts"]] + carried_prices,
        "runs": runs,
        "estimates": estimates,
        "entered": entered,
    }


def _baseline_provenance(baseline: dict[str, Any], plan: dict[str, Any]) -> dict[str, Any]:
    given = plan["baseline"]
    entered = ["baseline.monthly"] if given.get("monthly") is not None else []
    prices = [baseline["price"]] if "price" in baseline else []
    prices += [c["price"] for c in baseline.get("commitment_prices", [])]
    for i, commitment in enumerate(given.get("commitments") or []):
        if commitment.get("monthly") is not None:
            entered.append(f"baseline.commitments[{i}].monthly")
    said: dict[str, Any] = {"prices": prices, "entered": entered}
    if (bill := bill_provenance(given.get("bill"))) is not None:
        said["bill"] = bill  # the bill, its period and lines: the monthly's source
        if not bill.get("deleted") and given.get("monthly") == bill["monthly"]:
            said["entered"] = [e for e in entered if e != "baseline.monthly"]
    return said


def _fx_provenance(rates: list[dict[str, Any]], generation: Generation | None) -> None:
    """Each exchange rate the prices were converted at, with its rows: one query for all.
    Not kept in this process: bench/memo_pays.py measured 0.4-0.5 ms a read (2,018 and
    20,000 tiers), and it is read only when an answer is computed, not served from cache."""
    wanted = frozenset((entry.get("date"), entry["into"]) for entry in rates)
    found = _rate_rows(wanted)
    for entry in rates:
        entry["rows"] = [dict(row) for row in found.get((entry.get("date"), entry["into"]), [])]


def _rate_rows(wanted: Set[tuple[str | None, str]]) -> dict[tuple[str, str], list[dict]]:
    pairs = {(date, currency) for date, currency in wanted if date is not None}
    if not pairs:
        return {}
    either = models.Q()
    for currency in {currency for _date, currency in pairs}:
        either |= models.Q(to_currency=currency) | models.Q(from_currency=currency)
    rows = ExchangeRate.objects.filter(either, date__in={date for date, _c in pairs})
    found: dict[tuple[str, str], list[dict]] = {}
    for row in rows:
        day = row.date.isoformat()
        for currency in (row.to_currency, row.from_currency):
            if (day, currency) in pairs:
                found.setdefault((day, currency), []).append(_rate_row(row))
    return found


def _rate_row(row: ExchangeRate) -> dict[str, Any]:
    return {
        "rate_id": row.pk,
        "from": row.from_currency,
        "to": row.to_currency,
        "rate": str(row.rate),
        "date": row.date.isoformat(),
        "source": row.source,
    }


def exchange_rate_rows(date: str | None, currency: str) -> list[dict[str, Any]]:
    """The exchange rates of `date` into or out of `currency`, as provenance rows."""
    return _rate_rows({(date, currency)}).get((date, currency), []) if date else []
