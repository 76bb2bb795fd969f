"""Azure savings plan prices from the Retail Prices API's `savingsPlan` terms: the genuine
preview pages Z3 and Z7 from ../shared/reference/feeds/azure, and drifted copies of Z3."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

import pytest

from catalog.feeds.sync import sync_source
from catalog.models import FeedImport, Tier
from common.messages import Message, plain
from tests.support.feeds import catalog_state, sample

pytestmark = pytest.mark.django_db

Z3 = "azure/retail-eastus-Standard_D2als_v7-consumption-or-reservation-preview.json"
Z7 = "azure/finfocus-savingsplan-eastus_standard_d2als_v7_nofilter_preview.json"
Z1 = "azure/retail-eastus-Standard_D2s_v3-consumption.json"
ONE = "azure-standard-d2als-v7-eastus-savings-plan-1y"
THREE = "azure-standard-d2als-v7-eastus-savings-plan-3y"


def texts(result: FeedImport) -> list[str]:
    return [plain(Message.from_json(m)) for m in result.messages]


@pytest.mark.parametrize("name", [Z3, Z7])
def test_the_linux_rows_savings_plan_terms_become_tiers_with_their_hourly_rates(name):
    """The Linux D2als v7 pay-as-you-go row (0.0804/h, from 2025-11-01, meter
    01538ee0-…, sku DZH318Z0TBH5/003D) carries savingsPlan 1 Year 0.053868 and 3 Years
    0.035376 per hour; the Windows rows carry none."""
    result = sync_source("azure", ["eastus"], file=sample(name))[0]
    assert result.status == FeedImport.Status.IMPORTED, texts(result)
    one, three = Tier.objects.get(slug=ONE), Tier.objects.get(slug=THREE)
    assert (one.pricing_model, one.min_term_months) == ("savings_plan_1y", 12)
    assert (three.pricing_model, three.min_term_months) == ("savings_plan_3y", 36)
    assert (one.name, one.region, one.kind) == ("Standard_D2als_v7", "eastus", "cloud_vm")
    (p1,), (p3,) = one.prices.all(), three.prices.all()
    assert (p1.amount, p1.setup_fee, p1.currency, p1.unit) == (
        Decimal("0.053868"), Decimal(0), "USD", "hour",
    )  # fmt: skip
    assert p3.amount == Decimal("0.035376")
    assert p1.effective_from == p3.effective_from == dt.date(2025, 11, 1)
    assert (
        p1.source_key == "01538ee0-66a2-5297-ab94-2a3dbce453c8/DZH318Z0TBH5/003D/savingsPlan 1 Year"
    )
    assert Tier.objects.filter(pricing_model__startswith="savings_plan").count() == 2


def test_a_page_without_savings_plan_terms_makes_no_savings_plan_tier():
    """Z1 was asked without the preview api-version: no savingsPlan, so none is made up."""
    result = sync_source("azure", ["eastus"], file=sample(Z1))[0]
    assert result.status == FeedImport.Status.IMPORTED
    assert not Tier.objects.filter(pricing_model__startswith="savings_plan").exists()


def drifted(tmp_path, change):
    page = json.loads(sample(Z3).read_text())
    change(page["Items"][0])
    path = tmp_path / "z3-drifted.json"
    path.write_text(json.dumps(page))
    return path


def rename_price(item):
    item["savingsPlan"][0]["price"] = item["savingsPlan"][0].pop("retailPrice")


def drop_term(item):
    del item["savingsPlan"][1]["term"]


def unknown_term(item):
    item["savingsPlan"][1]["term"] = "5 Years"


def not_a_list(item):
    item["savingsPlan"] = {"term": "1 Year", "retailPrice": 0.05}


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (rename_price, "savingsPlan[0] lacks the required key term, retailPrice"),
        (drop_term, "savingsPlan[1] lacks the required key term, retailPrice"),
        (unknown_term, "5 Years"),
        (not_a_list, "savingsPlan:"),
    ],
)
def test_drifted_savings_plan_terms_refuse_the_file_and_change_nothing(tmp_path, change, said):
    before = catalog_state()
    result = sync_source("azure", ["eastus"], file=drifted(tmp_path, change))[0]
    assert result.status == FeedImport.Status.REFUSED
    assert said in " ".join(texts(result)), texts(result)
    assert catalog_state() == before
