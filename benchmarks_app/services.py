"""Writes from the web and the command line: validate, create and cancel runs/suites.

Runs are enqueued on their target's queue only after the transaction commits,
with the task id chosen first so the page can show it at once.
"""

import logging
import uuid
from dataclasses import dataclass, field

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from common.messages import Message, ProfileRef, msg, plain

from . import signals
from .lifecycle import send_run
from .models import (
    Profile,
    ProfileVersion,
    Run,
    Scale,
    Suite,
    Target,
    as_message,
    reason_fields,
)
from .profiles_loader import content_problems

logger = logging.getLogger(__name__)


class RunRefused(ValueError):
    """Nothing was started; `messages` says why (pages say them in the reader's language),
    `problems` the same in English (the commands)."""

    def __init__(self, messages: list[Message | str]) -> None:
        self.messages = [as_message(m) for m in messages]
        self.problems = [plain(m) for m in self.messages]
        super().__init__("; ".join(self.problems))


def validate_run(
    version: ProfileVersion, scale: str, target: Target, threads: list[int] | None = None
) -> list[Message]:
    """Everything that would make the run pointless or harmful, checked before it starts."""
    if target.imported:
        return [msg("benchmarks.target_imported_only", target=target.name)]
    if not target.fingerprint:
        return [msg("benchmarks.target_no_hardware", target=target.name)]
    if scale not in Scale.values:
        return [msg("benchmarks.unknown_scale", scale=repr(scale), choices=list(Scale.values))]
    if problems := content_problems(version.content):
        profile = ProfileRef(version.profile.name, version.version)
        return [msg("benchmarks.profile_problem", profile=profile, problem=p) for p in problems]
    from . import runners

    return runners.validation_messages(version.content, scale, target.fingerprint, threads=threads)


def planned_threads(version: ProfileVersion, scale: str, target: Target) -> list[int]:
    from . import runners

    requested = version.content["scales"][scale]["threads"]
    return list(runners.plan_threads(requested, target.usable_cpus or 1))


def create_run(
    *,
    version: ProfileVersion,
    scale: str,
    target: Target,
    user=None,
    threads: list[int] | None = None,
    suite: Suite | None = None,
    time_limit_s: float | None = None,
) -> Run:
    if problems := validate_run(version, scale, target, threads):
        raise RunRefused(problems)
    if time_limit_s is not None and time_limit_s <= 0:
        raise RunRefused([msg("benchmarks.time_limit_not_positive")])
    run = Run.objects.create(
        profile_version=version,
        content_hash=version.content_hash,
        scale=scale,
        target=target,
        suite=suite,
        threads=sorted(set(threads)) if threads else planned_threads(version, scale, target),
        time_limit_s=time_limit_s,
        fingerprint=dict(target.fingerprint),
        created_by=user if getattr(user, "is_authenticated", False) else None,
        task_id=str(uuid.uuid4()),
    )
    transaction.on_commit(lambda: enqueue(run))
    return run


def enqueue(run: Run) -> None:
    """Send a new run's task; a broker that cannot be reached fails the run, saying so."""
    try:
        send_run(run)
    except Exception as exc:  # the broker is down: say so on the run, not with a 500
        logger.exception("could not enqueue run %s", run.pk)
        why = msg("benchmarks.run_broker_unreachable", error=str(exc))
        Run.objects.filter(pk=run.pk, status=Run.Status.QUEUED).update(
            status=Run.Status.FAILED, **reason_fields(why), finished_at=timezone.now()
        )


@dataclass
class SuiteStarted:
    suite: Suite
    runs: list[Run]
    refused: dict[str, list[Message]] = field(default_factory=dict)


@transaction.atomic
def create_suite(*, target: Target, scale: str, user=None) -> SuiteStarted:
    """Every profile's current version on one target; its worker runs them in order."""
    suite = Suite.objects.create(
        target=target,
        scale=scale,
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )
    started = SuiteStarted(suite=suite, runs=[])
    for profile in Profile.objects.order_by("workload_class", "name"):
        version = profile.current_version()
        if version is None:
            continue
        try:
            started.runs.append(
                create_run(version=version, scale=scale, target=target, user=user, suite=suite)
            )
        except RunRefused as exc:
            started.refused[profile.name] = exc.messages
    if not started.runs:
        transaction.set_rollback(True)
        raise RunRefused(
            [
                msg("benchmarks.suite_profile_refused", profile=name, problem=problem)
                for name, problems in started.refused.items()
                for problem in problems
            ]
            or [msg("benchmarks.no_profiles_loaded")]
        )
    return started


@transaction.atomic
def link_and_run_suite(*, target: Target, tier, user=None) -> SuiteStarted:
    """Link `target` to a catalog tier and queue its standard suite, whose runs then
    measure that tier."""
    target.tier = tier
    target.save(update_fields=["tier"])
    return create_suite(target=target, scale=Scale.STANDARD, user=user)


def cancel_run(run: Run, user=None, *, who: Message | str | None = None) -> str:
    """A queued run is cancelled at once; a running one is stopped by its worker (within
    about a second). `who` names a canceller that is no user (the command line)."""
    who = who or getattr(user, "username", "") or msg("benchmarks.a_user")
    now = timezone.now()
    if Run.objects.filter(pk=run.pk, status=Run.Status.QUEUED).update(
        status=Run.Status.CANCELLED,
        **reason_fields(msg("benchmarks.run_cancelled_before_start", who=who)),
        cancel_requested=True,
        finished_at=now,
    ):
        signals.run_ended(run.pk, Run.Status.CANCELLED)  # an update sends no signal
        transaction.on_commit(lambda: _revoke(run.task_id))
        return Run.Status.CANCELLED
    Run.objects.filter(pk=run.pk, status=Run.Status.RUNNING).update(
        cancel_requested=True,
        **reason_fields(msg("benchmarks.run_cancelled_while_running", who=who)),
    )
    return Run.objects.values_list("status", flat=True).get(pk=run.pk)


def _revoke(task_id: str) -> None:
    """Belt and braces: the worker also skips a run that is no longer queued.

    Only over Redis: the filesystem transport has no broadcast to revoke with.
    """
    if not (task_id and settings.REDIS_URL):
        return
    try:
        current_app.control.revoke(task_id)
    except Exception:
        logger.warning("could not revoke task %s", task_id, exc_info=True)
