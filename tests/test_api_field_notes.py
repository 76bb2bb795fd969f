# ruff: noqa: RUF003  (hand calculations written with ×)
"""The field-notes price points (docs/design.md, "The field-notes case") through the API,
on the default catalog, checked by hand."""

from decimal import ROUND_HALF_UP, Decimal

import pytest

from catalog.models import Price
from planner.models import Plan
from tests.support.api import post_json

pytestmark = pytest.mark.django_db

EXTREME = "inmotion-hosting-extreme-dedicated-fixed-monthly"
ADVANCED = "inmotion-hosting-advanced-dedicated-fixed-monthly"
ESSENTIAL = "inmotion-hosting-essential-dedicated-fixed-monthly"
R5 = "aws-r5.4xlarge-us-east-1-on-demand"
C5_2X = "aws-c5.2xlarge-us-east-1-on-demand"
C5_4X_SPOT = "aws-c5.4xlarge-spot"
NOTHING_ELSE = {"running_both_months": 0, "retraining": 0}


@pytest.fixture
def api(default_catalog_api):
    return default_catalog_api


def evaluate(api, baseline: dict, tier: str, count: int = 1, **one_time) -> dict:
    plan = {
        "currency": "USD",
        "baseline": baseline,
        "candidates": [{"tier": tier, "count": count}],
        "one_time": {**NOTHING_ELSE, **one_time},
    }
    response = post_json(api, "/api/v1/evaluate", plan)
    assert response.status_code == 200, response.content[:500]
    assert Plan.objects.count() == 0  # evaluate stores nothing
    body = response.json()
    # a tier baseline also gets its cloud commitments as options (issue 27): apart here
    stays = [o for o in body["options"] if o["key"].startswith("commitment:")]
    body["options"] = [o for o in body["options"] if o not in stays]
    body["stays"] = {o["key"]: o for o in stays}
    assert len(body["options"]) == 1
    return body


def cents(value: float | Decimal) -> str:
    return str(Decimal(repr(value)).quantize(Decimal("0.01"), ROUND_HALF_UP))


def by_hand_npv(one_time: float, saving: float, months: int = 36, annual: float = 0.07) -> str:
    i = (1 + annual) ** (1 / 12) - 1
    return cents(-one_time + sum(saving / (1 + i) ** m for m in range(1, months + 1)))


def price_row(slug: str) -> Price:
    return Price.objects.get(tier__slug=slug)


def test_480_quoted_against_one_extreme_with_500_of_migration_pays_back_in_month_4(api):
    body = evaluate(api, {"monthly": "480"}, EXTREME, migration_hours=5, migration_rate=100)
    option = body["options"][0]
    money = option["money"]
    assert money["one_time"] == "500.00"
    assert set(money["monthly"]) == {"349.99"}
    assert money["saving_per_month"] == "130.01"  # 480 − 349.99
    assert money["payback_month"] == 4  # 500 ÷ 130.01 = 3.846…: month 3 still behind
    assert money["payback_fraction"] == "3.85"
    assert money["payback_label"] == "month 4"
    assert money["total"] == "13099.64"  # 500 + 36 × 349.99
    assert body["baseline"]["total"] == "17280.00"  # 36 × 480
    assert money["saving"] == "4180.36"
    assert money["npv"] == by_hand_npv(500, 130.01)
    assert option["servers"] == 1
    assert body["headline"]["payback_label"] == "month 4"
    row = price_row(EXTREME)
    assert option["provenance"]["prices"][0]["price_id"] == row.pk
    assert option["provenance"]["entered"] == [
        "one_time.migration_hours",
        "one_time.migration_rate",
    ]
    assert body["baseline"]["provenance"]["entered"] == ["baseline.monthly"]


def test_r5_4xlarge_at_its_list_price_against_extreme(api):
    body = evaluate(api, {"tier": R5}, EXTREME)
    baseline, money = body["baseline"], body["options"][0]["money"]
    assert set(baseline["monthly"]) == {"735.84"}  # 1.008 $/h × 730 h, not the quoted ~780
    assert baseline["total"] == "26490.24"
    assert money["saving_per_month"] == "385.85"  # 735.84 − 349.99
    assert money["saving"] == "13890.60"  # 36 × 385.85
    assert money["payback_month"] == 1
    assert money["payback_label"] == "immediately"
    assert money["payback_fraction"] == "0.00"
    assert money["npv"] == by_hand_npv(0, 385.85)
    row = price_row(R5)
    price = baseline["provenance"]["prices"][0]
    assert (price["price_id"], price["effective_from"]) == (row.pk, "2026-01-19")
    assert price["source"] == row.source


def test_two_c5_2xlarge_against_essential_saves_about_80_percent(api):
    body = evaluate(api, {"tier": C5_2X, "count": 2}, ESSENTIAL)
    money = body["options"][0]["money"]
    assert set(body["baseline"]["monthly"]) == {"496.40"}  # 2 × 0.34 × 730
    assert money["saving_per_month"] == "396.41"  # 496.40 − 99.99
    assert money["saving_pct"] == "79.86"  # inside the claimed 60–80 %
    assert money["payback_label"] == "immediately"


def test_c5_4xlarge_spot_quote_against_advanced_saves_a_cent_a_month(api):
    body = evaluate(api, {"tier": C5_4X_SPOT}, ADVANCED)
    money = body["options"][0]["money"]
    assert set(body["baseline"]["monthly"]) == {"150.00"}
    assert money["saving_per_month"] == "0.01"
    assert money["saving"] == "0.36"
    assert money["payback_month"] == 1
    spot = body["baseline"]["provenance"]["prices"][0]
    assert spot["confirmed"] is False  # the users' quote, flagged as such


C5_4X = "aws-c5.4xlarge-us-east-1-on-demand"


def test_c5_4xlarge_baseline_shows_its_reservations_with_break_even_beside_the_epyc(api):
    """The field notes' case: 'did you compare with a reservation?' answered on the page."""
    body = evaluate(api, {"tier": C5_4X}, EXTREME, migration_hours=5, migration_rate=100)
    stays = body["stays"]
    assert set(stays) == {"commitment:reserved-1y", "commitment:reserved-3y", "commitment:spot"}
    one, three = stays["commitment:reserved-1y"], stays["commitment:reserved-3y"]
    assert one["label"] == "Stay and commit: AWS c5.4xlarge, 1-year reservation"
    # no upfront (ec2.shop's no-upfront rates): ahead of on-demand from month 1
    assert one["commitment"]["break_even_month"] == 1
    assert three["commitment"]["break_even_month"] == 1
    assert one["commitment"]["loses_below_utilisation"] == "0.6294"  # 0.428 ÷ 0.68
    assert three["commitment"]["loses_below_utilisation"] == "0.4191"  # 0.285 ÷ 0.68
    assert one["money"]["one_time"] == "0.00"  # staying: no migration
    assert set(one["money"]["monthly"]) == {"312.44"}  # 0.428 × 730
    assert set(three["money"]["monthly"]) == {"208.05"}  # 0.285 × 730
    assert body["options"][0]["money"]["one_time"] == "500.00"  # the move pays its migration
    # the move weighed against the best commitment, in the headline
    assert "Against staying and committing" in body["headline"]["sentence"]
    # no savings plan for c5.4xlarge in the default catalog: said, not made up
    missing = {(m["group"], m["years"]): m["reason"] for m in body["commitments_missing"]}
    assert set(missing) == {("savings_plan", 1), ("savings_plan", 3)}
    assert missing[("savings_plan", 1)] == (
        "No 1-year savings plan price for c5.4xlarge in the catalog: no rate is made up."
    )
    spot = stays["commitment:spot"]["commitment"]
    assert spot["interruption"]["source"] == "assumption"
    assert spot["break_even_month"] is None
