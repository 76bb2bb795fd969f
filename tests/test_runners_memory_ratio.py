"""The gbm and sklearn runners record memory per input byte, as the features runner does:
peak RSS above the pre-data baseline (GiB) per decimal GB of the float32 input matrix."""

import math

import pytest

from benchmarks_app.runners import load_profile
from tests.support.runners import assert_measured, run_profile


def ratio_of(name: str, threads: int, tmp_path) -> tuple[dict, dict]:
    profile = load_profile(name)
    child = run_profile(name, threads, tmp_path)
    extra = assert_measured(child, profile, threads)
    smoke = profile["scales"]["smoke"]
    assert extra["input_gb"] == pytest.approx(smoke["rows"] * smoke["features"] * 4 / 1e9)
    assert math.isfinite(extra["rss_per_input_gb"]) and extra["rss_per_input_gb"] > 0
    return extra, child.result["runtime"]


@pytest.mark.parametrize("name", ["gbm-xgboost", "gbm-lightgbm", "sklearn-rf"])
def test_an_in_process_run_records_its_peak_above_the_baseline_per_input_gb(tmp_path, name):
    extra, runtime = ratio_of(name, 1, tmp_path)
    # baseline + ratio * input is the process's own peak, as the harness reads it after.
    above = extra["rss_per_input_gb"] * extra["input_gb"] * 2**30
    assert extra["rss_baseline_bytes"] + above == pytest.approx(
        runtime["peak_rss_self_bytes"], rel=0.02
    )


def test_a_grid_search_counts_its_workers_memory_too(tmp_path):
    extra, runtime = ratio_of("sklearn-gridsearch", 2, tmp_path)
    above = extra["rss_per_input_gb"] * extra["input_gb"] * 2**30
    own = runtime["peak_rss_self_bytes"] - extra["rss_baseline_bytes"]
    assert above > own  # the two workers' fold copies and forests are in it


@pytest.mark.parametrize(
    "name", ["gbm-xgboost", "gbm-lightgbm", "sklearn-rf", "sklearn-gridsearch"]
)
def test_the_profiles_that_record_it_are_a_patch_version(name):
    assert (
        load_profile(name)["version"] == "1.0.2"
    )  # runs of 1.0.0 and 1.0.1 still compare within 1.0
