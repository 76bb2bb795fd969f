"""Parameters are checked before anything starts: sizes, thread counts, memory."""

import copy

from benchmarks_app import fingerprint
from benchmarks_app.runners import build_spec, load_profile, plan_threads, validate

HOST = {"usable_cpus": 16, "ram_bytes": 64 * 2**30, "usable_ram_bytes": 64 * 2**30}


def test_it_accepts_every_shipped_profile_at_smoke_scale_on_this_machine():
    host = fingerprint.collect()
    for name in ("gbm-xgboost", "features-polars", "hpo-optuna", "micro-membw", "nn-mlp"):
        assert validate(load_profile(name), "smoke", host) == [], name


def test_it_refuses_zero_and_negative_sizes():
    profile = load_profile("gbm-xgboost")
    profile["scales"]["smoke"]["rows"] = 0
    profile["params"]["learning_rate"] = -0.1
    problems = validate(profile, "smoke", HOST)
    assert "params.rows must be positive (got 0)." in problems
    assert "params.learning_rate must be positive (got -0.1)." in problems


def test_it_refuses_non_positive_sizes_inside_lists():
    profile = load_profile("nn-mlp")
    profile["scales"]["smoke"]["hidden"] = [128, 0]
    assert validate(profile, "smoke", HOST) == [
        "params.hidden must hold only positive numbers (got [128, 0])."
    ]


def test_it_refuses_thread_counts_above_the_usable_cpus():
    problems = validate(load_profile("sklearn-rf"), "standard", HOST, threads=[1, 8, 32])
    assert problems == ["32 threads exceed this host's 16 usable CPUs."]


def test_it_refuses_zero_threads_and_a_missing_time_budget():
    profile = load_profile("sklearn-rf")
    profile["scales"]["smoke"]["time_budget_s"] = 0
    problems = validate(profile, "smoke", HOST, threads=[0])
    assert "Thread count 0 must be a positive whole number." in problems
    assert "time_budget_s must be positive (got 0)." in problems


def test_it_refuses_a_dataset_larger_than_the_hosts_ram():
    # full gbm: 25 M rows x 50 float32 = 5 GB of data alone; a 4 GiB host cannot hold it.
    small = {"usable_cpus": 4, "ram_bytes": 4 * 2**30}
    problems = validate(load_profile("gbm-xgboost"), "full", small)
    assert len(problems) == 1
    assert problems[0].startswith("The full dataset needs about ")
    assert "4.0 GiB RAM" in problems[0]
    assert validate(load_profile("gbm-xgboost"), "full", {**small, "ram_bytes": 64 * 2**30}) == []


def test_it_uses_the_cgroup_memory_limit_over_physical_ram():
    host = {"usable_cpus": 4, "ram_bytes": 256 * 2**30, "usable_ram_bytes": 4 * 2**30}
    assert validate(load_profile("gbm-lightgbm"), "full", host) != []


def test_it_refuses_scratch_files_larger_than_the_free_disk(tmp_path):
    profile = load_profile("micro-diskread")
    profile["scales"]["standard"]["file_mib"] = 2**40  # an exbibyte
    problems = validate(profile, "standard", HOST, workdir=str(tmp_path))
    assert len(problems) == 1 and "of disk" in problems[0]


def test_it_names_a_missing_scale():
    assert validate(load_profile("micro-matmul"), "huge", HOST) == [
        "Profile micro-matmul has no 'huge' scale."
    ]


def test_thread_lists_are_upper_bounds_that_keep_one_and_the_host_maximum():
    assert plan_threads([1, 2, 4, 8, 16, 32], 12) == [1, 2, 4, 8, 12]
    assert plan_threads([1, 2, 4, 8, 16, 32], 32) == [1, 2, 4, 8, 16, 32]
    assert plan_threads([4, 8], 2) == [1, 2]
    assert plan_threads([1, 2], 1) == [1]
    assert plan_threads([2, 1, 2], 8) == [1, 2]


def test_the_spec_merges_scale_params_over_profile_params_and_shares_the_budget():
    profile = load_profile("gbm-xgboost")
    original = copy.deepcopy(profile)
    spec = build_spec(profile, "smoke", 2, "/tmp/x", n_measurements=2)
    assert spec["params"]["rows"] == profile["scales"]["smoke"]["rows"]
    assert spec["params"]["library"] == "xgboost"
    assert "threads" not in spec["params"] and "time_budget_s" not in spec["params"]
    assert spec["time_budget_s"] == profile["scales"]["smoke"]["time_budget_s"] / 2
    # smoke keeps the profile's policy but caps repetitions lower
    assert spec["repetition"] == {**profile["repetition"], "max_reps": 5}
    assert "repetition" not in spec["params"]
    assert spec["threads"] == 2 and spec["workdir"] == "/tmp/x" and spec["scale"] == "smoke"
    assert profile == original
