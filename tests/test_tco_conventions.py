# ruff: noqa: RUF003  (hand calculations written with ×, −, ÷)
"""The money conventions (docs/design.md), worked by hand: payback labels, NPV, present
cost, exact cents."""

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import numpy as np
import pytest

from planner.compute import tco


def one_option(baseline, monthly, one_time=0, rate="0.07"):
    result = tco.compute(
        names=["option"],
        baseline_cents=np.asarray(baseline, dtype=np.int64),
        one_time_cents=np.array([one_time]),
        monthly_cents=np.array([monthly], dtype=np.int64),
        annual_rate=Decimal(rate),
    )
    return result, result.option(0)


def test_a_cheaper_option_with_no_one_time_cost_pays_back_immediately():
    _, money = one_option([48000] * 12, [34999] * 12)
    assert (money.payback_month, money.payback_label) == (1, "immediately")
    assert money.payback_fraction == Decimal("0.00")


def test_one_time_cost_recovered_in_month_one_is_within_the_first_billing_period():
    _, money = one_option([48000] * 12, [34999] * 12, one_time=10000)
    assert money.payback_label == "within the first billing period"
    assert money.payback_fraction == Decimal("0.77")  # 100 ÷ 130.01


def test_an_option_that_only_equals_the_baseline_never_pays_back():
    _, money = one_option([48000] * 12, [48000] * 12)
    assert (money.payback_month, money.payback_label) == (None, "never")
    assert money.payback_fraction is None
    assert money.saving == Decimal("0.00")


def test_an_option_still_behind_at_the_horizon_does_not_pay_back_within_it():
    """Still cheaper a month at the end: "not within the horizon", not "never" (issue 21:
    one rule for the table, the odds and the API)."""
    _, money = one_option([10000] * 6, [9000] * 6, one_time=6001)  # saves 60.00, owes 60.01
    assert money.payback_label == "not within the horizon" and money.payback_month is None
    assert str(money.payback) == "not within 6 months"


def test_an_option_no_cheaper_a_month_at_the_horizons_end_never_pays_back():
    _, money = one_option([10000] * 6, [10000] * 5 + [10001], one_time=0)
    assert money.payback_label == "never" and str(money.payback) == "never"


def test_payback_is_the_month_from_which_the_option_stays_ahead_to_the_end():
    # Ahead in month 1, behind in months 2–3 (a price step), ahead again from month 4.
    baseline = [100_00] * 6
    monthly = [50_00, 200_00, 100_00, 0, 0, 0]
    _, money = one_option(baseline, monthly)
    # cumulative lead: +50, −50, −50, +50, +150, +250
    assert money.payback_month == 4
    assert money.payback_label == "month 4"
    assert money.payback_fraction == Decimal("3.50")


def test_the_fraction_for_a_constant_saving_is_one_time_over_the_monthly_saving():
    _, money = one_option([48000] * 36, [34999] * 36, one_time=50000)
    assert money.payback_fraction == Decimal("3.85")  # 500 ÷ 130.01 = 3.8458
    assert money.payback_month == 4


def test_npv_at_rate_zero_is_the_total_saving_minus_the_one_time_cost():
    _, money = one_option([48000] * 36, [34999] * 36, one_time=50000, rate="0")
    assert money.npv == Decimal("4180.36")  # 36 × 130.01 − 500
    assert money.npv == money.saving


def test_npv_and_present_cost_discount_each_month_at_the_monthly_rate():
    _, money = one_option([10000] * 3, [6000] * 3, one_time=5000, rate="0.12")
    i = Decimal("1.12") ** (Decimal(1) / 12) - 1
    npv = -50 + sum(Decimal(40) / (1 + i) ** m for m in (1, 2, 3))
    present = 50 + sum(Decimal(60) / (1 + i) ** m for m in (1, 2, 3))
    assert money.npv == npv.quantize(Decimal("0.01"), ROUND_HALF_UP)
    assert money.present_cost == present.quantize(Decimal("0.01"), ROUND_HALF_UP)


def test_cumulative_cost_starts_with_the_one_time_cost_at_month_zero():
    _, money = one_option([10000] * 3, [6000] * 3, one_time=5000)
    assert money.cumulative == [Decimal(x) for x in ("50.00", "110.00", "170.00", "230.00")]
    assert money.total == Decimal("230.00")


def test_options_come_cheapest_first():
    result = tco.compute(
        names=["dear", "cheap", "middle"],
        baseline_cents=np.array([100, 100]),
        one_time_cents=np.array([0, 0, 0]),
        monthly_cents=np.array([[90, 90], [10, 10], [50, 50]]),
        annual_rate=0,
    )
    assert [result.names[i] for i in result.order()] == ["cheap", "middle", "dear"]


def test_bill_lines_are_exact_where_float_arithmetic_is_not():
    assert 0.1 * 3 != 0.3  # the float trap
    assert tco.line_cents([Decimal("0.1")], np.array([[3]]))[0, 0] == 30
    # 2.675 is 2.67499999… in binary floating point; in cents it rounds half up to 2.68.
    assert round(2.675, 2) == 2.67
    assert tco.line_cents([Decimal("2.675")], np.array([[1]]))[0, 0] == 268
    assert tco.line_cents([Decimal("0.005"), Decimal("0.0049")], np.array([[1], [1]])).tolist() == [
        [1],
        [0],
    ]


def test_hourly_prices_become_monthly_lines_at_730_hours_exactly():
    units = [Decimal("1.008") * 730, Decimal("21.957642") * 730]
    assert tco.line_cents(units, np.array([[1], [1]])).ravel().tolist() == [
        73584,
        1602908,
    ]  # 735.84, 16,029.08


def test_prices_too_fine_for_int64_are_still_exact():
    # A converted price carries the exchange rate's 28 digits.
    unit = Decimal("349.99") * Decimal("0.9217391304347826086956521739")
    expected = int((unit * 7 * 100).quantize(Decimal(1), ROUND_HALF_UP))
    assert tco.line_cents([unit], np.array([[7]]))[0, 0] == expected


def test_a_rational_unit_price_rounds_from_its_exact_value():
    # 1,690 a year ÷ 12 = 140.8333… a month; three servers owe exactly 422.50.
    assert tco.line_cents([Fraction(1690, 12)], np.array([[1, 3]])).tolist() == [[14083, 42250]]


def test_growth_compounds_from_month_one_and_rounds_each_month():
    cents = tco.growth_cents(Decimal("100.00"), Decimal("0.05"), 3)
    assert cents.tolist() == [10000, 10500, 11025]


def test_break_even_is_the_hours_at_which_an_hourly_tier_costs_the_monthly_price():
    even = tco.break_even(Decimal("0.68"), Decimal("349.99"))
    assert even.hours_per_month == Decimal("514.69")  # 349.99 ÷ 0.68
    assert even.utilisation == Decimal("0.7051")
    assert not even.hourly_always_cheaper
    assert tco.break_even(Decimal("0.10"), Decimal("99.99")).hourly_always_cheaper  # 999.9 h


def test_price_performance_is_money_per_unit_of_measured_work():
    # 349.99 a month, 1e9 cell-trees/s: 349.99 ÷ (1e9 × 3600 × 730) × 1e9 per billion.
    [value] = tco.price_performance([Decimal("349.99")], np.array([1e9]), "gbm")
    assert value == Decimal("0.0001332")
    assert float(value) == pytest.approx(349.99 / (3600 * 730), rel=1e-3)
    assert tco.price_performance([Decimal("10")], np.array([np.nan]), "gbm") == [None]


def test_price_performance_of_hpo_uses_trials_per_hour():
    [value] = tco.price_performance([Decimal("730")], np.array([100.0]), "hpo")
    assert value == Decimal("10.00")  # 730 ÷ (100 × 730) × 1000 per thousand trials
