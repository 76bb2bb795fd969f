"""Share links: the owner creates, lists and revokes them; anyone with the token reads."""

import pytest
from django.test import Client

from planner.models import Plan, Share
from tests.support.api import csrf_token, fixed_plan, post_json, session_client, token_client
from tests.support.catalog import add_price, make_tier

pytestmark = pytest.mark.django_db
TIER = "test-box"


@pytest.fixture(autouse=True)
def _catalog(settings):
    settings.API_RATE_LIMIT_PER_MINUTE = 10_000
    tier = make_tier(TIER, provider="Test", kind="dedicated", pricing_model="fixed_monthly")
    add_price(tier, "100", "2026-01-01", unit="month", source="test price list")


@pytest.fixture
def plan_id(api) -> str:
    return post_json(api, "/api/v1/plans", fixed_plan(TIER, name="move to test-box")).json()["id"]


def share(api, plan_id: str) -> dict:
    response = api.post(f"/api/v1/plans/{plan_id}/shares")
    assert response.status_code == 201
    return response.json()


def test_anyone_with_the_link_reads_the_snapshot_without_logging_in(api, plan_id):
    created = share(api, plan_id)
    token = created["token"]
    assert len(token) >= 43  # 32 random bytes, url-safe base64: 256 bits
    assert created["url"].endswith(f"/api/v1/shared/{token}")
    response = Client().get(f"/api/v1/shared/{token}")
    assert response.status_code == 200
    body = response.json()
    assert body["inputs"]["name"] == "move to test-box"
    assert body["prices"][0]["tier"] == TIER
    assert body["prices"][0]["amount"] == "100.000000"
    assert body["results"]["options"][0]["money"]["saving_per_month"] == "380.00"
    assert "owner" not in str(body)  # the reader learns nothing about who shared it


def test_tokens_are_unique_and_unguessable(api, plan_id):
    tokens = {share(api, plan_id)["token"] for _ in range(5)}
    assert len(tokens) == 5
    assert Share.objects.filter(plan__code=plan_id).count() == 5


def test_a_revoked_link_answers_exactly_like_an_unknown_one(api, plan_id):
    token = share(api, plan_id)["token"]
    assert api.delete(f"/api/v1/plans/{plan_id}/shares/{token}").status_code == 204
    assert Share.objects.get(token=token).revoked_at is not None
    revoked = Client().get(f"/api/v1/shared/{token}")
    unknown = Client().get("/api/v1/shared/" + "x" * len(token))
    assert revoked.status_code == unknown.status_code == 404
    assert revoked.content == unknown.content
    assert revoked["Content-Type"] == unknown["Content-Type"]


def test_the_owner_lists_live_and_revoked_links(api, plan_id):
    first, second = share(api, plan_id)["token"], share(api, plan_id)["token"]
    api.delete(f"/api/v1/plans/{plan_id}/shares/{first}")
    listed = api.get(f"/api/v1/plans/{plan_id}/shares").json()["shares"]
    revoked = {s["token"]: s["revoked_at"] is not None for s in listed}
    assert revoked == {first: True, second: False}


def test_others_cannot_share_list_or_revoke_my_plan(api, plan_id, other_user):
    token = share(api, plan_id)["token"]
    theirs = token_client(other_user)[0]
    assert theirs.post(f"/api/v1/plans/{plan_id}/shares").status_code == 404
    assert theirs.get(f"/api/v1/plans/{plan_id}/shares").status_code == 404
    assert theirs.delete(f"/api/v1/plans/{plan_id}/shares/{token}").status_code == 404
    assert Share.objects.count() == 1
    assert Share.objects.get().revoked_at is None


def test_anonymous_callers_cannot_create_or_revoke(api, plan_id):
    token = share(api, plan_id)["token"]
    assert Client().delete(f"/api/v1/plans/{plan_id}/shares/{token}").status_code == 401
    assert Share.objects.get().revoked_at is None
    Share.objects.all().delete()
    client = Client()
    assert client.post(f"/api/v1/plans/{plan_id}/shares").status_code == 401
    assert not Share.objects.exists()


def test_revoking_from_a_browser_session_needs_csrf(owner, api, plan_id):
    token = share(api, plan_id)["token"]
    browser = session_client(owner)
    assert browser.delete(f"/api/v1/plans/{plan_id}/shares/{token}").status_code == 403
    assert Share.objects.get().revoked_at is None
    response = browser.delete(
        f"/api/v1/plans/{plan_id}/shares/{token}", headers={"X-CSRFToken": csrf_token(browser)}
    )
    assert response.status_code == 204


def test_deleting_the_plan_takes_its_links_with_it(api, plan_id):
    token = share(api, plan_id)["token"]
    Plan.objects.filter(code=plan_id).delete()
    assert Client().get(f"/api/v1/shared/{token}").status_code == 404
