"""Downloading a feed over real HTTP (pytest-httpserver): resumed, retried, or refused
with the reason, and a refused download changes nothing in the catalog."""

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from werkzeug import Request, Response

from catalog.feeds.base import FeedRefused
from catalog.feeds.download import download
from catalog.feeds.sync import sync_source
from common.messages import Message, plain
from tests.support.feeds import AWS_JSON, catalog_state

BODY = AWS_JSON.read_bytes()


@pytest.fixture(autouse=True)
def quick_retries(settings, tmp_path):
    settings.CATALOG_FEED_BACKOFF_SECONDS = 0
    settings.CATALOG_FEED_ATTEMPTS = 3
    settings.CATALOG_FEED_TIMEOUT_SECONDS = 10
    settings.CATALOG_FEED_DIR = tmp_path / "downloads"


def cut_short(body: bytes, keep: int) -> Response:
    """Announces the whole body, sends `keep` bytes, then drops the connection."""

    def stream() -> Iterator[bytes]:
        yield body[:keep]
        raise ConnectionAbortedError("test: connection dropped")

    headers = {"Content-Length": str(len(body)), "Accept-Ranges": "bytes"}
    return Response(stream(), headers=headers, content_type="application/json")


def refusal(exc: pytest.ExceptionInfo[FeedRefused]) -> str:
    return plain(exc.value.reasons[0])


def test_a_body_cut_short_is_resumed_with_a_range_request(httpserver, tmp_path):
    ranges: list[str | None] = []

    def handler(request: Request) -> Response:
        ranges.append(request.headers.get("Range"))
        if len(ranges) == 1:
            return cut_short(BODY, 5000)
        start = int(request.headers["Range"].removeprefix("bytes=").rstrip("-"))
        rest = BODY[start:]
        headers = {"Content-Range": f"bytes {start}-{len(BODY) - 1}/{len(BODY)}"}
        return Response(rest, status=206, headers=headers, content_type="application/json")

    httpserver.expect_request("/offer.json").respond_with_handler(handler)
    got = download(httpserver.url_for("/offer.json"), tmp_path / "offer.json")
    assert ranges[0] is None and ranges[1].startswith("bytes=")
    assert got.path.read_bytes() == BODY
    assert got.sha256 == hashlib.sha256(BODY).hexdigest()


def test_a_server_that_ignores_the_range_is_read_again_from_the_start(httpserver, tmp_path):
    calls = []

    def handler(request: Request) -> Response:
        calls.append(request.headers.get("Range"))
        if len(calls) == 1:
            return cut_short(BODY, 3000)
        return Response(BODY, content_type="application/json")  # 200: the whole body again

    httpserver.expect_request("/offer.json").respond_with_handler(handler)
    got = download(httpserver.url_for("/offer.json"), tmp_path / "offer.json")
    assert got.path.read_bytes() == BODY and len(calls) == 2


@pytest.mark.django_db
def test_a_body_still_short_after_the_last_attempt_is_refused_and_nothing_changes(
    httpserver, settings
):
    httpserver.expect_request("/offer.json").respond_with_handler(lambda r: cut_short(BODY, 900))
    before = catalog_state()
    result = sync_source("aws", ["us-west-2"], url=httpserver.url_for("/offer.json"))[0]
    assert result.status == "refused"
    text = plain(Message.from_json(result.messages[0]))
    assert text.startswith("The download of http://") and f"of {len(BODY)} bytes" in text
    assert catalog_state() == before
    assert not list(Path(settings.CATALOG_FEED_DIR).rglob("*-*"))  # the partial copy is gone


def test_an_http_500_is_retried_then_refused(httpserver, tmp_path):
    httpserver.expect_request("/offer.json").respond_with_data("busy", status=500)
    with pytest.raises(FeedRefused) as refused:
        download(httpserver.url_for("/offer.json"), tmp_path / "offer.json")
    assert len(httpserver.log) == 3  # CATALOG_FEED_ATTEMPTS
    assert refusal(refused).startswith("The download of http://")
    assert "after 3 attempts: HTTP 500" in refusal(refused)
    assert not (tmp_path / "offer.json").exists()


def test_a_missing_file_is_refused_at_once_with_its_status(httpserver, tmp_path):
    httpserver.expect_request("/offer.json").respond_with_data("no", status=404)
    with pytest.raises(FeedRefused) as refused:
        download(httpserver.url_for("/offer.json"), tmp_path / "offer.json")
    assert len(httpserver.log) == 1
    url = httpserver.url_for("/offer.json")
    assert refusal(refused) == f"The server answered HTTP 404 for {url}."


@pytest.mark.django_db
def test_an_html_page_is_refused_for_its_content_type_and_nothing_changes(httpserver):
    httpserver.expect_request("/offer.json").respond_with_data(
        "<html>Sign in to the Wi-Fi</html>", content_type="text/html"
    )
    before = catalog_state()
    result = sync_source("aws", ["us-west-2"], url=httpserver.url_for("/offer.json"))[0]
    text = plain(Message.from_json(result.messages[0]))
    assert result.status == "refused" and "sent content of type text/html" in text
    assert catalog_state() == before


def test_a_body_over_the_size_limit_is_refused(httpserver, tmp_path, settings):
    settings.CATALOG_FEED_MAX_BYTES = 1000
    httpserver.expect_request("/offer.json").respond_with_data(
        BODY, content_type="application/json"
    )
    with pytest.raises(FeedRefused) as refused:
        download(httpserver.url_for("/offer.json"), tmp_path / "offer.json")
    assert refusal(refused).endswith("is larger than the limit of 1000 bytes.")
    assert not (tmp_path / "offer.json").exists()
