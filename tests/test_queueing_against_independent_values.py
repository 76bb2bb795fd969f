# ruff: noqa: RUF002, RUF003  (formulas written with ×, −)
"""Erlang C and the M/M/c response-time distribution against independently computed values."""

import heapq
import math

import numpy as np
import pytest
from scipy import integrate

from planner.compute import queueing


def textbook_erlang_c(c: int, a: float) -> float:
    """The factorial form every queueing text prints, independent of the module's Poisson form."""
    top = a**c / math.factorial(c) * c / (c - a)
    return top / (sum(a**k / math.factorial(k) for k in range(c)) + top)


def convolved_tail(t: float, c: int, lam: float, mu: float) -> float:
    """P(S + W > t) by numerical integration over the service time, W's tail Pw·e^{−θw}."""
    pw = textbook_erlang_c(c, lam / mu)
    theta = c * mu - lam

    def density(s: float) -> float:
        return mu * math.exp(-mu * s) * pw * math.exp(-theta * (t - s))

    inside, _ = integrate.quad(density, 0, t)
    return math.exp(-mu * t) + inside


def test_erlang_c_of_two_servers_at_one_erlang_is_one_third():
    assert float(queueing.erlang_c(2, 1.0)) == pytest.approx(1 / 3, rel=1e-12)


@pytest.mark.parametrize("c,a", [(1, 0.5), (3, 2.2), (8, 6.5), (20, 17.0), (50, 45.5)])
def test_erlang_c_agrees_with_the_factorial_formula(c, a):
    assert float(queueing.erlang_c(c, a)) == pytest.approx(textbook_erlang_c(c, a), rel=1e-9)


def test_erlang_c_is_one_when_the_queue_is_unstable():
    assert float(queueing.erlang_c(3, 3.0)) == 1.0
    assert float(queueing.erlang_c(3, 4.5)) == 1.0


def test_one_server_response_time_is_exponential_at_mu_minus_lambda():
    t = np.array([0.001, 0.01, 0.05])
    lam, mu = 60.0, 100.0
    np.testing.assert_allclose(
        queueing.sojourn_tail(t, 1, lam, mu), np.exp(-(mu - lam) * t), rtol=1e-12
    )


@pytest.mark.parametrize(
    "c,lam,mu",
    [(3, 2.2, 1.0), (4, 350.0, 100.0), (3, 2.0, 1.0)],  # the last has c − 1 = a exactly
)
@pytest.mark.parametrize("t", [0.005, 0.5, 3.0])
def test_sojourn_tail_agrees_with_numerical_convolution(c, lam, mu, t):
    expected = convolved_tail(t, c, lam, mu)
    assert float(queueing.sojourn_tail(t, c, lam, mu)) == pytest.approx(expected, rel=1e-7)


def test_sojourn_tail_is_continuous_across_the_special_case():
    just_below = float(queueing.sojourn_tail(1.3, 3, 2.0 - 1e-7, 1.0))
    exact = float(queueing.sojourn_tail(1.3, 3, 2.0, 1.0))
    assert just_below == pytest.approx(exact, rel=1e-6)
    # The special case's own closed form: e^{−μt}(1 + Pw μt).
    assert exact == pytest.approx(math.exp(-1.3) * (1 + textbook_erlang_c(3, 2.0) * 1.3))


def test_the_p99_is_where_the_tail_falls_to_one_percent():
    c, lam, mu = 5, 800.0, 200.0
    p99 = float(queueing.sojourn_quantile(c, lam, mu))
    assert convolved_tail(p99, c, lam, mu) == pytest.approx(0.01, rel=1e-6)


def test_min_workers_is_the_smallest_count_meeting_the_bound():
    lam, mu, bound = 1000.0, 200.0, 0.03  # 5 erlangs, 5 ms service, 30 ms p99
    c = int(queueing.min_workers(lam, mu, bound))
    assert float(queueing.sojourn_quantile(c, lam, mu)) <= bound
    assert float(queueing.sojourn_quantile(c - 1, lam, mu)) > bound


def test_min_workers_is_zero_when_the_service_time_alone_breaks_the_bound():
    # Exponential service with a 5 ms mean has its own p99 at 5 × ln 100 ≈ 23 ms.
    assert int(queueing.min_workers(100.0, 200.0, 0.020)) == 0
    assert int(queueing.min_workers(100.0, 200.0, 0.024)) > 0


def test_min_workers_works_over_arrays_of_loads():
    lam = np.array([[100.0, 1000.0], [4000.0, 50.0]])
    c = queueing.min_workers(lam, 200.0, 0.05)
    assert c.shape == (2, 2)
    for load, count in zip(lam.ravel(), c.ravel(), strict=True):
        assert count == int(queueing.min_workers(float(load), 200.0, 0.05))


def test_simulation_with_exponential_samples_agrees_with_the_formula():
    rng = np.random.default_rng(7)
    samples = rng.exponential(0.005, 50_000)
    lam, c = 700.0, 5
    expected = float(queueing.sojourn_quantile(c, lam, 1 / samples.mean()))
    simulated = queueing.simulate_mgc(lam, samples, c, customers=200_000, seed=3)
    assert simulated == pytest.approx(expected, rel=0.06)


def test_simulation_is_reproducible_with_its_seed():
    samples = [0.004, 0.005, 0.006, 0.02]
    one = queueing.simulate_mgc(500.0, samples, 4, customers=5_000, seed=11)
    two = queueing.simulate_mgc(500.0, samples, 4, customers=5_000, seed=11)
    other = queueing.simulate_mgc(500.0, samples, 4, customers=5_000, seed=12)
    assert one == two
    assert one != other


def test_steady_service_times_need_no_more_workers_than_mm_c_says():
    # Nearly constant 5 ms service: the M/G/c tail is far shorter than exponential's.
    samples = np.full(1000, 0.005)
    mmc = int(queueing.min_workers(1000.0, 200.0, 0.03))
    found = queueing.min_workers_by_simulation(1000.0, samples, 0.03, customers=20_000)
    assert found is not None
    assert found[0] <= mmc
    assert found[1] <= 0.03


def test_simulation_sizes_what_mm_c_cannot_when_service_is_steady():
    samples = np.full(1000, 0.005)
    assert int(queueing.min_workers(1000.0, 200.0, 0.02)) == 0  # M/M/c: infeasible
    found = queueing.min_workers_by_simulation(1000.0, samples, 0.02, customers=20_000)
    assert found is not None and found[0] >= 6  # more than the 5 erlangs offered


def test_simulation_gives_up_when_the_samples_themselves_exceed_the_bound():
    assert queueing.min_workers_by_simulation(10.0, [0.05, 0.06], 0.04) is None


def _heap_loop(lam, samples, c, customers, seed, warmup=0.1, q=0.99):
    """M/G/c FCFS as a plain loop over a heap of the workers' free times (the textbook
    form `simulate_mgc` writes out): the same draws, so the same figure to the bit."""
    rng = np.random.default_rng(seed)
    arrivals = np.cumsum(rng.exponential(1.0 / lam, customers)).tolist()
    services = rng.choice(np.asarray(samples, dtype=float), customers).tolist()
    free, sojourn = [0.0] * c, []
    for arrive, service in zip(arrivals, services, strict=True):
        end = max(free[0], arrive) + service
        heapq.heapreplace(free, end)
        sojourn.append(end - arrive)
    return float(np.quantile(sojourn[int(customers * warmup) :], q))


@pytest.mark.parametrize("c", [1, 2, 7])
def test_the_simulation_is_the_heap_loop_to_the_bit(c):
    rng = np.random.default_rng(c)
    samples = rng.lognormal(-5, 0.8, 500)
    lam = 0.8 * c / samples.mean()
    for seed in range(3):
        found = queueing.simulate_mgc(lam, samples, c, customers=4_000, seed=seed)
        assert repr(found) == repr(_heap_loop(lam, samples, c, 4_000, seed))


def test_simulations_run_each_pool_once_with_the_same_figures():
    simulate = queueing.Simulations()
    samples = np.array([0.004, 0.005, 0.006, 0.02])
    first = simulate(500.0, samples, 4, customers=5_000, seed=11)
    again = simulate(500.0, samples.copy(), 4, customers=5_000, seed=11)  # equal bytes
    assert first == again == queueing.simulate_mgc(500.0, samples, 4, customers=5_000, seed=11)
    assert simulate.runs == 1
    other = simulate(500.0, samples * 2, 4, customers=5_000, seed=11)
    assert other == queueing.simulate_mgc(500.0, samples * 2, 4, customers=5_000, seed=11)
    assert simulate.runs == 2
    for options in ({"customers": 5_000, "seed": 12}, {"customers": 4_000, "seed": 11},
                    {"customers": 5_000, "seed": 11, "q": 0.9}):  # fmt: skip
        assert (
            simulate(500.0, samples, 4, **options)
            == queueing.simulate_mgc(500.0, samples, 4, **options)
            != first
        )  # each option is part of the key
    assert simulate.runs == 5
    found = queueing.min_workers_by_simulation(500.0, samples, 0.05, customers=5_000,
                                               simulate=simulate)  # fmt: skip
    assert found == queueing.min_workers_by_simulation(500.0, samples, 0.05, customers=5_000)


def test_simulations_keep_a_pools_mm_c_quantile_as_computed():
    simulate = queueing.Simulations()
    expected = float(queueing.sojourn_quantile(4, 500.0, 200.0))
    assert simulate.quantile(4, 500.0, 200.0) == expected
    assert simulate.quantile(np.int64(4), np.float64(500.0), np.float64(200.0)) == expected
    assert simulate.quantile(5, 500.0, 200.0) == float(queueing.sojourn_quantile(5, 500.0, 200.0))
    assert simulate.runs == 0  # no M/G/c run among them
