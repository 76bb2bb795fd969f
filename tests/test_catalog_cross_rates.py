"""Converting through the euro where no direct rate exists (the ECB publishes only EUR→X),
and offering only the currencies that have a rate."""

import datetime as dt
from decimal import Decimal

import pytest

from catalog.pricing import catalog_frame, currencies_with_rates
from tests.support.catalog import add_price, add_rate, make_tier

pytestmark = pytest.mark.django_db


@pytest.fixture
def tiers():
    add_price(make_tier("aws-c5"), "0.68", "2026-01-19")
    hetzner = make_tier("hetzner-auction", provider="Hetzner", kind="dedicated",
                        pricing_model="fixed_monthly", vcpus=8, ram_gib=Decimal(32))  # fmt: skip
    add_price(hetzner, "30", "2024-07-09", unit="month", currency="EUR")
    add_price(make_tier("yen-tier", provider="Sakura"), "100", "2026-01-01", currency="JPY")


def test_without_a_direct_rate_it_converts_through_the_euro_naming_both_rows(tiers):
    usd = add_rate("2026-01-19", "EUR", "USD", "1.25")
    gbp = add_rate("2026-01-20", "EUR", "GBP", "0.8")
    frame = catalog_frame(dt.date(2026, 2, 1), "GBP").set_index("slug")
    row = frame.loc["aws-c5"]
    assert row["fx_via"] == "EUR" and row["fx_rate_ids"] == [usd.pk, gbp.pk]
    assert row["fx_rate"] == pytest.approx(0.8 / 1.25)
    assert row["fx_date"] == dt.date(2026, 1, 19)  # the older of the two rows
    assert row["monthly_exact"] == Decimal("0.68") * 730 * (Decimal(1) / Decimal("1.25")) * (
        Decimal("0.8")
    )
    euro = frame.loc["hetzner-auction"]
    assert euro["fx_via"] is None and euro["fx_rate_ids"] == [gbp.pk]
    assert [d["slug"] for d in frame.attrs["dropped"]] == ["yen-tier"]


def test_a_direct_rate_wins_over_the_way_through_the_euro(tiers):
    add_rate("2026-01-19", "EUR", "USD", "1.25")
    add_rate("2026-01-19", "EUR", "GBP", "0.8")
    direct = add_rate("2026-01-10", "USD", "GBP", "0.7")
    row = catalog_frame(dt.date(2026, 2, 1), "GBP").set_index("slug").loc["aws-c5"]
    assert row["fx_via"] is None and row["fx_rate_ids"] == [direct.pk]
    assert row["fx_rate"] == pytest.approx(0.7)


def test_only_currencies_with_a_rate_on_or_before_the_date_are_offered(tiers, client):
    add_rate("2026-01-19", "EUR", "USD", "1.25")
    add_rate("2026-03-01", "EUR", "GBP", "0.8")
    assert currencies_with_rates(dt.date(2026, 2, 1)) == ["EUR", "USD"]
    page = client.get("/catalog/", {"as_of": "2026-02-01"}).content.decode()
    start = page.index('name="currency"')
    options = page[start : page.index("</select>", start)]
    assert 'value="USD"' in options and 'value="EUR"' in options
    assert 'value="GBP"' not in options and 'value="JPY"' not in options
    asked = client.get("/catalog/", {"as_of": "2026-02-01", "currency": "JPY"}).content.decode()
    assert 'value="JPY" selected' in asked  # a link naming another still shows what it drops
