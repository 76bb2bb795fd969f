# ruff: noqa: RUF003  (hand calculations written with ×, −, ÷)
"""The sizing rules (docs/design.md), each from a fake measurement worked by hand."""

import datetime as dt

import numpy as np
import pytest

from benchmarks_app.evidence import NoMeasurement
from planner.compute.capacity import SpeedFactor, size_tiers
from planner.compute.schema import (
    DeepLearningWorkload,
    FeaturesWorkload,
    GbmWorkload,
    HpoWorkload,
    InferenceWorkload,
    NnWorkload,
    SklearnWorkload,
)
from tests.support.capacity import (
    C5,
    C5_SPOT,
    EXTREME,
    GBM,
    measured,
    measured_in_sweep,
    one,
    tiers,
)


def test_gbm_thread_hours_come_from_cell_trees_per_second():
    result = one([GBM], {("extreme", "gbm"): measured("gbm", 1e9)})
    [w] = result.workloads
    assert w.seconds_per_unit == pytest.approx(1000)  # 1e7 × 100 × 1000 ÷ 1e9
    assert w.thread_hours_per_month == pytest.approx(30 * 1000 / 3600 * 32)  # 266.67
    assert result.threads_needed == pytest.approx(266.6667 / (730 * 0.7), rel=1e-4)
    assert (result.status, result.servers) == ("sized", 1)
    assert w.basis["run_id"] == "run-gbm" and w.basis["profile"] == "gbm-standard 1.2.0"


def test_servers_are_threads_needed_over_threads_per_server_rounded_up():
    busy = GbmWorkload("gbm", trainings_per_month=3000, rows=10_000_000, features=100, trees=1000)
    result = one([busy], {("extreme", "gbm"): measured("gbm", 1e9)})
    # 3000 × 1000 s × 32 threads = 26,666.7 thread-hours ÷ (730 × 0.7) = 52.2 threads.
    assert result.threads_needed == pytest.approx(52.18, abs=0.01)
    assert result.servers == 2


def test_a_lower_utilisation_target_needs_more_servers():
    busy = GbmWorkload("gbm", trainings_per_month=3000, rows=10_000_000, features=100, trees=1000)
    result = one([busy], {("extreme", "gbm"): measured("gbm", 1e9)}, utilisation=0.3)
    assert result.servers == 4  # 26,666.7 ÷ (730 × 0.3) = 121.8 threads ÷ 32


def test_sklearn_scales_the_measured_fits_by_rows_and_features():
    search = SklearnWorkload(
        "sklearn", searches_per_month=10, grid_size=24, folds=5, rows=200_000, features=50
    )
    m = measured("sklearn", 2.0, rows=100_000, features=50)  # 2 fits/s at R₀ = 1e5, F₀ = 50
    [w] = one([search], {("extreme", "sklearn"): m}).workloads
    assert w.seconds_per_unit == pytest.approx(24 * 5 * 2 / 2.0)  # G·K·(R·F)/(R₀·F₀) ÷ X


def test_sklearn_without_the_profiles_size_gets_no_number():
    search = SklearnWorkload(
        "sklearn", searches_per_month=1, grid_size=2, folds=2, rows=10, features=1
    )
    result = one([search], {("extreme", "sklearn"): measured("sklearn", 2.0)})
    assert result.status == "no_number"
    assert "R₀, F₀" in str(result.reasons[0])


def test_nn_time_is_samples_times_epochs_over_samples_per_second():
    nn = NnWorkload("nn", trainings_per_month=4, samples=1_000_000, epochs=20)
    [w] = one([nn], {("extreme", "nn"): measured("nn", 50_000)}).workloads
    assert w.seconds_per_unit == pytest.approx(400)


def test_the_field_notes_hpo_grid_takes_half_an_hour_on_sixteen_threads():
    # 256 trials of 112.5 s (8 h single-threaded), 16 at once: 512 trials an hour.
    grid = HpoWorkload("hpo", searches_per_month=4, trials=256)
    m = measured("hpo", 512, 16, concurrency=16, t0_seconds=112.5)
    [w] = one([grid], {("extreme", "hpo"): m}).workloads
    assert w.seconds_per_unit / 3600 == pytest.approx(0.5)
    assert w.threads_used == 16


def test_hpo_scales_by_the_teams_own_trial_length():
    grid = HpoWorkload("hpo", searches_per_month=1, trials=256, trial_hours_single_thread=0.0625)
    # One process ran 32 trials an hour: t₀ = 3600 ÷ 32 = 112.5 s.
    m = measured_in_sweep("hpo", {1: 32, 16: 512}, 16, concurrency=16, t0_seconds=112.5)
    [w] = one([grid], {("extreme", "hpo"): m}).workloads
    assert w.seconds_per_unit / 3600 == pytest.approx(0.5 * 225 / 112.5)  # t = 225 s = 2 × t₀


def test_a_deadline_on_a_search_forces_servers():
    grid = HpoWorkload("hpo", searches_per_month=4, trials=256, deadline_hours=0.2)
    m = measured("hpo", 512, 16, concurrency=16, t0_seconds=112.5)
    result = one([grid], {("extreme", "hpo"): m})
    [w] = result.workloads
    assert w.servers_forced_by_deadline == 3  # 0.5 h ÷ 0.2 h, rounded up
    assert w.deadline_met is True
    assert result.servers == 3  # the month's work alone needs one


def test_a_training_longer_than_its_deadline_rules_the_tier_out():
    nightly = GbmWorkload(
        "gbm", trainings_per_month=30, rows=10_000_000, features=100, trees=1000,
        deadline_hours=0.25,
    )  # fmt: skip
    result = one([nightly], {("extreme", "gbm"): measured("gbm", 1e9)})
    assert result.status == "ruled_out"
    assert result.servers is None
    reason = str(result.reasons[0])
    assert "0.28 h" in reason and "0.25 h deadline" in reason
    assert result.workloads[0].deadline_met is False


def test_forty_gb_of_features_fit_in_192_gib_and_not_in_32():
    features = FeaturesWorkload("features", runs_per_month=20, dataset_gb=40)
    m = {(s, "features"): measured("features", 0.5) for s in ("extreme", "c5")}
    table = size_tiers(tiers(EXTREME, C5), [features], m)
    big, small = table.result(0), table.result(1)
    assert big.memory_need_gib == pytest.approx(37.25, abs=0.01)  # 40e9 ÷ 2³⁰
    assert (big.status, big.fits_in_ram, big.servers) == ("sized", True, 1)
    assert (small.status, small.fits_in_ram) == ("ruled_out", False)
    reason = str(small.reasons[0])
    assert "37.25 GiB must fit one box" in reason and "32 GiB" in reason


def test_a_working_set_that_may_be_split_takes_as_many_boxes_as_its_memory_needs():
    chunked = FeaturesWorkload("features", runs_per_month=1, dataset_gb=40, must_fit_one_box=False)
    result = one([chunked], {("c5", "features"): measured("features", 0.5, 16)}, row=C5)
    assert (result.status, result.servers) == ("sized", 2)  # ⌈37.25 ÷ 32⌉


def test_the_measured_rss_ratio_sets_the_memory_need():
    features = FeaturesWorkload("features", runs_per_month=1, dataset_gb=40)
    m = measured("features", 0.5, rss_per_input_gb=2.5)
    assert one([features], {("extreme", "features"): m}).memory_need_gib == pytest.approx(100)


def test_a_tier_with_no_measurement_gets_no_number_and_the_reason():
    reason = "no standard-scale gbm run on a target linked to this tier"
    result = one([GBM], {("extreme", "gbm"): NoMeasurement(reason)})
    assert result.status == "no_number"
    assert result.servers is None
    assert [str(r) for r in result.reasons] == [f"gbm #1: {reason}"]


def test_a_callable_lookup_may_raise_no_measurement():
    def lookup(slug, cls):
        raise NoMeasurement(f"nothing for {slug}")

    assert [str(r) for r in one([GBM], lookup).reasons] == ["gbm #1: nothing for extreme"]


def test_specs_unknown_gives_no_number():
    result = one([GBM], {("x", "gbm"): measured("gbm", 1e9)}, row=("x", None, None, "on_demand"))
    assert result.status == "no_number"
    assert "specs unknown" in str(result.reasons[0])


def test_a_declared_speed_factor_makes_the_figure_an_estimate_with_its_basis():
    factor = SpeedFactor(
        "extreme", 0.5, "throughput_ratio", "vendor spec sheet", "staff", dt.date(2026, 1, 5)
    )
    table = size_tiers(
        tiers(EXTREME, C5), [GBM], {("extreme", "gbm"): measured("gbm", 1e9)},
        speed_factors={"c5": factor},
    )  # fmt: skip
    result = table.result(1)
    assert result.status == "estimate"
    [w] = result.workloads
    assert w.estimate is True
    assert w.seconds_per_unit == pytest.approx(2000)  # half the reference's throughput
    basis = w.basis["estimate"]
    assert basis["speed_factor"]["source"] == "vendor spec sheet"
    assert basis["speed_factor"]["author"] == "staff"
    assert basis["speed_factor"]["date"] == "2026-01-05"
    assert basis["reference"]["run_id"] == "run-gbm"
    assert "estimate: 0.5 throughput_ratio against extreme" in [str(m) for m in result.labels]


def test_a_workload_outside_the_profiles_trusted_range_is_labelled_extrapolated():
    big = GbmWorkload("gbm", trainings_per_month=1, rows=50_000_000, features=200, trees=100)
    m = measured("gbm", 1e9, trusted_range={"param": "rows", "min": 1e4, "max": 1e7})
    result = one([big], {("extreme", "gbm"): m})
    assert any("extrapolated: rows 5e+07 outside" in str(label) for label in result.labels)
    inside = one([GBM], {("extreme", "gbm"): m})
    assert not any("extrapolated" in str(label) for label in inside.labels)


def test_a_figure_predicted_by_a_fit_says_so():
    m = measured(
        "gbm", 1e9, measured=False, fit="usl", extrapolation="extrapolated: 2.0x beyond 16"
    )
    result = one([GBM], {("extreme", "gbm"): m})
    labels = [str(m) for m in result.labels]
    assert "predicted by the usl fit of epyc-1" in labels
    assert "extrapolated: 2.0x beyond 16" in labels


def test_spot_tiers_carry_the_interruption_allowance():
    m = {(s, "gbm"): measured("gbm", 5e8, 16) for s in ("c5", "c5-spot")}
    table = size_tiers(tiers(C5, C5_SPOT), [GBM], m, spot_allowance=0.25)
    on_demand, spot = (table.result(i).workloads[0].thread_hours_per_month for i in (0, 1))
    assert spot == pytest.approx(on_demand * 1.25)


def test_inference_workers_add_to_threads_and_n_plus_one_adds_a_server():
    serve = InferenceWorkload("inference", peak_rps=1000, p99_ms=50, n_plus_one=True)
    m = measured("inference", 200, 1, mean_s=0.005)
    result = one([serve], {("extreme", "inference"): m})
    [w] = result.workloads
    # 5 erlangs: 5 workers never catch up; 6 give an M/M/c p99 of 30.7 ms.
    assert w.workers == 6
    assert w.p99_ms_mmc == pytest.approx(30.66, abs=0.01)
    assert result.threads_needed == pytest.approx(6)
    assert result.spare_server is True
    assert result.servers == 2  # one for 6 threads, one spare


def test_simulation_raises_workers_where_measured_service_times_have_a_long_tail():
    # 90 % of requests take 1 ms, 10 % take 30 ms: the mean (3.9 ms) hides the tail.
    samples = [0.001] * 90 + [0.030] * 10
    serve = InferenceWorkload("inference", peak_rps=1000, p99_ms=40)
    table = size_tiers(
        tiers(EXTREME), [serve], {("extreme", "inference"): measured(
            "inference", 250, 1, service_times_s=samples)},
    )  # fmt: skip
    before = table.result(0).workloads[0]
    assert (before.workers, before.simulated) == (5, False)  # M/M/c on the mean
    assert table.verify_inference(0) is True
    after = table.result(0).workloads[0]
    assert (after.workers, after.simulated) == (6, True)
    assert after.p99_ms_sim <= 40


def test_deep_learning_is_never_sized_onto_cpu_tiers():
    finetune = DeepLearningWorkload("deep_learning", task="llm_finetune")
    table = size_tiers(tiers(EXTREME), [GBM, finetune], {("extreme", "gbm"): measured("gbm", 1e9)})
    assert [w.kind for w in table.result(0).workloads] == ["gbm"]
    [stays] = table.stays_on_gpu
    assert stays["task"] == "llm_finetune"
    assert "stays on GPUs" in str(stays["reason"])


def test_every_tier_is_sized_at_once():
    rows = [(f"t{i}", 8 * (1 + i % 4), 64.0, "on_demand") for i in range(50)]
    m = {(f"t{i}", "gbm"): measured("gbm", 1e8 * (1 + i), 8 * (1 + i % 4)) for i in range(50)}
    busy = GbmWorkload("gbm", trainings_per_month=500, rows=10_000_000, features=100, trees=1000)
    table = size_tiers(tiers(*rows), [busy], m, horizon_months=12)
    assert table.servers.shape == (50, 12)
    for i in (0, 17, 49):
        seconds = 1e12 / (1e8 * (1 + i))
        threads = 500 * seconds / 3600 * 8 * (1 + i % 4) / (730 * 0.7)
        assert table.servers[i, 0] == max(1, int(np.ceil(threads / (8 * (1 + i % 4)))))
