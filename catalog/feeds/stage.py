"""What a feed's records would change, worked out with reads only (no transaction held).

`stage` sorts each price into a new tier, a changed price (a new row), unchanged, or a
refused row, finds the tiers a complete feed no longer lists (to retire), and each rate
into new, unchanged or refused. The rules (catalog/FORMAT.md, "Prices from feeds"):

- Identity is (tier, effective_from). A row is added only when the amount (or set-up
  fee, unit, currency) differs from the tier's price in force on that date as a feed
  recorded it, so re-running a feed adds nothing; history is never rewritten.
- A row already recorded for the same tier and day with another amount (a hand-entered
  one, or the feed's own earlier version that day) is kept; the feed's row is refused
  and reported. A second change on the same day therefore waits for a later date.
- A feed adopts a hand-entered tier with the same key: it adds its own rows beside the
  hand-entered ones and fills in the specs it knows; it never changes a price row.
- A tier of the feed's scope that once had a feed price and is missing from a complete
  feed is retired (never deleted); one that comes back is un-retired.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from catalog.feeds.base import FeedPrice, FeedRate, Source
from catalog.models import ExchangeRate, Price, Tier
from common.messages import Message, Money, TierRef, msg

CHUNK = 500

# Tier columns a feed may fill in or correct. `cores`, `managed` and the like stay
# whatever staff entered: no feed here states them.
SPEC_FIELDS = ("name", "kind", "vcpus", "ram_gib", "cpu_model", "cpu_flags", "storage_type",
               "gpus", "gpu_mem_gib", "network", "min_term_months", "retired")  # fmt: skip


@dataclass
class Changes:
    new_tiers: list[FeedPrice] = field(default_factory=list)
    updated_tiers: dict[str, dict[str, Any]] = field(default_factory=dict)  # slug → fields
    new_prices: list[FeedPrice] = field(default_factory=list)  # rows for existing tiers
    unchanged: int = 0
    retire: list[int] = field(default_factory=list)  # tier ids
    new_rates: list[FeedRate] = field(default_factory=list)
    refused: list[Message] = field(default_factory=list)

    @property
    def writes(self) -> int:
        return (len(self.new_tiers) + len(self.updated_tiers) + len(self.new_prices)
                + len(self.retire) + len(self.new_rates))  # fmt: skip


def chunks(items: list, size: int = CHUNK) -> Iterator[list]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def stage(source: Source, region: str, records: list[FeedPrice | FeedRate]) -> Changes:
    changes = Changes()
    prices = [r for r in records if isinstance(r, FeedPrice)]
    rates = [r for r in records if isinstance(r, FeedRate)]
    if prices:
        _stage_prices(changes, _unique(changes, prices), source.scope_tiers(region))
        if source.complete:
            _stage_retired(changes, source, region, {p.slug for p in prices})
    if rates:
        _stage_rates(changes, rates)
    return changes


def _unique(changes: Changes, prices: list[FeedPrice]) -> list[FeedPrice]:
    """One record per tier; a tier offered twice at different prices is refused."""
    first: dict[str, FeedPrice] = {}
    clashing: set[str] = set()
    for price in prices:
        seen = first.setdefault(price.slug, price)
        if seen is not price and _terms(seen) != _terms(price) and price.slug not in clashing:
            clashing.add(price.slug)
            changes.refused.append(msg("feeds.duplicate_offer", tier=TierRef(price.slug),
                                       first=seen.source_key, second=price.source_key))  # fmt: skip
    return [price for slug, price in first.items() if slug not in clashing]


def _terms(price: FeedPrice) -> tuple[Decimal, Decimal, str, str]:
    return (price.amount, price.setup_fee, price.unit, price.currency)


def _stage_prices(changes: Changes, prices: list[FeedPrice], scope: dict[str, Any]) -> None:
    """One query for the scope's tiers and one for their prices (a re-run finds every tier
    there); chunked look-ups by key only for the tiers found elsewhere or new."""
    wanted = {p.slug for p in prices}
    columns = ("id", "slug", *SPEC_FIELDS)
    # Plain tuples, not model instances: a region has tens of thousands of tiers.
    tiers: dict[str, dict[str, Any]] = {}
    for row in Tier.objects.filter(**scope).values_list(*columns):
        if row[1] in wanted:
            tiers[row[1]] = dict(zip(columns, row, strict=True))
    in_scope = {t["id"] for t in tiers.values()}
    for chunk in chunks(sorted(wanted - set(tiers))):
        for row in Tier.objects.filter(slug__in=chunk).values_list(*columns):
            tiers[row[1]] = dict(zip(columns, row, strict=True))
    history: dict[int, list[tuple[dt.date, tuple, bool]]] = {}
    fields = ("tier_id", "effective_from", "amount", "setup_fee", "unit", "currency", "source_key")
    scoped = Price.objects.filter(**{f"tier__{k}": v for k, v in scope.items()})
    others = {t["id"] for t in tiers.values()} - in_scope
    queries = [scoped] + [
        Price.objects.filter(tier_id__in=chunk) for chunk in chunks(sorted(others))
    ]
    for query in queries:
        for tier_id, day, amount, fee, unit, currency, key in query.values_list(*fields):
            if tier_id in in_scope or tier_id in others:
                history.setdefault(tier_id, []).append(
                    (day, (amount, fee, unit, currency), bool(key))
                )
    for price in prices:
        tier = tiers.get(price.slug)
        if tier is None:
            changes.new_tiers.append(price)
            continue
        updates = {
            name: value
            for name, value in price.tier.items()
            if name in SPEC_FIELDS and value is not None and tier[name] != value
        }
        if updates:
            changes.updated_tiers[price.slug] = updates
        _stage_price(changes, price, sorted(history.get(tier["id"], [])))


def _stage_price(
    changes: Changes, price: FeedPrice, rows: list[tuple[dt.date, tuple, bool]]
) -> None:
    same_day = [row for row in rows if row[0] == price.effective_from]
    if same_day:
        recorded = same_day[0][1]
        if recorded == _terms(price):
            changes.unchanged += 1
        else:
            changes.refused.append(
                msg("feeds.price_conflict", tier=TierRef(price.slug),
                    recorded=Money(recorded[0], recorded[3]), date=price.effective_from,
                    offered=Money(price.amount, price.currency))
            )  # fmt: skip
        return
    before = [row for row in rows if row[0] < price.effective_from]
    if before and before[-1][2] and before[-1][1] == _terms(price):
        changes.unchanged += 1  # the feed's own row in force that day says the same
        return
    changes.new_prices.append(price)


def _stage_retired(changes: Changes, source: Source, region: str, listed: set[str]) -> None:
    fed = (
        Tier.objects.filter(**source.scope_tiers(region), retired=False)
        .exclude(prices__source_key="")
        .values_list("id", "slug")
        .distinct()
    )
    changes.retire = sorted(tier_id for tier_id, slug in fed if slug not in listed)


def _stage_rates(changes: Changes, rates: list[FeedRate]) -> None:
    days = [rate.date for rate in rates]
    existing = {
        (r.from_currency, r.to_currency, r.date): r.rate
        for r in ExchangeRate.objects.filter(date__gte=min(days), date__lte=max(days))
    }
    for rate in rates:
        recorded = existing.get((rate.base, rate.quote, rate.date))
        if recorded is None:
            changes.new_rates.append(rate)
        elif recorded == rate.rate:
            changes.unchanged += 1
        else:
            changes.refused.append(
                msg("feeds.rate_conflict", base=rate.base, quote=rate.quote, date=rate.date,
                    recorded=recorded, offered=rate.rate)
            )  # fmt: skip
