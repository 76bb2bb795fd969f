"""What other apps read of the catalog's rows, so they never import its models.

Prices as the engine reads them are `catalog.pricing.catalog_frame`; these are the rows
and labels the plans' pages and forms show beside them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import QuerySet

from .models import PricingModel, Tier


def pricing_model_labels() -> dict[str, Any]:
    """{pricing model key: its (lazily translated) label}."""
    return dict(PricingModel.choices)


def tiers_by_slug(slugs: Iterable[str]) -> dict[str, Tier]:
    """{slug: tier} for the slugs that name a tier (one query)."""
    return Tier.objects.in_bulk(list(slugs), field_name="slug")


def all_tiers() -> QuerySet[Tier]:
    """Every tier, for a choice field keyed by slug."""
    return Tier.objects.all()
