"""When a price is stale: older than the set age for its pricing model.

`Price.is_stale` (catalog/models.py) and the catalog frame (catalog/pricing.py) both
ask, so the rule lives here, below both, importing neither.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings


def pricing_model_family(pricing_model: str) -> str:
    """`reserved_1y_convertible_no_upfront` → `reserved_1y`; the five base models stay.
    A savings plan or committed use discount is a commitment of the same term and ages
    as a reservation does: `savings_plan_compute_3y_all_upfront` → `reserved_3y`."""
    if pricing_model.startswith("reserved_"):
        return "_".join(pricing_model.split("_")[:2])
    if is_commitment(pricing_model):
        return "reserved_3y" if "_3y" in pricing_model else "reserved_1y"
    return pricing_model


COMMITMENT_PREFIXES = ("reserved", "savings_plan_", "committed_use_")


def is_commitment(pricing_model: str) -> bool:
    """A reservation, a savings plan or a committed use discount: a term bought ahead,
    whose set-up fee (the upfront) is spread over the term."""
    return pricing_model.startswith(COMMITMENT_PREFIXES)


def stale_after_days(pricing_model: str) -> int:
    """The setting of the model's family: every reserved 1-year option shares `reserved_1y`."""
    return int(settings.CATALOG_STALE_AFTER_DAYS[pricing_model_family(pricing_model)])


def is_stale(pricing_model: str, effective_from: dt.date, as_of: dt.date) -> bool:
    """A price is stale once it is older than the set age for its pricing model."""
    return (as_of - effective_from).days > stale_after_days(pricing_model)
