"""Every number in an API comparison resolves to a price row, a run, a labelled estimate,
a published assumption or the plan's own input."""

import pytest

from tests.support.api import evaluated
from tests.support.provenance import numbers, unresolved

pytestmark = pytest.mark.django_db
EXTREME = "inmotion-hosting-extreme-dedicated-fixed-monthly"


@pytest.fixture
def api(default_catalog_api):
    return default_catalog_api


def test_every_figure_of_a_quoted_baseline_plan_has_a_source(api):
    body = evaluated(
        api,
        {
            "currency": "USD",
            "baseline": {"monthly": "480"},
            "candidates": [{"tier": EXTREME, "count": 1}],
            "one_time": {"migration_hours": 5, "migration_rate": 100},
            "monthly": {"egress": "12.50"},
        },
    )
    assert len(list(numbers(body))) > 100  # the walk really visits the figures
    assert unresolved(body) == []


def test_every_figure_of_a_tier_baseline_plan_has_a_source(api):
    body = evaluated(
        api,
        {
            "currency": "EUR",  # converted: the exchange rate must resolve too
            "baseline": {"tier": "aws-r5.4xlarge-us-east-1-on-demand"},
            "candidates": [{"tier": EXTREME, "count": 2}],
        },
    )
    assert body["fx"] and body["fx"][0]["rows"]
    assert unresolved(body) == []


def test_the_walk_catches_a_figure_without_a_source(api):
    body = evaluated(
        api,
        {
            "currency": "USD",
            "baseline": {"monthly": "480"},
            "candidates": [{"tier": EXTREME, "count": 1}],
        },
    )
    body["options"][0]["provenance"]["prices"][0]["price_id"] = 999_999
    body["baseline"].pop("provenance")
    body["unsourced"] = {"total": "12.34"}
    problems = unresolved(body)
    assert any("no price row 999999" in p for p in problems)
    assert any(p.startswith("baseline.total") for p in problems)
    assert any(p.startswith("unsourced.total") for p in problems)
