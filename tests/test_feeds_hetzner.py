"""The Hetzner server-auction importer: the genuine flat sample H1, and the current nested
feed from a fixture served by a local HTTP server (prices falling, servers leaving)."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

import pytest

from catalog.feeds.sync import sync_source
from catalog.models import FeedImport, Price, Tier
from common.messages import Message, plain
from tests.support.catalog import add_price, make_tier
from tests.support.feeds import FIXTURES, catalog_state, sample

pytestmark = pytest.mark.django_db

H1 = "hetzner/sb-20240709-191830.json"
NESTED = FIXTURES / "hetzner-live-data-sb.json"
RYZEN = "hetzner-auction-2790001-fsn1-fixed-monthly"


def texts(result: FeedImport) -> list[str]:
    return [plain(Message.from_json(m)) for m in result.messages]


@pytest.fixture
def feed(httpserver, settings):
    """Serve a version of the nested fixture at the configured URL; returns a changer."""
    settings.CATALOG_FEED_HETZNER_URL = httpserver.url_for("/live_data_sb.json")

    def serve(change=None, body: bytes | None = None) -> None:
        document = json.loads(NESTED.read_bytes())
        if change:
            change(document)
        httpserver.clear()
        httpserver.expect_request("/live_data_sb.json").respond_with_data(
            body if body is not None else json.dumps(document), content_type="application/json"
        )

    return serve


@pytest.fixture
def today(monkeypatch):
    """The capture day of the nested feed is the day of the import."""
    day = {"value": dt.date(2026, 11, 30)}
    monkeypatch.setattr("catalog.feeds.hetzner.clock.today", lambda: day["value"])
    return day


def test_h1_each_auction_server_is_one_tier_at_its_monthly_price():
    """H1: 1258 servers, captured 2024-07-09 (next_reduce_timestamp 1720570012 less
    next_reduce 17328 = 2024-07-09 19:18:04 UTC). The first, id 2424913: Intel Core
    i7-6700, ram_size 32, hdd_hr 2 x "500 GB SSD", FSN1-DC8, price 30, setup_price 0,
    hourly_price 0.0481 (a month is capped at 30, not 0.0481 x 730 = 35.11)."""
    result = sync_source("hetzner", file=sample(H1))[0]
    assert (result.status, result.new_tiers, result.version) == (
        "imported",
        1258,
        "2024-07-09T19:18:04Z",
    )
    tier = Tier.objects.get(slug="hetzner-auction-2424913-fsn1-fixed-monthly")
    assert tier.name == "#2424913 Intel Core i7-6700, 32 GB, 2 x 500 GB SSD (FSN1-DC8)"
    assert (tier.region, tier.kind, tier.pricing_model) == ("FSN1", "dedicated", "fixed_monthly")
    assert (tier.cpu_model, tier.ram_gib, tier.storage_gib) == (
        "Intel Core i7-6700",
        Decimal("32"),
        Decimal("931.32"),  # 1000 GB in GiB
    )
    assert (tier.vcpus, tier.gpus) == (None, 0)  # threads are not in the feed: unknown
    price = tier.prices.get()
    assert (price.amount, price.unit, price.currency, price.setup_fee) == (
        Decimal("30"),
        "month",
        "EUR",
        Decimal("0"),
    )
    assert (price.effective_from, price.vat_included, price.source_key) == (
        dt.date(2024, 7, 9),
        False,
        "2424913",
    )
    assert texts(result)[0].startswith("Hetzner auction prices are monthly prices in EUR before")


def test_the_nested_feed_imports_each_server_with_its_setup_fee(feed, today):
    feed()
    result = sync_source("hetzner")[0]
    assert (result.status, result.new_tiers) == ("imported", 3)
    xeon = Tier.objects.get(slug="hetzner-auction-2790003-nbg1-fixed-monthly")
    assert xeon.ram_gib == Decimal("256")  # 8 x 32768 MB
    assert xeon.storage_type == "2 x 480 GB SSD SATA"
    assert xeon.gpus is None  # the nested feed says nothing about GPUs
    price = xeon.prices.get()
    assert (price.amount, price.setup_fee, price.effective_from) == (
        Decimal("49"),
        Decimal("19"),
        dt.date(2026, 11, 30),
    )
    mixed = Tier.objects.get(slug="hetzner-auction-2790002-hel1-fixed-monthly")
    assert mixed.storage_type == "2 x 4 TB HDD SATA, 1 x 480 GB SSD SATA"
    assert mixed.storage_gib == Decimal("7897.62")  # 8480 GB = 8480e9 / 2**30 GiB


def test_a_price_that_falls_the_next_day_adds_a_row_and_keeps_the_old(feed, today):
    feed()
    sync_source("hetzner")
    today["value"] = dt.date(2026, 12, 1)
    feed(lambda d: d["server"][0]["Prices"]["monthly"].update(EUR=37.5))
    result = sync_source("hetzner")[0]
    assert (result.changed_prices, result.unchanged) == (1, 2)
    rows = list(Price.objects.filter(tier__slug=RYZEN).values_list("effective_from", "amount"))
    assert sorted(rows) == [
        (dt.date(2026, 11, 30), Decimal("39")),
        (dt.date(2026, 12, 1), Decimal("37.5")),
    ]


def test_a_second_change_on_the_same_day_waits_and_is_reported(feed, today, monkeypatch):
    # One snapshot's moment for both syncs: the nested feed carries none, so each sync's
    # version would be its own second, and a later snapshot of the day supersedes (a
    # machine slow enough to put the two syncs in different seconds made this a flake).
    moment = dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC)
    monkeypatch.setattr("catalog.feeds.hetzner._captured", lambda servers: moment)
    feed()
    sync_source("hetzner")
    feed(lambda d: d["server"][0]["Prices"]["monthly"].update(EUR=37.5))
    result = sync_source("hetzner")[0]
    assert (result.status, result.changed_prices, result.refused_rows) == ("imported", 0, 1)
    assert texts(result)[1].startswith(f"{RYZEN} already has the price 39")
    assert (
        "from 2026-11-30; the feed's 37.50 EUR for the same day is not recorded" in texts(result)[1]
    )
    assert Price.objects.get(tier__slug=RYZEN).amount == Decimal("39")


def test_a_server_that_left_the_auction_is_retired_not_deleted(feed, today, settings):
    settings.CATALOG_FEED_MAX_DROP = 0.5
    hand = make_tier("hetzner-ax41-fsn1-fixed-monthly", provider="Hetzner", region="FSN1")
    add_price(hand, "39", "2026-01-01")
    feed()
    sync_source("hetzner")
    today["value"] = dt.date(2026, 12, 1)
    feed(lambda d: d["server"].pop(0))
    result = sync_source("hetzner")[0]
    assert result.retired == 1
    assert Tier.objects.get(slug=RYZEN).retired is True
    assert Tier.objects.get(slug=hand.slug).retired is False  # hand-entered, not the feed's


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (b'{"server": [{"Id": 1,', "Not valid JSON near byte"),
        (b'{"servers": []}', "The feed's format changed: required keys are missing: server."),
        (b'{"server": [{"Id": 7, "Hardware": {"CPU": "x"}, "Prices": {}, "Details": '
         b'{"Datacenter": "FSN1-DC1"}}]}', "server[0] lacks the required key Prices.monthly.EUR."),
        (b'{"server": [{"Id": 7, "Hardware": {"CPU": "x"}, "Prices": {"monthly": {"EUR": '
         b'"NaN"}}, "Details": {"Datacenter": "FSN1-DC1"}}]}', "server[0], price: NaN is not"),
    ],
)  # fmt: skip
def test_a_damaged_feed_is_refused_whole_and_nothing_changes(feed, today, body, reason):
    feed()
    sync_source("hetzner")
    before = catalog_state()
    feed(body=body)
    result = sync_source("hetzner")[0]
    assert result.status == "refused"
    assert texts(result)[0].startswith(reason)
    assert catalog_state() == before


def test_an_http_error_is_refused_and_nothing_changes(httpserver, settings):
    settings.CATALOG_FEED_HETZNER_URL = httpserver.url_for("/live_data_sb.json")
    httpserver.expect_request("/live_data_sb.json").respond_with_data("gone", status=404)
    result = sync_source("hetzner")[0]
    assert result.status == "refused"
    assert texts(result)[0].startswith("The server answered HTTP 404 for ")
    assert Tier.objects.count() == 0
