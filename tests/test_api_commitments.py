# ruff: noqa: RUF003  (hand calculations written with ×)
"""A c1.medium eu-west-1 baseline gets the Savings Plan alternatives of the real AWS
sample (issue 27, items 4 and 5), through `POST /api/v1/evaluate`; the slots the sample
has no rate for say so."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from catalog.feeds.sync import sync_source
from catalog.models import Price, Provider, Tier
from tests.support.api import post_json
from tests.support.feeds import sample

pytestmark = pytest.mark.django_db
SP = "savings-plans/aws_compute_savings_plan_eu-west-1_trimmed_ligoj.json"
C1 = "aws-c1.medium-eu-west-1-on-demand"
EXTREME = "inmotion-hosting-extreme-dedicated-fixed-monthly"


@pytest.fixture
def c1_medium(default_catalog_api, settings, tmp_path):
    settings.CATALOG_FEED_DIR = tmp_path
    aws, _ = Provider.objects.get_or_create(name="AWS")
    tier = Tier.objects.create(provider=aws, slug=C1, name="c1.medium", region="eu-west-1",
                               pricing_model="on_demand", kind="cloud_vm", vcpus=2,
                               ram_gib=Decimal("1.7"))  # fmt: skip
    Price.objects.create(tier=tier, amount=Decimal("0.148"), unit="hour", currency="USD",
                         effective_from=dt.date(2017, 5, 1), source="ligoj A4 line 8")  # fmt: skip
    assert sync_source("aws-savings-plans", ["eu-west-1"], file=sample(SP))[0].status == "imported"
    return default_catalog_api


def test_c1_medium_baseline_shows_the_samples_savings_plan_with_its_break_even(c1_medium):
    plan = {"currency": "USD", "baseline": {"tier": C1, "count": 3},
            "candidates": [{"tier": EXTREME, "count": 1}], "horizon_months": 36}  # fmt: skip
    response = post_json(c1_medium, "/api/v1/evaluate", plan)
    assert response.status_code == 200, response.content[:500]
    body = response.json()
    stays = {o["key"]: o for o in body["options"] if o["key"].startswith("commitment:")}
    assert set(stays) == {"commitment:savings_plan-1y"}
    sp = stays["commitment:savings_plan-1y"]
    terms = sp["commitment"]
    assert terms["tier"] == "aws-c1.medium-eu-west-1-savings-plan-compute-1y-all-upfront"
    assert terms["on_demand_tier"] == C1
    # all upfront: 858.48 a server for the year (0.098 × 8,760), nothing by the hour;
    # on demand 0.148 × 730 = 108.04 a month: 858.48 ÷ 108.04 = 7.95 → month 8
    assert terms["break_even_month"] == 8
    assert terms["loses_below_utilisation"] == "0.6622"  # 858.48 ÷ 12 ÷ 108.04
    assert sp["money"]["one_time"] == "2575.44"  # 3 servers × 858.48, at month 0
    # renewed each year of the 36 months: months 13 and 25 pay the upfront again
    monthly = sp["money"]["monthly"]
    assert monthly[12] == monthly[24] == "2575.44" and monthly[11] == "0.00"
    assert sp["money"]["total"] == "7726.32"  # 3 terms × 2,575.44
    missing = {(m["group"], m["years"]) for m in body["commitments_missing"]}
    assert missing == {("reserved", 1), ("reserved", 3), ("savings_plan", 3), ("spot", 0)}
    reasons = " ".join(m["reason"] for m in body["commitments_missing"])
    assert "No 3-year savings plan price for c1.medium in the catalog" in reasons
    assert all(m["messages"][0]["code"].startswith("catalog.no_") for m in
               body["commitments_missing"])  # fmt: skip


@pytest.mark.parametrize(
    ("language", "missing"),
    [("en", "No 3-year savings plan price for c1.medium in the catalog"),
     ("de", "c1.medium")],
)  # fmt: skip
def test_the_plan_page_shows_the_c1_medium_savings_plan_beside_the_move(
    c1_medium, owner, own_cache, language, missing
):
    """The same on the plan page: the sample's savings plan as a row of the comparison,
    labelled a cloud commitment with its break-even month, the slots without a rate said."""
    from tests.support.dashboard import login, saved_plan

    plan = saved_plan(owner, name="c1.medium or EPYC", baseline={"tier": C1, "count": 3},
                      candidates=[{"tier": EXTREME, "count": 1}])  # fmt: skip
    client = login(owner)
    client.cookies["django_language"] = language
    page = client.get(f"/plans/{plan.code}/").content.decode()
    assert page.count('data-key="commitment:savings_plan-1y"') == 1
    assert 'data-key="commitment:reserved-1y"' not in page
    row = page[page.index('data-key="commitment:savings_plan-1y"') :]
    row = row[: row.index("</tr>")]
    assert ("cloud commitment" if language == "en" else "Cloud-Bindung") in row
    terms = row[row.index('data-testid="commitment-terms"') :]
    assert ("from month 8" if language == "en" else "ab Monat 8") in terms, terms[:400]
    said = page[page.index('data-testid="commitments-missing"') :]
    assert missing in said[:2000]
