"""The fault suite's machinery, shared by tests/test_faults.py (reduced scale, short
intervals) and bench/faults.py (standard scale and intervals): a throwaway Redis, real
celery workers and beat, and the scenarios. Each scenario replays one fault and returns
when its runs are over, with the moment of the fault, so the caller can say how long each
run stayed non-final after it."""

import contextlib
import io
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import psutil
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone

from benchmarks_app import lifecycle
from benchmarks_app.models import ProfileVersion, Run, Target
from benchmarks_app.services import create_run
from tests.support.bench import shipped, version, wait_for
from tests.support.redis_server import RedisServer

ROOT = Path(__file__).resolve().parents[2]
TERMINAL = {"succeeded", "failed", "cancelled"}
# A gbm-xgboost smoke scale whose repetitions take about half a second each on one
# thread, so a run is mid-measurement for a few seconds: long enough to kill or cancel.
REDUCED_SCALE = {
    "rows": 200_000, "features": 20, "trees": 20, "threads": [1], "time_budget_s": 60,
    "repetition": {"warmup": 1, "min_reps": 4, "max_reps": 4},
}  # fmt: skip


@dataclass(frozen=True)
class Intervals:
    """The periodic intervals a stack runs with, and the bounds they promise."""

    heartbeat_s: int
    bound_s: int

    def env(self) -> dict[str, str]:
        return {
            "BENCH_HEARTBEAT_SECONDS": str(self.heartbeat_s),
            "BENCH_QUEUED_BOUND_SECONDS": str(self.bound_s),
        }

    @property
    def vanished_bound_s(self) -> float:
        """A running run whose worker is gone: three missed beats, then one check."""
        return 4 * self.heartbeat_s

    @property
    def resend_bound_s(self) -> float:
        """A lost message: unclaimed a quarter of the bound, then one reconciler period."""
        return self.bound_s / 4 + max(0.5, self.bound_s / 20)


class CeleryProcess:
    """One `celery` process (a worker or beat) in its own session, logging to a file."""

    def __init__(self, label: str, args: list[str], env: dict[str, str], log: Path) -> None:
        self.label, self.log_path = label, log
        cmd = [sys.executable, "-m", "celery", "-A", "config", *args, "--loglevel", "INFO"]
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log.open("w"),
                                     stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def wait_ready(self, marker: str, timeout: float = 90) -> "CeleryProcess":
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.label} exited:\n{self.log()}")
            if marker in self.log():
                return self
            time.sleep(0.2)
        raise TimeoutError(f"{self.label} not ready in {timeout}s:\n{self.log()}")

    def signal(self, sig: int) -> None:
        """To the process and every process it started (its session's group)."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, sig)

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):  # its group may have gone already
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.signal(signal.SIGCONT)  # a paused process cannot stop
            self.signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


class Stack:
    """Its own Redis, a control worker and beat for the periodic checks, and the
    benchmark workers a scenario starts; this process publishes to the same Redis."""

    def __init__(self, env: dict[str, str], logs: Path, intervals: Intervals) -> None:
        self.logs, self.intervals = logs, intervals
        self.redis = RedisServer(logs / "redis.log")
        self.env = {**env, **intervals.env(), "REDIS_URL": self.redis.url}
        self.processes: list[CeleryProcess] = []

    def start(self) -> "Stack":
        self.redis.start()
        self._restore_broker = publish_to(self.redis.url)
        control = self._celery("control", ["worker", "-n", "control-faults@%h", "-Q", "default",
                                           "--pool", "solo", "--without-gossip",
                                           "--without-mingle"])  # fmt: skip
        beat = self._celery("beat", ["beat", "--schedule", str(self.logs / "beat-schedule")])
        control.wait_ready(" ready.")
        beat.wait_ready("beat: Starting")
        return self

    def worker(self, name: str) -> CeleryProcess:
        """A benchmark worker for target `name`, ready (its target recorded)."""
        args = ["worker", "-n", f"{name}@%h", "-Q", f"bench.{name}", "--concurrency", "1",
                "--without-gossip", "--without-mingle"]  # fmt: skip
        worker = self._celery(f"worker-{name}-{len(self.processes)}", args)
        worker.wait_ready(" ready.")
        wait_for(lambda: Target.objects.filter(name=name, online=True).exists(), 30,
                 message=f"target {name} recorded")  # fmt: skip
        return worker

    def stop_workers(self, keep: int = 0) -> None:
        """Kill the processes started after the first `keep` (nothing of theirs is
        needed any more: a kill is quicker than a warm shutdown)."""
        while len(self.processes) > keep:
            self.processes.pop().kill()

    def stop(self) -> None:
        self.stop_workers()
        self.redis.stop()
        self._restore_broker()

    def _celery(self, label: str, args: list[str]) -> CeleryProcess:
        process = CeleryProcess(label, args, self.env, self.logs / f"{label}.log")
        self.processes.append(process)
        return process


def publish_to(url: str) -> Callable[[], None]:
    """This process sends its tasks to the broker at `url`; returns what undoes that."""
    from config.celery import app

    keys = ("broker_url", "broker_transport_options")
    saved = {key: app.conf[key] for key in keys}
    # The keys the workers use: the session's prefix (settings give the filesystem
    # transport's options when this session has no REDIS_URL).
    app.conf.update(broker_url=url, broker_transport_options=redis_options())
    _forget_broker_connections(app)

    def restore() -> None:
        app.conf.update(saved)
        _forget_broker_connections(app)

    return restore


def redis_options() -> dict:
    from django.conf import settings

    prefix = {"global_keyprefix": settings.QUEUE_PREFIX} if settings.QUEUE_PREFIX else {}
    return prefix | {"socket_connect_timeout": 1, "socket_timeout": 1.5}  # as the settings


def _forget_broker_connections(app) -> None:
    """Pooled connections and producers are made for the broker the app had then."""
    app._pool = None
    app.amqp._producer_pool = None


def reduced_profile(reps: int | None = None) -> ProfileVersion:
    """The reduced-scale profile; `reps` fixes its repetitions, so that a run outlasts a
    wait the test does while it measures (a separate profile, `gbm-faults-<reps>`)."""
    body = shipped("gbm-xgboost")
    body["name"], body["version"] = "gbm-faults", "1.0.0"
    body["scales"]["smoke"] = dict(REDUCED_SCALE)
    if reps is not None:
        body["name"] = f"gbm-faults-{reps}"
        body["scales"]["smoke"]["repetition"] = {"warmup": 1, "min_reps": reps, "max_reps": reps}
        body["scales"]["smoke"]["time_budget_s"] = 600
    return version(body)


# Watching runs ----------------------------------------------------------------------


def measuring_children(run: Run) -> list[psutil.Process]:
    """The run's measurement children: their command lines name its scratch folder."""
    mark = f"bench-{run.pk.hex[:8]}-"
    found = []
    for proc in psutil.process_iter(["cmdline", "status"]):
        cmdline = " ".join(proc.info["cmdline"] or [])
        if mark in cmdline and proc.info["status"] != psutil.STATUS_ZOMBIE:
            found.append(proc)
    return found


def scratch_folders(run: Run) -> list[Path]:
    import tempfile

    return sorted(Path(tempfile.gettempdir()).glob(f"bench-{run.pk.hex[:8]}-*"))


def wait_measuring(run: Run, timeout: float = 120) -> None:
    def measuring():
        run.refresh_from_db()
        assert run.status in ("queued", "running"), run.reason
        return run.status == "running" and measuring_children(run)

    wait_for(measuring, timeout, message="the run's measurement child to start")


def wait_over(run: Run, timeout: float) -> Run:
    def over():
        run.refresh_from_db()
        return run.status in TERMINAL

    wait_for(over, timeout, every=0.1, message=f"run {run.pk} over (last: {run.status})")
    return run


@dataclass
class Outcome:
    """One run of a scenario: how it ended and how long after the fault."""

    scenario: str
    run: Run
    fault_at: datetime

    @property
    def code(self) -> str | None:
        return self.run.reason_message["code"] if self.run.reason_message else None

    @property
    def seconds_to_final(self) -> float:
        return (self.run.finished_at - self.fault_at).total_seconds()

    def as_dict(self) -> dict:
        return {"scenario": self.scenario, "status": self.run.status, "code": self.code,
                "reason": self.run.reason,
                "seconds_to_final": round(self.seconds_to_final, 2)}  # fmt: skip


# The scenarios ----------------------------------------------------------------------
# Each takes a started Stack and a profile version; a generous timeout on every wait
# (the caller asserts the bound) keeps a broken fix from hanging the suite.


def start(pv: ProfileVersion, target: str, **options) -> Run:
    return create_run(version=pv, scale=pv_scale(pv), target=Target.objects.get(name=target),
                      threads=[1], **options)  # fmt: skip


def pv_scale(pv: ProfileVersion) -> str:
    return "smoke" if pv.profile.name.startswith("gbm-faults") else "standard"


def worker_killed(stack: Stack, pv: ProfileVersion, *, timeout: float) -> Outcome:
    """SIGKILL to a worker mid-measurement; nobody restarts it."""
    worker = stack.worker("doomed")
    run = start(pv, "doomed")
    wait_measuring(run)
    fault = timezone.now()
    worker.kill()
    return Outcome("worker killed mid-run", wait_over(run, timeout), fault)


def worker_restarted(stack: Stack, pv: ProfileVersion, *, timeout: float) -> list[Outcome]:
    """SIGKILL to a worker mid-measurement with a second run queued; it comes back."""
    worker = stack.worker("phoenix")
    running, queued = start(pv, "phoenix"), start(pv, "phoenix")
    wait_measuring(running)
    fault = timezone.now()
    worker.kill()
    stack.worker("phoenix")
    return [
        Outcome("worker restarted: the run it was running", wait_over(running, timeout), fault),
        Outcome("worker restarted: the run queued behind", wait_over(queued, timeout), fault),
    ]


def message_lost(
    stack: Stack, pv: ProfileVersion, *, timeout: float, busy_pv: ProfileVersion | None = None
) -> list[Outcome]:
    """The broker restarts without persistence while a run's message waits in it behind
    a run its worker is busy with; the worker then goes idle, and nothing arrives.
    `busy_pv` (default `pv`) is the busy run's: long enough to outlast the restart."""
    stack.worker("forgetful")
    busy = start(busy_pv or pv, "forgetful")
    wait_measuring(busy)
    run = start(pv, "forgetful")
    fault = timezone.now()
    stack.redis.restart()
    return [
        Outcome("broker restarted: the run it was busy with", wait_over(busy, timeout), fault),
        Outcome("broker restarted: the lost message's run", wait_over(run, timeout), fault),
    ]


def broker_down_at_send(stack: Stack, pv: ProfileVersion, *, timeout: float) -> tuple:
    """The broker is down when run_profile sends a run (what the command says), then
    comes back empty: the next run goes through the same worker."""
    stack.worker("cut-off")
    stack.redis.stop()
    fault = timezone.now()
    try:
        call_command("run_profile", pv.profile.name, "--target", "cut-off", "--scale",
                     pv_scale(pv), "--threads", "1", stdout=io.StringIO(),
                     stderr=io.StringIO())  # fmt: skip
        said = "no error"
    except CommandError as exc:
        said = str(exc)
    refused = Run.objects.filter(target__name="cut-off").latest("created_at")
    stack.redis.start()
    back = timezone.now()
    after = start(pv, "cut-off")
    return [
        Outcome("broker down when sent", refused, fault),
        Outcome("broker back: the next run", wait_over(after, timeout), back),
    ], said


def over_time_limit(stack: Stack, pv: ProfileVersion, *, timeout: float) -> Outcome:
    stack.worker("slowpoke")
    run = start(pv, "slowpoke", time_limit_s=1.0)
    fault = wait_started(run)
    return Outcome("over its time limit (1 s)", wait_over(run, timeout), fault)


def cancelled(stack: Stack, pv: ProfileVersion, client: Client, *, timeout: float) -> list:
    """One run cancelled from its web page, the next one with `manage.py cancel_run`."""
    from django.urls import reverse

    stack.worker("stoppable")
    outcomes = []
    for how in ("web", "command line"):
        run = start(pv, "stoppable")
        wait_measuring(run)
        fault = timezone.now()
        if how == "web":
            client.post(reverse("benchmarks:run_cancel", args=[run.pk]))
        else:
            call_command("cancel_run", str(run.pk), stdout=io.StringIO())
        outcomes.append(Outcome(f"cancelled from the {how}", wait_over(run, timeout), fault))
    return outcomes


def two_runs_one_target(stack: Stack, pv: ProfileVersion, *, timeout: float) -> list:
    """Two runs on one target, the first sent twice (as a re-send would)."""
    worker = stack.worker("shared")
    worker.signal(signal.SIGSTOP)  # both runs and the duplicate wait in the queue
    try:
        first, second = start(pv, "shared"), start(pv, "shared")
        first.refresh_from_db()
        assert lifecycle.send_run(first)  # a duplicate message for the same run
        fault = timezone.now()
    finally:
        worker.signal(signal.SIGCONT)
    outcomes = [
        Outcome("two runs on one target: first", wait_over(first, timeout), fault),
        Outcome("two runs on one target: second", wait_over(second, timeout), fault),
    ]
    wait_for(lambda: "its message is dropped" in worker.log(), 30, message="the duplicate")
    return outcomes


def wait_started(run: Run, timeout: float = 120) -> datetime:
    def started():
        run.refresh_from_db()
        return run.started_at

    return wait_for(started, timeout, every=0.1, message="the run to start")


def wait_for_other_connections_to_close(timeout: float = 20) -> None:
    """After killing a stack of processes, wait until their database sessions are gone.

    PostgreSQL ends a killed client's backend a moment later; the test database's
    teardown (TRUNCATE) meeting a backend still reading deadlocks. SQLite: nothing to do.
    """
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            if cursor.fetchone()[0] == 0:
                return
        time.sleep(0.2)
