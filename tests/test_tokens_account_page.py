import pytest
from django.test import Client

from planner.models import ApiToken, hash_key
from tests.support.api import csrf_token, session_client, token_client

pytestmark = pytest.mark.django_db


def test_it_sends_anonymous_visitors_to_log_in():
    response = Client().get("/account/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_it_lists_only_my_tokens(owner, other_user):
    ApiToken.issue(user=owner, name="my laptop")
    ApiToken.issue(user=other_user, name="their ci")
    page = session_client(owner).get("/account/").content.decode()
    assert "my laptop" in page
    assert "their ci" not in page


def test_it_shows_a_new_key_once_and_stores_only_its_hash(owner):
    client = session_client(owner)
    response = client.post("/account/", {"name": "CI"}, headers={"X-CSRFToken": csrf_token(client)})
    assert response.status_code == 201
    raw = response.context["new_key"]
    assert raw in response.content.decode()
    token = ApiToken.objects.get(user=owner)
    assert token.name == "CI"
    assert token.key_hash == hash_key(raw)
    assert raw not in (token.key_hash, token.prefix)
    assert raw.startswith(token.prefix)
    assert raw not in client.get("/account/").content.decode()


def test_it_refuses_to_create_a_token_without_csrf(owner):
    response = session_client(owner).post("/account/", {"name": "CI"})
    assert response.status_code == 403
    assert not ApiToken.objects.exists()


def test_it_refuses_a_token_without_a_name(owner):
    client = session_client(owner)
    response = client.post("/account/", {"name": ""}, headers={"X-CSRFToken": csrf_token(client)})
    assert response.status_code == 400
    assert not ApiToken.objects.exists()


def test_a_revoked_token_stops_working_at_once(owner):
    api, _raw = token_client(owner)
    assert api.get("/api/v1/plans").status_code == 200
    token = ApiToken.objects.get(user=owner)
    client = session_client(owner)
    response = client.post(
        f"/account/tokens/{token.pk}/revoke", headers={"X-CSRFToken": csrf_token(client)}
    )
    assert response.status_code == 302
    token.refresh_from_db()
    assert token.revoked_at is not None
    assert api.get("/api/v1/plans").status_code == 401
    assert "revoked" in client.get("/account/").content.decode()


def test_it_will_not_revoke_someone_elses_token(owner, other_user):
    theirs, _raw = ApiToken.issue(user=other_user, name="theirs")
    client = session_client(owner)
    response = client.post(
        f"/account/tokens/{theirs.pk}/revoke", headers={"X-CSRFToken": csrf_token(client)}
    )
    assert response.status_code == 404
    theirs.refresh_from_db()
    assert theirs.revoked_at is None


def test_revoking_needs_a_post(owner):
    token, _raw = ApiToken.issue(user=owner, name="t")
    response = session_client(owner).get(f"/account/tokens/{token.pk}/revoke")
    assert response.status_code == 405
    token.refresh_from_db()
    assert token.revoked_at is None
