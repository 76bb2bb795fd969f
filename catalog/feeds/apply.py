"""Writing staged feed changes: one short transaction, all of it or nothing.

Everything slow (download, parse, compare) happened before; here only bulk inserts and
updates run, so on SQLite the write lock is held for seconds, not minutes.
"""

from __future__ import annotations

from decimal import Decimal

from django.db import transaction

from catalog.feeds.base import FeedPrice
from catalog.feeds.stage import SPEC_FIELDS, Changes, chunks
from catalog.models import ExchangeRate, Price, Provider, Tier

# Text columns of a tier: a feed's "unknown" (None) is stored as empty text.
_TEXT = ("cpu_model", "cpu_flags", "storage_type", "gpu_model", "network", "region")


def apply(changes: Changes, *, source_name: str, url: str, version: str) -> None:
    with transaction.atomic():
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
        Price.objects.bulk_create(
            [_price(p, ids[p.slug], origin) for p in rows], batch_size=CHUNK_WRITE
        )
        ExchangeRate.objects.bulk_create(
            [
                ExchangeRate(date=r.date, from_currency=r.base, to_currency=r.quote, rate=r.rate,
                             source=origin["source"], source_url=origin["source_url"])
                for r in changes.new_rates
            ],
            batch_size=CHUNK_WRITE,
        )  # fmt: skip


CHUNK_WRITE = 500


def _price(record: FeedPrice, tier_id: int, origin: dict) -> Price:
    return Price(
        tier_id=tier_id,
        amount=record.amount,
        unit=record.unit,
        currency=record.currency,
        setup_fee=record.setup_fee or Decimal(0),
        effective_from=record.effective_from,
        source_key=record.source_key[:200],
        vat_included=record.vat_included,
        **origin,
    )


def _create_tiers(records: list[FeedPrice]) -> None:
    if not records:
        return
    providers = {}
    for name in sorted({r.provider for r in records}):
        providers[name] = Provider.objects.get_or_create(name=name)[0]
    tiers = []
    for record in records:
        fields = {k: ("" if v is None and k in _TEXT else v) for k, v in record.tier.items()}
        tiers.append(Tier(slug=record.slug, provider=providers[record.provider], **fields))
    Tier.objects.bulk_create(tiers, batch_size=CHUNK_WRITE)


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
