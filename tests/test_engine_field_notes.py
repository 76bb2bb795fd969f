# ruff: noqa: RUF003  (hand calculations written with × and −)
"""The price points users quote (docs/design.md, "The field-notes case"), at catalog list
prices, worked by hand."""

from decimal import Decimal

from planner.compute import engine
from planner.compute.schema import parse_plan
from tests.support.engine import (
    ADVANCED,
    AS_OF,
    C5_2X,
    C5_4X_SPOT,
    ESSENTIAL,
    EXTREME,
    R5_4X,
    frame,
)

CATALOG = frame(EXTREME, ADVANCED, ESSENTIAL, C5_2X, C5_4X_SPOT, R5_4X)


def compare(baseline: dict, candidate: dict, **plan):
    data = {"currency": "USD", "baseline": baseline, "candidates": [candidate], **plan}
    return engine.compare(parse_plan(data), CATALOG, {}, as_of=AS_OF)


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
    assert result.baseline.monthly[0] == "496.40"  # 2 × 0.34 × 730
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
    assert result.baseline.monthly[0] == "735.84"  # 1.008 × 730, not the quoted ~780
    money = result.options[0].money
    assert money.saving_per_month == Decimal("385.85")
    assert money.saving == Decimal("13890.60")  # 36 × 385.85
    assert money.saving_pct == Decimal("52.44")  # 385.85 / 735.84
    # 349.99 / 1.008 = 347.21 hours: below that, the hourly r5 is cheaper.
    even = result.baseline.break_even_vs_best_monthly
    assert even is not None and str(even.hours_per_month) == "347.21"
    assert even.hourly_always_cheaper is False


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
    notes = " ".join(str(n) for n in result.options[0].notes)
    assert "price unconfirmed" in notes  # the InMotion figure is a user quote


def test_the_headline_names_the_one_time_items_the_manager_has_not_entered():
    result = compare({"monthly": 480}, {"tier": "inmotion-extreme", "count": 1})
    assert result.headline.not_entered == ["migration", "running both", "retraining"]
    assert "Not entered yet: migration, running both, retraining." in result.headline.sentence
    assert result.headline.payback_label == "immediately"
