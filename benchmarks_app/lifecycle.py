"""The worker side of a run and of a target: send, claim, execute, heartbeat, and the
periodic checks that end runs nobody is running any more and re-send queued runs whose
broker message was lost.

A run only ever leaves "queued" or "running" through a conditional update (status still
what it was), so workers, checks and cancels never overwrite each other's verdict, and a
second message for one run (a re-send, a redelivery) finds it claimed and is dropped.
"""

import importlib.util
import logging
import math
import time
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone

from common.messages import Message, msg

from . import signals
from .execution import run_child, runner_command, scratch_dir, sweep_scratch, time_limit
from .models import (
    Measurement,
    Run,
    Summary,
    Target,
    heartbeat_grace,
    queue_for,
    reason_fields,
    step_fields,
)

logger = logging.getLogger(__name__)
PROGRESS_EVERY_S = 0.5
EXECUTE_TASK = "benchmarks_app.execute_run"
# Sends of one run before the reconciler stops re-sending and fails it.
MAX_SENDS = 3


def finish(run_id, status: str, reason: Message | str | None = None) -> bool:
    """End a running run; False when someone else ended it first."""
    fields = {"status": status, **reason_fields(reason), "finished_at": timezone.now()}
    fields |= {"current_threads": None, **step_fields(None)}
    if status == Run.Status.SUCCEEDED:
        fields["progress"] = 1.0
    ended = bool(Run.objects.filter(pk=run_id, status=Run.Status.RUNNING).update(**fields))
    if ended:
        signals.run_ended(run_id, status)  # an update sends no signal
    return ended


def execute_run(run_id: str, *, executed_by: str) -> str | None:
    """Claim a queued run and measure each thread count in its own child process."""
    claimed = Run.objects.filter(pk=run_id, status=Run.Status.QUEUED).update(
        status=Run.Status.RUNNING,
        started_at=timezone.now(),
        executed_by=executed_by,
        **step_fields(msg("benchmarks.step_fingerprint")),
    )
    if not claimed:
        # Cancelled or expired, or claimed already: a re-sent or redelivered message.
        status = Run.objects.filter(pk=run_id).values_list("status", flat=True).first()
        logger.warning("run %s is %s, not queued: its message is dropped", run_id, status)
        return None
    sweep_scratch()  # what a killed predecessor on this host left behind
    run = Run.objects.select_related("profile_version", "target").get(pk=run_id)
    try:
        _execute(run)
    except Exception as exc:
        logger.exception("run %s failed inside the harness", run_id)
        error = f"{type(exc).__name__}: {exc}"
        finish(run.pk, Run.Status.FAILED, msg("benchmarks.run_harness_error", error=error))
    return Run.objects.values_list("status", flat=True).get(pk=run_id)


def _execute(run: Run) -> None:
    from . import fingerprint, runners

    host = fingerprint.collect()
    Run.objects.filter(pk=run.pk).update(fingerprint=host)
    Target.objects.filter(pk=run.target_id).update(fingerprint=host)
    content = run.profile_version.content
    missing = [m for m in content.get("requires", []) if importlib.util.find_spec(m) is None]
    if missing:
        where = host.get("hostname") or run.target.name
        skipped = msg("benchmarks.run_skipped_missing", modules=missing, host=where)
        finish(run.pk, Run.Status.FAILED, skipped)
        return
    scale = content["scales"][run.scale]
    budget = runners.measurement_budget_s(content, run.scale, len(run.threads))
    limit = time_limit(budget, run.time_limit_s or scale.get("time_limit_s"))
    progress = Progress(run.pk, len(run.threads))
    # The run ends (and its page says so) only once its scratch folder is gone, so a
    # finished run never leaves a folder behind for a moment.
    with scratch_dir(run.pk.hex) as tmp:
        status, reason = _measure_each(run, content, budget, limit, progress, tmp)
    finish(run.pk, status, reason)


def _measure_each(run: Run, content: dict, budget, limit, progress, tmp) -> tuple:
    """Each thread count in its own child: the run's final status and reason."""
    from . import runners

    for index, threads in enumerate(run.threads):
        progress.start(index, threads)
        workdir = tmp / f"threads-{threads}"
        outcome = run_child(
            runner_command(content["runner"]),
            runners.build_spec(content, run.scale, threads, workdir, time_budget_s=budget),
            workdir,
            limit_s=limit,
            on_progress=progress.update,
            should_cancel=lambda: _cancel_requested(run.pk),
        )
        if not outcome.ok:
            return _failure(run, threads, *outcome.failure_message(limit))
        if problem := store_result(run, threads, outcome.result):
            return Run.Status.FAILED, at_threads(threads, problem)
    return Run.Status.SUCCEEDED, None


def _failure(run: Run, threads: int, kind: str, why: Message) -> tuple:
    if kind == "cancelled":
        # cancel_run wrote who cancelled it into the reason
        asked = Run.objects.get(pk=run.pk).reason_shown
        return Run.Status.CANCELLED, asked or why
    if kind == "skipped":
        return Run.Status.FAILED, msg("benchmarks.run_skipped", why=why)
    return Run.Status.FAILED, at_threads(threads, why)


def at_threads(threads: int, why: Message) -> Message:
    return msg("benchmarks.run_failed_at", threads=threads, why=why)


def _cancel_requested(run_id) -> bool:
    return Run.objects.filter(pk=run_id, cancel_requested=True).exists()


class Progress:
    """Throttled progress writes: the page polls once a second, the DB need not hear more."""

    def __init__(self, run_id, n_threads: int) -> None:
        self.run_id, self.n = run_id, max(1, n_threads)
        self.index, self.threads, self.last_write = 0, 0, 0.0

    def start(self, index: int, threads: int) -> None:
        self.index, self.threads = index, threads
        self._write(0.0, msg("benchmarks.step_starting"), force=True)

    def update(self, fraction: float, step: Message | str) -> None:
        """`step` is the child's: a message, or the text of a child that sends none."""
        if not isinstance(step, Message):
            step = msg("common.text", text=step)
        self._write(fraction, step)

    def _write(self, fraction: float, step: Message, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self.last_write < PROGRESS_EVERY_S:
            return
        self.last_write = now
        Run.objects.filter(pk=self.run_id, status=Run.Status.RUNNING).update(
            progress=(self.index + fraction) / self.n,
            **step_fields(msg("benchmarks.step_at_threads", threads=self.threads, step=step)),
            current_threads=self.threads,
        )


def _finite(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


@transaction.atomic
def store_result(run: Run, threads: int, result: dict) -> Message | None:
    """Store one thread count's measurements and summary; the problem, or None."""
    summary = result.get("summary") or {}
    required = ("n", "median", "min", "max", "mean", "cv")
    if not all(_finite(summary.get(key)) for key in required):
        return msg("benchmarks.run_summary_incomplete", summary=str(summary))
    rows = [
        Measurement(
            run=run,
            threads=threads,
            repetition=i,
            warmup=warmup,
            value=float(rep["value"]),
            seconds=float(rep["seconds"]),
        )
        for warmup, key in ((True, "warmup"), (False, "repetitions"))
        for i, rep in enumerate(result.get(key) or [])
        if _finite(rep.get("value")) and _finite(rep.get("seconds"))
    ]
    Measurement.objects.bulk_create(rows)
    Summary.objects.create(
        run=run,
        threads=threads,
        n=int(summary["n"]),
        median=summary["median"],
        min=summary["min"],
        max=summary["max"],
        mean=summary["mean"],
        cv=summary["cv"],
        stop_reason=str(summary.get("stop_reason", ""))[:32],
        outliers=summary.get("outliers") or [],
        peak_rss_bytes=result.get("peak_rss_bytes"),
        runtime=result.get("runtime") or {},
        extra=result.get("extra") or {},
    )
    return None


# Targets ---------------------------------------------------------------------------


def record_worker_start(name: str, hostname: str, host: dict) -> Target:
    """A worker for `name` came up: record its hardware; its predecessor's runs are over."""
    now = timezone.now()
    target, _ = Target.objects.update_or_create(
        name=name,
        defaults={
            "hostname": hostname,
            "fingerprint": host,
            "online": True,
            "last_seen": now,
            "offline_since": None,
            "imported": False,
        },
    )
    Run.objects.filter(target=target, status=Run.Status.RUNNING).update(
        status=Run.Status.FAILED,
        **reason_fields(msg("benchmarks.run_worker_restarted")),
        finished_at=now,
    )
    return target


def heartbeat(name: str) -> None:
    Target.objects.filter(name=name).update(
        last_seen=timezone.now(), online=True, offline_since=None
    )


def record_worker_stop(name: str) -> None:
    Target.objects.filter(name=name).update(online=False, offline_since=timezone.now())


def fail_lost_task(run_id: str, reason: Message) -> None:
    """The task died without ending its run (e.g. its pool process was killed)."""
    Run.objects.filter(pk=run_id, status__in=Run.ACTIVE).update(
        status=Run.Status.FAILED, **reason_fields(reason), finished_at=timezone.now()
    )


@dataclass
class CheckReport:
    went_offline: list[str]
    vanished_runs: int
    expired_runs: int

    def as_dict(self) -> dict:
        return asdict(self)


def check_targets(now: datetime | None = None) -> CheckReport:
    """Beat's periodic check: silent workers are offline; their runs end with a reason."""
    now = now or timezone.now()
    silent_since = now - heartbeat_grace()
    went_offline = []
    for target in Target.objects.filter(online=True, last_seen__lt=silent_since):
        Target.objects.filter(pk=target.pk).update(online=False, offline_since=target.last_seen)
        went_offline.append(target.name)
    vanished = 0
    for target in Target.objects.filter(runs__status=Run.Status.RUNNING).distinct():
        if target.online and target.last_seen and target.last_seen >= silent_since:
            continue
        seen = (
            f"{target.last_seen:%Y-%m-%d %H:%M:%S} UTC"
            if target.last_seen
            else msg("benchmarks.never")
        )
        why = msg("benchmarks.run_worker_vanished", target=target.name, since=seen)
        vanished += Run.objects.filter(target=target, status=Run.Status.RUNNING).update(
            status=Run.Status.FAILED, **reason_fields(why), finished_at=now
        )
    return CheckReport(went_offline, vanished, _expire_queued(now))


def _expire_queued(now: datetime) -> int:
    expiry = timedelta(seconds=settings.BENCH_QUEUED_BOUND_SECONDS)
    expired = 0
    for target in Target.objects.filter(runs__status=Run.Status.QUEUED, online=False).distinct():
        since = target.offline_since or target.last_seen or target.created_at
        if now - since <= expiry:
            continue
        why = msg(
            "benchmarks.run_expired",
            target=target.name,
            since=f"{since:%Y-%m-%d %H:%M} UTC",
            limit=settings.BENCH_QUEUED_BOUND_SECONDS,
        )
        expired += Run.objects.filter(target=target, status=Run.Status.QUEUED).update(
            status=Run.Status.FAILED, **reason_fields(why), finished_at=now
        )
    return expired


# Sending and reconciling queued runs --------------------------------------------------


SEND_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0,
                     "interval_max": 0}  # fmt: skip


def send_run(run: Run, now: datetime | None = None) -> bool:
    """Count one more send of a queued run, then publish its task on its target's queue.

    False when the run is no longer queued or another sender counted this send first
    (two reconcilers never both re-send). Raises when the broker cannot be reached. Every
    copy carries the run's task id, so one revoke reaches them all.
    """
    counted = Run.objects.filter(pk=run.pk, status=Run.Status.QUEUED, sends=run.sends).update(
        sends=F("sends") + 1, sent_at=now or timezone.now()
    )
    if not counted:
        return False
    queue = queue_for(Target.objects.values_list("name", flat=True).get(pk=run.target_id))
    # No result is kept (the run's row is the result): sending one would subscribe to the
    # result backend, which retries a lost Redis for 20 s. One retry at once, each attempt
    # bounded by the broker's socket timeouts (settings): a hung or stopped broker is an
    # error within seconds, with its own words.
    current_app.send_task(
        EXECUTE_TASK,
        args=[str(run.pk)],
        queue=queue,
        task_id=run.task_id or None,
        ignore_result=True,
        retry_policy=SEND_RETRY_POLICY,
    )
    return True


def resend_after() -> timedelta:
    """How long a queued run may go unclaimed by an idle, online target before it is
    re-sent: a quarter of the bound, so three sends and the checks' periods fit in it."""
    return timedelta(seconds=settings.BENCH_QUEUED_BOUND_SECONDS / 4)


@dataclass
class ReconcileReport:
    resent: int
    not_picked_up: int
    waited_too_long: int
    swept_folders: int

    def as_dict(self) -> dict:
        return asdict(self)


def reconcile_runs(now: datetime | None = None) -> ReconcileReport:
    """Beat's reconciler: no queued run waits for a message that is gone.

    On a target that is online and has been idle (nothing running, started or ended)
    for a quarter of the bound, a queued run unclaimed that long lost its message: it is
    re-sent, and failed once its last send goes unclaimed too. On a busy target a queued
    run waits, up to BENCH_QUEUED_MAX_WAIT_SECONDS. (Runs of offline targets expire in
    check_targets.) Also removes the scratch folders of killed runs on this host.
    """
    now = now or timezone.now()
    report = ReconcileReport(0, 0, _fail_waited_too_long(now), 0)
    for target in Target.objects.filter(runs__status=Run.Status.QUEUED).distinct():
        if target.is_alive(now) and _idle_for(target, resend_after(), now):
            resent, gave_up = _reconcile_idle_target(target, now)
            report.resent += resent
            report.not_picked_up += gave_up
    report.swept_folders = len(sweep_scratch())
    return report


def _idle_for(target: Target, span: timedelta, now: datetime) -> bool:
    """Nothing running on the target, and no run started or ended there within `span`."""
    if target.runs.filter(status=Run.Status.RUNNING).exists():
        return False
    latest = target.runs.aggregate(started=Max("started_at"), finished=Max("finished_at"))
    return max(filter(None, [*latest.values(), target.created_at])) <= now - span


def _reconcile_idle_target(target: Target, now: datetime) -> tuple[int, int]:
    resent = gave_up = 0
    unclaimed_since = now - resend_after()
    for run in target.runs.filter(status=Run.Status.QUEUED).order_by("created_at"):
        if (run.sent_at or run.created_at) > unclaimed_since:
            continue
        if run.sends >= MAX_SENDS:
            why = msg("benchmarks.run_not_picked_up", target=target.name, sends=run.sends)
            gave_up += _fail_queued(run.pk, why, now)
            continue
        try:
            sent = send_run(run, now)
        except Exception as exc:  # as when it was first sent: failed, saying why
            logger.warning("could not re-send run %s", run.pk, exc_info=True)
            why = msg("benchmarks.run_broker_unreachable", error=str(exc))
            gave_up += _fail_queued(run.pk, why, now)
            continue
        if sent:
            logger.warning("run %s unclaimed on idle target %s: re-sent", run.pk, target.name)
            resent += 1
    return resent, gave_up


def _fail_waited_too_long(now: datetime) -> int:
    limit = settings.BENCH_QUEUED_MAX_WAIT_SECONDS
    failed = 0
    too_old = Run.objects.filter(
        status=Run.Status.QUEUED, created_at__lt=now - timedelta(seconds=limit)
    ).select_related("target")
    for run in too_old:
        why = msg("benchmarks.run_waited_too_long", target=run.target.name, limit=limit)
        failed += _fail_queued(run.pk, why, now)
    return failed


def _fail_queued(run_id, why: Message, now: datetime) -> int:
    return Run.objects.filter(pk=run_id, status=Run.Status.QUEUED).update(
        status=Run.Status.FAILED, **reason_fields(why), finished_at=now
    )
