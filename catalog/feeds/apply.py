"""Writing staged feed changes: one short transaction, all of it or nothing.

Everything slow (download, parse, compare) happened before; here only bulk inserts and
updates run, so on SQLite the write lock is held for seconds, not minutes. New tiers and
prices go in with one `executemany` each: a first import of a region writes tens of
thousands of rows, and the ORM's `bulk_create` spends most of its time preparing each
value (the values here are already checked and typed).
"""

from __future__ import annotations

from decimal import Decimal

from django.db import connection, transaction
from django.utils import timezone

from catalog.feeds.base import FeedPrice
from catalog.feeds.stage import SPEC_FIELDS, Changes, chunks
from catalog.models import ExchangeRate, Price, Provider, Tier
from changes import services as change_log

# Text columns of a tier: a feed's "unknown" (None) is stored as empty text.
_TEXT = ("cpu_model", "cpu_flags", "storage_type", "gpu_model", "network", "region")


def apply(changes: Changes, *, source_name: str, url: str, version: str) -> None:
    """Write the staged changes in one transaction, recorded as one change of the data
    (`changes`): the data generation moves on, so every cache keyed on it (the catalog
    page's frame, plans' figures) is rebuilt, and warmed (catalog.tasks.warm_caches)."""
    with transaction.atomic():
        with change_log.quiet():
            _apply(changes, source_name, url, version)
        if changes.writes:
            change_log.record("catalog.feed_synced",
                              label=f"price feed {source_name} {version}".strip())  # fmt: skip


def _apply(changes: Changes, source_name: str, url: str, version: str) -> None:
    _create_tiers(changes.new_tiers)
    _update_tiers(changes.updated_tiers)
    if changes.retire:
        for chunk in chunks(changes.retire):
            Tier.objects.filter(id__in=chunk).update(retired=True)
    rows = changes.new_tiers + changes.new_prices
    ids: dict[str, int] = {}
    for chunk in chunks([p.slug for p in rows]):
        ids.update(Tier.objects.filter(slug__in=chunk).values_list("slug", "id"))
    origin = {
        "source": url[:500],
        "source_url": url[:500] if url.startswith(("http://", "https://")) else "",
        "confirmed": True,
        "recorded_by_text": f"price feed {source_name}",
        "source_version": version[:100],
    }
    _insert_prices(rows, ids, origin)
    _insert_rates(changes, origin)
    _supersede(changes, origin)


CHUNK_WRITE = 500
PRICE_COLUMNS = ("tier_id", "amount", "unit", "currency", "setup_fee", "effective_from",
                 "source", "source_url", "confirmed", "recorded_by_text", "recorded_at",
                 "source_version", "source_key", "vat_included", "hourly_amount")  # fmt: skip


def _insert(table: str, columns: tuple[str, ...], rows: list[tuple]) -> None:
    quote = connection.ops.quote_name
    names = ", ".join(quote(c) for c in columns)
    marks = ", ".join(["%s"] * len(columns))
    with connection.cursor() as cursor:
        for chunk in chunks(rows, CHUNK_WRITE):
            cursor.executemany(f"INSERT INTO {quote(table)} ({names}) VALUES ({marks})", chunk)


def _insert_prices(rows: list[FeedPrice], ids: dict[str, int], origin: dict) -> None:
    ops = connection.ops
    now = ops.adapt_datetimefield_value(timezone.now())
    days: dict = {}
    values = []
    for p in rows:
        day = days.get(p.effective_from) or days.setdefault(
            p.effective_from, ops.adapt_datefield_value(p.effective_from)
        )
        values.append((
            ids[p.slug], p.amount, p.unit, p.currency, p.setup_fee or Decimal(0), day,
            origin["source"], origin["source_url"], True, origin["recorded_by_text"], now,
            origin["source_version"], p.source_key[:200], p.vat_included, p.hourly_amount,
        ))  # fmt: skip
    _insert(Price._meta.db_table, PRICE_COLUMNS, values)


def _insert_rates(changes: Changes, origin: dict) -> None:
    ops = connection.ops
    columns = ("date", "from_currency", "to_currency", "rate", "source", "source_url")
    rows = [(ops.adapt_datefield_value(r.date), r.base, r.quote, r.rate, origin["source"],
             origin["source_url"]) for r in changes.new_rates]  # fmt: skip
    _insert(ExchangeRate._meta.db_table, columns, rows)


def _create_tiers(records: list[FeedPrice]) -> None:
    if not records:
        return
    providers = {}
    for name in sorted({r.provider for r in records}):
        providers[name] = Provider.objects.get_or_create(name=name)[0]
    fields = [f for f in Tier._meta.concrete_fields if not f.primary_key]
    columns = tuple(f.column for f in fields)
    rows = []
    for record in records:
        values = {"slug": record.slug, "provider": providers[record.provider].pk}
        for name, value in record.tier.items():
            values[name] = "" if value is None and name in _TEXT else value
        rows.append(tuple(values[f.name] if f.name in values else f.get_default() for f in fields))
    _insert(Tier._meta.db_table, columns, rows)


def _update_tiers(updates: dict[str, dict]) -> None:
    if not updates:
        return
    fields = sorted({name for change in updates.values() for name in change})
    assert set(fields) <= set(SPEC_FIELDS)
    slugs = sorted(updates)
    for chunk in chunks(slugs):
        tiers = list(Tier.objects.filter(slug__in=chunk))
        for tier in tiers:
            for name, value in updates[tier.slug].items():
                setattr(tier, name, value)
        Tier.objects.bulk_update(tiers, fields, batch_size=CHUNK_WRITE)


def _supersede(changes: Changes, origin: dict) -> None:
    """The same feed's rows of the same day from an older snapshot take the newer one's
    price (identity stays (tier, effective_from); stage.py decided which)."""
    if not changes.superseded:
        return
    rows = {pk: price for pk, price in changes.superseded}
    now = timezone.now()
    updated = []
    for chunk in chunks(sorted(rows)):
        for row in Price.objects.filter(pk__in=chunk):
            price = rows[row.pk]
            row.amount, row.setup_fee = price.amount, price.setup_fee or Decimal(0)
            row.unit, row.currency = price.unit, price.currency
            row.hourly_amount = price.hourly_amount
            row.source_key, row.source_version = price.source_key[:200], origin["source_version"]
            row.source, row.source_url = origin["source"], origin["source_url"]
            row.recorded_at = now
            updated.append(row)
    fields = ["amount", "setup_fee", "unit", "currency", "hourly_amount", "source_key",
              "source_version", "source", "source_url", "recorded_at"]  # fmt: skip
    Price.objects.bulk_update(updated, fields, batch_size=CHUNK_WRITE)
