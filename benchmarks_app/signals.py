"""Writes of benchmark data that can change a plan's figures advance the data generation.

Saved or deleted profiles, profile versions and targets (linking a target to a tier
is a save), and runs that are over (a run only sizes a plan once it has succeeded; a
queued or running one changes nothing yet). Runs end through queryset updates, which
send no signal: `lifecycle` and `services` record those themselves, and `import_run`
records once for the run it brings in.
"""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_delete, post_save

from changes.services import record

from .models import Profile, ProfileVersion, Run, Target

NAMES = {Profile: "profile", ProfileVersion: "profile_version", Target: "target", Run: "run"}


def label(instance: Any) -> str:
    """A name for the change log that never costs a query."""
    if isinstance(instance, Run):
        return f"run {instance.pk}"
    if isinstance(instance, ProfileVersion):
        profile = instance._state.fields_cache.get("profile")
        name = profile.name if profile is not None else f"profile #{instance.profile_id}"
        return f"{name} {instance.version}"
    return str(instance)


def saved(sender: type, instance: Any, raw: bool = False, **kwargs: Any) -> None:
    if raw or (isinstance(instance, Run) and not instance.is_over):
        return
    kind = f"run.{instance.status}" if isinstance(instance, Run) else f"{NAMES[sender]}.saved"
    record(kind, instance, label=label(instance))


def deleted(sender: type, instance: Any, **kwargs: Any) -> None:
    record(f"{NAMES[sender]}.deleted", instance, label=label(instance))


def connect() -> None:
    for model in NAMES:
        post_save.connect(saved, sender=model, dispatch_uid=f"changes-saved-{model.__name__}")
        post_delete.connect(deleted, sender=model, dispatch_uid=f"changes-deleted-{model.__name__}")


def run_ended(run_id: Any, status: str) -> None:
    """A queryset update ended a run (no signal): record it like a save would."""
    record(f"run.{status}", Run(pk=run_id), label=f"run {run_id}")
