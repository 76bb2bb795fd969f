# ruff: noqa: RUF002, RUF003  (math notation: λ, μ, ρ, θ, ×, − as in the queueing texts)
"""Queueing for CPU inference: how many workers keep p99 response time under a bound.

M/M/c, first come first served: Poisson arrivals at rate λ, c workers, each serving
at rate μ (μ = 1 / mean service time), offered load a = λ/μ, utilisation ρ = a/c < 1.

Erlang B by its Poisson form, B(c, a) = P(N = c) / P(N ≤ c) for N ~ Poisson(a), which
stays finite for any c (no factorials); Erlang C, the probability a request waits:

    Pw = C(c, a) = B / (1 − ρ (1 − B))

The response (sojourn) time is T = W + S, with S ~ Exp(μ) the request's own service
and W its wait: W = 0 with probability 1 − Pw, else W ~ Exp(θ) with θ = cμ − λ.
Conditioning on whether it waits, and using P(S + E > t) = (θe^{−μt} − μe^{−θt}) / (θ − μ)
for independent S ~ Exp(μ), E ~ Exp(θ):

    P(T > t) = e^{−μt} [ 1 + Pw · (1 − e^{−(cμ − λ − μ)t}) / (c − 1 − a) ]     (c − 1 ≠ a)
    P(T > t) = e^{−μt} [ 1 + Pw · μt ]                                         (c − 1 = a)

The second is the limit of the first (S + E is then Erlang-2). With c = 1 the first
reduces to e^{−(μ−λ)t}, the M/M/1 result. The p-quantile of T is the t where
P(T > t) = 1 − p, found by bisection (P is strictly decreasing in t). No c can meet a
bound t* with e^{−μt*} ≥ 1 − p: the service time alone exceeds it.

The M/M/c figure assumes exponential service times. The measured samples rarely are,
so `simulate_mgc` checks it: an M/G/c first-come-first-served simulation that draws
service times from the measured samples (seeded, so a figure can be reproduced).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from scipy.special import gammaincc, gammaln

ArrayLike = float | np.ndarray


def erlang_b(c: ArrayLike, a: ArrayLike) -> np.ndarray:
    """Blocking probability of c servers at offered load a (vectorised)."""
    c = np.asarray(c, dtype=float)
    a = np.asarray(a, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_pmf = c * np.log(a) - a - gammaln(c + 1)
        b = np.exp(log_pmf) / gammaincc(c + 1, a)
    return np.where(a > 0, b, 0.0)


def erlang_c(c: ArrayLike, a: ArrayLike) -> np.ndarray:
    """Probability that a request waits, M/M/c with offered load a; 1 when unstable."""
    c = np.asarray(c, dtype=float)
    a = np.asarray(a, dtype=float)
    b = erlang_b(c, a)
    rho = a / c
    with np.errstate(divide="ignore", invalid="ignore"):
        pw = b / (1 - rho * (1 - b))
    return np.where(a < c, np.clip(pw, 0.0, 1.0), 1.0)


def sojourn_tail(t: ArrayLike, c: ArrayLike, lam: ArrayLike, mu: ArrayLike) -> np.ndarray:
    """P(T > t) for the M/M/c response time (the formula in the module docstring).

    Computed in log space. With x = c − 1 − a, the waiting part e^{−μt}·(1 − e^{−xμt})/x
    is (e^{−μt} − e^{−θt})/x: both exponentials underflow once the bound is some 745
    mean service times, and the direct product 0 × ∞ gave NaN. Its log is
    −min(μ, θ)t + log(1 − e^{−|x|μt}) − log|x|, which stays finite for any t.
    """
    t, c, lam, mu = np.broadcast_arrays(*(np.asarray(x, dtype=float) for x in (t, c, lam, mu)))
    a = lam / mu
    pw = erlang_c(c, a)
    x = c - 1 - a
    mt = mu * t
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        log_wait = np.where(np.abs(x) > 1e-9, _log_wait_part(x, mt), _log_wait_near(x, mt))
        log_tail = np.logaddexp(-mt, np.log(pw) + log_wait)
        tail = np.exp(log_tail)
    return np.where(a < c, np.clip(tail, 0.0, 1.0), 1.0)


def _log_wait_part(x: np.ndarray, mt: np.ndarray) -> np.ndarray:
    """log((e^{−μt} − e^{−θt})/x) for x ≠ 0, where θ/μ = 1 + x (positive when stable)."""
    slower = np.minimum(1.0, 1.0 + x)  # the smaller of μ and θ, in units of μ
    return -slower * mt + np.log(-np.expm1(-np.abs(x) * mt)) - np.log(np.abs(x))


def _log_wait_near(x: np.ndarray, mt: np.ndarray) -> np.ndarray:
    """The same as x → 0: e^{−μt}·μt·(1 − xμt/2), so it stays accurate at the special case."""
    return -mt + np.log(mt) + np.log1p(-x * mt / 2)


def sojourn_quantile(
    c: ArrayLike, lam: ArrayLike, mu: ArrayLike, q: float = 0.99, iterations: int = 80
) -> np.ndarray:
    """The q-quantile of the M/M/c response time (seconds when μ is per second); inf if unstable."""
    c, lam, mu = np.broadcast_arrays(*(np.asarray(x, dtype=float) for x in (c, lam, mu)))
    stable = lam < c * mu
    theta = np.where(stable, c * mu - lam, 1.0)
    # T is stochastically below an Erlang-2 at the slower of the two rates, whose
    # tail (1 + rt)e^{−rt} is under 1e-6 by rt = 20.
    low = np.zeros_like(mu)
    high = 20.0 / np.minimum(mu, theta)
    for _ in range(iterations):
        mid = (low + high) / 2
        above = sojourn_tail(mid, c, lam, mu) > 1 - q
        low = np.where(above, mid, low)
        high = np.where(above, high, mid)
    return np.where(stable, (low + high) / 2, np.inf)


def feasible_p99(mu: ArrayLike, bound_s: ArrayLike, q: float = 0.99) -> np.ndarray:
    """Whether any number of M/M/c workers can meet the bound (service alone must)."""
    return np.exp(-np.asarray(mu, dtype=float) * np.asarray(bound_s, dtype=float)) < 1 - q


def min_workers(
    lam: ArrayLike, mu: ArrayLike, bound_s: ArrayLike, q: float = 0.99, max_extra: int = 100_000
) -> np.ndarray:
    """Smallest c with P(T > bound) ≤ 1 − q under M/M/c (vectorised); 0 where none can.

    P(T > t) falls as c grows, so the search steps every element up from the
    smallest stable c until it holds; the step count is the distance above a.
    """
    arrays = np.broadcast_arrays(*(np.asarray(x, dtype=float) for x in (lam, mu, bound_s)))
    shape = arrays[0].shape
    lam, mu, bound = (np.atleast_1d(x).ravel() for x in arrays)
    a = lam / mu
    c = np.floor(a) + 1
    ok = feasible_p99(mu, bound, q)
    todo = ok.copy()
    for _ in range(max_extra):
        if not todo.any():
            break
        idx = np.flatnonzero(todo)
        met = sojourn_tail(bound[idx], c[idx], lam[idx], mu[idx]) <= 1 - q
        c[idx] = np.where(met, c[idx], c[idx] + 1)
        todo[idx] = ~met
    return np.where(ok & ~todo, c, 0).astype(np.int64).reshape(shape)


def simulate_mgc(
    lam: float,
    service_samples: Sequence[float] | np.ndarray,
    c: int,
    *,
    customers: int = 50_000,
    warmup: float = 0.1,
    seed: int = 0,
    q: float = 0.99,
) -> float:
    """q-quantile of response time in an M/G/c FCFS queue, service drawn from the samples.

    Each arrival goes to the worker that frees first (FCFS with c workers is exactly
    that); the first `warmup` share of customers is dropped so the queue starts in
    its steady state rather than empty.
    """
    rng = np.random.default_rng(seed)
    samples = np.asarray(service_samples, dtype=float)
    arriving = np.cumsum(rng.exponential(1.0 / lam, customers))
    services = rng.choice(samples, customers).tolist()
    ends: list[float] = []
    ended = ends.append
    # Each request ends at max(the first worker free, its arrival) + its service, the
    # workers' free times a heap (one worker: the last end), the same sums as a loop over
    # `max` and `heapreplace` with the sojourns taken in it, written out with the sojourns
    # (end - arrival) taken in NumPy: 4.2 -> ~2.5 ms a run at 20,000 customers, CPU.
    if c == 1:
        free = 0.0
        for arrive, service in zip(arriving.tolist(), services, strict=True):
            free = (free if free > arrive else arrive) + service
            ended(free)
    else:
        heap, replace = [0.0] * c, heapq.heapreplace
        for arrive, service in zip(arriving.tolist(), services, strict=True):
            first = heap[0]
            end = (first if first > arrive else arrive) + service
            replace(heap, end)
            ended(end)
    sojourn = np.array(ends) - arriving
    return float(np.quantile(sojourn[int(customers * warmup) :], q))


class Simulations:
    """`simulate_mgc` with each figure kept by its inputs (the service samples by their
    bytes): the search for a pool's workers ends on the count whose figure the pool then
    reports, and tiers of one CPU share their samples. At 20,000 tiers the bench's five
    checked pools asked 10 runs of 3 different ones (~4 ms each, CPU). Keep one per
    computation (`capacity.CapacityTable` keeps one), not per process."""

    def __init__(self) -> None:
        self._seen: dict[tuple, float] = {}

    @property
    def runs(self) -> int:
        """The simulations run (each distinct input once)."""
        return sum(1 for key in self._seen if key[0] != "mmc")

    def quantile(self, c: int, lam: float, mu: float, q: float = 0.99) -> float:
        """`sojourn_quantile(c, lam, mu, q)` of one pool, kept the same way (80 bisection
        steps on scalars, ~2 ms, asked again for each checked pool of the same tier kind)."""
        key = ("mmc", int(c), float(lam), float(mu), q)
        if key not in self._seen:
            self._seen[key] = float(sojourn_quantile(c, lam, mu, q))
        return self._seen[key]

    def __call__(
        self, lam: float, service_samples: Sequence[float] | np.ndarray, c: int, **options: Any
    ) -> float:
        """`simulate_mgc(lam, service_samples, c, **options)`, kept by those inputs. Its
        options as given (`simulate_mgc` holds their defaults, said once): an option passed
        as its default is a key of its own, one more run at most, the same figure."""
        samples = np.asarray(service_samples, dtype=float)
        key = ("mgc", float(lam), int(c), tuple(sorted(options.items())), samples.shape,
               samples.tobytes())  # fmt: skip
        if key not in self._seen:
            self._seen[key] = simulate_mgc(lam, samples, c, **options)
        return self._seen[key]


def min_workers_by_simulation(
    lam: float,
    service_samples: Sequence[float] | np.ndarray,
    bound_s: float,
    *,
    start: int = 1,
    q: float = 0.99,
    seed: int = 0,
    customers: int = 50_000,
    simulate: Callable[..., float] = simulate_mgc,
) -> tuple[int, float] | None:
    """Smallest c (≥ start) whose simulated q-quantile meets the bound, with that quantile.

    None when no c can: the service times' own q-quantile is over the bound. With the
    same seed the arrival and service sequences are shared across c, and adding a
    worker never delays anyone, so a binary search over c is sound. `simulate`: a
    `Simulations` where the same runs may be asked again.
    """
    samples = np.asarray(service_samples, dtype=float)
    if float(np.quantile(samples, q)) > bound_s:
        return None
    low = max(start, int(np.floor(lam * samples.mean())) + 1)

    def p(c: int) -> float:
        return simulate(lam, samples, c, customers=customers, seed=seed, q=q)

    high, result = low, p(low)
    while result > bound_s:
        low, high = high + 1, high * 2
        result = p(high)
        if high > 1_000_000:
            return None
    while low < high:
        mid = (low + high) // 2
        value = p(mid)
        if value <= bound_s:
            high, result = mid, value
        else:
            low = mid + 1
    return high, result
