"""The catalog page as people expect it (ec2instances.info): hourly or monthly prices,
chosen columns, filters by CPU, AVX-512, GPU model and confirmed prices, the filtered view
as CSV, selected tiers compared, and the price sources page."""

import csv
import io
import re

import pytest
from django.utils import timezone

from catalog.defaults import load_default_catalog
from catalog.models import FeedImport
from tests.support.catalog import add_price, add_rate, make_tier

pytestmark = pytest.mark.django_db
URL = "/catalog/"


def slugs(response) -> list[str]:
    return re.findall(r'<tr class="tier" data-slug="([^"]+)"', response.content.decode())


def row(page: str, slug: str) -> str:
    start = page.index(f'data-slug="{slug}"')
    return page[start : page.index("</tr>", start)]


@pytest.fixture
def catalog():
    load_default_catalog()


@pytest.fixture
def cpus():
    """Three tiers whose processors the page must tell apart."""
    for slug, model, flags in (
        ("ice", "Intel Xeon Platinum 8375C (Ice Lake)", "avx,avx2,avx512"),
        ("milan", "AMD EPYC 7R13 Processor", "avx,avx2"),
        ("graviton", "AWS Graviton3 Processor", ""),
    ):
        add_price(make_tier(slug, cpu_model=model, cpu_flags=flags), "0.5", "2026-01-01")


def test_prices_show_monthly_by_default_and_hourly_when_asked(client, catalog):
    slug = "aws-c5.2xlarge-us-east-1-on-demand"  # 0.34 USD an hour
    monthly = row(client.get(URL, {"as_of": "2026-11-30"}).content.decode(), slug)
    assert "248.20 USD" in monthly
    hourly = client.get(URL, {"per": "hour", "as_of": "2026-11-30"}).content.decode()
    assert "0.3400 USD" in row(hourly, slug)
    assert ">Hourly" in hourly


def test_the_chosen_columns_are_shown_and_kept_in_the_links(client, catalog):
    page = client.get(URL, {"cols": ["price", "cpu"]}).content.decode()
    assert ">CPU</th>" in page and "per vCPU-h " not in page and ">Provider</th>" not in page
    assert "cols=price&amp;cols=cpu" in page  # the sort links keep the choice
    default = client.get(URL).content.decode()
    assert "per vCPU-h " in default and ">CPU</th>" not in default


def test_it_filters_by_cpu_vendor_generation_and_avx512(client, cpus):
    assert slugs(client.get(URL, {"cpu_vendor": "AMD"})) == ["milan"]
    assert slugs(client.get(URL, {"cpu_generation": "Ice Lake"})) == ["ice"]
    assert slugs(client.get(URL, {"cpu_vendor": "AWS Graviton"})) == ["graviton"]
    assert slugs(client.get(URL, {"avx512": "on"})) == ["ice"]
    page = client.get(URL).content.decode()
    assert '<option value="Milan">Milan</option>' in page


def test_it_filters_by_gpu_model_and_region(client, catalog):
    a100 = slugs(client.get(URL, {"gpu_model": "NVIDIA A100"}))
    assert sorted(a100) == ["aws-p4d.24xlarge-us-east-1-on-demand"]
    assert slugs(client.get(URL, {"region": "FSN1"})) == [
        "hetzner-auction-sb-191830-fsn1-fixed-monthly"
    ]


def test_the_confirmed_filter_leaves_out_quoted_prices(client, catalog):
    everything = set(slugs(client.get(URL)))
    confirmed = set(slugs(client.get(URL, {"confirmed": "on"})))
    assert "aws-c5.4xlarge-spot" in everything - confirmed
    assert "inmotion-hosting-essential-dedicated-fixed-monthly" in everything - confirmed
    assert confirmed and "unconfirmed" not in "".join(
        row(client.get(URL, {"confirmed": "on"}).content.decode(), s) for s in confirmed
    )


def test_each_row_shows_its_price_source_and_age_and_the_slug_not_on_a_line_of_its_own(
    client, catalog
):
    page = client.get(URL, {"as_of": "2026-11-30"}).content.decode()
    tier = row(page, "aws-c5.2xlarge-us-east-1-on-demand")
    assert "2026-01-19</a>" in tier and "(315 days old)" in tier
    assert 'title="aws-c5.2xlarge-us-east-1-on-demand"' in tier
    assert '<span class="muted">aws-c5.2xlarge' not in tier


def test_only_currencies_with_a_rate_are_offered(client):
    def offered(page: str) -> list[str]:
        select = page[
            page.index('name="currency"') : page.index("</select>", page.index('name="currency"'))
        ]
        return re.findall(r'<option value="([A-Z]{3})"', select)

    add_price(make_tier("one"), "1", "2026-01-01")
    assert offered(client.get(URL).content.decode()) == []
    add_rate("2026-01-02", "EUR", "USD", "1.10")
    assert offered(client.get(URL).content.decode()) == ["EUR", "USD"]


def test_a_price_change_shows_on_the_next_request(client):
    tier = make_tier("only-one")
    add_price(tier, "1", "2026-01-01")
    assert "730.00 USD" in client.get(URL).content.decode()
    add_price(tier, "2", "2026-02-01")
    assert "1,460.00 USD" in client.get(URL).content.decode()


def test_the_csv_export_holds_every_tier_of_the_filtered_view_with_text_neutralised(client):
    for index in range(60):
        add_price(make_tier(f"amd-{index:02d}", cpu_model="AMD EPYC 9R14"), "1", "2026-01-01")
    add_price(make_tier("intel", name="=HYPERLINK(1)", cpu_model="Intel Xeon"), "1", "2026-01-01")
    response = client.get(URL + "export.csv", {"cpu_vendor": "AMD", "page": 2})
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert len(rows) == 60 and {r["cpu_generation"] for r in rows} == {"Genoa"}
    assert rows[0]["monthly"] == "730" and rows[0]["currency"] == "USD"
    intel = list(
        csv.DictReader(io.StringIO(client.get(URL + "export.csv", {"q": "intel"}).content.decode()))
    )
    assert intel[0]["name"] == "'=HYPERLINK(1)"


def test_the_page_links_its_export_with_the_same_filters(client, catalog):
    page = client.get(URL, {"kind": "dedicated", "page": 1}).content.decode()
    assert 'href="/catalog/export.csv?kind=dedicated"' in page


def test_selected_tiers_are_compared_side_by_side(client, catalog):
    chosen = ["aws-c5.2xlarge-us-east-1-on-demand", "hetzner-auction-sb-191830-fsn1-fixed-monthly"]
    page = client.get(URL + "compare/", {"t": [*chosen, "no-such-tier"], "currency": ""})
    body = page.content.decode()
    assert page.status_code == 200
    assert re.findall(r'<th scope="col" class="num" data-slug="([^"]+)"', body) == chosen
    assert "Not in the catalog as of this date: no-such-tier" in body
    assert body.count("cheapest") == 1


def test_the_sources_page_lists_each_feed_with_its_last_sync_and_next_run(client):
    now = timezone.now()
    FeedImport.objects.create(source="ecb", region="", url="u", started_at=now, finished_at=now,
                              status=FeedImport.Status.IMPORTED, records=30)  # fmt: skip
    FeedImport.objects.create(source="aws", region="us-east-1", url="u", started_at=now,
                              finished_at=now, status=FeedImport.Status.REFUSED)  # fmt: skip
    page = client.get(URL + "sources/").content.decode()
    for source in ("aws", "azure", "hetzner", "ovh", "ecb", "ecb-history"):
        assert f'data-source="{source}"' in page
    ecb = page[page.index('data-source="ecb"') : page.index('data-source="ecb-history"')]
    assert now.strftime("%Y-%m-%d") in ecb and "imported" in ecb and "30" in ecb
    aws = page[page.index('data-source="aws"') : page.index('data-source="azure"')]
    assert "refused" in aws
    azure = page[page.index('data-source="azure"') : page.index('data-source="hetzner"')]
    assert "never" in azure and "on request only" not in azure
    assert "AWS spot prices are not in the Price List bulk feed" in page


def test_the_sources_page_and_the_catalog_read_in_german(client, catalog):
    client.cookies["django_language"] = "de"
    sources = client.get(URL + "sources/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Preisquellen" in sources and "Spot-Preise" in sources
    page = client.get(URL, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Ausgewählte Tarife vergleichen" in page and "Nur bestätigte Preise" in page


def test_money_rates_are_right_for_a_known_tier(client, catalog):
    page = client.get(URL, {"q": "c5.2xlarge", "as_of": "2026-11-30"}).content.decode()
    tier = row(page, "aws-c5.2xlarge-us-east-1-on-demand")
    assert ">0.0425<" in tier  # per vCPU-hour: 0.34 / 8
    assert re.search(r">0\.021[23]<", tier)  # per GiB-hour: 0.34 / 16 GiB = 0.02125
