"""Bad input in the editor: refused by the shared schema, shown beside the field, not saved."""

import pytest

from planner.models import Plan
from tests.support.dashboard import (
    edit_url,
    field_error,
    form_data,
    login,
    saved_plan,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("two_tier_catalog")]

INFERENCE = {"wl_inference_0__peak_rps": "50", "wl_inference_0__p99_ms": "100"}

CASES = [
    # (what the manager typed, the field it is refused at, words of the message)
    ({"baseline__monthly": "-480"}, "baseline__monthly", "at least 0"),
    ({"horizon_months": "0"}, "horizon_months", "at least 1"),
    ({"horizon_months": "121"}, "horizon_months", "at most 120"),
    ({**INFERENCE, "cand_0__count": "", "wl_inference_0__peak_rps": "1000000000000"},
     "wl_inference_0__peak_rps", "at most 1,000,000 requests/s"),
    ({"baseline__monthly": "lots"}, "baseline__monthly", "Enter a number"),
    ({"baseline__monthly": "480.001"}, "baseline__monthly", "2 decimal places"),
    ({"baseline__monthly": ""}, "baseline__monthly", "Enter today&#x27;s monthly spend"),
    ({"baseline__tier": "aws-c5.4xlarge-us-east-1-on-demand"}, "baseline__monthly",
     "not both"),
    ({"cand_0__tier": "no-such-tier"}, "cand_0__tier", "not offered"),
    ({"cand_0__count": "0"}, "cand_0__count", "at least 1"),
    ({"cand_0__count": "1.5"}, "cand_0__count", "whole number"),
    ({"cand_0__mode": "fixed", "cand_0__count": ""}, "cand_0__count", "fixed count"),
    ({"one_time__migration_hours": "40"}, "one_time__migration_rate", "other migration"),
    ({"annual_discount_rate": "150"}, "annual_discount_rate", "at most 100 %"),
    ({"wl_gbm_0__trainings_per_month": "4"}, "wl_gbm_0__rows", "Required"),
    ({"currency": "dollars"}, "currency", "3-letter"),
]  # fmt: skip


@pytest.mark.parametrize(("changes", "field", "words"), CASES)
def test_a_new_plan_with_bad_input_is_refused_beside_the_field(owner, changes, field, words):
    response = login(owner).post("/plans/new", form_data(action="save", **changes))
    assert response.status_code == 400
    assert words in field_error(response.content.decode(), field)
    assert Plan.objects.count() == 0


@pytest.mark.parametrize(("changes", "field", "words"), CASES[:4])
def test_an_edit_with_bad_input_leaves_the_saved_plan_as_it_was(owner, changes, field, words):
    plan = saved_plan(owner)
    before = dict(plan.inputs)
    response = login(owner).post(edit_url(plan), form_data(action="save", **changes))
    assert response.status_code == 400
    assert words in field_error(response.content.decode(), field)
    plan.refresh_from_db()
    assert plan.inputs == before


def test_the_live_recompute_keeps_the_last_results_and_shows_the_message(owner):
    response = login(owner).post(
        "/plans/new", form_data(horizon_months="0"), headers={"HX-Request": "true"}
    )
    assert response.status_code == 200  # htmx swaps only 2xx answers
    # the results on the page stay (dimmed as stale), not replaced by a warning
    assert response["HX-Reswap"] == "none"
    html = response.content.decode()
    assert 'id="results-stale"' in html and "last valid inputs" in html
    assert "headline" not in html
    # the message goes beside its field, swapped in place out of band, counted in words
    assert 'id="id_horizon_months_error" hx-swap-oob="true">Must be at least 1 month.' in html
    assert Plan.objects.count() == 0


def test_a_valid_recompute_swaps_the_results_in(owner):
    response = login(owner).post("/plans/new", form_data(), headers={"HX-Request": "true"})
    assert "HX-Reswap" not in response
    assert 'data-testid="headline"' in response.content.decode()


def test_several_problems_are_all_reported_at_once(owner):
    response = login(owner).post(
        "/plans/new", form_data(baseline__monthly="-1", horizon_months="0", cand_0__count="0")
    )
    html = response.content.decode()
    assert field_error(html, "baseline__monthly")
    assert field_error(html, "horizon_months")
    assert field_error(html, "cand_0__count")


def test_a_plan_that_needs_sizing_but_has_no_workload_says_so(owner):
    response = login(owner).post("/plans/new", form_data(cand_0__count="", action="save"))
    assert response.status_code == 400
    assert "at least one CPU workload" in response.content.decode()
    assert Plan.objects.count() == 0
