# ruff: noqa: RUF002, RUF003  (money notation: ×, −)
"""The next run worth making: which estimated (tier, workload class) figure, once measured,
would most likely change the answer (docs/design.md, "The next run worth making").

One Monte Carlo over the leading options (at most `MAX_TIERS` tiers), every uncertain input
drawn as `montecarlo` draws it, except that each estimated tier's speed is its own input
(`speed:<tier>:<class>`, triangular over its band around 1) instead of the class's one
shared factor. Every candidate is scored from the same draws: no rerun per candidate.

For a candidate, its speed draw is cut into `BINS` equal-count bins; in each bin the
options it sizes get their mean saving within the bin, the others keep their mean over all
draws (the tier's speed is drawn independently of every other input, so conditioning on it
cannot move them: this keeps their noise out). The bin's best option is the one with the
largest conditional mean. Reported per candidate:

- `changes`: the share of draws whose bin's best option is not today's answer, i.e. how
  often knowing the tier's speed changes the decision (the ranking's key);
- `value_cents`: the expected value of that partial perfect information, the mean over the
  bins of (best conditional mean − today's answer's conditional mean), in cents;
- `against`: the option the run would most often pick instead (A and B of "decides between
  A and B").

A candidate whose `changes` is 0 cannot change the answer and is left out. Pure: no Django.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from benchmarks_app.evidence import BestMeasurement
from planner.compute import capacity, engine, montecarlo
from planner.compute.schema import Plan

MAX_TIERS = 20  # the options priced: the leading ones, at most this many tiers
DRAWS = 4_000  # fewer than the odds' 10,000: BINS × 400 draws, and 20 options priced
BINS = 10
CONTENTION = 0.01  # an option beats today's answer in at least this share of draws …
SEED_OFFSET = 1  # the tiers' own speed draws: the odds' seed + 1


@dataclass(frozen=True)
class NextRun:
    tier: str
    workload_class: str
    profile: str  # the profile the estimate scales from (the one the run measures)
    band: tuple[float, float]
    option: str  # the option whose figure rests on this estimate
    best: str  # today's answer
    against: str  # the option the measured speed would most often pick instead of `best`
    changes: float  # share of draws whose decision the measurement changes (0…1)
    value_cents: int  # expected value of the information, cents

    def to_dict(self) -> dict[str, Any]:
        return {
            "tier": self.tier, "workload_class": self.workload_class, "profile": self.profile,
            "band": [self.band[0], self.band[1]], "option": self.option, "best": self.best,
            "against": self.against, "changes": round(self.changes, 4),
            "value_cents": self.value_cents,
        }  # fmt: skip


@dataclass(frozen=True)
class Ranking:
    runs: list[NextRun]  # ranked, most likely to change the answer first
    contending: list[str]  # the options whose odds or band overlap the best's
    draws: int
    seed: int
    best: str | None
    titles: Mapping[str, Any] = field(default_factory=dict)  # option key → its title (Message)


class SpeedModel(montecarlo.Model):
    """The odds' model with each estimated tier's speed drawn on its own."""

    def _throughput(self, drawn, n: int, kind: str, tier: str) -> np.ndarray:
        own = drawn.get(f"speed:{tier}:{kind}")
        if own is not None:
            return own / montecarlo.SCALE_DEN
        return super()._throughput(drawn, n, kind, tier)


def estimated(measurements: Mapping[Any, Any]) -> dict[tuple[str, str], BestMeasurement]:
    """(tier, class) → its measurement, where the figure is an estimate from published scores."""
    return {
        key: m for key, m in measurements.items()
        if isinstance(m, BestMeasurement) and m.extra.get("estimate")
    }  # fmt: skip


def _leading(base: engine.Comparison, limit: int) -> int:
    """How many leading options hold at most `limit` distinct tiers."""
    seen: set[str] = set()
    for k, option in enumerate(base.options):
        tiers = {p.tier for p in option.parts}
        if len(seen | tiers) > limit:
            return k
        seen |= tiers
    return len(base.options)


def rank(
    plan: Plan,
    frame: pd.DataFrame,
    measurements: Mapping[Any, Any],
    speed_factors: Mapping[str, capacity.SpeedFactor] | None = None,
    *,
    prices: engine.Prices | None = None,
    draws: int = DRAWS,
    seed: int = montecarlo.SEED,
    max_tiers: int = MAX_TIERS,
) -> Ranking:
    found = estimated(measurements)
    if not found:  # every figure measured (or none): nothing to rank, and no draws made
        return Ranking([], [], draws, seed, None)
    prices = prices or engine.Prices(frame, plan.currency)
    # the leading options (the model's one comparison ranks them), then as many as hold at
    # most `max_tiers` tiers
    model = SpeedModel(plan, frame, measurements, speed_factors, leading=max_tiers, prices=prices)
    if not model.options:
        return Ranking([], [], draws, seed, None)
    keep = max(1, _leading(model.base, max_tiers))
    model.options, model.keys = model.options[:keep], model.keys[:keep]
    titles = {o.key: o.title or o.label for o in model.base.options[:keep]}
    # the class's shared estimate band gives way to each tier's own (measured bootstraps stay)
    model.items = [
        i for i in model.items if not (i.name.startswith("throughput:") and i.source == "estimate")
    ]
    drawn = montecarlo.draw(model.items, draws, seed)
    sized = {
        k: {p.tier for p in option.parts if p.mode == "sized"}
        for k, option in enumerate(model.options)
    }
    candidates = _candidates(found, sized)
    drawn.update(_speed_draws(candidates, found, draws, seed + SEED_OFFSET))
    saving = model.run(drawn)["saving"].astype(float)  # draws × options; the same baseline
    best = 0  # today's answer: the engine's cheapest total
    contending = _contending(saving, best)
    runs = []
    for tier, cls in candidates:
        affected = [k for k in contending if tier in sized[k]]
        if not affected:
            continue
        speed = drawn[f"speed:{tier}:{cls}"]
        run = _score(saving, speed, affected, contending, best)
        if run is None:
            continue
        changes, value, against = run
        m = found[tier, cls]
        runs.append(
            NextRun(
                tier,
                cls,
                m.profile_name,
                tuple(m.extra["estimate"]["band"]),
                model.keys[affected[0]],
                model.keys[best],
                model.keys[against],
                changes,
                value,
            )
        )
    runs.sort(key=lambda r: (-r.changes, -r.value_cents, r.tier, r.workload_class))
    contenders = [model.keys[k] for k in contending]
    return Ranking(runs, contenders, draws, seed, model.keys[best], titles)


def _candidates(
    found: Mapping[tuple[str, str], BestMeasurement], sized: Mapping[int, set[str]]
) -> list[tuple[str, str]]:
    tiers = set().union(*sized.values()) if sized else set()
    return sorted(key for key in found if key[0] in tiers)


def _speed_draws(
    candidates: Sequence[tuple[str, str]],
    found: Mapping[tuple[str, str], BestMeasurement],
    draws: int,
    seed: int,
) -> dict[str, np.ndarray]:
    """Each candidate's speed factor, triangular over its band around 1 (as the odds draw
    the class's band), as numerators over `montecarlo.SCALE_DEN`."""
    rng = np.random.default_rng(seed)
    out = {}
    for tier, cls in candidates:
        low, high = (float(v) for v in found[tier, cls].extra["estimate"]["band"])
        low, high = min(low, 1.0), max(high, 1.0)
        values = rng.triangular(low, 1.0, high, size=draws) if low < high else np.ones(draws)
        out[f"speed:{tier}:{cls}"] = np.rint(values * montecarlo.SCALE_DEN).astype(np.int64)
    return out


def _contending(saving: np.ndarray, best: int) -> list[int]:
    """The options whose odds or band overlap the best's: each beats it in at least
    `CONTENTION` of the draws, or its P10…P90 saving overlaps the best's."""
    lo, hi = np.percentile(saving, [10, 90], axis=0)
    beats = (saving > saving[:, [best]]).mean(axis=0)
    return [
        k for k in range(saving.shape[1])
        if k == best or beats[k] >= CONTENTION or (hi[k] >= lo[best] and lo[k] <= hi[best])
    ]  # fmt: skip


def _score(
    saving: np.ndarray,
    speed: np.ndarray,
    affected: Sequence[int],
    contending: Sequence[int],
    best: int,
) -> tuple[float, int, int] | None:
    """(share of draws whose decision changes, expected value of the information in cents,
    the option picked instead most often), or None where no bin changes the decision."""
    d = len(speed)
    order = np.argsort(speed, kind="stable")
    means = saving[:, contending].mean(axis=0)
    cols = {k: i for i, k in enumerate(contending)}
    changed, value = 0, 0.0
    picked: dict[int, int] = {}
    for chunk in np.array_split(order, BINS):
        if not len(chunk):
            continue
        cond = means.copy()
        for k in affected:
            cond[cols[k]] = saving[chunk, k].mean()
        top = contending[int(np.argmax(cond))]
        gain = float(cond.max() - cond[cols[best]])
        value += gain * len(chunk) / d
        if top != best and gain > 0:
            changed += len(chunk)
            picked[top] = picked.get(top, 0) + len(chunk)
    if not changed:
        return None
    against = max(picked, key=lambda k: (picked[k], -k))
    return changed / d, round(value), against


__all__ = ["DRAWS", "MAX_TIERS", "NextRun", "Ranking", "SpeedModel", "estimated", "rank"]
