"""The fault suite: real workers, beat and a control worker on a Redis of its own, the
intervals shortened through settings and a reduced-scale profile. Each test replays one
fault and asserts how its runs end (state and reason code) and that none stayed
non-final longer than the bound the settings promise (README, "Settings").

bench/faults.py replays the same scenarios at standard scale and intervals.
"""

import contextlib
import os
import signal
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import psutil
import pytest
from django.utils import timezone

from benchmarks_app.models import Run, Target
from tests.support import faults
from tests.support.bench import target, wait_for
from tests.support.faults import Intervals, Stack
from tests.support.redis_server import RedisServer

pytestmark = [pytest.mark.faults, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parent.parent
# Beats far enough apart that a killed worker is restarted before it could be called
# vanished (worker start-up takes seconds here); a bound that re-sends after 2 s.
INTERVALS = Intervals(heartbeat_s=4, bound_s=8)
# Start-up and scheduling of a handful of processes on a shared two-core host.
SLACK_S = 6.0
TIMEOUT_S = 120.0


def new_stack(env: dict[str, str], logs: Path, intervals: Intervals) -> Stack:
    try:
        return Stack(env, logs, intervals)
    except FileNotFoundError as exc:  # no redis-server
        pytest.fail(str(exc)) if os.getenv("CI") == "true" else pytest.skip(str(exc))


@pytest.fixture(scope="module")
def shared_stack(django_db_setup, tmp_path_factory, child_environment) -> Iterator[Stack]:
    """One Redis, control worker and beat for the module; each test its own workers."""
    stack = new_stack(child_environment(), tmp_path_factory.mktemp("faults"), INTERVALS)
    stack.start()
    yield stack
    stack.stop()


@pytest.fixture
def stack(shared_stack, settings) -> Iterator[Stack]:
    settings.BENCH_HEARTBEAT_SECONDS = INTERVALS.heartbeat_s
    settings.BENCH_QUEUED_BOUND_SECONDS = INTERVALS.bound_s
    settings.REDIS_URL = shared_stack.redis.url  # a cancel revokes through it
    started_before = len(shared_stack.processes)
    yield shared_stack
    shared_stack.stop_workers(keep=started_before)


@pytest.fixture
def pv():
    return faults.reduced_profile()


def code_of(why: dict | None) -> str | None:
    return why["code"] if why else None


def test_a_worker_killed_mid_run_fails_its_run_within_four_heartbeats(stack, pv):
    outcome = faults.worker_killed(stack, pv, timeout=TIMEOUT_S)
    run = outcome.run
    assert run.status == "failed" and outcome.code == "benchmarks.run_worker_vanished"
    assert outcome.seconds_to_final <= INTERVALS.vanished_bound_s + SLACK_S
    # The reconciler sweeps the scratch folder the killed worker left behind.
    wait_for(lambda: not faults.scratch_folders(run), 10 + SLACK_S, message="folder swept")


def test_a_restarted_worker_fails_the_run_it_was_running_and_takes_the_next(stack, pv):
    killed, following = faults.worker_restarted(stack, pv, timeout=TIMEOUT_S)
    assert killed.run.status == "failed" and killed.code == "benchmarks.run_worker_restarted"
    assert killed.seconds_to_final <= INTERVALS.vanished_bound_s
    assert following.run.status == "succeeded", following.run.reason
    assert following.run.started_at > killed.run.finished_at
    assert not faults.scratch_folders(killed.run)  # swept by the next run on that host


def test_a_message_lost_in_a_broker_restart_is_sent_again_and_the_run_succeeds(stack, pv):
    # The busy run must still measure when the broker comes back: 20 repetitions, not
    # the reduced profile's four, keep the restart well inside it on a slow machine.
    busy_pv = faults.reduced_profile(reps=20)
    busy, lost = faults.message_lost(stack, pv, timeout=TIMEOUT_S, busy_pv=busy_pv)
    assert busy.run.status == "succeeded", busy.run.reason
    assert lost.run.status == "succeeded", lost.run.reason
    assert lost.run.sends == 2  # not re-sent while its target was busy; once when idle
    idle_until_claimed = (lost.run.started_at - busy.run.finished_at).total_seconds()
    assert idle_until_claimed <= INTERVALS.resend_bound_s + SLACK_S


def test_a_run_sent_while_the_broker_is_down_fails_and_the_next_runs_once_it_is_back(stack, pv):
    (refused, after), said = faults.broker_down_at_send(stack, pv, timeout=TIMEOUT_S)
    assert said == f"run {refused.run.pk} was not queued"
    assert refused.run.status == "failed"
    assert refused.code == "benchmarks.run_broker_unreachable"
    assert refused.seconds_to_final <= SLACK_S
    assert after.run.status == "succeeded", after.run.reason


def test_a_run_over_its_time_limit_fails_saying_so(stack, pv):
    outcome = faults.over_time_limit(stack, pv, timeout=TIMEOUT_S)
    why = outcome.run.reason_message
    assert outcome.run.status == "failed" and outcome.code == "benchmarks.run_failed_at"
    assert code_of(why["params"]["why"]) == "benchmarks.child_time_limit"
    assert outcome.seconds_to_final <= 1.0 + SLACK_S
    assert not faults.scratch_folders(outcome.run) and not faults.measuring_children(outcome.run)


def test_runs_cancelled_from_the_web_and_the_command_line_stop_within_seconds(
    stack, pv, client, staff_user
):
    client.force_login(staff_user)
    web, command_line = faults.cancelled(stack, pv, client, timeout=TIMEOUT_S)
    for outcome in (web, command_line):
        assert outcome.run.status == "cancelled"
        assert outcome.code == "benchmarks.run_cancelled_while_running"
        assert outcome.seconds_to_final <= 1.0 + SLACK_S
        assert not faults.scratch_folders(outcome.run)
    assert web.run.reason == "cancelled by staff while running"
    assert command_line.run.reason.endswith("on the command line while running")


def test_two_runs_on_one_target_run_one_after_the_other_and_a_duplicate_is_dropped(stack, pv):
    first, second = faults.two_runs_one_target(stack, pv, timeout=TIMEOUT_S)
    assert (first.run.status, second.run.status) == ("succeeded", "succeeded")
    assert second.run.started_at >= first.run.finished_at
    assert first.run.sends == 2 and first.run.summaries.count() == 1
    assert first.run.measurements.filter(warmup=False).count() == 4


# make run ---------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def bench_worker_of(stack: subprocess.Popen, name: str) -> psutil.Process | None:
    """runstack's benchmark worker: its own child (the celery main process)."""
    for child in psutil.Process(stack.pid).children():
        if f"bench.{name}" in " ".join(child.cmdline()):
            return child
    return None


def beat_of(stack: subprocess.Popen) -> psutil.Process:
    """runstack's Celery beat, which sends the periodic checks."""
    for child in psutil.Process(stack.pid).children():
        if "beat" in child.cmdline():
            return child
    raise AssertionError("runstack started no beat")


def test_make_run_restarts_a_killed_worker_keeps_serving_and_checks_on_time(
    tmp_path, settings, child_environment, pv
):
    intervals = Intervals(heartbeat_s=5, bound_s=8)
    redis = RedisServer(tmp_path / "redis.log")
    redis.start()
    restore = faults.publish_to(redis.url)
    settings.REDIS_URL = redis.url
    port, log = free_port(), tmp_path / "runstack.log"
    env = child_environment(REDIS_URL=redis.url, BENCH_TARGET_NAME="stack", **intervals.env(),
                            PLANNER_VAR_DIR=str(tmp_path / "var"))  # fmt: skip
    stack = subprocess.Popen(
        [sys.executable, "manage.py", "runstack", "--port", str(port)], cwd=ROOT, env=env,
        stdout=log.open("w"), stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    healthz = f"http://127.0.0.1:{port}/healthz"
    try:
        wait_for(lambda: answers(healthz), 90, message="the web server")
        wait_for(lambda: Target.objects.filter(name="stack", online=True).exists(), 90)
        # Repetitions enough to outlast the wait for the check below (up to 11 s) on any
        # machine: with the reduced profile's five, the run could end before the kill.
        run = faults.start(faults.reduced_profile(reps=200), "stack")
        faults.wait_measuring(run)

        # The periodic check runs while the benchmark does: a silent target goes offline.
        ghost = target("ghost")
        Target.objects.filter(pk=ghost.pk).update(last_seen=timezone.now() - timedelta(hours=1))
        offline = lambda: not Target.objects.get(pk=ghost.pk).online  # noqa: E731
        wait_for(offline, intervals.heartbeat_s + SLACK_S, message="a check during the run")
        assert Run.objects.get(pk=run.pk).status == "running"

        # The restart, not the periodic check, must end the run: beat (which sends the
        # checks, and touches no database) is paused until the run is over, so however
        # slowly the worker comes back on a busy machine, no check can call it vanished
        # first. A check already sent runs at once and sees the worker's fresh beat.
        worker, beat = bench_worker_of(stack, "stack"), beat_of(stack)
        beat.suspend()
        try:
            fault = timezone.now()
            worker.send_signal(signal.SIGKILL)
            faults.wait_over(run, TIMEOUT_S)
        finally:
            beat.resume()
        assert run.status == "failed", run.reason
        assert code_of(run.reason_message) == "benchmarks.run_worker_restarted"
        assert run.finished_at >= fault
        said = log.read_text(errors="replace")
        assert "worker stopped (killed by SIGKILL); restarting it in 1 s." in said
        assert "worker restarted (pid " in said
        assert answers(healthz) and stack.poll() is None

        again = faults.start(pv, "stack")
        assert faults.wait_over(again, TIMEOUT_S).status == "succeeded", again.reason
    finally:
        stack.send_signal(signal.SIGTERM)  # runstack stops its children, as on Ctrl-C
        with contextlib.suppress(subprocess.TimeoutExpired):
            stack.wait(timeout=30)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(stack.pid, signal.SIGKILL)  # whatever of its group outlived it
        faults.wait_for_other_connections_to_close()
        redis.stop()
        restore()
