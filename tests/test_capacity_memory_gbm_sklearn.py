# ruff: noqa: RUF001, RUF002, RUF003  (hand calculations written with ×, ÷)
"""A GBM training and a scikit-learn search hold their whole float32 matrix: their working
set, R·F·4 bytes × the run's RSS ratio (or the library's estimated factor), must fit one
server's RAM, as a features run's must."""

import pytest

from planner.compute.capacity import MEMORY_FACTORS, size_tiers
from planner.compute.schema import GbmWorkload, SklearnWorkload
from tests.support.capacity import C5, EXTREME, measured, one, tiers

# 50 M rows × 200 float32 features = 40 GB of input.
BIG_GBM = GbmWorkload("gbm", trainings_per_month=4, rows=50_000_000, features=200, trees=500)


def both(workload, **extra):
    m = {
        (slug, workload.kind): measured(workload.kind, 1e9, 16, **extra)
        for slug in ("extreme", "c5")
    }
    table = size_tiers(tiers(EXTREME, C5), [workload], m)
    return table.result(0), table.result(1)


def test_a_gbm_working_set_rules_out_a_32_gib_tier_and_fits_192():
    big, small = both(BIG_GBM, library="xgboost", rss_per_input_gb=1.5)
    assert small.memory_need_gib == pytest.approx(60.0)  # 40 GB × 1.5 GiB per GB
    assert (small.status, small.fits_in_ram, small.servers) == ("ruled_out", False, None)
    assert [str(r) for r in small.reasons] == [
        "gbm #1: working set 60.00 GiB must fit one box; the tier has 32 GiB"
    ]
    assert (big.status, big.fits_in_ram) == ("sized", True)


def test_a_sklearn_search_sizes_its_memory_from_the_runs_ratio():
    search = SklearnWorkload("sklearn", searches_per_month=2, grid_size=8, folds=5,
                             rows=5_000_000, features=400)  # fmt: skip
    big, small = both(search, rows=100_000, features=50, mode="grid_search", rss_per_input_gb=5)
    assert small.memory_need_gib == pytest.approx(40.0)  # 8 GB × 5
    assert small.status == "ruled_out" and big.status == "sized"
    assert "working set 40.00 GiB must fit one box" in str(small.reasons[0])


def test_a_run_without_the_ratio_uses_its_librarys_factor_labelled_as_an_estimate():
    result = one([BIG_GBM], {("extreme", "gbm"): measured("gbm", 1e9, 16, library="lightgbm")})
    assert result.memory_need_gib == pytest.approx(40 * MEMORY_FACTORS["lightgbm"].ratio)
    [label] = [str(m) for m in result.workloads[0].labels]
    assert label.startswith("estimate: memory at 1.9 GiB per GB of input")
    assert "the factor this project measured for LightGBM at 1000000 rows × 50 features" in label
    assert result.status == "sized"  # the memory estimate labels the figure, no more


def test_xgboost_and_lightgbm_have_their_own_factors():
    xgb = one([BIG_GBM], {("extreme", "gbm"): measured("gbm", 1e9, 16, library="xgboost")})
    lgb = one([BIG_GBM], {("extreme", "gbm"): measured("gbm", 1e9, 16, library="lightgbm")})
    assert xgb.memory_need_gib == pytest.approx(40 * 1.6)
    assert lgb.memory_need_gib == pytest.approx(40 * 1.9)
    assert "XGBoost hist" in str(xgb.workloads[0].labels[0])


def test_a_run_naming_no_library_gets_the_larger_factor():
    result = one([BIG_GBM], {("extreme", "gbm"): measured("gbm", 1e9, 16)})  # "gbm-standard"
    assert result.memory_need_gib == pytest.approx(40 * MEMORY_FACTORS["lightgbm"].ratio)


def test_an_estimated_working_set_too_big_for_the_tier_rules_it_out_too():
    result = one([BIG_GBM], {("c5", "gbm"): measured("gbm", 1e9, 16, library="xgboost")}, row=C5)
    assert result.status == "ruled_out"
    assert "working set 64.00 GiB must fit one box; the tier has 32 GiB" in str(result.reasons[0])


def test_a_measured_ratio_carries_no_estimate_label():
    m = measured("gbm", 1e9, 16, library="xgboost", rss_per_input_gb=1.5)
    result = one([BIG_GBM], {("extreme", "gbm"): m})
    assert result.workloads[0].labels == []
