"""The inference runner serves single requests from a trained model and keeps service times."""

import pytest

from benchmarks_app.runners import load_profile
from tests.support.runners import assert_measured, run_profile


@pytest.mark.parametrize("processes", [1, 2])
def test_it_keeps_service_time_samples_and_their_percentiles(tmp_path, processes):
    profile = load_profile("inference-tabular")
    child = run_profile("inference-tabular", processes, tmp_path)
    extra = assert_measured(child, profile, processes)
    per_rep = processes * profile["scales"]["smoke"]["requests_per_process"]
    assert extra["samples_total"] == per_rep * child.result["summary"]["n"]
    samples = extra["service_times_s"]
    assert 0 < len(samples) <= 2000 and all(0 < s < 1 for s in samples)
    assert 0 < extra["p50_s"] <= extra["p95_s"] <= extra["p99_s"] <= max(samples) * 1.0001
    assert extra["mean_s"] > 0 and extra["processes"] == processes
    assert set(extra["batch_p50_s"]) == {"8", "32"}
    # Throughput counts every answered request of all processes.
    for rep in child.result["repetitions"]:
        assert rep["value"] == pytest.approx(per_rep / rep["seconds"])
