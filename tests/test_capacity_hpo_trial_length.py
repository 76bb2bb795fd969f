# ruff: noqa: RUF002, RUF003  (hand calculations written with ×, ÷, −)
"""An HPO search with the team's own trial length scales by the profile's one-process
trial t₀ (docs/design.md: N / X(P) × t / t₀), not by the trial time measured with P at once.

The issue's worked example: a run measuring 36 trials/h at P = 1 (one trial every
3600 ÷ 36 = 100 s) and 384 trials/h at P = 16 (16 × 3600 ÷ 384 = 150 s a trial, slower
because 16 trials contend); a search of 256 trials.
"""

import pytest

from planner.compute.schema import HpoWorkload
from tests.support.capacity import measured, measured_in_sweep, one

RUN = {1: 36.0, 16: 384.0}  # trials per hour by concurrent processes P
AT_16 = measured_in_sweep("hpo", RUN, 16, concurrency=16, t0_seconds=150.0)


def hours(workload: HpoWorkload, measurement) -> float:
    [w] = one([workload], {("extreme", "hpo"): measurement}).workloads
    return w.seconds_per_unit / 3600


def search(trial_seconds: float | None = None) -> HpoWorkload:
    given = trial_seconds / 3600 if trial_seconds is not None else None
    return HpoWorkload("hpo", searches_per_month=1, trials=256, trial_hours_single_thread=given)


def test_a_given_trial_length_scales_by_the_one_process_trial():
    # 256 ÷ 384 h × 112.5 s ÷ 100 s = 0.75 h (the P = 16 trial, 150 s, would give 0.5 h).
    assert hours(search(112.5), AT_16) == pytest.approx(0.75)


def test_without_a_trial_length_the_search_takes_n_over_x_of_p():
    assert hours(search(), AT_16) == pytest.approx(256 / 384)  # 0.667 h


def test_a_longer_given_trial_never_comes_out_shorter_than_none():
    # 112.5 s is longer than the profile's own 100 s trial: the search must take longer.
    assert hours(search(112.5), AT_16) > hours(search(), AT_16)
    assert hours(search(100.0), AT_16) == pytest.approx(hours(search(), AT_16))


def test_a_measurement_at_one_process_is_its_own_t0():
    alone = measured("hpo", 36.0, 1, concurrency=1, t0_seconds=99.0)
    # 256 trials of 112.5 s one after another: 8 h, whatever the runner's median trial says.
    assert hours(search(112.5), alone) == pytest.approx(8.0)


def test_a_run_without_its_one_process_throughput_gives_no_figure_and_says_why():
    lone = measured("hpo", 384.0, 16, concurrency=16, t0_seconds=150.0)
    result = one([search(112.5)], {("extreme", "hpo"): lone})
    assert result.status == "no_number"
    assert str(result.reasons[0]) == (
        "hpo #1: the hpo measurement lacks the profile's single-thread trial length t₀"
    )
