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
- A tier of the feed's scope missing from a complete feed is retired (never deleted),
  unless it has a hand-entered price row (staff keep that one); one that comes back is
  un-retired.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import CharField, DecimalField, QuerySet
from django.db.models.functions import Cast

from catalog.feeds.base import FeedPrice, FeedRate, Source
from catalog.models import ExchangeRate, Price, Tier
from common.messages import Message, Money, TierRef, msg

CHUNK = 500

# Tier columns a feed may fill in or correct. `cores`, `managed` and the like stay
# whatever staff entered: no feed here states them.
SPEC_FIELDS = ("name", "kind", "vcpus", "ram_gib", "cpu_model", "cpu_flags", "storage_type",
               "gpus", "gpu_mem_gib", "network", "min_term_months", "retired", "ecc",
               "fixed_price")  # fmt: skip


@dataclass
class Changes:
    new_tiers: list[FeedPrice] = field(default_factory=list)
    updated_tiers: dict[str, dict[str, Any]] = field(default_factory=dict)  # slug → fields
    new_prices: list[FeedPrice] = field(default_factory=list)  # rows for existing tiers
    unchanged: int = 0
    retire: list[int] = field(default_factory=list)  # tier ids
    new_rates: list[FeedRate] = field(default_factory=list)
    refused: list[Message] = field(default_factory=list)
    # (price row id, the feed's price): the same feed's row of the same day, from an
    # earlier snapshot (an older version), replaced by this newer snapshot's price.
    superseded: list[tuple[int, FeedPrice]] = field(default_factory=list)
    feed: tuple[str, str] = ("", "")  # (recorded_by_text of the feed's rows, file version)

    @property
    def writes(self) -> int:
        return (len(self.new_tiers) + len(self.updated_tiers) + len(self.new_prices)
                + len(self.retire) + len(self.new_rates) + len(self.superseded))  # fmt: skip


def chunks(items: list, size: int = CHUNK) -> Iterator[list]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def stage(
    source: Source, region: str, records: list[FeedPrice | FeedRate], version: str = ""
) -> Changes:
    """`version`: the file's own version (its timestamp, or a number that grows), which
    lets a newer snapshot of the same day supersede the same feed's earlier row."""
    changes = Changes(feed=(f"price feed {source.name}", version))
    prices = [r for r in records if isinstance(r, FeedPrice)]
    rates = [r for r in records if isinstance(r, FeedRate)]
    if prices:
        listed = {p.slug for p in prices} if source.complete else None
        _stage_prices(changes, _unique(changes, prices), source.scope_tiers(region), listed)
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


def _stage_prices(
    changes: Changes, prices: list[FeedPrice], scope: dict[str, Any], listed: set[str] | None
) -> None:
    """One query for the scope's tiers and one for their prices (a re-run finds every tier
    there); chunked look-ups by key only for the tiers found elsewhere or new. `listed`
    (a complete feed's keys) retires the scope's tiers it lacks, but not one with a
    hand-entered price.

    The hot path of a re-run, tens of thousands of tiers that did not change: rows stay
    plain tuples, unordered (no sort in the database), and a tier's specs are compared
    as one tuple before any field is looked at."""
    wanted = {p.slug for p in prices}
    columns = ("id", "slug", *SPEC_FIELDS)
    tiers: dict[str, tuple] = {}
    unlisted: list[tuple[int, bool]] = []  # (id, retired) of scope tiers the feed lacks
    for row in _values(Tier.objects.filter(**scope), columns):
        if row[1] in wanted:
            tiers[row[1]] = row
        elif listed is not None and row[1] not in listed:
            unlisted.append((row[0], row[_SPEC_AT["retired"]]))
    in_scope = {row[0] for row in tiers.values()}
    for chunk in chunks(sorted(wanted - tiers.keys())):
        for row in _values(Tier.objects.filter(slug__in=chunk), columns):
            tiers[row[1]] = row
    history, hand = _history(scope, in_scope, {row[0] for row in tiers.values()} - in_scope)
    if listed is not None:
        changes.retire = sorted(i for i, retired in unlisted if not retired and i not in hand)
    for price in prices:
        tier = tiers.get(price.slug)
        if tier is None:
            changes.new_tiers.append(price)
            continue
        # Equal as a whole (a spec the feed leaves unknown, None, equal to one unknown here)
        # means nothing to update.
        if tuple(map(price.tier.get, SPEC_FIELDS)) != tier[2:]:
            updates = {
                name: value
                for name, value in price.tier.items()
                if name in _SPEC_AT and value is not None and tier[_SPEC_AT[name]] != value
            }
            if updates:
                changes.updated_tiers[price.slug] = updates
        rows = history.get(tier[0], ())
        _stage_price(changes, price, sorted(rows) if len(rows) > 1 else rows)


# Where each spec sits in a tier row of `_stage_prices` (after id and slug).
_SPEC_AT = {name: index for index, name in enumerate(SPEC_FIELDS, start=2)}
_HISTORY = ("tier_id", "effective_from", "amount", "setup_fee", "unit", "currency", "source_key",
            "id", "source_version", "recorded_by_text")  # fmt: skip


def _history(
    scope: dict[str, Any], in_scope: set[int], others: set[int]
) -> tuple[dict[int, list[tuple]], set[int]]:
    """The price rows of the tiers staged (tier id → [(day, terms, from a feed)]), and
    which of the scope's tiers have a hand-entered price (no `source_key`)."""
    history: dict[int, list[tuple]] = {}
    hand: set[int] = set()
    scoped = Price.objects.filter(**{f"tier__{k}": v for k, v in scope.items()})
    queries = [scoped] + [
        Price.objects.filter(tier_id__in=chunk) for chunk in chunks(sorted(others))
    ]
    for query in queries:
        for tier_id, day, amount, fee, unit, currency, key, pk, version, by in _values(
            query, _HISTORY
        ):
            if not key:
                hand.add(tier_id)
            if tier_id in in_scope or tier_id in others:
                history.setdefault(tier_id, []).append(
                    (day, (amount, fee, unit, currency), bool(key), pk, version, by)
                )
    return history, hand


def _values(query: QuerySet, names: tuple[str, ...]) -> list[tuple]:
    """`query.values_list(*names)`, unordered, with its decimal columns read as text and made
    Decimal here, a column at a time: the same values Django's reader gives (SQLite keeps
    15 significant digits, which both round to; quantized to the field's places), without
    its per-value conversion from float, the most of a re-run's staging time."""
    fields = {f.name: f for f in query.model._meta.concrete_fields if isinstance(f, DecimalField)}
    places = {n: Decimal(1).scaleb(-fields[n].decimal_places) for n in names if n in fields}
    query = query.order_by()
    if not places:
        return list(query.values_list(*names))
    texts = {f"{name}_as_text": Cast(name, CharField()) for name in places}
    read = [f"{name}_as_text" if name in places else name for name in names]
    rows = list(query.annotate(**texts).values_list(*read))
    if not rows:
        return rows
    columns: list[Sequence] = list(zip(*rows, strict=True))
    for index, name in enumerate(names):
        if name in places:
            exponent = places[name]
            columns[index] = [
                None if text is None else Decimal(text).quantize(exponent)
                for text in columns[index]
            ]
    return list(zip(*columns, strict=True))


def _stage_price(
    changes: Changes, price: FeedPrice, rows: Sequence[tuple[dt.date, tuple, bool]]
) -> None:
    same_day = [row for row in rows if row[0] == price.effective_from]
    if same_day:
        recorded = same_day[0][1]
        if recorded == _terms(price):
            changes.unchanged += 1
        elif _older_snapshot(same_day[0], changes.feed):
            changes.superseded.append((same_day[0][3], price))
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


def _older_snapshot(row: tuple, feed_version: tuple[str, str]) -> bool:
    """Is this same-day row the same feed's, from an older snapshot than the file's? Both
    versions are compared as numbers when both are (OVH's catalogId, AWS's version), else
    as text (ISO timestamps: Hetzner's capture moment)."""
    feed, version = feed_version
    from_feed, row_version, by = row[2], row[4] or "", row[5]
    if not (from_feed and version and row_version and by == feed):
        return False
    if version.isdigit() and row_version.isdigit():
        return int(version) > int(row_version)
    return version > row_version


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
