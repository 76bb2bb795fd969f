# ruff: noqa: RUF003  (hand calculations written with × and −)
"""The price points users quote (FIELD-NOTES), at catalog list prices, worked by hand.

Also home of the small in-memory catalog frame the engine tests share: the columns of
`catalog.pricing.catalog_frame`, built from plain rows, no database.
"""

import datetime as dt
from decimal import Decimal

import pandas as pd

from planner.compute.engine import evaluate
from planner.compute.schema import parse_plan

AS_OF = dt.date(2026, 2, 1)
DAY = dt.date(2026, 1, 19)
AWS = "aws/karpenter-provider-aws pkg/providers/pricing/zz_generated.pricing_aws.go"
INMOTION = "vendor's published tier as quoted by users; verify and date before relying on it"


def tier(slug, amount, unit="month", *, name=None, kind="dedicated", model="fixed_monthly",
         vcpus=None, ram=None, gpus=0, managed=None, setup="0", min_term=None, confirmed=True,
         source=AWS, currency="USD", price_id=None):  # fmt: skip
    amount = Decimal(str(amount))
    monthly = amount * 730 if unit == "hour" else amount
    return {
        "slug": slug, "name": name or slug, "provider": slug.split("-")[0], "kind": kind,
        "pricing_model": model, "region": "", "vcpus": vcpus, "cores": None, "cpu_model": "",
        "ram_gib": ram, "gpus": gpus, "gpu_model": "", "gpu_mem_gib": None, "managed": managed,
        "min_term_months": min_term, "price_id": price_id or abs(hash(slug)) % 10_000,
        "amount": amount, "unit": unit, "effective_from": DAY, "source": source,
        "source_url": "", "confirmed": confirmed, "stale": False, "currency": currency,
        "monthly": float(monthly.quantize(Decimal("0.01"))), "monthly_exact": monthly,
        "setup_fee": float(setup), "setup_fee_exact": Decimal(setup),
        "per_vcpu_hour": float(monthly / 730 / vcpus) if vcpus else float("nan"),
        "per_gib_hour": float("nan"),
        "per_gpu_hour": float(amount / gpus) if gpus else float("nan"),
    }  # fmt: skip


def frame(*rows) -> pd.DataFrame:
    out = pd.DataFrame(list(rows))
    for column in ("vcpus", "cores", "gpus", "min_term_months"):
        out[column] = out[column].astype("Int64")
    out["ram_gib"] = out["ram_gib"].astype("float64")
    out["managed"] = out["managed"].astype("boolean")
    out.attrs["dropped"] = []
    return out


EXTREME = tier("inmotion-extreme", "349.99", name="Extreme Dedicated", vcpus=32, ram=192,
               managed=True, confirmed=False, source=INMOTION)  # fmt: skip
ADVANCED = tier("inmotion-advanced", "149.99", name="Advanced Dedicated", managed=True,
                confirmed=False, source=INMOTION)  # fmt: skip
ESSENTIAL = tier("inmotion-essential", "99.99", name="Essential Dedicated", managed=True,
                 confirmed=False, source=INMOTION)  # fmt: skip
C5_2X = tier("aws-c5.2xlarge-us-east-1-on-demand", "0.34", "hour", kind="cloud_vm",
             model="on_demand", vcpus=8, ram=16)  # fmt: skip
C5_4X_SPOT = tier("aws-c5.4xlarge-us-east-1-spot", "150", kind="cloud_vm", model="spot",
                  vcpus=16, ram=32, confirmed=False, source="quoted by users")  # fmt: skip
R5_4X = tier("aws-r5.4xlarge-us-east-1-on-demand", "1.008", "hour", kind="cloud_vm",
             model="on_demand", vcpus=16, ram=128)  # fmt: skip
CATALOG = frame(EXTREME, ADVANCED, ESSENTIAL, C5_2X, C5_4X_SPOT, R5_4X)


def compare(baseline: dict, candidate: dict, **plan):
    data = {"currency": "USD", "baseline": baseline, "candidates": [candidate], **plan}
    return evaluate(parse_plan(data), CATALOG, {}, as_of=AS_OF)


def test_the_quoted_480_against_one_extreme_with_500_of_migration_pays_back_in_month_4():
    result = compare(
        {"monthly": 480},
        {"tier": "inmotion-extreme", "count": 1},
        one_time={"migration_hours": 5, "migration_rate": 100, "running_both_months": 0,
                  "retraining": 0},
    )  # fmt: skip
    money = result.options[0].money
    assert money.one_time == Decimal("500.00")
    assert money.monthly[0] == Decimal("349.99")
    assert money.payback_month == 4
    assert money.payback_fraction == Decimal("3.85")  # 500 / (480 − 349.99) = 3.8458
    assert money.payback_label == "month 4"
    assert money.saving_per_month == Decimal("130.01")
    assert money.saving_per_year == Decimal("1560.12")
    # 36 × 480 − (500 + 36 × 349.99) = 17280 − 13099.64
    assert money.saving == Decimal("4180.36")
    assert result.headline.payback_label == "month 4"
    assert result.headline.not_entered == []
    assert result.no_number == []  # a fixed count needs no measurement


def test_two_c5_2xlarge_at_list_price_cost_496_40_against_essential_at_99_99():
    result = compare(
        {"tier": "aws-c5.2xlarge-us-east-1-on-demand", "count": 2},
        {"tier": "inmotion-essential", "count": 1},
        horizon_months=12,
    )
    assert result.baseline["monthly"][0] == "496.40"  # 2 × 0.34 × 730
    money = result.options[0].money
    assert money.saving_per_month == Decimal("396.41")  # 496.40 − 99.99
    assert money.saving == Decimal("4756.92")  # 12 × 396.41
    assert money.saving_pct == Decimal("79.86")  # 396.41 / 496.40
    assert money.payback_label == "immediately"


def test_r5_4xlarge_at_list_price_is_735_84_a_month_against_extreme_at_349_99():
    result = compare(
        {"tier": "aws-r5.4xlarge-us-east-1-on-demand"},
        {"tier": "inmotion-extreme", "count": 1},
        horizon_months=36,
    )
    assert result.baseline["monthly"][0] == "735.84"  # 1.008 × 730, not the quoted ~780
    money = result.options[0].money
    assert money.saving_per_month == Decimal("385.85")
    assert money.saving == Decimal("13890.60")  # 36 × 385.85
    assert money.saving_pct == Decimal("52.44")  # 385.85 / 735.84
    # 349.99 / 1.008 = 347.21 hours: below that, the hourly r5 is cheaper.
    even = result.baseline["break_even_vs_best_monthly"]
    assert even["hours_per_month"] == "347.21"
    assert even["hourly_always_cheaper"] is False


def test_c5_4xlarge_spot_at_the_quoted_150_against_advanced_at_149_99_saves_a_cent():
    result = compare(
        {"tier": "aws-c5.4xlarge-us-east-1-spot"},
        {"tier": "inmotion-advanced", "count": 1},
        horizon_months=36,
    )
    money = result.options[0].money
    assert money.saving_per_month == Decimal("0.01")
    assert money.saving == Decimal("0.36")
    assert money.payback_label == "immediately"
    notes = " ".join(result.options[0].notes)
    assert "price unconfirmed" in notes  # the InMotion figure is a user quote


def test_the_headline_names_the_one_time_items_the_manager_has_not_entered():
    result = compare({"monthly": 480}, {"tier": "inmotion-extreme", "count": 1})
    assert result.headline.not_entered == ["migration", "running both", "retraining"]
    assert "Not entered yet: migration, running both, retraining." in result.headline.sentence
    assert result.headline.payback_label == "immediately"
