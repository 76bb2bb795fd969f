"""The OVHcloud public order catalogue (eco): the genuine excerpt O1, and a small catalogue in
the same shape served by a local HTTP server, with its failure cases."""

from __future__ import annotations

import copy
import json
from decimal import Decimal

import pytest

from catalog.feeds.sync import sync_source
from catalog.models import FeedImport, Tier
from common.django import clock
from common.messages import Message, plain
from tests.support.feeds import catalog_state, sample

pytestmark = pytest.mark.django_db

O1 = "ovh/eco-FR-catalog8294-20250513-excerpt.json"


def texts(result: FeedImport) -> list[str]:
    return [plain(Message.from_json(m)) for m in result.messages]


def pricing(capacity: str, mode: str, price: int, commitment: int = 0, interval: int = 1):
    return {"capacities": [capacity], "mode": mode, "commitment": commitment,
            "interval": interval if capacity == "renew" else 0,
            "intervalUnit": "month" if capacity == "renew" else "none", "price": price,
            "tax": price // 5, "promotions": []}  # fmt: skip


def small_catalogue() -> dict:
    """One plan (KS-1, 10.99 a month, set-up 10.99; 9.99 with a 12-month commitment) and
    its mandatory memory add-on (32 GB, 2.00 a month in both modes)."""
    return {
        "catalogId": 9001,
        "locale": {"currencyCode": "EUR", "subsidiary": "FR", "taxRate": 20},
        "plans": [{
            "planCode": "24sk10", "product": "24sk10", "invoiceName": "KS-1 | Intel Xeon-D 1520",
            "addonFamilies": [{"name": "memory", "addons": ["ram-32g-24sk10"],
                               "default": "ram-32g-24sk10", "mandatory": True}],
            "pricings": [pricing("installation", "default", 1099000000),
                         pricing("renew", "default", 1099000000),
                         pricing("installation", "degressivity12", 0),
                         pricing("renew", "degressivity12", 999000000, 12)],
        }],
        "products": [
            {"name": "24sk10", "blobs": {"technical": {"server": {"cpu": {
                "brand": "Intel", "model": "Xeon-D 1520", "cores": 4, "threads": 8}}}}},
            {"name": "ram-32g", "blobs": {"technical": {"memory": {"size": 32}}}},
        ],
        "addons": [{"planCode": "ram-32g-24sk10", "product": "ram-32g", "pricings": [
            pricing("installation", "default", 0), pricing("renew", "default", 200000000),
            pricing("installation", "degressivity12", 0),
            pricing("renew", "degressivity12", 200000000, 12)]}],
        "planFamilies": [],
    }  # fmt: skip


@pytest.fixture
def serve(httpserver, settings):
    settings.CATALOG_FEED_OVH_BASE_URL = httpserver.url_for("/v1/order/catalog/public/eco")
    settings.CATALOG_FEED_ATTEMPTS = 1  # a 503 is not retried here

    def respond(document=None, body: bytes | None = None, status: int = 200) -> None:
        httpserver.clear()
        httpserver.expect_request(
            "/v1/order/catalog/public/eco", query_string={"ovhSubsidiary": "FR"}
        ).respond_with_data(
            body if body is not None else json.dumps(document or small_catalogue()),
            status=status, content_type="application/json",
        )  # fmt: skip

    return respond


def test_o1_each_plan_with_its_default_add_ons_in_each_mode_is_a_tier():
    """O1, catalogId 8294: 33 plans; 11 (RISE…) offer 4 commitment/upfront modes besides
    the default, 22 (KS, SYS…) offer 6: 33 + 11 x 4 + 22 x 6 = 209 tiers. RISE-1 (24rise01):
    renew 5699000000 = 56.99 EUR a month, installation 56.99; degressivity12 5414000000 =
    54.14 with 12 months' commitment; upfront12 61549000000 = 615.49 for 12 months = 51.290833
    a month; default add-ons ram-32g-ecc-3200, softraid-2x512nvme, bandwidth, vRack all 0;
    CPU Intel Xeon-E 2386G, 6 cores, 12 threads."""
    result = sync_source("ovh", file=sample(O1))[0]
    assert (result.status, result.new_tiers, result.version) == ("imported", 209, "8294")
    rise = Tier.objects.get(slug="ovh-24rise01-fr-fixed-monthly")
    assert (rise.name, rise.provider.name, rise.kind) == (
        "RISE-1 | Intel Xeon-E 2386G",
        "OVHcloud",
        "dedicated",
    )
    assert (rise.cpu_model, rise.cores, rise.vcpus, rise.ram_gib) == (
        "Intel Xeon-E 2386G",
        6,
        12,
        Decimal("32"),
    )
    assert rise.storage_type == "2 x 512 GB SSD NVMe"
    price = rise.prices.get()
    assert (price.amount, price.unit, price.currency, price.setup_fee, price.vat_included) == (
        Decimal("56.99"),
        "month",
        "EUR",
        Decimal("56.99"),
        False,
    )
    committed = Tier.objects.get(slug="ovh-24rise01-fr-12m-commitment-fixed-monthly")
    assert (committed.min_term_months, committed.prices.get().amount) == (12, Decimal("54.14"))
    upfront = Tier.objects.get(slug="ovh-24rise01-fr-12m-upfront-fixed-monthly")
    assert (upfront.min_term_months, upfront.prices.get().amount) == (12, Decimal("51.290833"))


def test_the_published_url_of_the_subsidiary_is_read_and_add_ons_add_up(serve):
    serve()
    result = sync_source("ovh")[0]
    assert (result.status, result.new_tiers) == ("imported", 2)
    plain_tier = Tier.objects.get(slug="ovh-24sk10-fr-fixed-monthly")
    price = plain_tier.prices.get()
    assert (price.amount, price.setup_fee, price.effective_from) == (
        Decimal("12.99"),
        Decimal("10.99"),
        clock.today(),
    )
    assert price.source_key == "24sk10.default"
    committed = Tier.objects.get(slug="ovh-24sk10-fr-12m-commitment-fixed-monthly")
    assert committed.prices.get().amount == Decimal("11.99")
    assert (committed.min_term_months, committed.vcpus, committed.ram_gib) == (12, 8, 32)


def test_a_plan_that_left_the_catalogue_is_retired(serve, settings):
    settings.CATALOG_FEED_MAX_DROP = 0.5  # two tiers become one
    serve()
    sync_source("ovh")
    fewer = small_catalogue()
    fewer["plans"][0]["pricings"] = fewer["plans"][0]["pricings"][:2]  # no commitment any more
    serve(fewer)
    result = sync_source("ovh")[0]
    assert (result.status, result.retired, result.unchanged) == ("imported", 1, 1)
    assert Tier.objects.get(slug="ovh-24sk10-fr-12m-commitment-fixed-monthly").retired


def broken(change):
    document = copy.deepcopy(small_catalogue())
    change(document)
    return document


@pytest.mark.parametrize(
    ("document", "body", "reason"),
    [
        (None, b'{"catalogId": 1, "plans": [', "Not valid JSON near byte"),
        (broken(lambda d: d.pop("addons")), None,
         "The feed's format changed: required keys are missing: addons."),
        (broken(lambda d: d["addons"].clear()), None,
         "plans[0] memory lacks the required key addons.ram-32g-24sk10."),
        (broken(lambda d: d["plans"][0]["pricings"][1].update(price="12.5")), None,
         "plans[0] 24sk10, price: 12.5 is not a value this feed may hold."),
        (broken(lambda d: d["locale"].update(subsidiary="DE")), None,
         "This offer file is for DE, not for FR."),
    ],
)  # fmt: skip
def test_a_damaged_catalogue_is_refused_whole_and_nothing_changes(serve, document, body, reason):
    serve()
    sync_source("ovh")
    before = catalog_state()
    serve(document, body)
    result = sync_source("ovh")[0]
    assert result.status == "refused"
    assert texts(result)[0].startswith(reason)
    assert catalog_state() == before


def test_an_http_error_is_refused_and_nothing_changes(serve):
    serve(body=b"<html>maintenance</html>", status=503)
    result = sync_source("ovh")[0]
    assert result.status == "refused"
    assert texts(result) == [f"The download of {result.url} failed after 1 attempts: HTTP 503"]
    assert Tier.objects.count() == 0
