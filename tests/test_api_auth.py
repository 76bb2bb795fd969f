"""Who may call the API: session with CSRF, API tokens, and anonymous only for shares."""

import json

import pytest
from django.test import Client

from planner.models import ApiToken, Plan
from tests.support.api import (
    JSON,
    TEST_BOX,
    csrf_token,
    fixed_plan,
    post_json,
    session_client,
    token_client,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("one_box_catalog")]
TIER = TEST_BOX


def test_anonymous_callers_get_401_and_store_nothing():
    client = Client(enforce_csrf_checks=True)
    response = post_json(client, "/api/v1/plans", fixed_plan(TIER))
    assert response.status_code == 401
    assert response["Content-Type"] == JSON
    assert response["WWW-Authenticate"] == "Bearer"
    assert "auth" in response.json()["errors"]
    assert client.get("/api/v1/plans").status_code == 401
    assert post_json(client, "/api/v1/evaluate", fixed_plan(TIER)).status_code == 401
    assert not Plan.objects.exists()


def test_a_session_without_the_csrf_token_is_refused(owner):
    response = post_json(session_client(owner), "/api/v1/plans", fixed_plan(TIER))
    assert response.status_code == 403
    assert "CSRF" in response.json()["errors"]["auth"][0]
    assert not Plan.objects.exists()


def test_a_session_with_the_csrf_token_stores_a_plan(owner):
    client = session_client(owner)
    response = post_json(
        client, "/api/v1/plans", fixed_plan(TIER), **{"X-CSRFToken": csrf_token(client)}
    )
    assert response.status_code == 201
    assert Plan.objects.get().owner == owner


def test_a_session_reads_without_csrf(owner):
    assert session_client(owner).get("/api/v1/plans").json() == {"plans": []}


def test_a_valid_token_needs_no_csrf_and_is_marked_used(owner):
    client, _raw = token_client(owner)
    response = post_json(client, "/api/v1/plans", fixed_plan(TIER))
    assert response.status_code == 201
    plan = Plan.objects.get()
    assert plan.owner == owner
    assert str(plan.code) == response.json()["id"]
    assert ApiToken.objects.get().last_used_at is not None


def test_a_revoked_token_is_401(owner):
    client, _raw = token_client(owner)
    ApiToken.objects.get().revoke()
    assert post_json(client, "/api/v1/plans", fixed_plan(TIER)).status_code == 401
    assert client.get("/api/v1/plans").status_code == 401
    assert not Plan.objects.exists()


def test_an_unknown_or_malformed_token_is_401(owner):
    for header in ("Bearer pl_not-a-real-key", "Bearer", "Basic b3duZXI6cHc=", "Token x"):
        response = Client(HTTP_AUTHORIZATION=header).get("/api/v1/plans")
        assert response.status_code == 401, header


def test_a_bad_token_never_falls_back_to_the_browser_session(owner):
    client = session_client(owner)
    response = client.get("/api/v1/plans", headers={"Authorization": "Bearer pl_wrong"})
    assert response.status_code == 401


def test_the_token_of_a_deactivated_user_stops_working(owner):
    client, _raw = token_client(owner)
    owner.is_active = False
    owner.save()
    assert client.get("/api/v1/plans").status_code == 401


def test_anonymous_callers_may_read_shares_only():
    response = Client().get("/api/v1/shared/no-such-token")
    assert response.status_code == 404  # not 401: shares are public by their token


def test_other_methods_are_405_with_allow(owner):
    client, _raw = token_client(owner)
    response = client.put("/api/v1/plans", json.dumps(fixed_plan(TIER)), content_type=JSON)
    assert response.status_code == 405
    assert response["Allow"] == "GET, POST"
    assert not Plan.objects.exists()
