"""Same-day re-syncs (issue 28): a newer snapshot of the same day supersedes the earlier
one's prices, keyed on the feed's own timestamp (Hetzner's capture moment, OVH's
catalogId); an older one changes nothing. Files derived from H1 and O1 at test time."""

from __future__ import annotations

import json

import pytest

from catalog.feeds.registry import get_source
from catalog.feeds.sync import sync_source
from catalog.models import FeedImport, Price
from common.messages import Message, plain
from tests.support.feeds import derive_json, sample

pytestmark = pytest.mark.django_db

H1 = "hetzner/sb-20240709-191830.json"
O1 = "ovh/eco-FR-catalog8294-20250513-excerpt.json"


def texts(result: FeedImport) -> list[str]:
    return [plain(Message.from_json(m)) for m in result.messages]


def an_hour_earlier_and_dearer(document):
    """H1 as captured an hour before (every timer an hour longer), 29 servers 5 EUR dearer
    (their price was cut within the hour)."""
    for index, server in enumerate(document):
        server["next_reduce"] += 3600
        if index < 29:
            server["price"] += 5


def test_a_later_hetzner_snapshot_the_same_day_supersedes_the_earlier_prices(tmp_path):
    earlier = sync_source("hetzner", file=derive_json(tmp_path, H1, an_hour_earlier_and_dearer))[0]
    assert earlier.status == "imported" and earlier.version == "2024-07-09T18:18:04Z"
    later = sync_source("hetzner", file=sample(H1))[0]
    assert (later.status, later.refused_rows, later.changed_prices) == ("imported", 0, 29)
    assert later.version == "2024-07-09T19:18:04Z"
    assert any("29 prices of this day from an earlier snapshot" in t for t in texts(later))
    assert Price.objects.count() == 1258  # one row per server and day, the newest
    first = Price.objects.get(tier__slug__startswith=f"hetzner-auction-{_first_id()}-")
    assert first.source_version == "2024-07-09T19:18:04Z"


def _first_id() -> int:
    return json.loads(sample(H1).read_text())[0]["id"]


def test_an_earlier_hetzner_snapshot_read_after_a_later_one_changes_nothing(tmp_path):
    sync_source("hetzner", file=sample(H1))
    before = list(Price.objects.order_by("id").values_list("amount", "source_version"))
    earlier = sync_source("hetzner", file=derive_json(tmp_path, H1, an_hour_earlier_and_dearer))[0]
    assert (earlier.status, earlier.refused_rows, earlier.changed_prices) == ("imported", 29, 0)
    assert list(Price.objects.order_by("id").values_list("amount", "source_version")) == before


def test_three_ovh_catalogue_versions_on_one_day_end_at_the_newest(tmp_path):
    """catalogIds 8292, 8293, 8294 read the same day, each changing every plan's price:
    no row refused, the day's rows hold 8294's (the genuine O1) prices."""

    def version(catalog_id: int, extra: int):
        def change(document):
            document["catalogId"] = catalog_id
            for plan in document["plans"]:
                for pricing in plan["pricings"]:
                    if "renew" in pricing["capacities"] and pricing["price"]:
                        pricing["price"] += extra * 100_000_000 * pricing.get("interval", 1)

        return change

    for catalog_id, extra in ((8292, 2), (8293, 1)):
        folder = tmp_path / str(catalog_id)
        folder.mkdir()
        result = sync_source(
            "ovh", ["FR"], file=derive_json(folder, O1, version(catalog_id, extra))
        )[0]
        assert (result.status, result.refused_rows) == ("imported", 0), texts(result)
    newest = sync_source("ovh", ["FR"], file=sample(O1))[0]
    assert (newest.status, newest.refused_rows, newest.new_tiers) == ("imported", 0, 0)
    assert newest.changed_prices == newest.records
    assert set(Price.objects.values_list("source_version", flat=True)) == {"8294"}
    offered = {p.slug: p.amount for p in get_source("ovh").read(sample(O1), "FR").records}
    stored = dict(Price.objects.values_list("tier__slug", "amount"))
    assert stored == offered and len(stored) == newest.records
