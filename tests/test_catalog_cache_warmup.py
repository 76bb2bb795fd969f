"""After a price sync the catalog's caches are warmed on the control queue (issue 28): a
sync is one change of the data (the generation moves on), and the `catalog.warm_caches`
task, run by a real Celery worker on the default queue, builds the catalog page's frames
and the tier picker's index into the shared cache, so a web process that never built them
answers from it."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalog import page_frame
from catalog.feeds.sync import sync_source
from catalog.tasks import warm_caches
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
    page_frame.forget()
    tier_search.forget()
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
