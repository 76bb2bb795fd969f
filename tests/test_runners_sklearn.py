"""The sklearn runner fits random forests and a cross-validated grid search with n_jobs = k."""

import pytest

from benchmarks_app.runners import load_profile
from tests.support.runners import assert_measured, run_profile


@pytest.mark.parametrize("threads", [1, 2])
def test_it_measures_random_forest_fits_per_second(tmp_path, threads):
    profile = load_profile("sklearn-rf")
    child = run_profile("sklearn-rf", threads, tmp_path)
    extra = assert_measured(child, profile, threads)
    assert extra["mode"] == "rf_fit" and extra["fits_per_measurement"] == 1
    assert extra["rows"] == profile["scales"]["smoke"]["rows"]
    assert extra["features"] == profile["scales"]["smoke"]["features"]


@pytest.mark.parametrize("threads", [1, 2])
def test_it_counts_every_cross_validation_fit_of_a_grid_search(tmp_path, threads):
    profile = load_profile("sklearn-gridsearch")
    child = run_profile("sklearn-gridsearch", threads, tmp_path)
    extra = assert_measured(child, profile, threads)
    grid = profile["params"]["grid"]
    candidates = len(grid["max_features"]) * len(grid["min_samples_leaf"])
    assert extra["fits_per_measurement"] == candidates * profile["scales"]["smoke"]["folds"]
    for rep in child.result["repetitions"]:
        assert rep["value"] == pytest.approx(extra["fits_per_measurement"] / rep["seconds"])
