"""A NUL byte in a path is "not found" and in a form field a 400 naming it, on every database.

PostgreSQL text cannot hold NUL: before the path check these URLs raised psycopg's
DataError (an HTML 500) there, while SQLite quietly found nothing.
"""

import json

import pytest
from django.test import Client

from planner.models import Plan, Share
from planner.services import plans as services
from tests.support.api import token_client
from tests.support.dashboard import field_error, form_data, login, saved_plan

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("two_tier_catalog")]

NUL_PATHS = [
    "/s/%00/",
    "/s/x%00/comparison.csv",
    "/s/x%00/",
    "/api/v1/shared/%00",
    "/api/v1/plans/%00",
    "/plans/%00/",
    "/benchmarks/runs/%00/",
    "/catalog/%00",
    "/static/%00.css",
    "/admin/catalog/tier/%00/change/",
]


@pytest.fixture
def plan(owner):
    return saved_plan(owner)


@pytest.mark.parametrize("path", NUL_PATHS)
def test_a_nul_in_a_path_is_not_found_for_anyone(path, owner, staff_user):
    for client in (Client(), login(owner), login(staff_user)):
        assert client.get(path).status_code == 404, path


def test_a_nul_in_an_api_path_is_the_apis_json_not_found(owner, plan):
    response = token_client(owner)[0].get("/api/v1/shared/%00")
    assert response.status_code == 404
    assert json.loads(response.content) == {"errors": {"__all__": ["not found"]}}


def test_revoking_a_share_token_with_a_nul_is_not_found_and_revokes_nothing(owner, plan):
    share = services.share_create(plan=plan, user=owner)
    api = token_client(owner)[0]
    for token in ("a%00b", f"{share.token}%00"):
        response = api.delete(f"/api/v1/plans/{plan.code}/shares/{token}")
        assert response.status_code == 404
    assert Client().delete(f"/api/v1/plans/{plan.code}/shares/a%00b").status_code == 404
    assert Share.objects.get().revoked_at is None


def test_a_shared_page_and_its_export_still_answer_beside_the_refusals(owner, plan):
    share = services.share_create(plan=plan, user=owner)
    assert Client().get(f"/s/{share.token}/").status_code == 200
    assert Client().get(f"/s/{share.token}/comparison.csv").status_code == 200


@pytest.mark.parametrize("field", ["name", "baseline__monthly", "cand-0-tier"])
def test_a_nul_in_a_plan_editor_field_is_a_400_naming_the_field(owner, field):
    data = form_data(name="move", action="save")
    data[field] = data[field][:1] + "\x00" + data[field][1:]
    response = login(owner).post("/plans/new", data)
    assert response.status_code == 400
    assert field_error(response.content.decode(), field)
    assert not Plan.objects.exists()


@pytest.mark.parametrize("field", ["username", "password"])
def test_a_nul_in_a_login_field_is_a_400_naming_the_field(owner, field):
    data = {"username": "owner", "password": "pw-owner-1"}
    data[field] = "own\x00er" if field == "username" else "pw-owner-1\x00"
    response = Client().post("/accounts/login/", data)
    assert response.status_code == 400
    html = response.content.decode()
    assert "Null characters are not allowed." in html
    assert f'id="id_{field}_error"' in html or f'aria-describedby="id_{field}_error"' in html


def test_a_wrong_password_is_still_the_usual_login_page(owner):
    response = Client().post("/accounts/login/", {"username": "owner", "password": "nope"})
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()
