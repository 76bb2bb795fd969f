"""Export: the catalog as CSV or JSON bytes, every price row or the current ones.

Deterministic (sorted rows, fixed number formatting), so export → empty database →
import → export gives the same bytes, history included.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from typing import Any

from django.db.models import OuterRef, Subquery

from catalog.io.formats import EXPORT_COLUMNS, FORMAT_NAME, FORMAT_VERSION, csv_cell, json_value
from catalog.io.records import FEED_FIELDS, PRICE_RECORD_FIELDS, RATE_RECORD_FIELDS, TIER_FIELDS
from catalog.models import ExchangeRate, Price
from common.django import clock


def _price_rows(history: bool, as_of: dt.date | None) -> list[dict[str, Any]]:
    prices = Price.objects.select_related("tier__provider", "recorded_by")
    if not history:
        as_of = as_of or clock.today()
        newest = (
            Price.objects.filter(tier=OuterRef("tier"), effective_from__lte=as_of)
            .order_by("-effective_from")
            .values("effective_from")[:1]
        )
        prices = prices.filter(effective_from=Subquery(newest))
    rows = []
    for price in prices:
        tier = price.tier
        rows.append({
            "slug": tier.slug, "provider": tier.provider.name,
            **{name: getattr(tier, name) for name in TIER_FIELDS},
            "amount": price.amount, "unit": price.unit, "currency": price.currency,
            "setup_fee": price.setup_fee, "effective_from": price.effective_from,
            "source": price.source, "source_url": price.source_url,
            "confirmed": price.confirmed, "recorded_by": price.recorder,
            "source_version": price.source_version, "source_key": price.source_key,
            "vat_included": price.vat_included,
        })  # fmt: skip
    # Sorted here, not in SQL: database collations order "." and "-" differently.
    return sorted(rows, key=lambda row: (row["slug"], row["effective_from"]))


def _rate_rows(history: bool, as_of: dt.date | None) -> list[dict[str, Any]]:
    rates = ExchangeRate.objects.order_by("from_currency", "to_currency", "date")
    if not history:
        as_of = as_of or clock.today()
        newest: dict[tuple[str, str], ExchangeRate] = {}
        for rate in rates.filter(date__lte=as_of):
            newest[(rate.from_currency, rate.to_currency)] = rate
        rates = [newest[key] for key in sorted(newest)]
    return [
        {
            "effective_from": r.date,
            "rate_from": r.from_currency,
            "rate_to": r.to_currency,
            "rate": r.rate,
            "source": r.source,
            "source_url": r.source_url,
        }
        for r in rates
    ]


def export_catalog(fmt: str, *, history: bool = False, as_of: dt.date | None = None) -> bytes:
    """The catalog as CSV or JSON bytes: every price row with `history`, else current ones."""
    prices = _price_rows(history, as_of)
    rates = _rate_rows(history, as_of)
    if fmt == "json":
        document = {
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            "prices": [
                {k: json_value(row[k]) for k in (*PRICE_RECORD_FIELDS, *FEED_FIELDS)}
                for row in prices
            ],
            "exchange_rates": [{k: json_value(r[k]) for k in RATE_RECORD_FIELDS} for r in rates],
        }
        return (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode()
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(EXPORT_COLUMNS)
    for row in prices:
        writer.writerow(["price", *(csv_cell(c, row.get(c)) for c in EXPORT_COLUMNS[1:])])
    for row in rates:
        writer.writerow(["rate", *(csv_cell(c, row.get(c)) for c in EXPORT_COLUMNS[1:])])
    return out.getvalue().encode()
