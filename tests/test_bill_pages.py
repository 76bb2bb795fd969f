"""The Bills pages through Django's test client against the real database: a bill page in
English and German, its CSV, its charts, the plan link; owner-only (another user's bill
is a 404 and cannot be deleted); the upload in pieces and its polled status."""

from __future__ import annotations

import csv
import io

import pytest

from bills import page
from bills.models import Bill, BillUpload
from bills.services import uploads
from bills.services.importing import import_bill
from tests.support.bills import FOCUS, bill_sample

pytestmark = pytest.mark.django_db


@pytest.fixture
def focus_bill(owner) -> Bill:
    bill = import_bill(bill_sample(FOCUS), owner, name="focus-sep-2024.csv").bill
    page.warm(bill.pk)  # as the upload task and `manage.py import_bill` do
    return bill


def _client(client, user):
    client.force_login(user)
    return client


def test_the_bill_page_shows_its_figures_and_links_to_a_plan(client, owner, focus_bill):
    answer = _client(client, owner).get(f"/bills/{focus_bill.pk}/")
    assert answer.status_code == 200
    html = answer.content.decode()
    assert f'href="/plans/new?bill={focus_bill.pk}"' in html
    assert "Plan a move from this bill" in html
    assert "Compute" in html and "AI and machine learning" in html
    assert 'data-flag="bills.flag.effective_zero"' in html and "the billed cost" in html
    assert "2024-09" in html  # the sample's AWS month
    figures = page.figures(focus_bill)
    assert figures["months"] and figures["hours"]  # compute hours by instance type
    assert figures["commitments"]["coverage"] is not None


def test_the_bill_page_in_german(client, owner, focus_bill):
    c = _client(client, owner)
    c.post("/i18n/setlang/", {"language": "de", "next": "/"})
    html = c.get(f"/bills/{focus_bill.pk}/").content.decode()
    assert "Einen Umzug aus dieser Rechnung planen" in html
    assert "Datenqualität" in html


def test_csv_and_charts(client, owner, focus_bill):
    c = _client(client, owner)
    answer = c.get(f"/bills/{focus_bill.pk}/export.csv")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(answer.content.decode())))
    monthly = [r for r in rows if r["table"] == "monthly"]
    assert monthly and all(not r["service_category"].startswith("=") for r in rows)
    for kind in ("monthly", "floor"):
        svg = c.get(f"/bills/{focus_bill.pk}/chart/{kind}.svg")
        assert svg.status_code == 200 and svg.content.startswith(b"<?xml")
    assert c.get(f"/bills/{focus_bill.pk}/chart/nope.svg").status_code == 404


def test_another_user_gets_404_and_cannot_delete(client, owner, other_user, focus_bill):
    c = _client(client, other_user)
    for url in (f"/bills/{focus_bill.pk}/", f"/bills/{focus_bill.pk}/export.csv",
                f"/bills/{focus_bill.pk}/chart/monthly.svg"):  # fmt: skip
        assert c.get(url).status_code == 404
    assert c.post(f"/bills/{focus_bill.pk}/delete").status_code == 404
    assert Bill.objects.filter(pk=focus_bill.pk).exists()
    assert focus_bill.name not in c.get("/bills/").content.decode()
    mine = _client(client, owner)
    assert focus_bill.name in mine.get("/bills/").content.decode()
    assert mine.post(f"/bills/{focus_bill.pk}/delete").status_code == 302
    assert not Bill.objects.filter(pk=focus_bill.pk).exists()


def test_logged_out_is_sent_to_log_in(client, focus_bill):
    assert client.get(f"/bills/{focus_bill.pk}/").status_code == 302


def test_an_upload_in_pieces_is_recorded_and_its_status_polled(client, owner, other_user):
    c = _client(client, owner)
    data = bill_sample(FOCUS).read_bytes()
    token, offset = "", 0
    while offset < len(data):
        piece = data[offset : offset + 100_000]
        answer = c.post(f"/bills/upload/chunk?offset={offset}&token={token}&name=f.csv",
                        data=piece, content_type="application/octet-stream")  # fmt: skip
        assert answer.status_code == 200, answer.content
        token, offset = answer.json()["token"], answer.json()["received"]
    # A piece out of order is refused by name, nothing appended.
    wrong = c.post(f"/bills/upload/chunk?offset=5&token={token}&name=f.csv", data=b"x",
                   content_type="application/octet-stream")  # fmt: skip
    assert wrong.status_code == 400 and "f.csv" in wrong.json()["error"]
    # Another user cannot finish (or see) this user's pieces.
    other = client.__class__()
    other.force_login(other_user)
    assert other.post("/bills/upload/finish", {"token": token, "name": "f.csv"}).status_code == 400
    done = c.post("/bills/upload/finish", {"token": token, "name": "f.csv"})
    assert done.status_code == 200 and 'data-status="queued"' in done.content.decode()
    upload = BillUpload.objects.get(owner=owner)
    assert (uploads.upload_dir() / f"{upload.pk}.upload").read_bytes() == data
    uploads.run(upload.pk)  # what the control worker runs
    status = c.get(f"/bills/uploads/{upload.pk}/", headers={"HX-Request": "true"})
    assert status.status_code == 286 and 'data-status="done"' in status.content.decode()
    assert other.get(f"/bills/uploads/{upload.pk}/").status_code == 404


def test_a_piece_as_large_as_the_page_sends_is_taken_and_a_larger_refused(client, owner):
    c = _client(client, owner)
    piece = b"x" * (4 * 1024 * 1024)  # the page's pieces: past Django's 2.5 MB body cap
    answer = c.post("/bills/upload/chunk?offset=0&token=&name=big.csv", data=piece,
                    content_type="application/octet-stream")  # fmt: skip
    assert answer.status_code == 200 and answer.json()["received"] == len(piece)
    token = answer.json()["token"]
    too_big = b"x" * (8 * 1024 * 1024 + 1)
    refused = c.post(f"/bills/upload/chunk?offset={len(piece)}&token={token}&name=big.csv",
                     data=too_big, content_type="application/octet-stream")  # fmt: skip
    assert refused.status_code == 400 and "big.csv" in refused.json()["error"]


def test_a_refused_file_says_why_with_its_line(client, owner):
    c = _client(client, owner)
    answer = c.post("/bills/upload/chunk?offset=0&token=&name=bad.csv",
                    data=b"BilledCost,ChargePeriodStart\n1,not-a-date\n",
                    content_type="application/octet-stream")  # fmt: skip
    token = answer.json()["token"]
    c.post("/bills/upload/finish", {"token": token, "name": "bad.csv"})
    upload = BillUpload.objects.get(owner=owner)
    uploads.run(upload.pk)
    html = c.get(f"/bills/uploads/{upload.pk}/").content.decode()
    assert 'data-status="refused"' in html and "bad.csv" in html


def test_a_lost_cache_is_rebuilt_on_the_control_queue_not_in_the_request(
    client, owner, focus_bill, own_cache
):
    """The kept figures gone (own_cache: an empty cache): the page says they are being
    computed and reloads itself; the queued `bills.warm_page` task (run here as the
    control worker runs it) keeps them, and the page shows them."""
    from bills.tasks import warm_page

    c = _client(client, owner)
    waiting = c.get(f"/bills/{focus_bill.pk}/").content.decode()
    # It polls with htmx (no <meta refresh>: a timed reload is an accessibility failure).
    assert 'data-testid="bill-computing"' in waiting and 'hx-trigger="every 2s"' in waiting
    assert 'http-equiv="refresh"' not in waiting
    assert page.kept(focus_bill) is None and not page.claim(focus_bill)  # one rebuild queued
    poll = c.get(f"/bills/{focus_bill.pk}/", HTTP_HX_REQUEST="true")
    assert poll.status_code == 204 and "HX-Refresh" not in poll  # still computing
    warm_page(focus_bill.pk)
    assert page.kept(focus_bill) is not None and page.claim(focus_bill)  # the claim released
    poll = c.get(f"/bills/{focus_bill.pk}/", HTTP_HX_REQUEST="true")
    assert poll.status_code == 200 and poll["HX-Refresh"] == "true"  # ready: the page reloads
    shown = c.get(f"/bills/{focus_bill.pk}/").content.decode()
    assert 'data-testid="coverage"' in shown and "bill-computing" not in shown


def test_import_bill_command_keeps_the_page_figures(owner, own_cache, capsys):
    from django.core.management import call_command

    call_command("import_bill", str(bill_sample(FOCUS)), "--owner", owner.username)
    bill = Bill.objects.get(owner=owner)
    assert page.kept(bill) == page.compute(bill)
