"""A measurement child is followed by its progress lines and stopped, with every
process it started, at its time limit or on cancel."""

import contextlib
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from benchmarks_app.execution import run_child, time_limit
from benchmarks_app.runners import build_spec, measurement_budget_s
from tests.support.bench import content

ROOT = Path(__file__).resolve().parent.parent

# A stand-in child speaking the runner protocol: argv is "--spec S --out O".
CHILD = textwrap.dedent("""
    import json, os, subprocess, sys, time
    spec = json.load(open(sys.argv[2]))
    mode = spec["params"]["mode"]
    if mode == "ok":
        for i in range(3):
            print("library chatter")
            print(json.dumps({"progress": (i + 1) / 3, "step": f"rep {i + 1}/3"}), flush=True)
        json.dump({"ok": True, "threads": spec["threads"]}, open(sys.argv[4], "w"))
    elif mode == "hang":
        open(spec["workdir"] + "/child.pid", "w").write(str(os.getpid()))
        grandchild = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
        open(spec["workdir"] + "/grandchild.pid", "w").write(str(grandchild.pid))
        print(json.dumps({"progress": 0.1, "step": "warm-up"}), flush=True)
        time.sleep(300)
    elif mode == "crash":
        raise RuntimeError("boom in the runner")
""")


def spec_for(tmp_path, mode: str) -> dict:
    body = content(params={"mode": mode})
    return build_spec(body, "smoke", 2, tmp_path, time_budget_s=5.0)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie still answers kill(0); it is dead for our purposes.
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ")[1][0] != "Z"
    except FileNotFoundError:
        return False


def test_the_spec_merges_the_scale_into_the_params_and_keeps_harness_keys_out(tmp_path):
    spec = build_spec(content(), "standard", 4, tmp_path, n_measurements=4)
    assert spec["params"]["rows"] == 100000 and spec["params"]["library"] == "xgboost"
    assert "threads" not in spec["params"] and "time_budget_s" not in spec["params"]
    assert (spec["threads"], spec["scale"], spec["time_budget_s"]) == (4, "standard", 150.0)
    assert spec["repetition"]["max_reps"] == 5 and spec["profile"]["name"] == "toy-gbm"
    assert measurement_budget_s(content(), "standard", 4) == 150.0
    assert time_limit(150.0) > 150.0 and time_limit(150.0, 2.0) == 2.0


def test_it_reports_progress_lines_and_reads_the_result(tmp_path):
    seen = []
    outcome = run_child(
        [sys.executable, "-c", CHILD], spec_for(tmp_path, "ok"), tmp_path, limit_s=30,
        on_progress=lambda p, step: seen.append((round(p, 2), step)),
    )  # fmt: skip
    assert outcome.ok and outcome.result == {"ok": True, "threads": 2}
    assert seen == [(0.33, "rep 1/3"), (0.67, "rep 2/3"), (1.0, "rep 3/3")]
    assert json.loads((tmp_path / "spec.json").read_text())["params"]["mode"] == "ok"


def test_over_its_time_limit_the_whole_process_group_is_killed(tmp_path):
    started = time.monotonic()
    outcome = run_child(
        [sys.executable, "-c", CHILD], spec_for(tmp_path, "hang"), tmp_path, limit_s=2
    )
    assert time.monotonic() - started < 10
    assert not outcome.ok and outcome.stopped == "time_limit"
    assert outcome.failure(2)[1] == "over its time limit of 2 s (process group killed)"
    grandchild = int((tmp_path / "grandchild.pid").read_text())
    time.sleep(0.2)
    assert not alive(grandchild)


def test_a_cancel_stops_the_child(tmp_path):
    asked = []

    def should_cancel() -> bool:
        asked.append(time.monotonic())
        return len(asked) > 2

    outcome = run_child(
        [sys.executable, "-c", CHILD], spec_for(tmp_path, "hang"), tmp_path, limit_s=60,
        should_cancel=should_cancel, cancel_every_s=0.2,
    )  # fmt: skip
    assert outcome.stopped == "cancelled" and outcome.failure(60) == ("cancelled", "cancelled")


def test_a_child_dies_with_the_worker_process_that_started_it(tmp_path):
    spec = json.dumps(spec_for(tmp_path, "hang"))
    parent = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import json, pathlib, sys
        from benchmarks_app.execution import run_child
        run_child([sys.executable, "-c", {CHILD!r}], json.loads({spec!r}),
                  pathlib.Path({str(tmp_path)!r}), limit_s=300)
    """)], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})  # fmt: skip
    pid_file = tmp_path / "grandchild.pid"
    deadline = time.monotonic() + 30
    while not pid_file.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    child = int((tmp_path / "child.pid").read_text())
    grandchild = int(pid_file.read_text())
    try:
        assert alive(child)
        parent.kill()
        parent.wait()
        deadline = time.monotonic() + 5
        while alive(child) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not alive(child)
    finally:
        # Beyond the runner itself the guard cannot reach: clean up after the test.
        with contextlib.suppress(ProcessLookupError):
            os.kill(grandchild, signal.SIGKILL)


def test_a_runner_that_raises_fails_with_its_last_error_line(tmp_path):
    outcome = run_child(
        [sys.executable, "-c", CHILD], spec_for(tmp_path, "crash"), tmp_path, limit_s=30
    )
    kind, message = outcome.failure(30)
    assert kind == "failed" and outcome.returncode == 1
    assert message == "runner exited with code 1: RuntimeError: boom in the runner"
