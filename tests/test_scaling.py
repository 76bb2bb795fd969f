# ruff: noqa: RUF001, RUF003  (the labels and formulas under test use ×, – and σ)
"""Amdahl and USL fits over one host's sweep, and predictions labelled for that host only."""

import numpy as np
import pytest

from benchmarks_app import fingerprint
from benchmarks_app.runners import load_profile, plan_threads
from benchmarks_app.scaling import best_fit, fit_amdahl, fit_usl, predict
from tests.support.runners import run_child


def usl(n, sigma, kappa, lam):
    n = np.asarray(n, dtype=float)
    return lam * n / (1 + sigma * (n - 1) + kappa * n * (n - 1))


@pytest.mark.parametrize("seed", range(5))
def test_it_recovers_known_usl_parameters_from_noisy_data(seed):
    # σ = 0.05, κ = 0.001, λ = 1000 with 2 % multiplicative noise over 1..32 threads.
    # Tolerance: σ ± 0.01, κ ± 0.0003, λ ± 3 %, peak N* = √(0.95/0.001) ≈ 30.8 ± 15 %.
    threads = np.arange(1, 33)
    rng = np.random.default_rng(seed)
    measured = usl(threads, 0.05, 0.001, 1000) * (1 + 0.02 * rng.standard_normal(len(threads)))
    fit = fit_usl(threads, measured)
    assert fit.enough and fit.model == "usl" and fit.n_points == 32
    assert fit.params["sigma"] == pytest.approx(0.05, abs=0.01)
    assert fit.params["kappa"] == pytest.approx(0.001, abs=0.0003)
    assert fit.params["lambda_"] == pytest.approx(1000, rel=0.03)
    assert fit.peak_threads == pytest.approx(30.8, rel=0.15)
    assert fit.r2 > 0.98 and fit.rel_error < 0.03
    assert best_fit(threads, measured).model == "usl"


def test_it_recovers_amdahls_serial_fraction():
    threads = [1, 2, 4, 8, 16]
    measured = [100 * n / (1 + 0.1 * (n - 1)) for n in threads]
    fit = fit_amdahl(threads, measured)
    assert fit.params["serial_fraction"] == pytest.approx(0.1, abs=1e-4)
    assert fit.params["x1"] == pytest.approx(100, rel=1e-4)
    assert fit.peak_threads is None


def test_a_flat_sweep_is_all_serial_with_no_peak_and_no_r2():
    fit = fit_usl([1, 2, 4, 8], [50, 50, 50, 50])
    assert fit.params["sigma"] == pytest.approx(1, abs=0.01)
    assert fit.peak_threads is None
    assert fit.r2 is None  # nothing to explain: undefined, not a perfect score
    assert predict(fit, 16).value == pytest.approx(50, rel=0.01)
    assert fit_amdahl([1, 2, 4, 8], [50] * 4).params["serial_fraction"] == pytest.approx(
        1, abs=0.01
    )


def test_a_perfectly_linear_sweep_has_no_contention_and_no_peak():
    fit = best_fit([1, 2, 4, 8], [10, 20, 40, 80])
    assert fit.model == "amdahl"  # USL's extra parameter buys nothing here
    assert fit.params["serial_fraction"] == pytest.approx(0, abs=1e-6)
    usl_fit = fit_usl([1, 2, 4, 8], [10, 20, 40, 80])
    assert usl_fit.params["sigma"] == pytest.approx(0, abs=1e-6)
    assert usl_fit.params["kappa"] == pytest.approx(0, abs=1e-6)
    assert usl_fit.peak_threads is None
    assert predict(fit, 16).value == pytest.approx(160, rel=1e-4)


def test_a_retrograde_sweep_picks_usl_and_finds_the_peak_inside_the_range():
    threads = [1, 2, 4, 8, 16, 32]
    measured = usl(threads, 0.1, 0.02, 100)  # peaks at √(0.9/0.02) ≈ 6.7 threads
    fit = best_fit(threads, measured)
    assert fit.model == "usl"
    assert fit.peak_threads == pytest.approx(6.7, rel=0.01)
    assert fit_amdahl(threads, measured).rmse > 5 * fit.rmse  # Amdahl cannot go down
    assert predict(fit, 32).value < predict(fit, 8).value


def test_too_few_points_say_so_instead_of_a_number():
    amdahl = fit_amdahl([1, 2, 2], [10, 19, 19.5])
    assert not amdahl.enough
    assert amdahl.reason == "not enough points: Amdahl needs ≥ 3 distinct thread counts, got 2"
    usl_fit = fit_usl([1, 2, 4], [10, 19, 35])
    assert usl_fit.reason == "not enough points: USL needs ≥ 4 distinct thread counts, got 3"
    assert best_fit([1, 2, 4], [10, 19, 35]).model == "amdahl"  # enough for Amdahl only
    prediction = predict(amdahl, 8)
    assert prediction.value is None and prediction.kind == "unavailable"
    assert prediction.label.startswith("not enough points")


def test_predictions_say_interpolation_or_how_far_they_extrapolate():
    fit = fit_amdahl([2, 4, 8, 16], [20, 38, 70, 120], host="alpha@h1")
    inside = predict(fit, 12)
    assert inside.kind == "interpolation" and inside.distance == 1.0
    assert inside.label == "interpolated within the measured 2–16 threads"
    beyond = predict(fit, 32)
    assert beyond.kind == "extrapolation" and beyond.distance == 2.0
    assert beyond.label == "extrapolated 2.0× beyond the largest measured 16 threads"
    below = predict(fit, 1)
    assert below.label == "extrapolated 2.0× below the smallest measured 2 threads"


def test_it_never_predicts_another_machine():
    fit = fit_amdahl([1, 2, 4], [10, 19, 35], host="alpha@h1")
    assert predict(fit, 4, host="alpha@h1").value is not None
    with pytest.raises(ValueError, match="never predicts another machine"):
        predict(fit, 4, host="beta@h2")


def test_it_refuses_non_positive_throughput():
    with pytest.raises(ValueError):
        fit_amdahl([1, 2, 4], [10, 0, 35])


def test_it_fits_a_measured_sweep_of_this_host_or_says_why_not(tmp_path):
    """Real measurements from the matmul runner, over as many thread counts as this host has."""
    profile = load_profile("micro-matmul")
    threads = plan_threads([1, 2, 3, 4], fingerprint.usable_cpus())
    sweep = {}
    for k in threads:
        child = run_child(profile, k, tmp_path)
        assert child.result["ok"], child.result
        sweep[k] = child.result["summary"]["median"]
    fit = best_fit(list(sweep), list(sweep.values()), host="this")
    if len(threads) < 3:
        assert not fit.enough and fit.reason.startswith("not enough points")
        assert predict(fit, 8).value is None
    else:
        assert fit.enough and fit.rmse >= 0
        prediction = predict(fit, 2 * max(threads), host="this")
        assert prediction.kind == "extrapolation" and prediction.value > 0
