"""`make run` (manage.py runstack) keeps its processes running: a crashed one is
restarted after a back-off with a word on the terminal, given up on after repeated quick
crashes (saying so) while the rest keeps serving; and the periodic checks have their own
control worker, so they never wait behind a benchmark."""

import sys
import time
from pathlib import Path

import pytest

from planner.management.commands.runstack import Supervisor, describe_exit, stack_commands

SLEEPER = [sys.executable, "-c", "import time; time.sleep(120)"]


def crashes_once(marker: Path) -> list[str]:
    """A child that exits with 3 on its first start and stays up on the next."""
    code = (
        "import pathlib, sys, time\n"
        f"m = pathlib.Path({str(marker)!r})\n"
        "if not m.exists():\n    m.touch(); sys.exit(3)\n"
        "time.sleep(120)\n"
    )
    return [sys.executable, "-c", code]


def supervise(supervisor: Supervisor, until, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        supervisor.tick()
        if until():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out; said: {supervisor}")


@pytest.fixture
def said() -> list[str]:
    return []


@pytest.fixture
def supervisors():
    started: list[Supervisor] = []
    yield started
    for supervisor in started:
        supervisor.stop(timeout_s=5)


def test_the_benchmark_worker_takes_only_its_queue_and_a_control_worker_the_checks(tmp_path):
    commands = stack_commands("box", "127.0.0.1", 8123, tmp_path)
    assert set(commands) == {"web", "worker", "control", "beat"}
    worker, control = commands["worker"], commands["control"]
    assert worker[worker.index("-Q") + 1] == "bench.box"
    assert worker[worker.index("--concurrency") + 1] == "1"
    assert control[control.index("-Q") + 1] == "default"
    # Its node name serves no bench queue, so it never registers as a benchmark target.
    assert control[control.index("-n") + 1] == "control-box@%h"
    assert "127.0.0.1:8123" in commands["web"]


def test_a_crashed_child_is_restarted_after_a_back_off_and_the_others_keep_running(
    tmp_path, said, supervisors
):
    supervisor = Supervisor(
        {"web": SLEEPER, "worker": crashes_once(tmp_path / "crashed")},
        say=said.append, backoff_s=(0.2, 0.4),
    )  # fmt: skip
    supervisors.append(supervisor)
    supervisor.start()
    web = supervisor.children["web"].proc
    first = supervisor.children["worker"].proc
    supervise(supervisor, lambda: supervisor.children["worker"].proc is not first)
    again = supervisor.children["worker"].proc
    assert said == [
        "worker stopped (exit code 3); restarting it in 0.2 s.",
        f"worker restarted (pid {again.pid}).",
    ]
    time.sleep(0.3)
    assert supervisor.tick() and again.poll() is None
    assert supervisor.children["web"].proc is web and web.poll() is None


def test_a_child_that_keeps_crashing_is_given_up_on_saying_so_and_the_web_keeps_serving(
    said, supervisors
):
    supervisor = Supervisor(
        {"web": SLEEPER, "beat": [sys.executable, "-c", "raise SystemExit(2)"]},
        say=said.append, backoff_s=(0.05,), max_quick_crashes=3,
    )  # fmt: skip
    supervisors.append(supervisor)
    supervisor.start()
    supervise(supervisor, lambda: supervisor.children["beat"].given_up)
    assert said[-1] == (
        "beat stopped (exit code 2) and crashed 3 times in a row within 60 s of starting: "
        "giving up on it; the rest keeps running; restart `make run` once it is fixed."
    )
    assert sum("restarting it in 0.05 s" in line for line in said) == 2
    assert supervisor.tick() and supervisor.children["web"].proc.poll() is None


def test_when_the_web_server_cannot_be_kept_up_everything_stops(said, supervisors):
    supervisor = Supervisor(
        {"web": [sys.executable, "-c", "raise SystemExit(1)"], "worker": SLEEPER},
        say=said.append, backoff_s=(0.05,), max_quick_crashes=2,
    )  # fmt: skip
    supervisors.append(supervisor)
    supervisor.start()
    supervise(supervisor, lambda: not supervisor.tick())
    assert said[-1].endswith("giving up on it; stopping everything.")


def test_a_child_killed_by_a_signal_is_named_so():
    assert describe_exit(-9) == "killed by SIGKILL"
    assert describe_exit(1) == "exit code 1"
