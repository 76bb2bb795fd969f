"""The Azure Retail Prices importer: the genuine pages Z1-Z4 from ../shared/reference/feeds,
and a two-page fixture served by a local HTTP server, followed through NextPageLink."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from pathlib import Path

import pytest

from catalog.feeds.sync import sync_source
from catalog.models import FeedImport, Price, Tier
from common.messages import Message, plain
from tests.support.feeds import FIXTURES, catalog_state, sample

pytestmark = pytest.mark.django_db

Z1 = "azure/retail-eastus-Standard_D2s_v3-consumption.json"
Z2 = "azure/retail-eastus-Standard_D2s_v3-nofilter.json"
Z3 = "azure/retail-eastus-Standard_D2als_v7-consumption-or-reservation-preview.json"
Z4 = "azure/retail-northeurope-Standard_B1s-consumption.json"
PAGE1 = FIXTURES / "azure-westeurope-page1.json"
PAGE2 = FIXTURES / "azure-westeurope-page2.json"
PATH = "/api/retail/prices"
FILTER = "serviceName eq 'Virtual Machines' and armRegionName eq 'westeurope'"


def texts(result: FeedImport) -> list[str]:
    return [plain(Message.from_json(m)) for m in result.messages]


def prices() -> dict[str, tuple[Decimal, str, dt.date]]:
    return {
        p.tier.slug: (p.amount, p.unit, p.effective_from)
        for p in Price.objects.select_related("tier")
    }


def serve_pages(httpserver, first: bytes | None = None, second: bytes | None = None,
                second_status: int = 200) -> str:  # fmt: skip
    """Page 1 at the published path with the region filter, page 2 where page 1's
    NextPageLink points (rewritten from prices.azure.com to the local server)."""
    base = httpserver.url_for(PATH)
    one = (first or PAGE1.read_bytes()).replace(
        b"https://prices.azure.com/api/retail/prices", base.encode()
    )
    later = httpserver.expect_request(PATH, query_string={"$filter": FILTER, "$skip": "4"})
    later.respond_with_data(
        second or PAGE2.read_bytes(), status=second_status, content_type="application/json"
    )
    first = {"$filter": FILTER, "api-version": "2023-01-01-preview"}
    httpserver.expect_request(PATH, query_string=first).respond_with_data(
        one, content_type="application/json"
    )
    return base


# The genuine samples ---------------------------------------------------------------------


def test_z1_keeps_linux_on_demand_and_spot_with_the_sized_tables_specs():
    """Z1 (6 items, all Consumption): D2s v3 Linux 0.096 from 2017-12-15 and Linux Spot
    0.018816 from 2026-06-01 are kept; the two Windows rows and both Low Priority rows are
    not. Standard_D2s_v3 is in the sized table: 2 vCPUs, 8 GiB."""
    result = sync_source("azure", ["eastus"], file=sample(Z1))[0]
    assert (result.status, result.records, result.new_tiers) == ("imported", 2, 2)
    assert prices() == {
        "azure-standard-d2s-v3-eastus-on-demand": (Decimal("0.096"), "hour", dt.date(2017, 12, 15)),
        "azure-standard-d2s-v3-eastus-spot": (Decimal("0.018816"), "hour", dt.date(2026, 6, 1)),
    }
    tier = Tier.objects.get(slug="azure-standard-d2s-v3-eastus-on-demand")
    assert tier.provider.name == "Microsoft Azure"
    assert (tier.name, tier.region) == ("Standard_D2s_v3", "eastus")
    assert (tier.vcpus, tier.ram_gib, tier.pricing_model) == (2, Decimal("8"), "on_demand")
    price = tier.prices.get()
    assert (price.confirmed, price.vat_included) == (True, False)
    assert price.source_key == "ae331802-83a5-4b9e-b287-85675f794e3d/DZH318Z0BQ50/00VV"
    assert texts(result) == [
        "vCPUs and RAM of 1 size come from Microsoft Learn, VM size series pages "
        "(as of 2024-07-29)."
    ]


def test_z2_leaves_out_the_dev_test_price_list():
    """Z2 = Z1 plus three DevTestConsumption rows (0.019, 0.018816, 0.096 for Windows
    meters): the same two Linux tiers at the same prices as Z1."""
    result = sync_source("azure", ["eastus"], file=sample(Z2))[0]
    assert (result.status, result.new_tiers) == ("imported", 2)
    assert prices()["azure-standard-d2s-v3-eastus-on-demand"][0] == Decimal("0.096")
    assert prices()["azure-standard-d2s-v3-eastus-spot"][0] == Decimal("0.018816")


def test_z3_turns_a_reservations_term_price_into_an_hourly_price_and_its_term():
    """Z3: Linux D2als v7 0.0804/h and Spot 0.015598/h; reservations 416.0 for 1 year
    (416 / 8760 = 0.047489/h) and 803.0 for 3 years (803 / 26280 = 0.030556/h); the two
    Windows rows are left out. D2als v7's specs come from the sized table (Microsoft
    Learn's Dalsv7 page: 2 vCPUs, 4 GiB), said with the page's date."""
    result = sync_source("azure", ["eastus"], file=sample(Z3))[0]
    got = {slug: amount for slug, (amount, _, _) in prices().items() if "savings-plan" not in slug}
    assert (result.status, result.new_tiers - 2) == ("imported", 4)  # +2: savings plans
    assert got == {
        "azure-standard-d2als-v7-eastus-on-demand": Decimal("0.0804"),
        "azure-standard-d2als-v7-eastus-spot": Decimal("0.015598"),
        "azure-standard-d2als-v7-eastus-reserved-1y": Decimal("0.047489"),
        "azure-standard-d2als-v7-eastus-reserved-3y": Decimal("0.030556"),
    }
    three = Tier.objects.get(slug="azure-standard-d2als-v7-eastus-reserved-3y")
    assert (three.min_term_months, three.vcpus, three.ram_gib) == (36, 2, Decimal(4))
    assert texts(result) == [
        "vCPUs and RAM of 1 size come from Microsoft Learn, VM size series pages "
        "(as of 2026-01-21)."
    ]


def test_z4_a_north_europe_page_is_refused_for_another_region():
    """Z4: B1s in northeurope, Linux 0.0113 from 2025-10-01. Read as eastus, it is refused."""
    wrong = sync_source("azure", ["eastus"], file=sample(Z4))[0]
    assert wrong.status == "refused"
    assert texts(wrong) == ["This offer file is for northeurope, not for eastus."]
    right = sync_source("azure", ["northeurope"], file=sample(Z4))[0]
    assert right.status == "imported"
    assert prices() == {
        "azure-standard-b1s-northeurope-on-demand": (
            Decimal("0.0113"),
            "hour",
            dt.date(2025, 10, 1),
        )
    }


# The fixture, served page by page ---------------------------------------------------------


def test_the_published_url_is_followed_through_next_page_link(httpserver, settings):
    """Page 1: D2s v3 on demand 0.11 (and a closed 0.12 row, a Windows row), Spot 0.023;
    page 2: reservations 570 (1 year) and 1100 (3 years), a DevTest and a Low Priority row
    (left out), E2s v5 0.126 (not in the sized table)."""
    settings.CATALOG_FEED_AZURE_BASE_URL = serve_pages(httpserver)
    result = sync_source("azure", ["westeurope"])[0]
    assert (result.status, result.new_tiers, result.records) == ("imported", 5, 5)
    got = {slug: amount for slug, (amount, _, _) in prices().items()}
    assert got == {
        "azure-standard-d2s-v3-westeurope-on-demand": Decimal("0.11"),
        "azure-standard-d2s-v3-westeurope-spot": Decimal("0.023"),
        "azure-standard-d2s-v3-westeurope-reserved-1y": Decimal("0.065068"),  # 570 / 8760
        "azure-standard-d2s-v3-westeurope-reserved-3y": Decimal("0.041857"),  # 1100 / 26280
        "azure-standard-e2s-v5-westeurope-on-demand": Decimal("0.126"),
    }
    assert len(httpserver.log) == 2
    assert Price.objects.filter(source__startswith=httpserver.url_for(PATH)).count() == 5


def test_the_same_pages_again_change_nothing(httpserver, settings):
    settings.CATALOG_FEED_AZURE_BASE_URL = serve_pages(httpserver)
    sync_source("azure", ["westeurope"])
    again = sync_source("azure", ["westeurope"])[0]
    assert again.status == "unchanged"
    assert Price.objects.count() == 5


def test_an_http_error_on_page_two_refuses_the_region_and_changes_nothing(httpserver, settings):
    settings.CATALOG_FEED_AZURE_BASE_URL = serve_pages(httpserver)
    sync_source("azure", ["westeurope"])
    before = catalog_state()
    httpserver.clear()
    cheaper = PAGE1.read_bytes().replace(b'"retailPrice":0.11,', b'"retailPrice":0.10,')
    serve_pages(httpserver, first=cheaper, second=b"Forbidden", second_status=403)
    result = sync_source("azure", ["westeurope"])[0]
    assert result.status == "refused"
    assert texts(result)[0].startswith("The server answered HTTP 403 for ")
    assert catalog_state() == before


def test_a_malformed_page_refuses_the_region_and_changes_nothing(httpserver, settings):
    settings.CATALOG_FEED_AZURE_BASE_URL = serve_pages(httpserver, second=PAGE2.read_bytes()[:-40])
    result = sync_source("azure", ["westeurope"])[0]
    assert result.status == "refused"
    assert texts(result)[0].startswith("Not valid JSON near byte ")
    assert Tier.objects.count() == 0


def test_a_page_without_its_items_is_refused_as_a_changed_format(httpserver, settings):
    page = json.loads(PAGE2.read_bytes())
    page["items"] = page.pop("Items")
    settings.CATALOG_FEED_AZURE_BASE_URL = serve_pages(httpserver, second=json.dumps(page).encode())
    result = sync_source("azure", ["westeurope"])[0]
    assert result.status == "refused"
    assert texts(result) == [
        "The feed's format changed: required keys are missing: page 2: Items, NextPageLink."
    ]
    assert Tier.objects.count() == 0


def test_an_item_missing_a_required_key_refuses_the_file_naming_it(tmp_path):
    page = json.loads(PAGE2.read_bytes())
    del page["Items"][1]["retailPrice"]
    path = tmp_path / "page.json"
    path.write_text(json.dumps(page))
    result = sync_source("azure", ["westeurope"], file=path)[0]
    assert result.status == "refused"
    assert texts(result) == ["page 1, Items[1] lacks the required key retailPrice."]
    assert Tier.objects.count() == 0


def test_a_saved_page_that_links_to_more_pages_is_refused(tmp_path):
    result = sync_source("azure", ["westeurope"], file=PAGE1)[0]
    assert result.status == "refused"
    assert texts(result)[0].startswith("The file's last page links to a further page (")
    assert Tier.objects.count() == 0


def test_a_saved_array_of_both_pages_imports_like_the_download(tmp_path: Path):
    path = tmp_path / "pages.json"
    path.write_text(json.dumps([json.loads(PAGE1.read_bytes()), json.loads(PAGE2.read_bytes())]))
    result = sync_source("azure", ["westeurope"], file=path)[0]
    assert (result.status, result.new_tiers) == ("imported", 5)
