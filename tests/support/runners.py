"""Helpers for the runner tests: run a profile's runner as a real child."""

import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks_app.runners import build_spec, load_profile, merged_repetition

ROOT = Path(__file__).resolve().parents[2]
STOP_REASONS = {"cv_met", "cap_reached", "time_budget"}
PROCESS_PARALLEL = {"hpo", "inference", "membw"}


@dataclass
class Child:
    returncode: int
    result: dict
    progress: list[dict]
    stderr: str
    seconds: float


def run_child(profile: dict, threads: int, workdir: Path, *, scale: str = "smoke",
              spec_overrides: dict | None = None, timeout: float = 90) -> Child:  # fmt: skip
    """`python -m benchmarks_app.runners.<runner> --spec SPEC.json --out RESULT.json`."""
    n = len(profile["scales"][scale]["threads"])
    spec = build_spec(profile, scale, threads, str(workdir / f"scratch-{threads}"),
                      n_measurements=n)  # fmt: skip
    spec.update(spec_overrides or {})
    spec_path, out = workdir / f"spec-{threads}.json", workdir / f"result-{threads}.json"
    spec_path.write_text(json.dumps(spec))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", f"benchmarks_app.runners.{profile['runner']}",
         "--spec", str(spec_path), "--out", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip
    progress = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    result = json.loads(out.read_text()) if out.exists() else {}
    return Child(proc.returncode, result, progress, proc.stderr, time.monotonic() - start)


def run_profile(name: str, threads: int, workdir: Path, **kwargs) -> Child:
    return run_child(load_profile(name), threads, workdir, **kwargs)


def assert_measured(child: Child, profile: dict, threads: int, scale: str = "smoke") -> dict:
    """What every successful measurement must show; returns the result's ``extra``."""
    result = child.result
    assert child.returncode == 0, child.stderr[-3000:]
    assert result["ok"] is True
    assert result["metric"] == profile["metric"]["name"]
    assert result["unit"] == profile["metric"]["unit"]
    assert result["threads"] == threads

    rep = merged_repetition(profile, scale)
    summary = result["summary"]
    assert summary["stop_reason"] in STOP_REASONS
    if summary["stop_reason"] != "time_budget":
        assert summary["n"] >= rep["min_reps"]
    assert 1 <= summary["n"] == len(result["repetitions"]) <= rep["max_reps"]
    assert len(result["warmup"]) == rep["warmup"]
    values = [r["value"] for r in result["repetitions"]]
    assert all(v > 0 for v in values) and all(r["seconds"] > 0 for r in result["repetitions"])
    assert summary["min"] == min(values) and summary["max"] == max(values)
    assert summary["min"] <= summary["median"] <= summary["max"]

    # The thread count really ran: every BLAS/OpenMP pool at k (1 per worker process for
    # process-parallel runners, which then show k distinct worker processes).
    runtime = result["runtime"]
    inner = 1 if profile["runner"] in PROCESS_PARALLEL else threads
    pools = runtime["threadpools"]
    assert pools, "threadpoolctl saw no BLAS/OpenMP library"
    assert {p["num_threads"] for p in pools} == {inner}
    if profile["runner"] in PROCESS_PARALLEL:
        assert len({p["process"] for p in pools}) == threads
    assert runtime["env"]["OMP_NUM_THREADS"] == str(inner)
    assert runtime["env"]["OPENBLAS_NUM_THREADS"] == str(inner)
    assert runtime["affinity"] and "cgroup_cpu_quota" in runtime
    assert runtime["library_versions"]["numpy"]
    assert result["peak_rss_bytes"] > 10 * 2**20

    assert child.progress[0]["step"] == "setup"
    assert child.progress[-1]["progress"] == 1.0
    fractions = [p["progress"] for p in child.progress]
    assert fractions == sorted(fractions)
    assert result["extra"]["trusted_range"] == profile["scaling_rule"]["trusted_range"]
    return result["extra"]
