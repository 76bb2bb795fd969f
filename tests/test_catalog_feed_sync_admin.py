"""The admin's "Sync now": each source's last sync and next run, the task queued on the
control queue, and the progress shown (polled every second) until the task is over."""

import datetime as dt

import pytest
from django.contrib.auth.models import Permission
from django.utils import timezone

from catalog.feeds.registry import SOURCES
from catalog.feeds.sync import _Storing, sync_source
from catalog.models import FeedImport
from common.messages import msg
from tests.support.feeds import AWS_JSON

pytestmark = pytest.mark.django_db
PAGE = "/admin/catalog/feedimport/sync/"


@pytest.fixture
def syncer(client, staff_user, own_cache):
    staff_user.user_permissions.add(*Permission.objects.filter(codename__in=["add_price"]))
    client.force_login(staff_user)
    return client


@pytest.fixture
def queued(monkeypatch):
    """Stands in for the broker: records what was queued, and says when it is over."""
    calls: list[dict] = []
    state = {"over": False}

    class Sent:
        id = "task-1"

    def apply_async(*args, **kwargs):
        calls.append(kwargs)
        return Sent()

    monkeypatch.setattr("catalog.admin.sync_prices.apply_async", apply_async)
    monkeypatch.setattr("catalog.admin.task_finished", lambda task_id: state["over"])
    return calls, state


def imported(source, region, **fields) -> FeedImport:
    now = timezone.now()
    defaults = {"url": "https://example.com/feed", "started_at": now, "finished_at": now,
                "status": FeedImport.Status.IMPORTED}  # fmt: skip
    return FeedImport.objects.create(source=source, region=region, **{**defaults, **fields})


def test_the_page_lists_each_source_with_its_last_sync_counts_refusals_and_next_run(syncer):
    imported("aws", "us-east-1", records=1200, new_tiers=40, changed_prices=3)
    imported("hetzner", "", status=FeedImport.Status.REFUSED,
             messages=[msg("feeds.no_records").to_json()])  # fmt: skip
    page = syncer.get(PAGE).content.decode()
    for source in ("aws", "azure", "hetzner", "ovh", "ecb", "ecb-history"):
        assert f'id="source-{source}"' in page
    aws = page[page.index('id="source-aws"') :]
    aws = aws[: aws.index("</tr>")]
    assert "1200 records: 40 new tiers, 3 changed prices" in aws
    hetzner = page[page.index('id="source-hetzner"') :]
    assert "The feed offers no prices or rates that this catalog keeps." in hetzner
    ecb_history = page[page.index('id="source-ecb-history"') :]
    assert "on request only" in ecb_history[: ecb_history.index("</tr>")]
    assert page.count("Sync now</button>") == len(SOURCES)


def test_sync_now_queues_the_task_on_the_default_queue_and_polls_until_it_is_over(syncer, queued):
    calls, state = queued
    response = syncer.post(PAGE + "aws/")
    assert response.status_code == 302
    assert calls == [{"args": ["aws"], "queue": "default"}]
    page = syncer.get(PAGE).content.decode()
    assert 'hx-get="/admin/catalog/feedimport/sync/aws/progress/"' in page
    assert 'hx-trigger="load, every 1s"' in page
    # A second click while it runs queues nothing more.
    syncer.post(PAGE + "aws/")
    assert len(calls) == 1

    progress = PAGE + "aws/progress/"
    waiting = syncer.get(progress)
    assert waiting.status_code == 200 and "queued" in waiting.content.decode()
    run = imported("aws", "us-east-1", status=FeedImport.Status.RUNNING, finished_at=None,
                   bytes=5_000_000, records=1234)  # fmt: skip
    running = syncer.get(progress)
    body = running.content.decode()
    assert running.status_code == 200
    assert "<progress" in body and "1,234 records" in body and "4.8" in body

    FeedImport.objects.filter(pk=run.pk).update(status=FeedImport.Status.IMPORTED, new_tiers=7)
    state["over"] = True
    done = syncer.get(progress)
    assert done.status_code == 286  # htmx stops polling
    assert "<progress" not in done.content.decode()
    assert "new tiers: 7" in done.content.decode()
    # Over: the page offers the button again.
    assert syncer.get(PAGE).content.decode().count("Sync now</button>") == len(SOURCES)


def test_only_staff_who_may_add_prices_can_sync(client, staff_user):
    client.force_login(staff_user)
    assert client.get(PAGE).status_code == 403
    assert client.post(PAGE + "aws/").status_code == 403


def test_a_running_sync_saves_its_bytes_and_records_on_its_row(settings, tmp_path, monkeypatch,
                                                              httpserver):  # fmt: skip
    settings.CATALOG_FEED_BACKOFF_SECONDS = 0
    settings.CATALOG_FEED_DIR = tmp_path / "downloads"
    monkeypatch.setattr(_Storing, "INTERVAL", 0)
    httpserver.expect_request("/offer.json").respond_with_data(
        AWS_JSON.read_bytes(), content_type="application/json"
    )
    seen: list[tuple[str, int]] = []

    def watch(stage, size, count):
        row = FeedImport.objects.filter(status=FeedImport.Status.RUNNING).first()
        if row is not None:
            seen.append((stage, row.bytes))

    [result] = sync_source("aws", ["us-west-2"], url=httpserver.url_for("/offer.json"),
                           report=watch, store_progress=True)  # fmt: skip
    assert result.status == FeedImport.Status.IMPORTED
    assert any(size > 0 for _, size in seen), seen
    assert max(size for _, size in seen) <= AWS_JSON.stat().st_size


def test_the_next_run_comes_from_the_beat_schedule():
    from catalog.feed_status import next_due

    now = dt.datetime(2026, 12, 1, 1, 0, tzinfo=dt.UTC)
    assert next_due("aws", now) == dt.datetime(2026, 12, 1, 2, 0, tzinfo=dt.UTC)
    assert next_due("ecb-history", now) is None
