# ruff: noqa: RUF003  (properties written with −)
"""Properties of the money engine that must hold for any prices (hypothesis)."""

from decimal import Decimal

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.compute import tco

HORIZON = st.integers(min_value=1, max_value=24)
CENTS = st.integers(min_value=0, max_value=2_000_000)


@st.composite
def plans(draw):
    """A baseline and one option: cents a month each, and a one-time cost."""
    h = draw(HORIZON)
    baseline = draw(st.lists(CENTS, min_size=h, max_size=h))
    monthly = draw(st.lists(CENTS, min_size=h, max_size=h))
    one_time = draw(st.integers(min_value=0, max_value=5_000_000))
    return np.array(baseline), np.array(monthly), one_time


def run(baseline, monthly, one_time, rate="0.07"):
    return tco.compute(
        names=["option"],
        baseline_cents=baseline,
        one_time_cents=np.array([one_time]),
        monthly_cents=np.array([monthly]),
        annual_rate=Decimal(rate),
    )


def months_to_payback(result) -> float:
    month = int(result.payback_month[0])
    return month if month else float("inf")


@settings(max_examples=300, deadline=None)
@given(plans())
def test_payback_agrees_with_where_the_cumulative_curves_cross(plan):
    baseline, monthly, one_time = plan
    result = run(baseline, monthly, one_time)
    option = one_time + np.concatenate(([0], np.cumsum(monthly)))
    base = np.concatenate(([0], np.cumsum(baseline)))
    month = int(result.payback_month[0])
    if month == 0:
        assert option[-1] >= base[-1]  # not strictly ahead at the horizon
        return
    assert (option[month:] < base[month:]).all()  # ahead from the payback month on…
    assert month == 1 or option[month - 1] >= base[month - 1]  # …and not a month earlier
    assert month - 1 <= float(result.payback_fraction[0]) <= month


@settings(max_examples=300, deadline=None)
@given(plans(), st.integers(min_value=1, max_value=5_000_000))
def test_more_one_time_cost_never_pays_back_sooner(plan, extra):
    baseline, monthly, one_time = plan
    before = months_to_payback(run(baseline, monthly, one_time))
    after = months_to_payback(run(baseline, monthly, one_time + extra))
    assert after >= before


@settings(max_examples=300, deadline=None)
@given(plans(), st.data())
def test_a_cheaper_monthly_price_never_lowers_the_saving(plan, data):
    baseline, monthly, one_time = plan
    cut = np.array(data.draw(st.lists(CENTS, min_size=len(monthly), max_size=len(monthly))))
    cheaper = np.maximum(monthly - cut, 0)
    saving = run(baseline, monthly, one_time).saving_cents[0]
    assert run(baseline, cheaper, one_time).saving_cents[0] >= saving
    assert months_to_payback(run(baseline, cheaper, one_time)) <= months_to_payback(
        run(baseline, monthly, one_time)
    )


@settings(max_examples=300, deadline=None)
@given(plans())
def test_npv_at_rate_zero_is_the_total_saving_minus_the_one_time_cost(plan):
    baseline, monthly, one_time = plan
    result = run(baseline, monthly, one_time, rate="0")
    assert result.npv_cents[0] == int((baseline - monthly).sum()) - one_time
    assert result.option(0).npv == result.option(0).saving


@settings(max_examples=200, deadline=None)
@given(plans(), st.sampled_from(["0.01", "0.07", "0.25"]))
def test_a_positive_rate_discounts_the_present_cost_below_the_total(plan, rate):
    baseline, monthly, one_time = plan
    result = run(baseline, monthly, one_time, rate=rate)
    assert one_time <= result.present_cost_cents[0] <= result.total_cents[0]


@settings(max_examples=300, deadline=None)
@given(plans(), st.sampled_from(["0", "0.07", "0.14", "0.35"]))
def test_the_headline_of_one_option_is_what_compute_gives_for_it(plan, rate):
    baseline, monthly, one_time = plan
    result = run(baseline, monthly, one_time, rate)
    figures = tco.headline(baseline_cents=baseline, one_time_cents=one_time,
                           monthly_cents=monthly, annual_rate=Decimal(rate))  # fmt: skip
    expected = (int(result.npv_cents[0]), int(result.saving_cents[0]),
                int(result.payback_month[0]))  # fmt: skip
    assert figures == expected


@settings(max_examples=300, deadline=None)
@given(plans())
def test_the_payback_month_alone_is_the_headlines(plan):
    baseline, monthly, one_time = plan
    month = tco.payback_month(baseline_cents=baseline, one_time_cents=one_time,
                              monthly_cents=monthly)  # fmt: skip
    figures = tco.headline(baseline_cents=baseline, one_time_cents=one_time,
                           monthly_cents=monthly, annual_rate=Decimal("0.07"))  # fmt: skip
    assert month == figures[2]


@st.composite
def lines(draw):
    """A line of months near its month 1 (-3x to 3x, as costs are) and a new month-1
    value near the old one; month 1 from zero to ten billion dollars, either sign."""
    base = draw(st.integers(min_value=-(10**12), max_value=10**12))
    spread = 3 * abs(base) + 1
    rest = draw(st.lists(st.integers(min_value=-spread, max_value=spread), max_size=59))
    return [base, *rest], draw(st.integers(min_value=0, max_value=2 * abs(base) + 1))


@settings(max_examples=400, deadline=None)
@given(lines())
def test_a_scaled_line_is_each_month_rounded_half_up_as_tco_rounds_it(line_and_value):
    from planner.compute.sensitivity import _scale

    cents, value = line_and_value
    line = np.array(cents, dtype=np.int64)
    base = int(line[0])
    expected = (
        line
        if base == 0
        else np.array([tco._round_half_up(c * value, base) for c in cents], dtype=np.int64)
    )
    assert _scale(line, base)(value).tolist() == expected.tolist()
