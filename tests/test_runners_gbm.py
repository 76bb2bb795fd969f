"""The gbm runner trains XGBoost hist and LightGBM for real in a child process per thread count."""

import pytest

from benchmarks_app.runners import load_profile
from tests.support.runners import assert_measured, run_profile


@pytest.mark.parametrize("threads", [1, 2])
def test_it_measures_xgboost_cell_trees_per_second(tmp_path, threads):
    profile = load_profile("gbm-xgboost")
    child = run_profile("gbm-xgboost", threads, tmp_path)
    extra = assert_measured(child, profile, threads)
    smoke = profile["scales"]["smoke"]
    assert (extra["rows"], extra["features"], extra["trees"]) == (
        smoke["rows"], smoke["features"], smoke["trees"],
    )  # fmt: skip
    assert extra["library"] == "xgboost"
    assert extra["params"]["nthread"] == threads and extra["params"]["tree_method"] == "hist"
    # value = R·F·T / seconds of the same repetition
    cells = smoke["rows"] * smoke["features"] * smoke["trees"]
    for rep in child.result["repetitions"]:
        assert rep["value"] == pytest.approx(cells / rep["seconds"], rel=1e-9)
    # The wheel that provided the module is named (xgboost-cpu on Linux CPU targets).
    runtime = child.result["runtime"]
    versions = runtime["library_versions"]
    assert runtime["xgboost_build"] == ("xgboost-cpu" if versions["xgboost-cpu"] else "xgboost")


@pytest.mark.parametrize("threads", [1, 2])
def test_it_measures_lightgbm_cell_trees_per_second(tmp_path, threads):
    profile = load_profile("gbm-lightgbm")
    child = run_profile("gbm-lightgbm", threads, tmp_path)
    extra = assert_measured(child, profile, threads)
    assert extra["library"] == "lightgbm"
    assert extra["params"]["num_threads"] == threads
    assert extra["seconds_per_training"] > 0
