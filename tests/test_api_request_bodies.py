"""Plan bodies are JSON only (415 otherwise) and read with a bound, chunked ones included:
a chunked body over the limit is 413, never read whole nor taken for empty JSON."""

import io
import json

import pytest
from django.test.client import FakePayload

from planner.models import Plan
from tests.support.api import TEST_BOX, fixed_plan, post_json

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("one_box_catalog")]
ENDPOINTS = ("/api/v1/evaluate", "/api/v1/plans")


class CountingStream(io.BytesIO):
    """A request stream that counts what the server read of it."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.bytes_read = 0

    def read(self, size=-1, /):
        data = super().read(size)
        self.bytes_read += len(data)
        return data


def chunked_post(client, url: str, body: bytes, stream=None, **extra):
    """What gunicorn hands Django for `Transfer-Encoding: chunked`: no Content-Length, the
    de-chunked bytes in wsgi.input (Django's own request reads none of them)."""
    return client.generic(
        "POST",
        url,
        HTTP_TRANSFER_ENCODING="chunked",
        CONTENT_TYPE=extra.pop("content_type", "application/json"),
        **{"wsgi.input": stream or CountingStream(body)},
        **extra,
    )


@pytest.mark.parametrize("url", ENDPOINTS)
@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/x-www-form-urlencoded", "application/xml"]
)
def test_a_body_that_is_not_json_is_415_and_stores_nothing(api, url, content_type):
    body = json.dumps(fixed_plan(TEST_BOX))
    response = api.post(url, body, content_type=content_type)
    assert response.status_code == 415
    assert response["Content-Type"] == "application/json"
    (message,) = response.json()["errors"]["body"]
    assert message == f"send the body as application/json (Content-Type was {content_type})"
    assert not Plan.objects.exists()


def test_json_with_a_charset_is_json(api):
    body = json.dumps(fixed_plan(TEST_BOX))
    response = api.post("/api/v1/plans", body, content_type="application/json; charset=utf-8")
    assert response.status_code == 201


@pytest.mark.parametrize("url", ENDPOINTS)
def test_a_chunked_body_over_the_limit_is_413_read_no_further_than_the_limit(api, url, settings):
    plan = fixed_plan(TEST_BOX, name="x" * (300 * 1024))
    stream = CountingStream(json.dumps(plan).encode())
    response = chunked_post(api, url, b"", stream=stream)
    assert response.status_code == 413
    assert response.json()["errors"] == {
        "body": [f"request body larger than {settings.API_MAX_BODY_BYTES} bytes"]
    }
    assert stream.bytes_read == settings.API_MAX_BODY_BYTES + 1
    assert not Plan.objects.exists()


def test_a_chunked_plan_within_the_limit_is_read_and_stored(api):
    response = chunked_post(api, "/api/v1/plans", json.dumps(fixed_plan(TEST_BOX)).encode())
    assert response.status_code == 201, response.content[:300]
    assert Plan.objects.get().inputs["baseline"]["monthly"] == "480.00"


def test_a_chunked_body_of_another_type_is_415_unread(api):
    stream = CountingStream(b"name=x")
    response = chunked_post(
        api, "/api/v1/plans", b"", stream=stream, content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 415
    assert stream.bytes_read == 0


def test_a_body_of_exactly_the_limit_is_read(api, settings):
    plan = json.dumps(fixed_plan(TEST_BOX)).encode()
    padded = plan + b" " * (settings.API_MAX_BODY_BYTES - len(plan))
    assert post_json(api, "/api/v1/evaluate", padded).status_code == 200


def test_a_body_one_byte_over_the_limit_is_413(api, settings):
    plan = json.dumps(fixed_plan(TEST_BOX)).encode()
    padded = plan + b" " * (settings.API_MAX_BODY_BYTES + 1 - len(plan))
    assert post_json(api, "/api/v1/evaluate", padded).status_code == 413


def test_no_body_at_all_is_malformed_json_not_415(api):
    response = api.generic("POST", "/api/v1/evaluate")
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["body"]


def test_a_content_length_that_is_not_a_number_is_400(api):
    response = api.generic(
        "POST",
        "/api/v1/evaluate",
        CONTENT_TYPE="application/json",
        CONTENT_LENGTH="lots",
        **{"wsgi.input": FakePayload(b"{}")},
    )
    assert response.status_code == 400
    assert response.json()["errors"] == {"body": ["Content-Length is not a number"]}
