"""The bill endpoints through real HTTP (Django's test client) with a real Celery worker on
the control (`default`) queue and real Redis: upload, poll, list, read, delete; owner-only."""

from __future__ import annotations

import time
from decimal import Decimal

import pytest
from django.conf import settings

from bills.models import Bill, BillLine, BillUpload
from tests.support.api import token_client
from tests.support.bills import FOCUS, bill_sample, rows_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


def _upload(client, path, name):
    with path.open("rb") as handle:
        return client.post(
            f"/api/v1/bills?name={name}", data=handle.read(),
            content_type="application/octet-stream",
        )  # fmt: skip


def _poll(client, url: str, timeout: float = 90) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        body = client.get(url).json()
        if body["status"] in ("done", "refused"):
            return body
        time.sleep(0.3)
    raise AssertionError(f"upload not over in {timeout}s: {body}")


def _uploads_left() -> list:
    folder = settings.VAR_DIR / "bill_uploads"
    return [p for p in folder.glob("*.upload")] if folder.is_dir() else []


def test_upload_import_list_read_and_delete_through_the_worker(
    redis_url, start_worker, owner, other_user
) -> None:
    start_worker("control", ["default"])
    client = token_client(owner)[0]
    path = bill_sample(FOCUS)
    answer = _upload(client, path, "focus-sep-2024.csv")
    assert answer.status_code == 202, answer.content
    queued = answer.json()
    assert queued["status"] in ("queued", "importing", "done")
    assert answer["Location"] == queued["url"]

    done = _poll(client, queued["url"])
    assert done["status"] == "done", done
    assert done["message"]["code"] == "bills.import.done"
    assert done["rows_read"] == 1000
    assert not _uploads_left()  # the raw file is not kept

    listed = client.get("/api/v1/bills").json()["bills"]
    assert [b["id"] for b in listed] == [done["bill"]]
    assert listed[0]["name"] == "focus-sep-2024.csv" and listed[0]["kind"] == "focus"

    detail = client.get(done["bill_url"]).json()
    plain = sum(Decimal(r["BilledCost"]) for r in rows_of(path)[1])
    assert abs(Decimal(detail["totals"]["billed"]) - plain) < Decimal("1e-6")
    assert detail["totals"]["rows"] == 1000
    aws = {(r["provider"], r["service_category"]) for r in detail["by_service"]}
    assert ("AWS", "Compute") in aws
    assert any(r["instance_type"] == "c5.2xlarge" for r in detail["compute"])
    zero = next(f for f in detail["flags"] if f["code"] == "bills.flag.effective_zero")
    assert zero["params"]["fallback"] == "billed" and "billed cost is used" in zero["text"]

    # owner-only: another user sees the same 404 as for nothing at all
    other = token_client(other_user, "other")[0]
    assert other.get(done["bill_url"]).status_code == 404
    assert other.get(queued["url"]).status_code == 404
    assert other.get("/api/v1/bills").json() == {"bills": []}
    assert other.delete(done["bill_url"]).status_code == 404
    assert Bill.objects.filter(pk=done["bill"]).exists()

    assert client.delete(done["bill_url"]).status_code == 204
    assert not Bill.objects.filter(pk=done["bill"]).exists()
    assert not BillLine.objects.filter(bill_id=done["bill"]).exists()
    assert client.get(done["bill_url"]).status_code == 404


def test_a_refused_upload_says_why_and_stores_nothing(redis_url, start_worker, owner, tmp_path):
    start_worker("control", ["default"])
    client = token_client(owner)[0]
    page = tmp_path / "bill.csv"
    page.write_bytes(b"<!DOCTYPE html><html><body>Session expired</body></html>\n")
    status = _poll(client, _upload(client, page, "bill.csv").json()["url"])
    assert status["status"] == "refused"
    assert status["message"]["code"] == "bills.file.wrong_kind"
    assert "bill.csv is not a cost export" in status["message"]["text"]
    assert status["bill"] is None
    assert not Bill.objects.exists() and not _uploads_left()


def test_an_upload_without_a_file_is_a_400_in_the_apis_shape(owner) -> None:
    client = token_client(owner)[0]
    answer = client.post("/api/v1/bills", data={}, content_type="multipart/form-data; boundary=x")
    assert answer.status_code == 400
    body = answer.json()
    assert (
        body["errors"]["file"]
        and body["error_details"]["file"][0]["code"] == "bills.upload.missing"
    )
    assert not BillUpload.objects.exists()


def test_an_upload_over_the_limit_is_a_413_and_leaves_no_file(owner, settings) -> None:
    settings.BILLS_MAX_UPLOAD_BYTES = 1000
    folder = settings.VAR_DIR / "bill_uploads"
    # the Bills page's own tests may leave pieces of their uploads (cleared after an hour)
    before = set(folder.glob("incoming-*"))
    client = token_client(owner)[0]
    answer = _upload(client, bill_sample(FOCUS), "big.csv")
    assert answer.status_code == 413
    assert answer.json()["error_details"]["body"][0]["params"]["limit"] == 1000
    assert not BillUpload.objects.exists()
    assert set(folder.glob("incoming-*")) <= before


def test_without_a_caller_the_bills_are_a_401(client) -> None:
    assert client.get("/api/v1/bills").status_code == 401


def test_a_file_name_with_a_nul_or_line_breaks_is_kept_without_them(owner) -> None:
    """As schemathesis sent it: a NUL in `name` gave PostgreSQL's DataError, a 500."""
    client = token_client(owner)[0]
    answer = client.post(
        "/api/v1/bills?name=%3D%2C%00bill%0A.csv", data=b"\x11\xc8",
        content_type="application/octet-stream",
    )  # fmt: skip
    assert answer.status_code < 500, answer.content[:300]
    assert list(BillUpload.objects.values_list("name", flat=True)) == ["=,bill.csv"]
