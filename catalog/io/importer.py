"""Writing a checked change set: all of it in one transaction or, on any error, nothing."""

from __future__ import annotations

from django.db import IntegrityError, OperationalError, connection, transaction

from catalog.io.changes import ChangeSet, chunks, stage_changes
from catalog.io.formats import parse
from catalog.io.records import CatalogBusy
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


# One import of the catalog at a time (PostgreSQL advisory lock, "cata"): the changes are
# staged and written in the same transaction, under the lock, so a second import stages
# against what the first wrote instead of colliding with it.
CATALOG_LOCK = 0x63617461
LOCK_WAIT = "5s"  # a second import waits this long for the first, then is told to retry


def import_catalog(
    data: bytes, fmt: str, *, user=None, dry_run: bool = False, update_tiers: bool = True
) -> ChangeSet:
    """Parse, check against the database and (unless `dry_run`) write. Raises
    CatalogFileError; `CatalogBusy` (one) when another import holds the catalog."""
    parsed = parse(data, fmt)
    if dry_run:
        return stage_changes(parsed, update_tiers=update_tiers)
    try:
        with transaction.atomic():
            _lock_catalog()
            result = stage_changes(parsed, update_tiers=update_tiers)
            return apply_changes(result, user=user)
    except IntegrityError as exc:  # a writer outside the imports got there first
        raise CatalogBusy() from exc
    except OperationalError as exc:
        if getattr(exc.__cause__, "sqlstate", None) == LOCK_NOT_AVAILABLE:
            raise CatalogBusy() from exc
        raise


LOCK_NOT_AVAILABLE = "55P03"  # PostgreSQL's lock_timeout


def _lock_catalog() -> None:
    """Wait (at most LOCK_WAIT) for any other import's transaction to end. SQLite needs
    none: its transactions are IMMEDIATE (settings), so writers already take turns."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(f"SET LOCAL lock_timeout = '{LOCK_WAIT}'")
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [CATALOG_LOCK])
