"""A run's /tmp/bench-<run>-* folder goes with the run however it ends, and the folders
of killed runs (whose owning process is gone) are swept; nothing else is touched."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from benchmarks_app.execution import OWNER_FILE, UNOWNED_AFTER_S, scratch_dir, sweep_scratch


def folder(root: Path, name: str, owner: dict | None = None) -> Path:
    path = root / name
    (path / "threads-1").mkdir(parents=True)
    (path / "threads-1" / "result.json").write_text("{}")
    if owner is not None:
        (path / OWNER_FILE).write_text(json.dumps(owner))
    return path


def dead_process() -> dict:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    started = psutil.Process(proc.pid).create_time()
    proc.wait()
    return {"pid": proc.pid, "started": started}


def test_a_scratch_folder_names_its_owner_and_goes_when_the_block_ends():
    with scratch_dir("0123456789abcdef") as tmp:
        assert tmp.name.startswith("bench-01234567-") and tmp.is_dir()
        owner = json.loads((tmp / OWNER_FILE).read_text())
        assert owner == {"pid": os.getpid(), "started": psutil.Process().create_time()}
        assert sweep_scratch(tmp.parent) == []  # its owner lives
    assert not tmp.exists()


def test_a_scratch_folder_goes_when_the_run_fails_too():
    with pytest.raises(RuntimeError), scratch_dir("feedfacefeedface") as tmp:
        raise RuntimeError("the harness broke")
    assert not tmp.exists()


def test_the_sweep_removes_the_folders_of_gone_owners_only(tmp_path):
    me = {"pid": os.getpid(), "started": psutil.Process().create_time()}
    killed = folder(tmp_path, "bench-0badc0de-k1ll3d_x", dead_process())
    reused = folder(tmp_path, "bench-0badc0de-r3us3d_x", {**me, "started": me["started"] - 60})
    alive = folder(tmp_path, "bench-600dc0de-al1ve_xx", me)
    young = folder(tmp_path, "bench-12345678-n0own3rx")
    old = folder(tmp_path, "bench-87654321-0ld0wn3r")
    aged = time.time() - UNOWNED_AFTER_S - 60
    os.utime(old, (aged, aged))
    other = folder(tmp_path, "bench-results", dead_process())
    garbled = folder(tmp_path, "bench-abcdef01-garbl3dx")
    (garbled / OWNER_FILE).write_text("{not json")

    removed = sweep_scratch(tmp_path)

    assert sorted(removed) == sorted([killed, reused, old])
    assert not killed.exists() and not reused.exists() and not old.exists()
    assert alive.exists() and young.exists() and other.exists() and garbled.exists()
