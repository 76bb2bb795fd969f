"""The catalog page and the editor's tier picker (GET /plans/tiers) keep one pricing model
or a whole group (every savings plan, every reservation), over tiers imported by the real
feeds: Azure's Z3 page (on demand, spot, reserved and savings plan) and AWS's EC2 fixture."""

from __future__ import annotations

import re

import pytest

from catalog import pricing_models
from catalog.feeds.sync import sync_source
from tests.support.dashboard import login
from tests.support.feeds import AWS_JSON, sample

pytestmark = pytest.mark.django_db
Z3 = "azure/retail-eastus-Standard_D2als_v7-consumption-or-reservation-preview.json"
AZURE = "azure-standard-d2als-v7-eastus-"


@pytest.fixture(autouse=True)
def tiers(settings, tmp_path):
    settings.CATALOG_FEED_DIR = tmp_path / "downloads"
    assert sync_source("azure", ["eastus"], file=sample(Z3))[0].status == "imported"
    assert sync_source("aws", ["us-west-2"], file=AWS_JSON)[0].status == "imported"


def page_slugs(client, **params) -> list[str]:
    response = client.get("/catalog/", {"as_of": "2026-12-01", **params})
    assert response.status_code == 200
    return sorted(re.findall(r'<tr class="tier" data-slug="([^"]+)"', response.content.decode()))


def picker_slugs(client, **params) -> list[str]:
    response = client.get("/plans/tiers", params)
    assert response.status_code == 200, response.content
    return sorted(row["slug"] for row in response.json()["results"])


def test_the_groups_gather_every_option_and_term():
    assert pricing_models.group_of("savings_plan_compute_3y_partial_upfront") == "savings_plan"
    assert pricing_models.group_of("savings_plan_1y") == "savings_plan"
    assert pricing_models.group_of("reserved_1y_convertible_no_upfront") == "reserved"
    assert pricing_models.group_of("committed_use_3y") == "committed_use"
    assert pricing_models.group_of("spot") == "spot"
    assert pricing_models.matches("reserved_3y", "reserved")
    assert not pricing_models.matches("savings_plan_1y", "reserved")
    assert pricing_models.is_known("savings_plan_instance_1y_all_upfront")
    assert not pricing_models.is_known("savings")


def test_the_catalog_page_keeps_the_savings_plans(client):
    assert page_slugs(client, pricing="savings_plan") == [
        AZURE + "savings-plan-1y", AZURE + "savings-plan-3y",
    ]  # fmt: skip
    assert page_slugs(client, pricing_model="savings_plan_3y") == [AZURE + "savings-plan-3y"]


def test_the_catalog_page_keeps_every_reservation_of_both_providers(client):
    reserved = page_slugs(client, pricing="reserved")
    assert reserved == sorted([
        AZURE + "reserved-1y", AZURE + "reserved-3y",
        "aws-m6i.large-us-west-2-reserved-1y-no-upfront",
        "aws-m6i.large-us-west-2-reserved-1y-all-upfront",
        "aws-m6i.large-us-west-2-reserved-3y-convertible-partial-upfront",
    ])  # fmt: skip
    assert page_slugs(client, pricing="reserved", provider="AWS") == reserved[:3]


def test_the_export_follows_the_pricing_group(client):
    text = client.get("/catalog/export.csv", {"pricing": "savings_plan"}).content.decode()
    assert AZURE + "savings-plan-1y" in text and "on-demand" not in text.split("\n", 1)[1]


def test_a_bad_pricing_group_is_reported_on_the_page_not_fatal(client):
    response = client.get("/catalog/", {"pricing": "savings"})
    assert response.status_code == 200
    assert "errorlist" in response.content.decode()


def test_the_tier_picker_keeps_a_group_or_one_model(owner):
    client = login(owner)
    assert picker_slugs(client, q="d2als", pricing="savings_plan") == [
        AZURE + "savings-plan-1y", AZURE + "savings-plan-3y",
    ]  # fmt: skip
    assert picker_slugs(client, pricing="savings_plan_1y") == [AZURE + "savings-plan-1y"]
    assert picker_slugs(client, q="m6i", pricing="on_demand") == [
        "aws-m6i.large-us-west-2-on-demand"
    ]
    assert len(picker_slugs(client, q="d2als")) == 6  # no filter: every model


def test_the_tier_picker_refuses_an_unknown_pricing_value_naming_it(owner):
    response = login(owner).get("/plans/tiers", {"q": "d2als", "pricing": "savings"})
    assert response.status_code == 400
    body = response.json()
    assert body["field"] == "pricing" and "'savings'" in body["error"]


AWS_SP = "aws-c1.medium-eu-west-1-savings-plan-compute-1y-all-upfront"


def test_the_aws_savings_plan_samples_tier_is_kept_by_the_page_and_the_picker(owner):
    """Issue 27's "Done when": the catalog page and the tier picker filter by pricing model,
    AWS Savings Plans (the real eu-west-1 sample, through its own feed) included."""
    from tests.test_feeds_aws_savings_plans import REGION_FILE, c1_medium_on_demand

    c1_medium_on_demand()
    assert sync_source("aws-savings-plans", ["eu-west-1"],
                       file=sample(REGION_FILE))[0].status == "imported"  # fmt: skip
    client = login(owner)
    assert page_slugs(client, pricing="savings_plan") == sorted([
        AZURE + "savings-plan-1y", AZURE + "savings-plan-3y", AWS_SP,
    ])  # fmt: skip
    assert page_slugs(client, pricing="savings_plan", provider="AWS") == [AWS_SP]
    assert page_slugs(client, pricing_model="savings_plan_compute_1y_all_upfront") == [AWS_SP]
    assert "aws-c1.medium-eu-west-1-on-demand" not in page_slugs(client, pricing="savings_plan")
    assert picker_slugs(client, q="c1.medium", pricing="savings_plan") == [AWS_SP]
    assert picker_slugs(client, q="c1.medium", pricing="savings_plan_compute_1y_all_upfront") == [
        AWS_SP
    ]
    assert picker_slugs(client, q="c1.medium", pricing="on_demand") == [
        "aws-c1.medium-eu-west-1-on-demand"
    ]
    # typed in the editor's box, the words of the pricing model do the same
    assert picker_slugs(client, q="c1.medium savings plan") == [AWS_SP]
