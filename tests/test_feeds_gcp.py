"""GCP Compute Engine from the Cloud Billing Catalog: the trimmed real response G from
../shared/reference/feeds/gcp/ (OnDemand only: A2 and the A100 GPU in USD, E2 and T2D in
IDR), followed through its nextPageToken; Spot and committed use on a fixture GENERATED here
in the README's layout (its prices are made up for the test, not Google's)."""

from __future__ import annotations

import csv
import datetime as dt
import json
from decimal import Decimal
from pathlib import Path

import pytest

from catalog.feeds import gcp_shapes
from catalog.feeds.sync import sync_source
from catalog.models import ExchangeRate, FeedImport, Tier
from common.messages import Message, plain
from tests.support.feeds import catalog_state, sample

pytestmark = pytest.mark.django_db

G = "gcp/gcp_compute_engine_skus_opencost_fixture.json"
E4 = "ecb/eurofxref-hist-20260413.csv"
LAST_PAGE = {"skus": []}  # GENERATED: the empty last page the trimmed sample's token leads to


@pytest.fixture(autouse=True)
def downloads(settings, tmp_path):
    settings.CATALOG_FEED_BACKOFF_SECONDS = 0
    settings.CATALOG_FEED_DIR = tmp_path / "downloads"


def texts(result: FeedImport) -> list[str]:
    return [plain(Message.from_json(m)) for m in result.messages]


def ecb_rates(*days: str) -> None:
    """The ECB's USD and IDR reference rates of `days`, as the history file E4 has them."""
    with sample(E4).open(newline="") as file:
        for row in csv.DictReader(file):
            if row["Date"] in days:
                for currency in ("USD", "IDR"):
                    ExchangeRate.objects.create(
                        date=dt.date.fromisoformat(row["Date"]), from_currency="EUR",
                        to_currency=currency, rate=Decimal(row[currency]),
                        source="ECB eurofxref-hist.csv (E4)",
                    )  # fmt: skip


def saved(tmp_path: Path, *pages: dict) -> Path:
    """Pages one compact JSON document a line: the form `fetch` saves."""
    path = tmp_path / "gcp-pages.jsonl"
    path.write_text("".join(json.dumps(page) + "\n" for page in pages))
    return path


def real_pages(tmp_path: Path, change=None) -> Path:
    page = json.loads(sample(G).read_text())
    if change:
        change(page)
    return saved(tmp_path, page, LAST_PAGE)


def amounts(region: str) -> dict[str, Decimal]:
    return {
        tier.slug: tier.prices.get().amount
        for tier in Tier.objects.filter(provider__name="Google Cloud", region=region)
    }


# The real sample: on-demand ------------------------------------------------------------------


def test_a2_machine_types_are_priced_from_the_core_ram_and_gpu_skus_in_usd(tmp_path):
    ecb_rates("2023-08-09")
    result = sync_source("gcp", ["us-central1"], file=real_pages(tmp_path))[0]
    assert result.status == FeedImport.Status.IMPORTED, texts(result)
    got = amounts("us-central1")
    # a2-highgpu-1g: 12 x 0.031611 (A2 Instance Core) + 85 GiB x 0.004237 (A2 Instance Ram)
    # + 1 x 2.933908 (Nvidia Tesla A100 GPU) = 3.673385 USD/h
    assert got["gcp-a2-highgpu-1g-us-central1-on-demand"] == Decimal("3.673385")
    assert got["gcp-a2-highgpu-8g-us-central1-on-demand"] == Decimal("29.387080")
    tier = Tier.objects.get(slug="gcp-a2-highgpu-1g-us-central1-on-demand")
    assert (tier.kind, tier.vcpus, tier.ram_gib, tier.gpus, tier.gpu_model) == (
        "cloud_gpu", 12, Decimal("85.00"), 1, "A100",
    )  # fmt: skip
    price = tier.prices.get()
    assert (price.currency, price.effective_from) == ("USD", dt.date(2023, 3, 24))
    assert price.source_key == "2922-40C5-B19F+2390-DCAF-DA38+039F-D0DA-4055"
    assert not any("t2d" in slug for slug in got)  # T2D is sold in Singapore only


def test_idr_prices_are_converted_to_usd_at_the_ecb_rate_of_their_date(tmp_path):
    """E2 in IDR from 2023-08-09: 2 x 327.173848364 + 8 GiB x 43.852949780 = 1005.171294968
    IDR/h; ECB 2023-08-09: 1 EUR = 1.0968 USD = 16661.91 IDR → 0.066167 USD/h."""
    ecb_rates("2023-08-09")
    result = sync_source("gcp", ["us-central1"], file=real_pages(tmp_path))[0]
    got = amounts("us-central1")
    assert got["gcp-e2-standard-2-us-central1-on-demand"] == Decimal("0.066167")
    price = Tier.objects.get(slug="gcp-e2-standard-2-us-central1-on-demand").prices.get()
    assert (price.currency, price.effective_from) == ("USD", dt.date(2023, 8, 9))
    assert "IDR" in price.source_key
    assert any("16661.91" in t and "1.0968" in t for t in texts(result)), texts(result)


def test_t2d_in_singapore_uses_the_rates_of_its_own_date(tmp_path):
    """T2D from 2023-08-10: 4 x 508.934997455 + 16 x 68.204999658 = 3127.019984348 IDR/h;
    ECB 2023-08-10: 1.1019 USD, 16720.23 IDR → 0.206078 USD/h."""
    ecb_rates("2023-08-10")
    result = sync_source("gcp", ["asia-southeast1"], file=real_pages(tmp_path))[0]
    assert result.status == FeedImport.Status.IMPORTED, texts(result)
    got = amounts("asia-southeast1")
    assert got["gcp-t2d-standard-4-asia-southeast1-on-demand"] == Decimal("0.206078")
    assert len(got) == 8  # the eight T2D shapes of the table


def test_without_an_ecb_rate_the_file_is_refused_and_nothing_changes(tmp_path):
    before = catalog_state()
    result = sync_source("gcp", ["us-central1"], file=real_pages(tmp_path))[0]
    assert result.status == FeedImport.Status.REFUSED
    assert "No ECB reference rate for IDR" in " ".join(texts(result))
    assert catalog_state() == before


def test_sync_follows_the_next_page_token(httpserver, settings):
    ecb_rates("2023-08-09")
    settings.CATALOG_FEED_GCP_BASE_URL = httpserver.url_for("/skus")
    page = json.loads(sample(G).read_text())
    httpserver.expect_request(
        "/skus", query_string={"currencyCode": "USD", "pageSize": "5000",
                               "pageToken": page["nextPageToken"]},
    ).respond_with_json(LAST_PAGE)  # fmt: skip
    httpserver.expect_request(
        "/skus", query_string={"currencyCode": "USD", "pageSize": "5000"}
    ).respond_with_data(sample(G).read_bytes(), content_type="application/json")
    (result,) = sync_source("gcp", ["us-central1"])
    assert result.status == FeedImport.Status.IMPORTED, texts(result)
    assert "gcp-e2-standard-2-us-central1-on-demand" in amounts("us-central1")


# Drift: refused, nothing changed ----------------------------------------------------------------


def rename_pricing_info(page):
    page["skus"][2]["pricing_info"] = page["skus"][2].pop("pricingInfo")


def drop_nanos(page):
    del page["skus"][5]["pricingInfo"][0]["pricingExpression"]["tieredRates"][0]["unitPrice"][
        "nanos"
    ]


def change_unit(page):
    page["skus"][1]["pricingInfo"][0]["pricingExpression"]["usageUnit"] = "GBy.h"


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (rename_pricing_info, "skus[2] lacks the required key"),
        (drop_nanos, "currencyCode, units, nanos"),
        (change_unit, "GBy.h"),
    ],
)
def test_a_drifted_sku_refuses_the_file_and_changes_nothing(tmp_path, change, said):
    ecb_rates("2023-08-09")
    before = catalog_state()
    result = sync_source("gcp", ["us-central1"], file=real_pages(tmp_path, change))[0]
    assert result.status == FeedImport.Status.REFUSED
    assert said in " ".join(texts(result)), texts(result)
    assert catalog_state() == before


def test_a_truncated_page_or_a_missing_last_page_is_refused(tmp_path):
    ecb_rates("2023-08-09")
    before = catalog_state()
    alone = sync_source("gcp", ["us-central1"], file=sample(G))[0]  # its token leads nowhere
    assert alone.status == FeedImport.Status.REFUSED
    assert "nextPageToken" in " ".join(texts(alone))
    text = real_pages(tmp_path).read_bytes()
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(text[: len(text) // 2])
    result = sync_source("gcp", ["us-central1"], file=cut)[0]
    assert result.status == FeedImport.Status.REFUSED
    assert "Not valid JSON" in " ".join(texts(result))
    assert catalog_state() == before


# GENERATED: Spot and committed use, by the same code ------------------------------------------


def generated_sku(sku_id: str, description: str, group: str, usage: str, unit: str,
                  units: str, nanos: int) -> dict:  # fmt: skip
    """A SKU in the README's layout. GENERATED: the prices are made up for the test."""
    return {
        "name": f"services/6F81-5844-456A/skus/{sku_id}", "skuId": sku_id,
        "description": description,
        "category": {"serviceDisplayName": "Compute Engine", "resourceFamily": "Compute",
                     "resourceGroup": group, "usageType": usage},
        "serviceRegions": ["us-central1", "us-east1"],
        "pricingInfo": [{"summary": "", "pricingExpression": {
            "usageUnit": unit, "displayQuantity": 1,
            "tieredRates": [{"startUsageAmount": 0, "unitPrice": {
                "currencyCode": "USD", "units": units, "nanos": nanos}}]},
            "currencyConversionRate": 1, "effectiveTime": "2026-11-01T08:00:00Z"}],
        "serviceProviderName": "Google",
    }  # fmt: skip


# (usage type, description with {} for the resource, (core word, RAM word), core and RAM
# prices in nanos of USD): GENERATED, made up for the test.
E2_RATES = [
    ("OnDemand", "E2 Instance {} running in Americas", ("Core", "Ram"), 21000000, 2800000),
    ("Preemptible", "Spot Preemptible E2 Instance {} running in Americas", ("Core", "Ram"),
     6300000, 840000),
    ("Commit1Yr", "Commitment v1: E2 {} in Americas for 1 Year", ("Cpu", "Ram"),
     13230000, 1764000),
    ("Commit3Yr", "Commitment v1: E2 {} in Americas for 3 Year", ("Cpu", "Ram"),
     9450000, 1260000),
]  # fmt: skip
GENERATED = {
    "skus": [
        generated_sku(f"GEN0-{n:04d}-{r}", text.format(words[r]), ("CPU", "RAM")[r], usage,
                      ("h", "GiBy.h")[r], "0", (core, ram)[r])
        for n, (usage, text, words, core, ram) in enumerate(E2_RATES)
        for r in (0, 1)
    ]
    # a custom shape's core, not a predefined type's rate: ignored
    + [generated_sku("GEN0-9999-0", "E2 Custom Instance Core running in Americas", "CPU",
                     "OnDemand", "h", "1", 0)]
}  # fmt: skip


def test_spot_and_committed_use_prices_come_from_their_usage_types(tmp_path):
    result = sync_source("gcp", ["us-central1"], file=saved(tmp_path, GENERATED))[0]
    assert result.status == FeedImport.Status.IMPORTED, texts(result)
    got = amounts("us-central1")
    # e2-standard-2 = 2 vCPUs x core + 8 GiB x RAM, per usage type (the custom core ignored)
    assert got["gcp-e2-standard-2-us-central1-on-demand"] == Decimal("0.064400")
    assert got["gcp-e2-standard-2-us-central1-spot"] == Decimal("0.019320")
    assert got["gcp-e2-standard-2-us-central1-committed-use-1y"] == Decimal("0.040572")
    assert got["gcp-e2-standard-2-us-central1-committed-use-3y"] == Decimal("0.028980")
    one = Tier.objects.get(slug="gcp-e2-standard-2-us-central1-committed-use-1y")
    three = Tier.objects.get(slug="gcp-e2-standard-2-us-central1-committed-use-3y")
    assert (one.pricing_model, one.min_term_months) == ("committed_use_1y", 12)
    assert (three.pricing_model, three.min_term_months) == ("committed_use_3y", 36)
    assert one.prices.get().setup_fee == 0
    e2 = [s for s in gcp_shapes.shapes().values() if s.family == "e2"]
    assert len(got) == 4 * len(e2)


def test_a_family_with_a_core_but_no_ram_price_is_left_out_and_said(tmp_path):
    page = {"skus": [sku for sku in GENERATED["skus"] if sku["skuId"] != "GEN0-0001-1"]}
    result = sync_source("gcp", ["us-central1"], file=saved(tmp_path, page))[0]
    assert result.status == FeedImport.Status.IMPORTED
    assert not any(slug.endswith("-spot") for slug in amounts("us-central1"))
    assert any("lack a per-vCPU or per-GiB price" in t for t in texts(result))


def test_the_shape_table_names_its_source_and_refreshes_from_the_apis_machine_types(tmp_path):
    table = tmp_path / "shapes.csv"
    table.write_text(gcp_shapes.TABLE.read_text())
    assert "cloud.google.com/compute/docs/general-purpose-machines" in table.read_text()
    listing = tmp_path / "machine-types.json"
    listing.write_text(json.dumps([
        {"name": "e2-standard-2", "guestCpus": 2, "memoryMb": 8192, "zone": "us-central1-a"},
        {"name": "e2-standard-2", "guestCpus": 2, "memoryMb": 8192, "zone": "us-central1-b"},
        {"name": "a2-highgpu-1g", "guestCpus": 12, "memoryMb": 87040, "accelerators": [
            {"guestAcceleratorType": "nvidia-tesla-a100", "guestAcceleratorCount": 1}]},
        {"name": "m1-megamem-96", "guestCpus": 96, "memoryMb": 1468006},
    ]))  # fmt: skip
    assert gcp_shapes.refresh(listing, dt.date(2026, 12, 3), table) == 2
    shapes = gcp_shapes.shapes(table)
    assert shapes["a2-highgpu-1g"].ram_gib == Decimal(85)
    assert (shapes["a2-highgpu-1g"].gpus, shapes["a2-highgpu-1g"].gpu_model) == (1, "A100")
    assert set(shapes) == {"e2-standard-2", "a2-highgpu-1g"}
    assert table.read_text().startswith("# GCP Compute Engine predefined machine types")
    listing.write_text(json.dumps([{"name": "e2-standard-4", "guestCpus": 4}]))
    with pytest.raises(gcp_shapes.RefreshError, match="memoryMb"):
        gcp_shapes.refresh(listing, dt.date(2026, 12, 3), table)
    assert set(gcp_shapes.shapes(table)) == {"e2-standard-2", "a2-highgpu-1g"}


def test_the_api_key_is_sent_but_never_stored(httpserver, settings):
    ecb_rates("2023-08-09")
    settings.CATALOG_FEED_GCP_BASE_URL = httpserver.url_for("/skus")
    settings.CATALOG_FEED_GCP_API_KEY = "test-key-not-secret"
    page = json.loads(sample(G).read_text())
    first = {"currencyCode": "USD", "pageSize": "5000", "key": "test-key-not-secret"}
    httpserver.expect_request(
        "/skus", query_string={**first, "pageToken": page["nextPageToken"]}
    ).respond_with_json(LAST_PAGE)
    httpserver.expect_request("/skus", query_string=first).respond_with_data(
        sample(G).read_bytes(), content_type="application/json"
    )
    (result,) = sync_source("gcp", ["us-central1"])
    assert result.status == FeedImport.Status.IMPORTED, texts(result)
    price = Tier.objects.get(slug="gcp-e2-standard-2-us-central1-on-demand").prices.get()
    assert "test-key" not in result.url + price.source + price.source_url
    httpserver.clear()
    httpserver.expect_request("/skus").respond_with_data("no", status=403)
    (refused,) = sync_source("gcp", ["us-central1"])
    assert refused.status == FeedImport.Status.REFUSED
    assert "403" in " ".join(texts(refused))
    assert "test-key" not in json.dumps(refused.messages) + refused.url


def test_the_command_imports_the_sample_with_its_exact_rates(tmp_path):
    """Issue 27's "Done when": `sync_prices gcp --file …` imports the real sample, as
    `sync_prices aws-savings-plans --file …` does (tests/test_feeds_aws_savings_plans.py)."""
    from io import StringIO

    from django.core.management import call_command

    ecb_rates("2023-08-09")
    out = StringIO()
    call_command("sync_prices", "gcp", "--region", "us-central1",
                 "--file", str(real_pages(tmp_path)), stdout=out)  # fmt: skip
    assert "gcp us-central1: imported" in out.getvalue(), out.getvalue()
    got = amounts("us-central1")
    assert got["gcp-a2-highgpu-1g-us-central1-on-demand"] == Decimal("3.673385")
    assert got["gcp-e2-standard-2-us-central1-on-demand"] == Decimal("0.066167")
