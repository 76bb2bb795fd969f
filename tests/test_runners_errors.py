"""A runner child reports bad input and failures as JSON with its own exit code."""

from benchmarks_app.runners import EXIT_ERROR, EXIT_INVALID, load_profile
from tests.support.runners import run_child


def test_it_refuses_an_unknown_library_as_invalid(tmp_path):
    profile = load_profile("gbm-xgboost")
    profile["params"]["library"] = "catboost"
    child = run_child(profile, 1, tmp_path)
    assert child.returncode == EXIT_INVALID
    assert child.result["ok"] is False and child.result["kind"] == "invalid"
    assert "catboost" in child.result["error"]


def test_it_refuses_a_zero_thread_count_as_invalid(tmp_path):
    child = run_child(load_profile("micro-matmul"), 1, tmp_path, spec_overrides={"threads": 0})
    assert child.returncode == EXIT_INVALID
    assert child.result["kind"] == "invalid"


def test_it_reports_a_crash_as_an_error_with_the_message(tmp_path):
    profile = load_profile("micro-matmul")
    del profile["scales"]["smoke"]["n"]  # the runner reads params["n"]
    child = run_child(profile, 1, tmp_path)
    assert child.returncode == EXIT_ERROR
    assert child.result == {"ok": False, "kind": "error", "error": "KeyError: 'n'"}
    assert "Traceback" in child.stderr
