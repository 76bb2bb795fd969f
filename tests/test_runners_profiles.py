"""Every shipped profile follows the documented schema and the evidence metric names."""

import importlib
import re

import pytest

from benchmarks_app.evidence import METRICS
from benchmarks_app.runners import SCALES, WORKLOAD_CLASSES, load_profiles

PROFILES = load_profiles()
EXPECTED = {"gbm-xgboost", "gbm-lightgbm", "sklearn-rf", "sklearn-gridsearch",
            "features-pandas", "features-polars", "hpo-optuna", "inference-tabular",
            "nn-mlp", "micro-membw", "micro-matmul", "micro-diskread"}  # fmt: skip


def test_one_profile_per_documented_workload_is_shipped():
    assert set(PROFILES) == EXPECTED
    assert {p["workload_class"] for p in PROFILES.values()} == set(WORKLOAD_CLASSES)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_profile_follows_the_schema(name):
    profile = PROFILES[name]
    assert profile["name"] == name
    assert re.fullmatch(r"\d+\.\d+\.\d+", profile["version"])
    assert profile["workload_class"] in WORKLOAD_CLASSES
    assert profile["title"] and profile["description"]
    assert set(profile["scales"]) == set(SCALES)
    for scale in SCALES:
        threads = profile["scales"][scale]["threads"]
        assert threads == sorted(set(threads)) and threads[0] == 1
        assert profile["scales"][scale]["time_budget_s"] > 0
    # "Each smoke profile takes at most ~15 s including repetitions".
    assert profile["scales"]["smoke"]["time_budget_s"] <= 15
    for scale in SCALES:
        assert set(profile["scales"][scale].get("repetition", {})) <= set(profile["repetition"])
    rep = profile["repetition"]
    assert rep["warmup"] >= 1 and 1 <= rep["min_reps"] <= rep["max_reps"]
    assert 0 < rep["cv_target"] < 1 and rep["outlier_rule"]
    assert profile["metric"]["higher_is_better"] is True
    assert "text" in profile["scaling_rule"] and "trusted_range" in profile["scaling_rule"]
    assert profile["requires"] and all(isinstance(m, str) for m in profile["requires"])


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sizing_profiles_use_the_metric_names_the_planner_reads(name):
    profile = PROFILES[name]
    if profile["workload_class"] == "micro":
        assert profile["scaling_rule"]["trusted_range"] is None  # micro sizes nothing
        return
    metric, unit = METRICS[profile["workload_class"]]
    assert (profile["metric"]["name"], profile["metric"]["unit"]) == (metric, unit)
    trusted = profile["scaling_rule"]["trusted_range"]
    assert trusted["min"] < trusted["max"]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_runner_module_exists_and_estimates_memory_without_heavy_imports(name):
    profile = PROFILES[name]
    module = importlib.import_module(f"benchmarks_app.runners.{profile['runner']}")
    assert callable(module.setup)
    small = module.estimate_bytes({**profile["params"], **profile["scales"]["smoke"]}, 1)
    full = module.estimate_bytes({**profile["params"], **profile["scales"]["full"]}, 1)
    assert 0 < small <= full


def test_the_full_gbm_dataset_is_the_five_gigabyte_one():
    full = PROFILES["gbm-xgboost"]["scales"]["full"]
    assert full["rows"] * full["features"] * 4 == 5_000_000_000
