"""The hpo runner runs P concurrent single-thread Optuna trial processes on one shared study."""

import pytest

from benchmarks_app.runners import load_profile
from tests.support.runners import assert_measured, run_profile


@pytest.mark.parametrize("processes", [1, 2])
def test_it_measures_trials_per_hour_with_p_single_thread_processes(tmp_path, processes):
    profile = load_profile("hpo-optuna")
    child = run_profile("hpo-optuna", processes, tmp_path)
    extra = assert_measured(child, profile, processes)
    assert extra["concurrency"] == processes
    per_rep = processes * profile["scales"]["smoke"]["trials_per_process"]
    assert extra["trials_timed"] == per_rep * child.result["summary"]["n"]
    assert 0 < extra["t0_seconds"] < 10
    for rep in child.result["repetitions"]:
        assert rep["value"] == pytest.approx(per_rep / rep["seconds"] * 3600)
    # The processes shared one Optuna journal in the scratch directory.
    assert (tmp_path / f"scratch-{processes}" / "optuna-journal.log").stat().st_size > 0
