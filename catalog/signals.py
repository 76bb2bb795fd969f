"""Every saved or deleted catalog row advances the data generation (`changes`).

The admin's saves and deletes come through here too. The catalog import writes with
`bulk_create` (no signals) inside `changes.services.batch`, which records it once.
"""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_delete, post_save

from catalog.models import ExchangeRate, Price, Provider, Tier
from changes.services import record

NAMES = {Provider: "provider", Tier: "tier", Price: "price", ExchangeRate: "exchange_rate"}


def _label(instance: Any) -> str:
    if isinstance(instance, Price):
        # The tier by its key when it is at hand; never a query (nor a deleted tier's).
        tier = instance._state.fields_cache.get("tier")
        where = tier.slug if tier is not None else f"tier #{instance.tier_id}"
        return f"{where} from {instance.effective_from}"
    return str(instance)


def saved(sender: type, instance: Any, raw: bool = False, **kwargs: Any) -> None:
    if not raw:  # fixtures loaded with loaddata are not edits
        record(f"{NAMES[sender]}.saved", instance, label=_label(instance))


def deleted(sender: type, instance: Any, **kwargs: Any) -> None:
    record(f"{NAMES[sender]}.deleted", instance, label=_label(instance))


def connect() -> None:
    for model in NAMES:
        post_save.connect(saved, sender=model, dispatch_uid=f"changes-saved-{model.__name__}")
        post_delete.connect(deleted, sender=model, dispatch_uid=f"changes-deleted-{model.__name__}")
