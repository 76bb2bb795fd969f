"""Builders for tests of the catalog (and of apps that read it): tiers, prices, files."""

from __future__ import annotations

import csv
import datetime as dt
import io as stdio
from decimal import Decimal
from typing import Any

from catalog.io.formats import CSV_COLUMNS
from catalog.models import ExchangeRate, Price, Provider, Tier


def make_tier(
    slug: str = "aws-c5.4xlarge-us-east-1-on-demand", provider: str = "AWS", **fields: Any
) -> Tier:
    defaults: dict[str, Any] = {
        "name": slug,
        "region": "us-east-1",
        "pricing_model": "on_demand",
        "kind": "cloud_vm",
        "vcpus": 16,
        "cores": 8,
        "ram_gib": Decimal(32),
        "gpus": 0,
    }
    defaults.update(fields)
    owner, _ = Provider.objects.get_or_create(name=provider)
    return Tier.objects.create(slug=slug, provider=owner, **defaults)


def add_price(
    tier: Tier,
    amount: str | Decimal,
    effective_from: dt.date | str,
    unit: str = "hour",
    currency: str = "USD",
    **fields: Any,
) -> Price:
    if isinstance(effective_from, str):
        effective_from = dt.date.fromisoformat(effective_from)
    defaults: dict[str, Any] = {"source": "test fixture", "confirmed": True}
    defaults.update(fields)
    return Price.objects.create(
        tier=tier,
        amount=Decimal(amount),
        unit=unit,
        currency=currency,
        effective_from=effective_from,
        **defaults,
    )


def add_rate(day: str, from_currency: str, to_currency: str, rate: str) -> ExchangeRate:
    return ExchangeRate.objects.create(
        date=dt.date.fromisoformat(day),
        from_currency=from_currency,
        to_currency=to_currency,
        rate=Decimal(rate),
        source="test fixture",
    )


def table_counts() -> dict[str, int]:
    """Rows in every catalog table: what an all-or-nothing import must leave unchanged."""
    return {
        model.__name__: model.objects.count() for model in (Provider, Tier, Price, ExchangeRate)
    }


def price_record(**overrides: str) -> dict[str, str]:
    """One valid CSV price record; override any cell."""
    record = dict.fromkeys(CSV_COLUMNS, "")
    record.update(
        record="price",
        slug="aws-c5.4xlarge-us-east-1-on-demand",
        provider="AWS",
        name="c5.4xlarge",
        region="us-east-1",
        pricing_model="on_demand",
        kind="cloud_vm",
        vcpus="16",
        cores="8",
        ram_gib="32",
        gpus="0",
        retired="false",
        amount="0.68",
        unit="hour",
        currency="USD",
        setup_fee="0",
        effective_from="2026-01-19",
        source="aws/karpenter-provider-aws pricing file",
        confirmed="true",
    )
    record.update(overrides)
    return record


def rate_record(**overrides: str) -> dict[str, str]:
    record = dict.fromkeys(CSV_COLUMNS, "")
    record.update(
        record="rate",
        effective_from="2026-01-19",
        rate_from="EUR",
        rate_to="USD",
        rate="1.1631",
        source="ECB reference rate",
    )
    record.update(overrides)
    return record


def csv_bytes(
    records: list[dict[str, str]], columns: tuple[str, ...] | list[str] = CSV_COLUMNS
) -> bytes:
    out = stdio.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for record in records:
        writer.writerow([record.get(column, "") for column in columns])
    return out.getvalue().encode()
