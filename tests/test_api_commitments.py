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
