"""A declared speed factor saved or deleted (the admin is the only writer) advances the
data generation: it turns a tier's "no number" into an estimate on every plan."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_delete, post_save

from changes.services import record
from planner.models import SpeedFactor


def _label(factor: SpeedFactor) -> str:
    tier = factor._state.fields_cache.get("tier")
    return tier.slug if tier is not None else f"tier #{factor.tier_id}"


def saved(sender: type, instance: SpeedFactor, raw: bool = False, **kwargs: Any) -> None:
    if not raw:
        record("speed_factor.saved", instance, label=_label(instance))


def deleted(sender: type, instance: SpeedFactor, **kwargs: Any) -> None:
    record("speed_factor.deleted", instance, label=_label(instance))


def connect() -> None:
    post_save.connect(saved, sender=SpeedFactor, dispatch_uid="changes-saved-SpeedFactor")
    post_delete.connect(deleted, sender=SpeedFactor, dispatch_uid="changes-deleted-SpeedFactor")
