"""After a price sync the catalog's caches are warmed on the control queue (issue 28): a
sync is one change of the data (the generation moves on), and the `catalog.warm_caches`
task, run by a real Celery worker on the default queue, builds the catalog page's frames
and the tier picker's index into the shared cache, so a web process that never built them
answers from it."""

from __future__ import annotations

import time

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalog import page_frame
from catalog.feeds.sync import sync_source
from catalog.tasks import warm_caches
from changes import memo
from changes.selectors import current_generation
from common.django import clock
from planner.web import tier_search
from tests.support.feeds import sample

H1 = "hetzner/sb-20240709-191830.json"


@pytest.mark.django_db
def test_a_sync_that_writes_moves_the_data_generation_on_and_one_that_does_not_keeps_it():
    before = current_generation()
    sync_source("hetzner", file=sample(H1))
    after = current_generation()
    assert after.number > before.number
    again = sync_source("ecb", file=sample("ecb/eurofxref-daily-20250509.xml"))[0]
    assert again.status == "imported"
    settled = current_generation()
    assert settled.number > after.number
    unchanged = sync_source("hetzner", file=sample(H1))[0]
    assert unchanged.status == "unchanged"
    assert current_generation() == settled  # nothing written, nothing to rebuild


@pytest.mark.django_db(transaction=True)
def test_the_control_worker_warms_the_frames_a_web_process_then_reads(start_worker, client):
    sync_source("hetzner", file=sample(H1))
    memo.drop()  # as a web process that has not served this generation yet
    start_worker("control", ["default"])
    took = warm_caches.delay().get(timeout=180)
    assert {"catalog:own", "catalog:EUR", "catalog:USD"} <= set(took)
    assert any("warm" in name for name in took)  # the tier picker's warmer ran too

    # This process built nothing: its frame comes from the shared cache, in the one query
    # that reads the data generation.
    with CaptureQueriesContext(connection) as queries:
        entry = page_frame.page_frame(clock.today(), None, False)
    assert len(queries) == 1 and len(entry.frame) == 1258
    with CaptureQueriesContext(connection) as queries:
        assert len(tier_search.index()) == 1258
    assert len(queries) == 1
    assert client.get("/catalog/").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_the_sync_task_queues_the_warm_up_which_the_control_worker_runs(
    start_worker, httpserver, settings
):
    """catalog.sync_prices (run here as the control worker would) downloads H1, imports it
    and queues catalog.warm_caches on the default queue; a real worker runs it, and this
    process then reads today's frame from the shared cache."""
    from catalog.tasks import sync_prices

    settings.CATALOG_FEED_HETZNER_URL = httpserver.url_for("/live_data_sb.json")
    httpserver.expect_request("/live_data_sb.json").respond_with_data(
        sample(H1).read_bytes(), content_type="application/json"
    )
    (result,) = sync_prices.apply(args=("hetzner",)).get()
    assert result["status"] == "imported" and result["new_tiers"] == 1258
    memo.drop()  # as a web process that has not served this generation yet
    start_worker("control", ["default"])
    generation = current_generation()
    name = page_frame._shared_key((generation.key, clock.today(), None, False))
    deadline = time.monotonic() + 180
    while cache.get(name) is None and time.monotonic() < deadline:
        time.sleep(0.5)
    with CaptureQueriesContext(connection) as queries:
        entry = page_frame.page_frame(clock.today(), None, False)
    assert len(queries) == 1 and len(entry.frame) == 1258


@pytest.mark.django_db(transaction=True)
def test_the_sync_prices_command_queues_the_warm_up_too(start_worker):
    """`manage.py sync_prices` (not only the admin's Sync now, which runs the task) queues
    catalog.warm_caches when it changed the catalog; a real control worker runs it."""
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("sync_prices", "hetzner", "--file", str(sample(H1)), stdout=out)
    assert "its caches warm on the control queue" in out.getvalue()
    memo.drop()  # as a web process that has not served this generation yet
    generation = current_generation()
    name = page_frame._shared_key((generation.key, clock.today(), None, False))
    assert cache.get(name) is None  # nothing warm yet: the worker has not run
    start_worker("control", ["default"])
    deadline = time.monotonic() + 180
    while cache.get(name) is None and time.monotonic() < deadline:
        time.sleep(0.5)
    with CaptureQueriesContext(connection) as queries:
        entry = page_frame.page_frame(clock.today(), None, False)
    assert len(queries) == 1 and len(entry.frame) == 1258
    # An unchanged re-sync queues nothing.
    again = StringIO()
    call_command("sync_prices", "hetzner", "--file", str(sample(H1)), stdout=again)
    assert "caches warm" not in again.getvalue()


@pytest.mark.django_db
def test_the_shared_frame_and_tier_index_read_back_as_built():
    """What a process reads from the shared cache equals what the warming process built:
    the page frame's values (exact Decimals, dates, None apart from NaN), dtypes, column
    order and attrs, in the catalog's currencies and in EUR; and the tier index, with each
    tier's pricing model (the picker's filter: it was lost on the way, and a filtered
    search in a second process found nothing)."""
    import pandas as pd

    sync_source("hetzner", file=sample(H1))
    sync_source("ecb", file=sample("ecb/eurofxref-daily-20250509.xml"))
    for currency in (None, "EUR", "USD"):
        built = page_frame._build(clock.today(), currency, False)
        page_frame.page_frame(clock.today(), currency, False)  # shared by this process
        memo.drop()
        read = page_frame.page_frame(clock.today(), currency, False)
        assert read is not built
        pd.testing.assert_frame_equal(read.frame, built.frame, check_exact=True)
        assert list(read.frame.dtypes) == list(built.frame.dtypes)
        for column in built.frame.columns:
            if built.frame[column].dtype == object:
                kinds = [(type(v), repr(v)) for v in built.frame[column]]
                assert [(type(v), repr(v)) for v in read.frame[column]] == kinds, column
        assert read.frame.attrs == built.frame.attrs
        assert (read.currencies, read.providers, read.regions, read.choices) == (
            built.currencies, built.providers, built.regions, built.choices
        )  # fmt: skip
    built = tier_search._build("en")
    tier_search.index()
    memo.drop()
    read = tier_search.index()
    assert read is not built and read == built and all(model for *_, model in read.rows())
    model = built.rows()[0][3]
    monthly = tier_search.with_pricing(read, model)
    assert monthly and monthly == tier_search.with_pricing(built, model)
    query = built.rows()[0][0][:6]
    found = tier_search.search(read, query)
    assert found == tier_search.search(built, query) and found.total == len(built)


@pytest.mark.django_db
def test_an_empty_catalogs_shared_frame_reads_back_and_the_page_answers(client):
    """No tier at all (a catalog emptied, a fresh site after a change): the packed frame has
    no rows, and still reads back in a process that did not build it."""
    from catalog.models import Tier
    from changes import services as change_log

    Tier.objects.all().delete()
    change_log.record("catalog.feed_synced", label="test")
    built = page_frame.page_frame(clock.today(), None, False)
    memo.drop()
    read = page_frame.page_frame(clock.today(), None, False)
    assert len(read.frame) == len(built.frame) == 0
    assert list(read.frame.columns) == list(built.frame.columns)
    memo.drop()
    assert client.get("/catalog/").status_code == 200
    tier_search.index()  # shared by this process
    memo.drop()
    assert len(tier_search.index()) == 0
