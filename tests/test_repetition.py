"""Adaptive repetitions stop for a stated reason: CV met, cap reached, or time budget."""

import pytest

from benchmarks_app.repetition import coefficient_of_variation, outlier_indices, run_repetitions


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def noisy_runner(values: list[float], clock: FakeClock, seconds: float = 1.0):
    """A deterministic "measurement": the next value, taking `seconds` of fake time."""
    pending = list(values)
    calls = []

    def measure() -> tuple[float, float]:
        clock.now += seconds
        calls.append(clock.now)
        return pending.pop(0), seconds

    measure.calls = calls
    return measure


def test_it_stops_when_the_cv_is_met_after_the_minimum():
    clock = FakeClock()
    # warm-up 50 (cold, discarded), then ~1 % noise
    measure = noisy_runner([50, 100, 101, 99, 100.5, 99.5], clock)
    result = run_repetitions(measure, warmup=1, min_reps=3, max_reps=10, clock=clock)
    assert result.summary["stop_reason"] == "cv_met"
    assert result.values == [100, 101, 99]
    assert result.warmup == [{"value": 50, "seconds": 1.0}]
    assert result.summary["n"] == 3 and result.summary["median"] == 100
    assert result.summary["cv"] == pytest.approx(0.01)
    assert result.summary["outliers"] == []


def test_it_repeats_noisy_values_until_the_cap():
    clock = FakeClock()
    values = [100] + [100, 120, 80] * 4  # CV ≈ 16 %, never below 3.5 %
    result = run_repetitions(noisy_runner(values, clock), max_reps=10, clock=clock)
    assert result.summary["stop_reason"] == "cap_reached"
    assert result.summary["n"] == 10 == len(result.repetitions)
    assert result.summary["cv"] > 0.035


def test_an_outlier_keeps_it_repeating_even_when_the_cv_is_met():
    clock = FakeClock()
    values = [100, 100, 104.5] + [100] * 8  # CV ≈ 1.4 % but 104.5 is 4.5 % off the median
    result = run_repetitions(noisy_runner(values, clock), max_reps=10, clock=clock)
    assert result.summary["cv"] < 0.035
    assert result.summary["stop_reason"] == "cap_reached"
    assert result.summary["outliers"] == [1]
    assert result.summary["median"] == 100


def test_a_value_within_the_cv_target_of_the_median_is_no_outlier():
    clock = FakeClock()
    result = run_repetitions(noisy_runner([100, 100, 103, 100], clock), clock=clock)
    assert result.summary["stop_reason"] == "cv_met"
    assert result.summary["outliers"] == []


def test_it_stops_at_the_time_budget_and_says_so():
    clock = FakeClock()
    values = [100] + [100, 130, 70] * 4
    # 1 s warm-up + 1 s reps: after 3 reps (t = 4) the next one would end at 5 > 4.5.
    result = run_repetitions(noisy_runner(values, clock), time_budget_s=4.5, clock=clock)
    assert result.summary["stop_reason"] == "time_budget"
    assert result.summary["n"] == 3


def test_the_time_budget_may_stop_it_below_the_minimum_but_never_before_one_repetition():
    clock = FakeClock()
    measure = noisy_runner([100, 100, 130, 70], clock, seconds=10)
    result = run_repetitions(measure, min_reps=3, time_budget_s=5, clock=clock)
    assert result.summary["stop_reason"] == "time_budget"
    assert result.summary["n"] == 1 and result.values == [100]


def test_it_reports_progress_in_order_up_to_one():
    clock = FakeClock()
    seen = []
    run_repetitions(noisy_runner([1, 1, 1, 1], clock), warmup=1, clock=clock,
                    on_progress=lambda p, step: seen.append((p, step)))  # fmt: skip
    fractions = [p for p, _ in seen]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    assert [step for _, step in seen] == [
        "warm-up 1/1", "rep 1/10", "rep 2/10", "rep 3/10", "done: cv_met",
    ]  # fmt: skip


def test_outliers_are_judged_by_the_median_absolute_deviation():
    values = [10.0, 10.2, 9.8, 10.1, 9.9, 10.0, 13.0]
    assert outlier_indices(values, k=3.0, floor=0.01) == [6]
    assert outlier_indices(values, k=3.0, floor=0.5) == []  # 30 % floor: nothing is out
    assert outlier_indices([1.0, 100.0]) == []  # too few values to judge


def test_the_coefficient_of_variation_is_the_sample_one():
    assert coefficient_of_variation([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]) == pytest.approx(
        2.138089935 / 5
    )
    assert coefficient_of_variation([5.0]) == 0.0


def test_it_refuses_an_impossible_policy():
    with pytest.raises(ValueError):
        run_repetitions(lambda: (1.0, 1.0), min_reps=5, max_reps=3)
