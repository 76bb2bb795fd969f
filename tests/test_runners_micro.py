"""The micro runners: memory bandwidth, matmul GFLOPS and a page-cache-free sequential read."""

import pytest

from benchmarks_app import fingerprint
from benchmarks_app.runners import load_profile
from tests.support.runners import assert_measured, run_child, run_profile


@pytest.mark.parametrize("processes", [1, 2])
def test_it_measures_stream_triad_and_copy_over_arrays_beyond_the_cache(tmp_path, processes):
    profile = load_profile("micro-membw")
    extra = assert_measured(run_profile("micro-membw", processes, tmp_path), profile, processes)
    llc = fingerprint.caches()["l3_total_bytes"]
    assert extra["array_bytes"] >= 4 * llc
    assert extra["array_bytes"] >= profile["scales"]["smoke"]["array_mib"] * 2**20
    assert extra["copy_gb_per_s"] > 0 and len(extra["copy_values"]) >= 1


@pytest.mark.parametrize("threads", [1, 2])
def test_it_measures_matmul_gflops_in_both_precisions_and_names_the_blas(tmp_path, threads):
    profile = load_profile("micro-matmul")
    child = run_profile("micro-matmul", threads, tmp_path)
    extra = assert_measured(child, profile, threads)
    assert extra["gflops_f32"] > 0
    blas = [p for p in child.result["runtime"]["threadpools"] if p["user_api"] == "blas"]
    assert blas and blas[0]["internal_api"] in extra["blas"]
    n, iterations = extra["n"], extra["iterations"]
    for rep in child.result["repetitions"]:
        assert rep["value"] == pytest.approx(2 * n**3 * iterations / rep["seconds"] / 1e9)


@pytest.mark.parametrize("threads", [1, 2])
def test_it_reads_the_file_cold_and_says_how(tmp_path, threads):
    profile = load_profile("micro-diskread")
    extra = assert_measured(run_profile("micro-diskread", threads, tmp_path), profile, threads)
    assert extra["method"] in ("o_direct", "fadvise")
    assert extra["file_bytes"] == profile["scales"]["smoke"]["file_mib"] * 2**20
    if extra["resident_before_read"] is not None and extra["filesystem"] != "tmpfs":
        assert extra["resident_before_read"] < 0.05


def test_it_evicts_the_page_cache_with_fadvise_when_asked(tmp_path):
    profile = load_profile("micro-diskread")
    profile["params"]["method"] = "fadvise"
    child = run_child(profile, 1, tmp_path)
    extra = assert_measured(child, profile, 1)
    assert extra["method"] == "fadvise"
    if extra["resident_before_read"] is not None and extra["filesystem"] != "tmpfs":
        assert extra["resident_before_read"] < 0.05
