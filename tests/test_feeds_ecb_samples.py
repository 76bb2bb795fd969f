"""The ECB importer on the genuine samples E1-E4 in ../shared/reference/feeds, and what
the rates make possible: a GBP catalog of USD prices, converted through the euro."""

import datetime as dt
from decimal import Decimal

import pytest

from catalog.feeds.sync import sync_source
from catalog.models import ExchangeRate, FeedImport
from catalog.pricing import catalog_frame, currencies_with_rates
from common.messages import Message, plain
from tests.support.catalog import add_price, make_tier
from tests.support.feeds import sample

pytestmark = pytest.mark.django_db

E1 = "ecb/eurofxref-daily-20250509.xml"
E2 = "ecb/eurofxref-20260413.csv"
E3 = "ecb/eurofxref-hist-20260413.zip"
E4 = "ecb/eurofxref-hist-20260413.csv"


def rate(day: str, quote: str) -> Decimal:
    return ExchangeRate.objects.get(
        date=dt.date.fromisoformat(day), from_currency="EUR", to_currency=quote
    ).rate


def texts(result: FeedImport) -> list[str]:
    return [plain(Message.from_json(m)) for m in result.messages]


def test_e1_daily_xml_gives_each_offered_currency_its_rate_of_the_day():
    """E1: Cube time='2025-05-09', USD 1.1252, JPY 163.36, GBP 0.84770; 30 rates, of
    which BGN, ISK, MYR and PHP are not currencies the catalog offers."""
    result = sync_source("ecb", file=sample(E1))[0]
    assert (result.status, result.records, result.changed_prices) == ("imported", 26, 26)
    assert rate("2025-05-09", "USD") == Decimal("1.1252")
    assert rate("2025-05-09", "JPY") == Decimal("163.36")
    assert rate("2025-05-09", "GBP") == Decimal("0.8477")
    assert texts(result) == [
        "Rates for BGN, ISK, MYR, PHP were not imported: the catalog offers no such currency."
    ]
    stored = ExchangeRate.objects.get(to_currency="USD")
    assert stored.source == "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml"


def test_e2_daily_csv_reads_the_spelled_out_date():
    """E2: "13 April 2026, 1.1684, 186.75, …, GBP 0.87058"; 29 currencies, ISK, MYR and
    PHP skipped."""
    result = sync_source("ecb", file=sample(E2))[0]
    assert (result.status, result.records) == ("imported", 26)
    assert rate("2026-04-13", "USD") == Decimal("1.1684")
    assert rate("2026-04-13", "GBP") == Decimal("0.87058")


@pytest.mark.slow
def test_e3_history_zip_then_e4_its_csv_add_every_day_once():
    """E3 zips E4 byte for byte: 6983 days from 1999-01-04. The first import records
    163,318 rates (every offered currency on every day it was quoted, "N/A" skipped);
    E4, a different file with the same rows, then changes nothing. 2008-01-02:
    USD 1.4688, GBP 0.7413; 1999-01-04: USD 1.1789."""
    first = sync_source("ecb-history", file=sample(E3))[0]
    assert (first.status, first.changed_prices) == ("imported", 163_318)
    assert rate("2008-01-02", "USD") == Decimal("1.4688")
    assert rate("2008-01-02", "GBP") == Decimal("0.7413")
    assert rate("1999-01-04", "USD") == Decimal("1.1789")
    assert not ExchangeRate.objects.filter(to_currency="CYP").exists()
    second = sync_source("ecb-history", file=sample(E4))[0]
    assert (second.status, second.changed_prices, second.unchanged) == ("imported", 0, 163_318)


def test_with_the_ecb_rates_a_gbp_catalog_keeps_usd_priced_tiers_through_the_euro():
    """Only EUR→X rates exist: 1 USD = 0.84770 / 1.1252 GBP on 2025-05-09 (E1)."""
    add_price(make_tier("aws-c5"), "0.68", "2025-01-01")
    sync_source("ecb", file=sample(E1))
    frame = catalog_frame(dt.date(2025, 6, 1), "GBP").set_index("slug")
    row = frame.loc["aws-c5"]
    assert row["fx_via"] == "EUR"
    assert row["fx_rate"] == pytest.approx(0.8477 / 1.1252)
    assert row["fx_date"] == dt.date(2025, 5, 9)
    usd, gbp = (ExchangeRate.objects.get(to_currency=c).pk for c in ("USD", "GBP"))
    assert row["fx_rate_ids"] == [usd, gbp]
    assert row["monthly_exact"] == Decimal("0.68") * 730 * (Decimal(1) / Decimal("1.1252")) * (
        Decimal("0.8477")
    )
    assert "GBP" in currencies_with_rates(dt.date(2025, 6, 1))
    assert currencies_with_rates(dt.date(2025, 5, 8)) == []
