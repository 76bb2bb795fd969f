# ruff: noqa: RUF002, RUF003  (formulas written with ×, −, μ, θ)
"""The M/M/c response-time tail at loose bounds: up to a million mean service times.

Beyond some 745 mean service times e^{−μt} underflows to 0 while the waiting term's
e^{(θ−μ)t} overflows; their product was NaN and `min_workers` then took one worker too
many. The reference here is the docstring's closed form evaluated in decimal arithmetic
(exponents to ±10⁸, 40 digits) with Erlang C from the factorial formula: independent of
both the module's log space and its Poisson form.
"""

import math
from decimal import Context, Decimal, localcontext

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.compute import queueing

WIDE = Context(prec=40, Emin=-(10**8), Emax=10**8)


def erlang_c_factorial(c: int, a: Decimal) -> Decimal:
    top = a**c / math.factorial(c) * c / (c - a)
    return top / (sum(a**k / math.factorial(k) for k in range(c)) + top)


def decimal_tail(t: float, c: int, lam: float, mu: float) -> Decimal:
    """P(T > t) = e^{−μt}[1 + Pw·(1 − e^{−xμt})/x], x = c − 1 − a (μt when x = 0)."""
    with localcontext(WIDE):
        lam_, mu_, t_ = Decimal(lam), Decimal(mu), Decimal(t)
        a = lam_ / mu_
        pw = erlang_c_factorial(c, a)
        x, mt = c - 1 - a, mu_ * t_
        waiting = mt if x == 0 else (1 - (-x * mt).exp()) / x
        return (-mt).exp() * (1 + pw * waiting)


def agrees(value: float, reference: Decimal) -> bool:
    """Equal to 1e-9 relative; below the smallest normal double only ~0 is asked for."""
    return abs(Decimal(value) - reference) <= Decimal("1e-9") * reference + Decimal("1e-300")


loads = st.floats(min_value=0.05, max_value=60.0)
rates = st.floats(min_value=1.0, max_value=1e4)
spare = st.integers(min_value=0, max_value=10)
# The bound as a multiple of the mean service time, log-uniform over 1.01× .. 10⁶×.
ratios = st.floats(min_value=math.log(1.01), max_value=math.log(1e6)).map(math.exp)


def test_the_reported_case_has_a_tail_and_eight_workers_meet_the_bound():
    tail = float(queueing.sojourn_tail(0.8, 8, 7950, 1000))
    assert not math.isnan(tail)
    assert agrees(tail, decimal_tail(0.8, 8, 7950, 1000))  # about 4.4e-18
    assert int(queueing.min_workers(7950, 1000, 0.8)) == 8


@settings(max_examples=300, deadline=None)
@given(load=loads, mu=rates, extra=spare, ratio=ratios)
def test_the_tail_is_never_nan_and_agrees_with_decimal_arithmetic(load, mu, extra, ratio):
    c = math.floor(load) + 1 + extra
    lam, t = load * mu, ratio / mu
    tail = float(queueing.sojourn_tail(t, c, lam, mu))
    assert 0.0 <= tail <= 1.0
    assert agrees(tail, decimal_tail(t, c, lam, mu))


@settings(max_examples=300, deadline=None)
@given(load=loads, mu=rates, extra=spare, low=ratios, high=ratios)
def test_the_tail_falls_as_the_bound_loosens(load, mu, extra, low, high):
    low, high = sorted((low, high))
    c, lam = math.floor(load) + 1 + extra, load * mu
    tails = queueing.sojourn_tail(np.array([low, high]) / mu, c, lam, mu)
    assert not np.isnan(tails).any()
    assert tails[1] <= tails[0] * (1 + 1e-12)


@settings(max_examples=150, deadline=None)
@given(load=loads, mu=rates, low=ratios, high=ratios)
def test_a_looser_bound_never_needs_more_workers(load, mu, low, high):
    low, high = sorted((low, high))
    lam = load * mu
    tight, loose = (int(queueing.min_workers(lam, mu, r / mu)) for r in (low, high))
    if tight:  # 0: no count meets the tighter bound (service alone breaks it)
        assert 0 < loose <= tight


@settings(max_examples=150, deadline=None)
@given(load=loads, mu=rates, ratio=ratios)
def test_min_workers_is_the_smallest_count_the_decimal_tail_accepts(load, mu, ratio):
    lam, bound = load * mu, ratio / mu
    c = int(queueing.min_workers(lam, mu, bound))
    if c == 0:
        assert math.exp(-ratio) >= 0.01  # the service time alone exceeds the bound
        return
    assert decimal_tail(bound, c, lam, mu) <= Decimal("0.01")
    if c - 1 > load:  # c − 1 workers would still be stable: they must miss the bound
        assert decimal_tail(bound, c - 1, lam, mu) > Decimal("0.01")


@pytest.mark.parametrize("c,lam,mu", [(3, 2.2, 1.0), (4, 350.0, 100.0), (3, 2.0, 1.0)])
@pytest.mark.parametrize("ratio", [1.01, 745.0, 800.0, 1e4, 1e6])
def test_the_independent_cases_hold_at_loose_bounds_too(c, lam, mu, ratio):
    # The cases of test_queueing_against_independent_values, out to 10⁶ service times
    # (the last has c − 1 = a, the special case).
    t = ratio / mu
    assert agrees(float(queueing.sojourn_tail(t, c, lam, mu)), decimal_tail(t, c, lam, mu))
