"""Writing a checked change set: all of it in one transaction or, on any error, nothing."""

from __future__ import annotations

from django.db import transaction

from catalog.io.changes import ChangeSet, chunks, stage_changes
from catalog.io.formats import parse
from catalog.models import ExchangeRate, Price, Provider, Tier
from changes import services as change_log


def apply_changes(result: ChangeSet, user=None) -> ChangeSet:
    """Write a checked change set in one transaction: all of it or, on any error, nothing.

    The rows it saves record nothing one by one: the import is one change of the data.
    """
    with transaction.atomic():
        with change_log.quiet():
            _write(result, user)
        if result.changes:
            change_log.record("catalog.imported", label=result.summary())
    return result


def _write(result: ChangeSet, user) -> None:
    for name in result.new_providers:
        Provider.objects.create(name=name)
    providers = {p.name: p for p in Provider.objects.all()}
    first = {}
    for record in result.parsed.prices:
        first.setdefault(record.slug, record)
    new_tiers = [
        Tier(slug=slug, provider=providers[first[slug].provider], **first[slug].tier)
        for slug in result.new_tiers
    ]
    for tier in new_tiers:
        # A safety net under the parser's checks; excludes what would cost a query.
        tier.full_clean(exclude=["provider"], validate_unique=False, validate_constraints=False)
    Tier.objects.bulk_create(new_tiers, batch_size=500)
    for slug, fields in result.changed_tiers.items():
        tier = Tier.objects.get(slug=slug)
        record = first[slug]
        tier.provider = providers[record.provider]
        for name, value in record.tier.items():
            setattr(tier, name, value)
        tier.save(update_fields=fields)
    tier_ids = {}
    for chunk in chunks(sorted(first)):
        tier_ids.update(Tier.objects.filter(slug__in=chunk).values_list("slug", "id"))
    Price.objects.bulk_create(
        [
            Price(
                tier_id=tier_ids[r.slug],
                recorded_by=None if r.price["recorded_by_text"] else user,
                **r.price,
            )
            for r in result.new_prices
        ],
        batch_size=500,
    )
    ExchangeRate.objects.bulk_create(
        [
            ExchangeRate(
                date=r.date,
                from_currency=r.from_currency,
                to_currency=r.to_currency,
                rate=r.rate,
                source=r.source,
                source_url=r.source_url,
            )
            for r in result.new_rates
        ],
        batch_size=500,
    )


def import_catalog(
    data: bytes, fmt: str, *, user=None, dry_run: bool = False, update_tiers: bool = True
) -> ChangeSet:
    """Parse, check against the database and (unless `dry_run`) write. Raises CatalogFileError."""
    result = stage_changes(parse(data, fmt), update_tiers=update_tiers)
    return result if dry_run else apply_changes(result, user=user)
