"""The hardware fingerprint a target records: complete, sane here, fast, never failing."""

import json
import os
import platform
import time

import numpy
import pytest

from benchmarks_app import fingerprint


@pytest.fixture(scope="module")
def collected() -> dict:
    start = time.monotonic()
    data = fingerprint.collect()
    data["_seconds"] = time.monotonic() - start
    return data


def test_it_is_fast_and_json_serialisable(collected):
    assert collected.pop("_seconds") < 2.0
    assert json.loads(json.dumps(collected)) == collected


def test_it_names_the_cpu_and_says_whether_a_hypervisor_may_mask_it(collected):
    assert isinstance(collected["cpu_model"], str) and collected["cpu_model"]
    assert isinstance(collected["hypervisor"], bool)
    assert isinstance(collected["cpu_model_masked"], bool)
    if collected["cpu_model_masked"]:
        assert collected["hypervisor"]  # only a VM masks the name
    with open("/proc/cpuinfo") as f:
        assert collected["cpu_model"] in f.read()


def test_it_counts_cores_threads_and_the_usable_cpus(collected):
    assert 1 <= collected["physical_cores"] <= collected["hardware_threads"] == os.cpu_count()
    assert collected["affinity"] == sorted(os.sched_getaffinity(0))
    assert 1 <= collected["usable_cpus"] <= len(collected["affinity"])
    quota = collected["cgroup_cpu_quota"]
    assert quota is None or collected["usable_cpus"] <= max(1, int(quota))


def test_it_lists_the_instruction_set_flags_that_matter(collected):
    assert set(collected["flags"]) == set(fingerprint.FLAGS)
    with open("/proc/cpuinfo") as f:
        flags = set(next(line for line in f if line.startswith("flags")).split(":")[1].split())
    for flag, present in collected["flags"].items():
        assert present == (flag in flags)


def test_it_reads_caches_ram_and_disks(collected):
    caches = collected["caches"]
    assert caches["l1d_bytes"] >= 16 * 1024 and caches["l2_bytes"] >= caches["l1d_bytes"]
    assert caches["l3_total_bytes"] >= caches["l3_bytes"] >= caches["l2_bytes"]
    assert collected["ram_bytes"] == os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    assert 0 < collected["usable_ram_bytes"] <= collected["ram_bytes"]
    assert collected["disks"] and all(d["size_bytes"] > 0 for d in collected["disks"])


def test_it_records_os_python_libraries_and_the_blas(collected):
    assert collected["os"] == platform.platform()
    assert collected["python"] == platform.python_version()
    assert collected["libraries"]["numpy"] == numpy.__version__
    assert collected["libraries"]["scikit-learn"]
    assert collected["xgboost_build"] in ("xgboost-cpu", "xgboost")
    assert any(pool["user_api"] == "blas" for pool in collected["blas"])


def test_a_cgroup_cpu_quota_reduces_the_usable_cpus(tmp_path, monkeypatch):
    (tmp_path / "cgroup.controllers").write_text("cpu memory\n")
    (tmp_path / "cpu.max").write_text("150000 100000\n")  # 1.5 CPUs
    (tmp_path / "memory.max").write_text(str(3 * 2**30))
    monkeypatch.setattr(fingerprint, "CGROUP_ROOT", tmp_path)
    monkeypatch.setattr(fingerprint, "_cgroup_paths", lambda: {"": "/"})
    assert fingerprint.cgroup_cpu_quota() == 1.5
    assert fingerprint.usable_cpus() == 1  # 1.5 CPUs run one thread without throttling
    assert fingerprint.cgroup_memory_limit() == 3 * 2**30


def test_a_cgroup_v1_quota_up_the_tree_binds_too(tmp_path, monkeypatch):
    parent = tmp_path / "cpu" / "docker"
    (parent / "abc").mkdir(parents=True)
    (parent / "cpu.cfs_quota_us").write_text("400000")
    (parent / "cpu.cfs_period_us").write_text("100000")
    (parent / "abc" / "cpu.cfs_quota_us").write_text("-1")
    monkeypatch.setattr(fingerprint, "CGROUP_ROOT", tmp_path)
    monkeypatch.setattr(fingerprint, "_cgroup_paths", lambda: {"cpu": "/docker/abc"})
    assert fingerprint.cgroup_cpu_quota() == 4.0


def test_missing_parts_are_none_never_an_exception(tmp_path, monkeypatch):
    monkeypatch.setattr(fingerprint, "SYS_CPU", tmp_path / "no-cpu")
    monkeypatch.setattr(fingerprint, "_cpuinfo", lambda: 1 / 0)
    data = fingerprint.collect()
    assert data["caches"] == {"l3_total_bytes": None}
    assert data["usable_cpus"] >= 1 and data["ram_bytes"] > 0


def test_a_generic_cpu_name_under_a_hypervisor_counts_as_masked():
    masked = fingerprint._cpu([{"model name": "AMD EPYC", "flags": "avx2 hypervisor"}])
    assert masked["cpu_model_masked"] is True and masked["hypervisor"] is True
    real = fingerprint._cpu([{"model name": "AMD EPYC 4545P 16-Core Processor", "flags": "avx2"}])
    assert real["cpu_model_masked"] is False
    assert real["flags"]["avx2"] is True and real["flags"]["avx512f"] is False
