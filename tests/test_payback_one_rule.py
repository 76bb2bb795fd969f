# ruff: noqa: RUF003  (money notation: ×, −)
"""One rule for payback everywhere (issue 21, item 7; docs/design.md, "Payback").

The table said "never" for an option that is cheaper every month but needs longer than
the horizon to earn back $5,234.48 of one-time costs, while the odds' P50 said "month
36". Now: a payback month is the first month from which the option stays cheaper to the
horizon's end; where there is none, "not within 36 months" while the option is still
cheaper a month at the horizon's end, else "never". The odds rank their draws the same
way and say their percentiles in the same words: table, odds and API agree.
"""

import re

import pytest

from tests.support.api import post_json
from tests.support.dashboard import login

pytestmark = pytest.mark.django_db
EXTREME = "inmotion-hosting-extreme-dedicated-fixed-monthly"
ADVANCED = "inmotion-hosting-advanced-dedicated-fixed-monthly"
P5 = "aws-p5.48xlarge-us-east-1-on-demand"  # $40,179.20 a month: never cheaper than $480
# 52.35 h × $99.99 = $5,234.48 of migration and one month of running both.
PLAN = {
    "currency": "USD",
    "baseline": {"monthly": "480"},
    "candidates": [{"tier": EXTREME, "count": 1}, {"tier": ADVANCED, "count": 1},
                   {"tier": P5, "count": 1}],
    "one_time": {"migration_hours": "52.35", "migration_rate": "99.99",
                 "running_both_months": 1},
}  # fmt: skip
WORDS = {"en": ("not within 36 months", "never"), "de": ("nicht innerhalb von 36 Monaten", "nie")}


@pytest.fixture
def api(default_catalog_api, own_cache):
    return default_catalog_api


def options(body: dict) -> dict:
    return {o["parts"][0]["tier"]: o["money"] for o in body["options"]}


def test_the_table_says_not_within_the_horizon_for_an_option_still_gaining(api):
    money = options(post_json(api, "/api/v1/evaluate", PLAN).json())
    extreme = money[EXTREME]
    # 480 − 349.99 = 130.01 a month against 5,234.48 + 480 of one-time: month 45, past 36.
    assert (extreme["payback_month"], extreme["payback_label"]) == (None, "not within the horizon")
    assert money[P5]["payback_label"] == "never"
    assert money[ADVANCED]["payback_label"] == "month 18"


def test_the_odds_say_their_percentiles_in_the_tables_words(api):
    created = post_json(api, "/api/v1/plans", PLAN).json()
    odds = api.get(f"/api/v1/plans/{created['id']}/uncertainty").json()["montecarlo"]
    table = options(post_json(api, "/api/v1/evaluate", PLAN).json())
    keys = {o["key"]: o["parts"][0]["tier"]
            for o in post_json(api, "/api/v1/evaluate", PLAN).json()["options"]}  # fmt: skip
    seen = set()
    for option in odds["options"]:
        labels, months = option["payback_label"], option["payback_month"]
        for q in ("p10", "p50", "p90"):
            if months[q] is not None:
                assert labels[q] == f"month {months[q]}"
            else:
                assert labels[q] in ("not within the horizon", "never")
            seen.add(labels[q])
        ranked = ["month", "not within the horizon", "never"]
        order = [next(i for i, w in enumerate(ranked) if labels[q].startswith(w))
                 for q in ("p10", "p50", "p90")]  # fmt: skip
        assert order == sorted(order)  # later percentiles never read earlier
        tier = keys[option["option"]]
        if table[tier]["payback_label"] == "never" and option["pays_back"] == "0.0000":
            assert set(labels.values()) == {"never"}
    assert "not within the horizon" in seen  # the Extreme's draws past month 36


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_page_says_the_same_words_in_the_table_and_the_odds(owner, own_cache, language):
    from catalog.defaults import load_default_catalog
    from planner.services import plans as services

    load_default_catalog()
    plan = services.plan_create(owner=owner, plan=services.parse({**PLAN, "name": "rule"}))
    client = login(owner)
    client.cookies["django_language"] = language
    page = client.get(f"/plans/{plan.code}/", headers={"Accept-Language": language})
    html = page.content.decode()
    beyond, never = WORDS[language]
    assert beyond in html and f">{never}<" in html
    deferred = re.search(r'hx-get="(/plans/uncertainty/[0-9a-f]+)" hx-trigger="load"', html)
    odds = client.get(deferred.group(1), headers={"HX-Request": "true"}).content.decode()
    assert beyond in odds
