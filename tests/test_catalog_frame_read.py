"""The catalog frame's read (`pricing.values_columns`: the database's converters once per
distinct value) gives what Django's own row-by-row iteration of the same queryset gives,
and the frame built from it is the same frame: values, dtypes and attrs, in USD, EUR and
the prices' own currencies, with and without the retired tiers. Runs on SQLite and, with
DATABASE_URL set, on PostgreSQL."""

import datetime as dt
from decimal import Decimal

import pandas as pd
import pytest

from catalog import pricing
from catalog.pricing import catalog_frame, current_prices, values_columns
from tests.support.catalog import add_price, add_rate, make_tier

pytestmark = pytest.mark.django_db
AS_OF = dt.date(2026, 3, 1)


def a_mixed_catalog() -> None:
    """Prices repeated and not, hourly and monthly, set-up fees, several dates and
    currencies (one with no rate to USD), unknown specs, managed or not, a retired tier."""
    add_rate("2026-02-01", "EUR", "USD", "1.0825")
    add_rate("2026-02-20", "USD", "EUR", "0.9301")
    add_rate("2026-01-05", "EUR", "GBP", "0.8612")
    specs = [
        {"vcpus": 16, "ram_gib": Decimal("32.50"), "managed": True},
        {"vcpus": None, "cores": None, "ram_gib": None, "managed": None},
        {"vcpus": 0, "gpus": 8, "gpu_model": "A100", "gpu_mem_gib": Decimal("40"),
         "managed": False},
    ]  # fmt: skip
    amounts = ["0.68", "0.68", "21.957642", "1", "0.000001", "1234567.123456", "0.1"]
    for i in range(21):
        tier = make_tier(
            f"tier-{i:02d}",
            provider=("AWS", "Hetzner", "OVH")[i % 3],
            pricing_model=("on_demand", "spot", "reserved_1y_no_upfront")[i % 3],
            min_term_months=12 if i % 3 == 2 else None,
            retired=i % 7 == 6,
            **specs[i % 3],
        )
        add_price(
            tier,
            amounts[i % len(amounts)],
            ("2025-01-10", "2026-02-01", "2025-11-30")[i % 3],
            unit="hour" if i % 2 else "month",
            currency=("USD", "EUR", "GBP", "CHF")[i % 4],
            setup_fee=Decimal(("0", "99.99", "1200.5")[i % 3]),
            confirmed=i % 5 != 0,
        )
        if i % 4 == 0:  # an older price the frame must not read
            add_price(tier, "9.99", "2024-06-01")


@pytest.mark.parametrize("retired", [False, True])
def test_the_rows_are_djangos_values_and_types(retired):
    a_mixed_catalog()
    fields = {**pricing._PRICE_FIELDS, "retired": "tier__retired"}
    queryset = current_prices(AS_OF, retired).values_list(*fields.values()).order_by("id")
    read, django = values_columns(queryset), list(queryset)
    assert read == [list(column) for column in zip(*django, strict=True)]
    assert len(django) == (21 if retired else 18)
    read = list(zip(*read, strict=True))  # as rows, to compare with Django's
    # The same types and the same Decimal digits (1.000000 is not 1).
    assert [[(type(v), str(v)) for v in row] for row in read] == [
        [(type(v), str(v)) for v in row] for row in django
    ]


def test_an_empty_read_is_empty():
    queryset = current_prices(AS_OF).values_list("id", "amount")
    assert values_columns(queryset) == [] == list(queryset)
    assert values_columns(current_prices(AS_OF).filter(id__in=[]).values_list("id")) == []


@pytest.mark.parametrize("currency", ["USD", "EUR", None])
@pytest.mark.parametrize("retired", [False, True])
def test_the_frame_is_the_one_djangos_rows_give(currency, retired, monkeypatch):
    a_mixed_catalog()
    read = catalog_frame(AS_OF, currency, include_retired=retired)
    # The same frame from Django's own iteration of the same queryset.
    monkeypatch.setattr(
        pricing, "values_columns", lambda qs: [list(c) for c in zip(*qs, strict=True)]
    )
    django = catalog_frame(AS_OF, currency, include_retired=retired)
    pd.testing.assert_frame_equal(read, django, check_exact=True)
    assert list(read.dtypes) == list(django.dtypes)
    assert read.attrs.keys() == django.attrs.keys()
    for key, value in read.attrs.items():
        assert (list(value) if isinstance(value, list) else value) == (
            list(django.attrs[key]) if isinstance(value, list) else django.attrs[key]
        )
    for column in ("amount", "monthly_exact", "setup_fee_exact"):
        assert [str(v) for v in read[column]] == [str(v) for v in django[column]]
    assert len(read) > 0
    if currency == "USD":  # CHF has no rate: dropped, and said so
        assert {d["slug"] for d in read.attrs["dropped"]} == {
            f"tier-{i:02d}" for i in range(21) if i % 4 == 3 and (retired or i % 7 != 6)
        }


@pytest.mark.parametrize("retired", [False, True])
def test_the_dropped_tiers_are_listed_in_the_databases_order(retired):
    """The frame's rows are read in no order (sorted by slug after); the tiers dropped for
    want of a rate are still listed as the database orders their prices (provider, name,
    region, pricing model): neither the order they were written in nor their slugs'."""
    add_rate("2026-02-01", "EUR", "USD", "1.0825")
    written = [  # slug, provider, name, region
        ("t-1", "Zeta", "a", ""), ("t-2", "Alpha", "z", ""), ("t-3", "Alpha", "b", "eu"),
        ("t-0", "Mid", "m", ""), ("t-4", "Alpha", "b", "ap"), ("t-5", "Alpha", "b", ""),
    ]  # fmt: skip
    for slug, provider, name, region in written:
        tier = make_tier(slug, provider=provider, name=name, region=region)
        add_price(tier, "1.00", "2026-02-01", currency="CHF")  # no rate into USD
    kept = make_tier("t-kept", provider="Alpha", name="c")
    add_price(kept, "2.00", "2026-02-01", currency="EUR")
    frame = catalog_frame(AS_OF, "USD", include_retired=retired)
    assert frame["slug"].tolist() == ["t-kept"]
    dropped = [d["slug"] for d in frame.attrs["dropped"]]
    assert dropped == ["t-5", "t-4", "t-3", "t-2", "t-0", "t-1"]
    assert [d["slug"] for d in frame.attrs["dropped_messages"]] == dropped
