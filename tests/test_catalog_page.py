"""The catalog page: filters, sorting, paging, htmx partials, and a bounded query count."""

import re
from decimal import Decimal

import pytest

from catalog.defaults import load_default_catalog
from tests.support.catalog import add_price, make_tier

pytestmark = pytest.mark.django_db
URL = "/catalog/"


def slugs(response) -> list[str]:
    return re.findall(r'<tr class="tier" data-slug="([^"]+)"', response.content.decode())


@pytest.fixture
def catalog():
    load_default_catalog()


def test_everyone_sees_every_current_tier_with_its_source_and_date(client, catalog):
    response = client.get(URL, {"as_of": "2026-11-30"})
    page = response.content.decode()
    assert response.status_code == 200
    assert len(slugs(response)) == 18
    assert "2026-01-19</a>" in page
    assert 'href="https://github.com/aws/karpenter-provider-aws/blob/' in page


def test_stale_unconfirmed_and_unknown_specs_are_marked(client, catalog):
    page = client.get(URL, {"q": "essential", "as_of": "2026-11-30"}).content.decode()
    row = page[page.index('data-slug="inmotion-hosting-essential') :]
    row = row[: row.index("</tr>")]
    assert "specs unknown" in row and "unconfirmed" in row
    page = client.get(URL, {"q": "p4d", "as_of": "2026-11-30"}).content.decode()
    assert 'class="badge stale"' in page


def test_it_filters_by_provider_kind_model_region_and_minimum_specs(client, catalog):
    assert all(
        s.startswith("inmotion") for s in slugs(client.get(URL, {"provider": "InMotion Hosting"}))
    )
    gpu = slugs(client.get(URL, {"kind": "cloud_gpu"}))
    assert sorted(gpu) == sorted(
        [
            "aws-g5.xlarge-us-east-1-on-demand",
            "aws-p4d.24xlarge-us-east-1-on-demand",
            "aws-p5.48xlarge-us-east-1-on-demand",
        ]
    )
    assert slugs(client.get(URL, {"pricing_model": "spot"})) == ["aws-c5.4xlarge-spot"]
    assert slugs(client.get(URL, {"region": "FSN1"})) == [
        "hetzner-auction-sb-191830-fsn1-fixed-monthly"
    ]
    big = slugs(client.get(URL, {"min_vcpus": 32, "min_ram_gib": 1000, "min_gpus": 8}))
    assert sorted(big) == [
        "aws-p4d.24xlarge-us-east-1-on-demand",
        "aws-p5.48xlarge-us-east-1-on-demand",
    ]


def test_it_sorts_by_monthly_and_normalised_prices(client, catalog):
    cheapest = slugs(client.get(URL, {"sort": "monthly", "dir": "asc", "currency": "USD"}))
    assert cheapest[0] == "hetzner-auction-sb-191830-fsn1-fixed-monthly"
    dearest = slugs(client.get(URL, {"sort": "monthly", "dir": "desc"}))
    assert dearest[0] == "aws-p5.48xlarge-us-east-1-on-demand"
    per_gpu = slugs(client.get(URL, {"sort": "per_gpu_hour"}))
    assert per_gpu[:3] == [
        "aws-g5.xlarge-us-east-1-on-demand",
        "aws-p4d.24xlarge-us-east-1-on-demand",
        "aws-p5.48xlarge-us-east-1-on-demand",
    ]
    per_vcpu = slugs(client.get(URL, {"sort": "per_vcpu_hour", "dir": "desc"}))
    assert per_vcpu[0] == "aws-p5.48xlarge-us-east-1-on-demand"
    # Tiers whose specs are unknown have no normalised price and sort last either way.
    assert per_vcpu[-2:] == [
        "inmotion-hosting-advanced-dedicated-fixed-monthly",
        "inmotion-hosting-essential-dedicated-fixed-monthly",
    ]


def test_a_currency_names_the_tiers_it_cannot_convert(client, catalog):
    page = client.get(URL, {"currency": "GBP"}).content.decode()
    assert "18 tiers left out for want of an exchange rate" in page
    assert 'title="no USD→GBP rate on or before' in page


def test_it_pages_fifty_tiers_at_a_time(client):
    for index in range(120):
        add_price(make_tier(f"tier-{index:03d}", ram_gib=Decimal(index)), "1", "2026-01-01")
    first = client.get(URL, {"sort": "ram_gib"})
    assert len(slugs(first)) == 50
    assert "page 1 of 3" in first.content.decode()
    last = client.get(URL, {"sort": "ram_gib", "page": 3})
    assert slugs(last) == [f"tier-{index:03d}" for index in range(100, 120)]


def test_an_htmx_request_gets_only_the_table(client, catalog):
    full = client.get(URL).content.decode()
    partial = client.get(URL, {"kind": "dedicated"}, HTTP_HX_REQUEST="true").content.decode()
    assert "<html" in full and 'id="tier-table"' in full
    assert "<html" not in partial and "<form" not in partial
    assert partial.lstrip().startswith('<div id="tier-table">')
    assert len(re.findall(r'<tr class="tier"', partial)) == 4


def test_bad_filter_values_are_reported_not_fatal(client, catalog):
    response = client.get(URL, {"min_vcpus": "many", "sort": "nonsense", "as_of": "2026-02-30"})
    assert response.status_code == 200
    assert len(slugs(response)) == 18


def test_the_page_costs_the_same_queries_for_a_few_tiers_and_for_many(
    client, django_assert_max_num_queries
):
    for index in range(3):
        add_price(make_tier(f"few-{index}"), "1", "2026-01-01")
    with django_assert_max_num_queries(3):
        client.get(URL)
    for index in range(150):
        add_price(make_tier(f"many-{index}"), "1", "2026-01-01")
    with django_assert_max_num_queries(3):
        assert len(slugs(client.get(URL, {"currency": "", "min_vcpus": 1}))) == 50
    with django_assert_max_num_queries(4):
        client.get(URL, {"currency": "EUR"})


def test_retired_tiers_are_hidden_unless_asked_for_and_then_marked(client, catalog):
    from catalog.models import Tier

    Tier.objects.filter(slug="aws-c5.2xlarge-us-east-1-on-demand").update(retired=True)
    assert "aws-c5.2xlarge-us-east-1-on-demand" not in slugs(client.get(URL))
    page = client.get(URL, {"retired": "on", "q": "c5.2xlarge"}).content.decode()
    assert 'data-slug="aws-c5.2xlarge-us-east-1-on-demand"' in page
    assert '<span class="badge retired">retired</span>' in page
