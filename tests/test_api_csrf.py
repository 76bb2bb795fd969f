"""A browser session's unsafe API calls need the CSRF token; the refusal is the API's JSON
with Django's reason, the site's pages keep Django's own 403 page, and the check is
Django's middleware run through its public hooks (no private method overridden)."""

import ast
from pathlib import Path

import pytest

from planner.models import Plan
from tests.support.api import TEST_BOX, csrf_token, fixed_plan, post_json, session_client

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("one_box_catalog")]
ROOT = Path(__file__).resolve().parent.parent


def test_a_session_without_a_csrf_cookie_is_told_so_in_json(owner):
    response = post_json(session_client(owner), "/api/v1/plans", fixed_plan(TEST_BOX))
    assert response.status_code == 403
    assert response.json() == {"errors": {"auth": ["CSRF check failed: CSRF cookie not set."]}}
    assert not Plan.objects.exists()


def test_a_session_with_the_cookie_but_a_wrong_token_is_refused(owner):
    client = session_client(owner)
    csrf_token(client)  # the cookie is set
    response = post_json(client, "/api/v1/plans", fixed_plan(TEST_BOX), **{"X-CSRFToken": "x"})
    assert response.status_code == 403
    assert response.json()["errors"]["auth"][0].startswith("CSRF check failed: CSRF token")
    assert not Plan.objects.exists()


def test_revoking_a_share_from_a_session_needs_the_token_too(owner):
    client = session_client(owner)
    token = csrf_token(client)
    plan_id = post_json(
        client, "/api/v1/plans", fixed_plan(TEST_BOX), **{"X-CSRFToken": token}
    ).json()["id"]
    share = client.post(f"/api/v1/plans/{plan_id}/shares", headers={"X-CSRFToken": token})
    assert share.status_code == 201
    url = f"/api/v1/plans/{plan_id}/shares/{share.json()['token']}"
    assert client.delete(url).status_code == 403
    assert client.delete(url, headers={"X-CSRFToken": token}).status_code == 204


def test_the_sites_pages_keep_djangos_own_csrf_page(owner):
    response = session_client(owner).post("/plans/new", {"baseline__monthly": "480"})
    assert response.status_code == 403
    assert response["Content-Type"].startswith("text/html")


def _private_overrides(path: Path) -> list[str]:
    """Methods named _x defined in classes that derive from Django's CSRF middleware."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ClassDef) and any(
            "CsrfViewMiddleware" in ast.unparse(base) for base in node.bases
        ):
            found += [
                f"{path.name}:{node.name}.{item.name}"
                for item in node.body
                if isinstance(item, ast.FunctionDef) and item.name.startswith("_")
            ]
    return found


def test_no_code_of_ours_overrides_a_private_method_of_djangos_csrf_middleware():
    sources = [p for d in ("planner", "common") for p in (ROOT / d).rglob("*.py")]
    assert [hit for path in sources for hit in _private_overrides(path)] == []
