"""An option's months carry today's spend (running both, commitments): its provenance
names the entered fields and the baseline's price rows those months rest on."""

import pytest

from tests.support.api import evaluated
from tests.support.provenance import unresolved

pytestmark = pytest.mark.django_db
EXTREME = "inmotion-hosting-extreme-dedicated-fixed-monthly"
R5 = "aws-r5.4xlarge-us-east-1-on-demand"


@pytest.fixture
def api(default_catalog_api):
    return default_catalog_api


def test_running_both_and_a_quoted_commitment_are_inputs_of_the_option(api):
    body = evaluated(
        api,
        {
            "currency": "USD",
            "baseline": {
                "monthly": "480",
                "commitments": [{"monthly": "100", "months_remaining": 6}],
            },
            "candidates": [{"tier": EXTREME, "count": 1}],
            "one_time": {"running_both_months": 2},
        },
    )
    entered = body["options"][0]["provenance"]["entered"]
    assert "one_time.running_both_months" in entered
    assert "baseline.monthly" in entered
    assert "baseline.commitments[0].monthly" in entered
    assert "baseline.commitments[0].months_remaining" in entered
    assert unresolved(body) == []


def test_a_tier_baseline_run_beside_the_option_lists_its_price_row_on_the_option(api):
    body = evaluated(
        api,
        {
            "currency": "USD",
            "baseline": {
                "tier": R5,
                "commitments": [{"tier": R5, "count": 1, "months_remaining": 12}],
            },
            "candidates": [{"tier": EXTREME, "count": 1}],
            "one_time": {"running_both_months": 1},
        },
    )
    option = body["options"][0]["provenance"]
    baseline_row = body["baseline"]["price"]["price_id"]
    listed = [p["price_id"] for p in option["prices"]]
    assert listed.count(baseline_row) == 2  # the baseline's own row and the commitment's
    assert "baseline.commitments[0].count" in option["entered"]
    assert unresolved(body) == []


def test_an_option_with_nothing_carried_lists_only_its_own_rows(api):
    body = evaluated(
        api,
        {
            "currency": "USD",
            "baseline": {"tier": R5},
            "candidates": [{"tier": EXTREME, "count": 1}],
        },
    )
    option = body["options"][0]["provenance"]
    assert [p["price_id"] for p in option["prices"]] == [
        body["options"][0]["parts"][0]["price"]["price_id"]
    ]
    assert not [e for e in option["entered"] if e.startswith("baseline")]
