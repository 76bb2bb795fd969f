"""What importing a parsed catalog would change in the database, before anything is written.

`stage_changes` sorts every record into new, changed and unchanged, and refuses a
price or a rate that contradicts one already recorded: recorded figures are never
overwritten. The `ChangeSet` it returns is what `importer.apply_changes` writes.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal

from catalog.io.formats import format_decimal
from catalog.io.records import CatalogFileError, Issue, ParsedCatalog, PriceRecord, RateRecord
from catalog.models import ExchangeRate, Price, Provider, Tier, provider_slug
from common.messages import Message, msg, plain


@dataclass
class ChangeSet:
    """What an import would do. Nothing is written until `apply_changes`."""

    parsed: ParsedCatalog
    new_providers: list[str] = field(default_factory=list)
    new_tiers: list[str] = field(default_factory=list)
    changed_tiers: dict[str, list[str]] = field(default_factory=dict)  # slug → changed fields
    unchanged_tiers: list[str] = field(default_factory=list)
    new_prices: list[PriceRecord] = field(default_factory=list)
    unchanged_prices: list[PriceRecord] = field(default_factory=list)
    new_rates: list[RateRecord] = field(default_factory=list)
    unchanged_rates: list[RateRecord] = field(default_factory=list)

    @property
    def changes(self) -> int:
        return (
            len(self.new_providers)
            + len(self.new_tiers)
            + len(self.changed_tiers)
            + len(self.new_prices)
            + len(self.new_rates)
        )

    def summary(self) -> str:
        """In English, as the commands print it."""
        return plain(self.summary_message())

    def summary_message(self) -> Message:
        """What the file holds and what is new, for a page in its reader's language."""
        return msg(
            "catalog.import_summary",
            tiers=len(self.new_tiers) + len(self.changed_tiers) + len(self.unchanged_tiers),
            prices=len(self.new_prices) + len(self.unchanged_prices),
            rates=len(self.new_rates) + len(self.unchanged_rates),
            new_tiers=len(self.new_tiers),
            changed_tiers=len(self.changed_tiers),
            new_prices=len(self.new_prices),
            new_rates=len(self.new_rates),
        )


def chunks(items: list, size: int = 500) -> Iterator[list]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def stage_changes(parsed: ParsedCatalog, *, update_tiers: bool = True) -> ChangeSet:
    """What importing `parsed` would change; refuses a price or rate that contradicts the DB.

    With `update_tiers=False` a tier already recorded keeps its columns as they are.
    """
    result = ChangeSet(parsed=parsed)
    issues: list[Issue] = []
    slugs = sorted({record.slug for record in parsed.prices})
    tiers: dict[str, Tier] = {}
    for chunk in chunks(slugs):
        tiers.update(
            (t.slug, t) for t in Tier.objects.filter(slug__in=chunk).select_related("provider")
        )
    existing_prices: dict[tuple[str, dt.date], Decimal] = {}
    for chunk in chunks(slugs):
        for slug, day, amount in Price.objects.filter(tier__slug__in=chunk).values_list(
            "tier__slug", "effective_from", "amount"
        ):
            existing_prices[(slug, day)] = amount
    providers = dict(Provider.objects.values_list("name", "slug"))
    provider_slugs = {slug: name for name, slug in providers.items()}

    planned: set[str] = set()
    for record in parsed.prices:
        if record.provider not in providers:
            slug = provider_slug(record.provider)
            if slug in provider_slugs:
                issues.append(
                    Issue(
                        record.where,
                        "provider",
                        (
                            f"{record.provider!r} is too close to the provider "
                            f"{provider_slugs[slug]!r}: write that name exactly"
                        ),
                    )
                )
            else:
                result.new_providers.append(record.provider)
                providers[record.provider] = slug
                provider_slugs[slug] = record.provider
        if record.slug not in planned:
            planned.add(record.slug)
            _stage_tier(result, record, tiers.get(record.slug), update_tiers)
        key = (record.slug, record.price["effective_from"])
        if key not in existing_prices:
            result.new_prices.append(record)
        elif existing_prices[key] == record.price["amount"]:
            result.unchanged_prices.append(record)
        else:
            issues.append(
                Issue(
                    record.where,
                    "amount",
                    (
                        f"{record.price['amount']} differs from the recorded "
                        f"{format_decimal(existing_prices[key])} "
                        f"for ({record.slug}, {key[1].isoformat()}); prices are never overwritten: "
                        "give the new price its own effective_from"
                    ),
                )
            )

    existing_rates = {
        (r.from_currency, r.to_currency, r.date): r.rate for r in ExchangeRate.objects.all()
    }
    for rate in parsed.rates:
        key = (rate.from_currency, rate.to_currency, rate.date)
        if key not in existing_rates:
            result.new_rates.append(rate)
        elif existing_rates[key] == rate.rate:
            result.unchanged_rates.append(rate)
        else:
            issues.append(
                Issue(
                    rate.where,
                    "rate",
                    (
                        f"{rate.rate} differs from the recorded "
                        f"{format_decimal(existing_rates[key])} for "
                        f"{key[0]}→{key[1]} on {key[2].isoformat()}"
                    ),
                )
            )
    if issues:
        raise CatalogFileError(issues)
    return result


def _stage_tier(
    result: ChangeSet, record: PriceRecord, tier: Tier | None, update_tiers: bool
) -> None:
    if tier is None:
        result.new_tiers.append(record.slug)
        return
    if not update_tiers:
        result.unchanged_tiers.append(record.slug)
        return
    changed = [name for name, value in record.tier.items() if getattr(tier, name) != value]
    if tier.provider.name != record.provider:
        changed.insert(0, "provider")
    if changed:
        result.changed_tiers[record.slug] = changed
    else:
        result.unchanged_tiers.append(record.slug)
