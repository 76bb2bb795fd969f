"""The nn runner trains a PyTorch MLP, or says torch is missing and is skipped (never faked).

PyTorch is the optional extra in requirements-nn.txt. CI installs it, so under CI=true a
missing torch fails this file instead of quietly testing only the skip.
"""

import importlib.util
import itertools
import os

import pytest

from benchmarks_app.runners import EXIT_SKIPPED, load_profile
from tests.support.runners import assert_measured, run_child, run_profile

HAVE_TORCH = importlib.util.find_spec("torch") is not None


def test_the_nn_lane_has_the_torch_extra_installed():
    # CI's nn lane (PLANNER_NN_LANE=1) runs this file in a virtualenv with the extra; its
    # `make test` runs as a fresh clone does, without it, so the skip below is tested too.
    if os.getenv("PLANNER_NN_LANE") != "1":
        pytest.skip("only CI's nn lane promises the requirements-nn.txt extra")
    assert HAVE_TORCH, "the nn lane must install requirements-nn.txt so the profile really runs"


@pytest.mark.skipif(not HAVE_TORCH, reason="torch not installed (requirements-nn.txt)")
@pytest.mark.parametrize("threads", [1, 2])
def test_it_measures_mlp_training_samples_per_second(tmp_path, threads):
    profile = load_profile("nn-mlp")
    child = run_profile("nn-mlp", threads, tmp_path)
    extra = assert_measured(child, profile, threads)
    smoke = {**profile["params"], **profile["scales"]["smoke"]}
    assert extra["torch_threads"] == threads
    assert extra["batch_size"] == smoke["batch_size"]
    sizes = [smoke["features"], *smoke["hidden"], 2]
    assert extra["parameters"] == sum(a * b + b for a, b in itertools.pairwise(sizes))
    for rep in child.result["repetitions"]:
        assert rep["value"] == pytest.approx(smoke["samples"] / rep["seconds"])


@pytest.mark.skipif(HAVE_TORCH, reason="torch is installed: the real run is tested instead")
def test_it_is_skipped_with_the_reason_when_torch_is_missing(tmp_path):
    child = run_profile("nn-mlp", 1, tmp_path)
    assert child.returncode == EXIT_SKIPPED
    # The reason as a message the pages translate, and its English words for logs.
    assert child.result == {
        "ok": False,
        "kind": "skipped",
        "error": "torch not installed: profile nn-mlp skipped",
        "message": {
            "code": "benchmarks.runner_not_installed",
            "params": {"modules": ["torch"], "profile": "nn-mlp"},
        },
    }


def test_the_skip_path_writes_no_number_whatever_is_installed(tmp_path):
    # The same mechanism with a module that is never installed, so it runs everywhere.
    profile = load_profile("nn-mlp")
    profile["requires"] = ["numpy", "torch_extra_that_does_not_exist"]
    child = run_child(profile, 1, tmp_path)
    assert child.returncode == EXIT_SKIPPED
    assert child.result["ok"] is False and child.result["kind"] == "skipped"
    assert "torch_extra_that_does_not_exist" in child.result["error"]
    assert "summary" not in child.result and "repetitions" not in child.result
