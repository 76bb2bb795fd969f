"""Stored plans: private to their owner; anyone else gets the same 404 as for no plan at all."""

import uuid

import pytest

from planner.models import Plan
from tests.support.api import TEST_BOX, fixed_plan, post_json, token_client

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("one_box_catalog")]
TIER = TEST_BOX


def test_it_stores_a_plan_and_returns_its_uuid(api, owner):
    response = post_json(api, "/api/v1/plans", fixed_plan(TIER, name="Q3 move"))
    assert response.status_code == 201
    code = response.json()["id"]
    assert uuid.UUID(code).version == 4
    assert response["Location"].endswith(f"/api/v1/plans/{code}")
    plan = Plan.objects.get(code=code)
    assert (plan.owner, plan.name) == (owner, "Q3 move")
    # stored in the schema's canonical form: defaults filled in, amounts as strings
    assert plan.inputs["baseline"]["monthly"] == "480.00"
    assert plan.inputs["horizon_months"] == 36


def test_the_owner_reads_the_plan_with_todays_comparison(api):
    code = post_json(api, "/api/v1/plans", fixed_plan(TIER)).json()["id"]
    body = api.get(f"/api/v1/plans/{code}").json()
    assert body["id"] == code
    assert body["inputs"]["candidates"][0]["parts"][0]["tier"] == TIER
    assert body["comparison"]["options"][0]["money"]["saving_per_month"] == "380.00"


def test_anyone_else_gets_the_same_404_as_for_a_plan_that_does_not_exist(api, other_user):
    code = post_json(api, "/api/v1/plans", fixed_plan(TIER)).json()["id"]
    theirs = token_client(other_user)[0]
    other = theirs.get(f"/api/v1/plans/{code}")
    missing = theirs.get(f"/api/v1/plans/{uuid.uuid4()}")
    malformed = theirs.get("/api/v1/plans/not-a-uuid")
    assert other.status_code == missing.status_code == malformed.status_code == 404
    assert other.content == missing.content == malformed.content
    assert other["Content-Type"] == "application/json"


def test_the_list_shows_only_my_plans(api, other_user):
    mine = post_json(api, "/api/v1/plans", fixed_plan(TIER, name="mine")).json()["id"]
    theirs = token_client(other_user)[0]
    post_json(theirs, "/api/v1/plans", fixed_plan(TIER, name="theirs"))
    listed = api.get("/api/v1/plans").json()["plans"]
    assert [p["id"] for p in listed] == [mine]


def test_evaluate_stores_nothing(api):
    response = post_json(api, "/api/v1/evaluate", fixed_plan(TIER))
    assert response.status_code == 200
    assert response.json()["options"][0]["money"]["monthly"][0] == "100.00"
    assert Plan.objects.count() == 0
