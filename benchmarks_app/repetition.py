# ruff: noqa: RUF002  (the rule is written as math, with the multiplication sign)
"""Adaptive repetitions: how many times one measurement is repeated, and why it stopped.

The policy, in order, after each repetition:

1. A discarded warm-up (``warmup`` runs, default 1) goes first: caches, JIT-free but still
   lazy imports, thread pools and page faults land there, not in the numbers.
2. Then repetitions run while **any** of these holds, up to ``max_reps``:
   - fewer than ``min_reps`` have run;
   - the coefficient of variation (sample standard deviation / mean) is above
     ``cv_target`` (default 3.5 %);
   - a value is an **outlier**: further from the median than
     ``max(outlier_k × 1.4826 × MAD, cv_target × |median|)`` (MAD = median absolute
     deviation; 1.4826 × MAD estimates the standard deviation of normal data, so the default
     ``outlier_k = 3`` is the usual "3 sigma", robust to the outlier itself; a value within
     ``cv_target`` of the median is never an outlier, else identical values would make any
     difference an outlier).
3. Before starting another repetition the budget is checked: when the time used so far
   (warm-up included, read from ``clock``) plus the mean duration of one repetition would pass
   ``time_budget_s``, it stops, even below ``min_reps`` (but never before one repetition).

Stop reasons: ``cv_met`` (enough repetitions, CV at or below target, no outlier),
``cap_reached`` (``max_reps`` ran and the CV or an outlier still asked for more),
``time_budget`` (the next repetition would not fit). Outliers stay in the values and are
listed by index in the summary; the median is the figure to use.
"""

import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from common.messages import Message, msg, plain

MAD_TO_SIGMA = 1.4826


@dataclass
class RepetitionResult:
    warmup: list[dict]  # [{"value": float, "seconds": float}] discarded
    values: list[float]
    seconds: list[float]
    summary: dict = field(default_factory=dict)

    @property
    def repetitions(self) -> list[dict]:
        return [{"value": v, "seconds": s} for v, s in zip(self.values, self.seconds, strict=True)]


def coefficient_of_variation(values: list[float]) -> float:
    """Sample standard deviation over the mean; 0.0 for fewer than two values."""
    if len(values) < 2:
        return 0.0
    mean = statistics.fmean(values)
    if mean == 0:
        return 0.0 if all(v == 0 for v in values) else math.inf
    return statistics.stdev(values) / abs(mean)


def outlier_indices(values: list[float], *, k: float = 3.0, floor: float = 0.035) -> list[int]:
    """Indices of values outside median ± max(k × 1.4826 × MAD, floor × |median|)."""
    if len(values) < 3:
        return []
    median = statistics.median(values)
    mad = statistics.median(abs(v - median) for v in values)
    limit = max(k * MAD_TO_SIGMA * mad, floor * abs(median))
    return [i for i, v in enumerate(values) if abs(v - median) > limit]


def summarize(values: list[float], *, stop_reason: str, outliers: list[int]) -> dict:
    return {
        "n": len(values),
        "median": statistics.median(values),
        "min": min(values),
        "max": max(values),
        "mean": statistics.fmean(values),
        "cv": coefficient_of_variation(values),
        "stop_reason": stop_reason,
        "outliers": outliers,
    }


def run_repetitions(
    measure: Callable[[], tuple[float, float]],
    *,
    warmup: int = 1,
    min_reps: int = 3,
    max_reps: int = 10,
    cv_target: float = 0.035,
    time_budget_s: float = math.inf,
    outlier_k: float = 3.0,
    clock: Callable[[], float] = time.monotonic,
    on_progress: Callable[[float, str], None] | None = None,
    on_step: Callable[[float, Message], None] | None = None,
) -> RepetitionResult:
    """Run ``measure`` (→ (value, seconds)) under the policy in the module docstring.

    Progress goes to ``on_progress`` as English text ("rep 3/10") and to ``on_step`` as a
    message, which a page says in its reader's language."""
    if min_reps < 1 or max_reps < min_reps or warmup < 0:
        raise ValueError("need 1 <= min_reps <= max_reps and warmup >= 0")
    total_steps = warmup + max_reps
    start = clock()
    result = RepetitionResult(warmup=[], values=[], seconds=[])
    durations: list[float] = []

    def progress(done: int, step: Message) -> None:
        if on_progress is not None:
            on_progress(min(1.0, done / total_steps), plain(step))
        if on_step is not None:
            on_step(min(1.0, done / total_steps), step)

    for i in range(warmup):
        progress(i, msg("benchmarks.step_warmup", done=i + 1, of=warmup))
        value, seconds = measure()
        result.warmup.append({"value": float(value), "seconds": float(seconds)})

    stop_reason = "cap_reached"
    outliers: list[int] = []
    while len(result.values) < max_reps:
        n = len(result.values)
        if n >= 1:
            elapsed = clock() - start
            if elapsed + statistics.fmean(durations) > time_budget_s:
                stop_reason = "time_budget"
                break
        progress(warmup + n, msg("benchmarks.step_repetition", done=n + 1, of=max_reps))
        t0 = clock()
        value, seconds = measure()
        durations.append(clock() - t0)
        result.values.append(float(value))
        result.seconds.append(float(seconds))
        outliers = outlier_indices(result.values, k=outlier_k, floor=cv_target)
        enough = len(result.values) >= min_reps
        if enough and coefficient_of_variation(result.values) <= cv_target and not outliers:
            stop_reason = "cv_met"
            break
    progress(total_steps, msg("benchmarks.step_done", stop_reason=stop_reason))
    result.summary = summarize(result.values, stop_reason=stop_reason, outliers=outliers)
    return result
