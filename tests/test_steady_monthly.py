# ruff: noqa: RUF003  (money notation: ×)
"""The steady monthly cost apart from the months of running both (issue 21, item 1).

A $149.99 server with one month of running both read "$629.99" in the Monthly column.
The API keeps `monthly` (month by month, both months included) and adds `steady_monthly`
and `transition_cost`; the page's Monthly column shows the steady month and the months
of running both apart, once, beside the one-time cost."""

import re
from decimal import Decimal

import pytest

from tests.support.api import post_json
from tests.support.dashboard import login

pytestmark = pytest.mark.django_db
ADVANCED = "inmotion-hosting-advanced-dedicated-fixed-monthly"
PLAN = {
    "currency": "USD", "name": "one month of both", "baseline": {"monthly": "480"},
    "candidates": [{"tier": ADVANCED, "count": 1}],
    "one_time": {"migration_hours": "5", "migration_rate": "100", "running_both_months": 1},
}  # fmt: skip


@pytest.fixture
def api(default_catalog_api, own_cache):
    return default_catalog_api


def test_the_api_adds_the_steady_month_and_the_transition_and_keeps_the_rest(api):
    [option] = post_json(api, "/api/v1/evaluate", PLAN).json()["options"]
    money = option["money"]
    assert money["monthly"][:2] == ["629.99", "149.99"]  # unchanged: month 1 runs both
    assert (money["steady_monthly"], money["transition_cost"]) == ("149.99", "480.00")
    # 500 + 36 × 149.99 + 480 = 6,379.64: the total still holds the transition, once.
    assert Decimal(money["total"]) == Decimal("500") + 36 * Decimal("149.99") + 480


def test_without_running_both_the_steady_month_is_month_one(api):
    plan = {**PLAN, "one_time": {"migration_hours": "5", "migration_rate": "100"}}
    [option] = post_json(api, "/api/v1/evaluate", plan).json()["options"]
    assert option["money"]["steady_monthly"] == option["money"]["monthly"][0] == "149.99"
    assert option["money"]["transition_cost"] == "0.00"


@pytest.mark.parametrize(("language", "steady", "once"), [
    ("en", "$149.99", "+ $480.00 running both, once"),
    ("de", "149,99\u00a0$", "+ 480,00\u00a0$ Parallelbetrieb, einmalig"),
])  # fmt: skip
def test_the_monthly_column_shows_the_steady_month_and_the_transition_apart(
    owner, own_cache, language, steady, once
):
    from catalog.defaults import load_default_catalog
    from planner.services import plans as services

    load_default_catalog()
    plan = services.plan_create(owner=owner, plan=services.parse(PLAN))
    client = login(owner)
    client.cookies["django_language"] = language
    html = client.get(f"/plans/{plan.code}/").content.decode()
    row = re.search(r'<tr class="option[^"]*".*?</tr>', html, re.S).group(0)
    monthly = re.search(r'data-label="[^"]*">\s*([^<]+?)\s*<details', row.split("</td>", 3)[2])
    assert monthly and monthly.group(1) == steady, row[:2000]
    said = re.search(r'data-testid="transition">([^<]+)<', row)
    assert said and said.group(1).strip() == once


def test_the_monthly_chart_bars_the_steady_month_and_running_both_apart(api):
    """$149.99 a month (not $629.99), the $480 of running both spread apart: 13.33 a month
    over 36 months; the chart's drawing names that part in its legend."""
    from planner.services import evaluation
    from planner.services import plans as services
    from planner.web import charts, dashboard

    data = dashboard.results(evaluation.answer(services.parse(PLAN))).charts["monthly"]
    bar = data["bars"][1]
    assert round(bar["servers"] + bar["operations"], 2) == 149.99
    assert bar["transition"] == 13.33 and bar["one_time"] == round(500 / 36, 2)
    svg = charts.render("monthly", data, "en").decode()
    assert "Running both systems, once, spread over the horizon" in svg


def test_the_comparison_csv_has_the_steady_month_and_the_transition_once(owner, own_cache):
    import csv
    import io

    from catalog.defaults import load_default_catalog
    from planner.services import plans as services

    load_default_catalog()
    plan = services.plan_create(owner=owner, plan=services.parse(PLAN))
    response = login(owner).get(f"/plans/{plan.code}/comparison.csv")
    baseline, advanced = csv.DictReader(io.StringIO(response.content.decode()))
    assert (advanced["monthly"], advanced["transition_cost"]) == ("149.99", "480.00")
    assert advanced["one_time"] == "500.00" and advanced["total"] == "6379.64"
    assert baseline["transition_cost"] == "0.00"
