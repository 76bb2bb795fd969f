# ruff: noqa: RUF001, RUF003  (money notation: ×, −)
"""Plans drawn anywhere inside the schema's bounds, and what every answer must satisfy
(docs/design.md, "Bounds"): never a 500, never a wrapped sum, never a wrong sign.

Shared by tests/test_bounds_no_wrap.py (500 seeded examples in CI) and
bench/bounds_property.py (10,000, reporting what it finds). Plans are over the shipped
default catalog: fixed counts of its tiers, quoted or tier baselines, every growth,
horizon and one-time cost the schema takes, and ranges at the schema's own bounds.
"""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

TIERS = (
    "inmotion-hosting-extreme-dedicated-fixed-monthly",
    "inmotion-hosting-essential-dedicated-fixed-monthly",
    "aws-c5.4xlarge-us-east-1-on-demand",
    "aws-c5.4xlarge-us-east-1-reserved-1y",
    "aws-c5.4xlarge-spot",
    "aws-p5.48xlarge-us-east-1-on-demand",
    "hetzner-auction-sb-191830-fsn1-fixed-monthly",
)
SCALE = ("baseline_monthly", "price", "one_time", "fx")
ABSOLUTE = {"monthly_growth": ("0", "0.5"), "annual_discount_rate": ("0", "1")}
REFUSED_FIELDS = {"monthly_growth", "baseline.monthly", "baseline.count", "candidates", "owned"}
MAXIMUM = Decimal(10**12)  # bounds.AMOUNT_MAX, in currency units


def _edge(rng: random.Random, low: float, high: float, places: int) -> str:
    """A value in [low, high], at either bound a quarter of the time each."""
    pick = rng.random()
    value = low if pick < 0.2 else high if pick < 0.45 else rng.uniform(low, high)
    return f"{value:.{places}f}"


def random_plan(rng: random.Random) -> dict[str, Any]:
    plan: dict[str, Any] = {
        "currency": "USD",
        "horizon_months": rng.choice([1, 12, 36, 120, rng.randint(1, 120)]),
        "monthly_growth": _edge(rng, 0, 0.5, 6),
        "annual_discount_rate": _edge(rng, 0, 1, 6),
        "candidates": [
            {"tier": rng.choice(TIERS), "count": int(_edge(rng, 1, 10_000, 0))}
            for _ in range(rng.randint(1, 3))
        ],
        "one_time": {
            "migration_hours": _edge(rng, 0, 100_000, 2),
            "migration_rate": _edge(rng, 0, 10_000, 2),
            "running_both_months": int(_edge(rng, 0, 24, 0)),
            "retraining": _edge(rng, 0, 1e8, 2),
        },
    }
    if rng.random() < 0.6:
        plan["baseline"] = {"monthly": _edge(rng, 0, 1e8, 2)}
    else:
        plan["baseline"] = {"tier": rng.choice(TIERS), "count": int(_edge(rng, 1, 10_000, 0))}
    ranges = []
    for name in rng.sample([*SCALE, *ABSOLUTE], rng.randint(0, 3)):
        low, high = ABSOLUTE.get(name, ("0", "100"))
        a = Decimal(_edge(rng, float(low), float(high), 6))
        b = Decimal(_edge(rng, float(low), float(high), 6))
        ranges.append({"input": name, "low": str(min(a, b)), "high": str(max(a, b))})
    plan["ranges"] = ranges
    return plan


def check_refusal(body: dict[str, Any], allowed: set[str]) -> list[str]:
    """A 400 for figures past the maximum names one of `allowed` fields, with its code."""
    found = []
    for path, details in body.get("error_details", {}).items():
        codes = {d["code"] for d in details}
        if path not in allowed and not path.startswith("ranges["):
            found.append(f"refused at an unexpected field {path}")
        if not codes <= {"engine.too_large", "engine.too_many_servers"}:
            found.append(f"refused with {codes} at {path}")
    return found or ([] if body.get("error_details") else ["a 400 without error_details"])


def check_comparison(plan: dict[str, Any], body: dict[str, Any]) -> list[str]:
    """What a 200 answer must satisfy: exact sums, right signs, payback iff saving."""
    out = []
    base = body["baseline"]
    base_monthly = [Decimal(m) for m in base["monthly"]]
    base_total = Decimal(base["total"])
    if len(base_monthly) != plan["horizon_months"]:
        out.append("baseline months ≠ horizon")
    if any(m < 0 for m in base_monthly) or base_total != sum(base_monthly):
        out.append(f"baseline total {base_total} ≠ Σ monthly or negative")
    if abs(base_total) > MAXIMUM:
        out.append(f"baseline total {base_total} past the maximum")
    for option in body["options"]:
        m = option["money"]
        total, one_time = Decimal(m["total"]), Decimal(m["one_time"])
        monthly = [Decimal(x) for x in m["monthly"]]
        key = option.get("key")
        if one_time < 0 or any(x < 0 for x in monthly):
            out.append(f"{key}: a negative amount")
        if total != one_time + sum(monthly):
            out.append(f"{key}: total {total} ≠ one-time + Σ monthly")
        saving = Decimal(m["saving"])
        if saving != base_total - total:
            out.append(f"{key}: saving {saving} ≠ baseline − total")
        if (m["payback_month"] is not None) != (saving > 0):
            out.append(f"{key}: payback {m['payback_month']} beside saving {saving}")
        pct = m["saving_pct"]
        if pct is not None and (Decimal(pct) > 0) != (saving > 0) and Decimal(pct) != 0:
            out.append(f"{key}: saving {pct} % beside saving {saving}")
        npv = Decimal(m["npv"])
        if abs(npv) > 2 * MAXIMUM:
            out.append(f"{key}: NPV {npv} past twice the maximum")
        if Decimal(plan.get("annual_discount_rate", "0.07")) == 0 and npv != saving:
            out.append(f"{key}: NPV {npv} ≠ saving {saving} at rate 0")
    return out


def check_uncertainty(body: dict[str, Any]) -> list[str]:
    out = []
    odds = body.get("montecarlo") or {}
    for item in odds.get("inputs", []):
        if item["input"] in ABSOLUTE:
            low, high = ABSOLUTE[item["input"]]
            if not Decimal(low) <= Decimal(item["low"]) <= Decimal(item["high"]) <= Decimal(high):
                out.append(f"{item['input']} range {item['low']}…{item['high']} out of bounds")
    for option in odds.get("options", []):
        if not 0 <= Decimal(option["pays_back"]) <= 1:
            out.append(f"pays back {option['pays_back']}")
        s = [Decimal(option["saving"][p]) for p in ("p10", "p50", "p90")]
        if not s[0] <= s[1] <= s[2]:
            out.append(f"saving percentiles out of order {s}")
    for row in body.get("one_way", []):
        for name in ("npv_low", "npv_high"):
            if abs(Decimal(row[name])) > 10 * MAXIMUM:
                out.append(f"{row['input']} {name} {row[name]} past ten times the maximum")
    return out
