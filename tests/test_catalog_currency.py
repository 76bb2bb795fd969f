"""catalog_frame in one currency: the newest dated rate on or before as_of, none invented."""

import datetime as dt
from decimal import Decimal

import pytest

from catalog.pricing import FRAME_COLUMNS, FX_COLUMNS, catalog_frame
from tests.support.catalog import add_price, add_rate, make_tier

pytestmark = pytest.mark.django_db


@pytest.fixture
def tiers():
    add_price(make_tier("aws-c5"), "0.68", "2026-01-19")
    hetzner = make_tier(
        "hetzner-auction",
        provider="Hetzner",
        kind="dedicated",
        pricing_model="fixed_monthly",
        vcpus=8,
        ram_gib=Decimal(32),
    )
    add_price(hetzner, "30", "2024-07-09", unit="month", currency="EUR", setup_fee="10")
    add_price(make_tier("yen-tier", provider="Sakura"), "100", "2026-01-01", currency="JPY")


def by_slug(frame):
    return frame.set_index("slug")


def test_it_converts_at_the_newest_rate_on_or_before_the_date_not_a_later_one(tiers):
    add_rate("2024-07-09", "EUR", "USD", "1.0814")
    add_rate("2026-01-19", "EUR", "USD", "1.1631")
    add_rate("2026-03-01", "EUR", "USD", "2.0000")  # after as_of: must not be used
    frame = by_slug(catalog_frame(dt.date(2026, 2, 1), "USD"))
    row = frame.loc["hetzner-auction"]
    assert row["fx_rate"] == pytest.approx(1.1631)
    assert row["fx_date"] == dt.date(2026, 1, 19)
    assert row["currency"] == "USD"
    assert row["monthly_exact"] == Decimal("30") * Decimal("1.1631")
    assert row["monthly"] == 34.89
    assert row["setup_fee"] == 11.63
    assert row["per_vcpu_hour"] == pytest.approx(34.893 / 730 / 8)
    earlier = by_slug(catalog_frame(dt.date(2025, 1, 1), "USD")).loc["hetzner-auction"]
    assert earlier["fx_rate"] == pytest.approx(1.0814)
    assert earlier["monthly"] == 32.44


def test_a_tier_already_in_the_currency_keeps_its_amounts(tiers):
    add_rate("2026-01-19", "EUR", "USD", "1.1631")
    row = by_slug(catalog_frame(dt.date(2026, 2, 1), "USD")).loc["aws-c5"]
    assert row["fx_rate"] == 1.0
    assert row["fx_date"] is None
    assert row["monthly"] == 496.40


def test_a_tier_without_a_rate_is_left_out_and_named(tiers):
    add_rate("2026-01-19", "EUR", "USD", "1.1631")
    frame = catalog_frame(dt.date(2026, 2, 1), "USD")
    assert list(frame["slug"]) == ["aws-c5", "hetzner-auction"]
    assert frame.attrs["dropped"] == [
        {"slug": "yen-tier", "reason": "no JPY→USD rate on or before 2026-02-01"}
    ]
    assert list(frame.columns) == FRAME_COLUMNS + FX_COLUMNS
    # What pandas makes from the frame (a row, a column, a slice) shares the dropped lists,
    # not a deep copy of each: with 1,258 tiers dropped the catalog page's row-by-row work
    # copied their messages some 800 times, 12 s a request.
    for derived in (frame.iloc[0], frame["slug"], frame[["slug"]], frame.copy()):
        assert derived.attrs["dropped"] is frame.attrs["dropped"]
        assert derived.attrs["dropped_messages"] is frame.attrs["dropped_messages"]


def test_a_rate_dated_after_as_of_does_not_count(tiers):
    add_rate("2026-03-01", "EUR", "USD", "1.2")
    frame = catalog_frame(dt.date(2026, 2, 1), "USD")
    assert [d["slug"] for d in frame.attrs["dropped"]] == ["hetzner-auction", "yen-tier"]


def test_the_opposite_pairs_published_rate_converts_the_other_way(tiers):
    add_rate("2026-01-19", "EUR", "USD", "1.25")
    row = by_slug(catalog_frame(dt.date(2026, 2, 1), "EUR")).loc["aws-c5"]
    assert row["fx_rate"] == pytest.approx(0.8)
    assert row["monthly"] == 397.12
    assert row["currency"] == "EUR"
