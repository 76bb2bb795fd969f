"""A request Django refuses before any view (here a Host header the server does not serve,
as schemathesis sends): 400 in the API's JSON error shape under /api/, the site's styled
page elsewhere, in the reader's language; never Django's bare HTML page."""

import json

import pytest
from django.utils import translation

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def language_left_as_found():
    """A refused request never reaches the view that would leave the reader's language
    behind, so the language its middleware chose stays active in this thread: reset it."""
    yield
    translation.deactivate()


@pytest.mark.parametrize(
    "method, path",
    [("post", "/api/v1/evaluate"), ("get", "/api/v1/plans"), ("get", "/api/v1/shared/x")],
)
def test_a_host_the_server_does_not_serve_gets_the_apis_json_error(client, method, path):
    kwargs = {"content_type": "application/json", "data": "{}"} if method == "post" else {}
    response = getattr(client, method)(path, HTTP_HOST="ckOmil", **kwargs)
    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    errors = json.loads(response.content)["errors"]
    assert list(errors) == ["__all__"] and "Host header" in errors["__all__"][0]


@pytest.mark.parametrize(
    "language, title", [("en", "This request could not be answered"),
                        ("de", "Diese Anfrage konnte nicht beantwortet werden")],
)  # fmt: skip
def test_a_page_request_for_such_a_host_gets_the_styled_page(client, language, title):
    response = client.get("/", HTTP_HOST="bad host", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400 and response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert title in page and 'data-testid="bad-request"' in page and "css/app.css" in page
