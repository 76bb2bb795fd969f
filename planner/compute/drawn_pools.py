# ruff: noqa: RUF002, RUF003  (×, −, ≤)
"""Inference pools for many draws at once: the workers `capacity` sizes for each draw's
requests a second and growth, as `engine.compare` sizes them for one.

The engine sizes a pool per month by M/M/c (`queueing.min_workers`), then checks it by
simulation at the peak month (`CapacityTable.verify_inference`, seed 0): the simulated
count is `min_workers_by_simulation(λ, start=c)`, which is max(c, c†(λ)) with c†(λ) the
smallest stable count whose simulated p99 meets the bound (adding a worker never delays
anyone, so the search over c is sound). A simulation replays one seeded arrival
sequence scaled by 1/λ, so its p99 grows with λ and so does c†: over the draws' λ sorted,
c† is a staircase, and each step is found by bisection over the draws (a few dozen
simulations a run rather than several a draw). Pure: no Django.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from planner.compute import capacity, queueing
from planner.compute.capacity import EPS

SEED = 0  # `CapacityTable.verify_inference`'s default, the engine's
CUSTOMERS = 20_000


@dataclass
class Pool:
    """One inference workload on one tier: what sizing it needs besides the load."""

    peak_rps: float
    mu: float
    bound: float  # seconds
    samples: np.ndarray  # service times, seconds
    feasible: bool  # M/M/c can meet the bound at some count

    @classmethod
    def of(cls, column: capacity.WorkloadColumns, row: int) -> Pool:
        w = column.workload
        mu, bound = float(column.mu[row]), w.p99_ms / 1000  # type: ignore[attr-defined]
        samples = capacity._service_samples(column, row)
        feasible = bool(queueing.feasible_p99(mu, bound))
        return cls(w.peak_rps, mu, bound, samples, feasible)  # type: ignore[attr-defined]

    def _stable(self, lam: float) -> int:
        return int(np.floor(lam * self.samples.mean())) + 1

    def _meets(self, lam: float, c: int) -> bool:
        """c†(λ) ≤ c."""
        if self._stable(lam) > c:
            return False
        p99 = queueing.simulate_mgc(lam, self.samples, c, customers=CUSTOMERS, seed=SEED)
        return p99 <= self.bound

    def simulated(self, lams: np.ndarray) -> np.ndarray:
        """c†(λ) for each λ: `min_workers_by_simulation(λ, start=1)`, as the engine's seed
        and customers give it."""
        order = np.argsort(lams, kind="stable")
        ranked = lams[order]
        out = np.empty(len(lams), dtype=np.int64)
        if not len(lams):
            return out

        def search(lam: float) -> int:
            found = queueing.min_workers_by_simulation(
                lam, self.samples, self.bound, seed=SEED, customers=CUSTOMERS
            )
            assert found is not None  # the base case sized this pool: its samples meet it
            return found[0]

        low, high = search(float(ranked[0])), search(float(ranked[-1]))
        start = 0  # ranked[:start] are already given their count
        for c in range(low, high):
            # the last λ (from `start`) whose c† is at most c: ranked[start] has c† ≥ c
            lo, hi = start, len(ranked)  # meets for [start, lo), not for [hi, …)
            while lo < hi:
                mid = (lo + hi) // 2
                if self._meets(float(ranked[mid]), c):
                    lo = mid + 1
                else:
                    hi = mid
            out[order[start:lo]] = c
            start = lo
        out[order[start:]] = high
        return out


def workers(pool: Pool, lam: np.ndarray, growth: np.ndarray, peak: np.ndarray,
            first: np.ndarray | None) -> np.ndarray:  # fmt: skip
    """Workers by month and draw (H × n), as `capacity` sizes and `verify_inference` checks
    them: `lam` the arrivals a second (H × n), `peak` and `first` c† at the last and the
    first month's λ (n)."""
    if pool.feasible:
        before = queueing.min_workers(lam, pool.mu, pool.bound)
        top = np.maximum(before[-1], peak)
        return before + (top - before[-1])[None, :]
    before = np.floor(lam * (1 / pool.mu)).astype(np.int64) + 1
    top = np.maximum(before[-1], peak)
    assert first is not None
    start = np.maximum(before[0], first)
    scaled = np.ceil(start[None, :] * growth - EPS).astype(np.int64)
    out = np.minimum(np.maximum(scaled, start[None, :]), top[None, :])
    out[-1] = top
    return out
