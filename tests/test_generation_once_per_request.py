"""The data generation is read once per request, again after a write in it, and what a
process keeps (changes.memo) belongs to one generation: no test forgets anything."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalog.models import Tier
from changes import memo, selectors
from changes.models import Change
from changes.selectors import current_generation
from changes.services import record
from tests.support.dashboard import form_data, login

pytestmark = pytest.mark.django_db


def generation_reads(captured: CaptureQueriesContext) -> int:
    table = Change._meta.db_table
    return sum(1 for q in captured.captured_queries if f'COUNT(*) FROM "{table}"' in q["sql"])


def test_a_recompute_reads_the_generation_once(owner, two_tier_catalog):
    client = login(owner)
    headers = {"HX-Request": "true"}
    client.post("/plans/new", form_data(), headers=headers)  # warm: the choices, the answer
    with CaptureQueriesContext(connection) as captured:
        response = client.post("/plans/new", form_data(baseline__monthly="481"), headers=headers)
    assert response.status_code == 200 and b"481" in response.content
    assert generation_reads(captured) == 1


def test_the_api_reads_the_generation_once(api, one_box_catalog):
    from tests.support.api import TEST_BOX, fixed_plan, post_json

    with CaptureQueriesContext(connection) as captured:
        response = post_json(api, "/api/v1/evaluate", fixed_plan(TEST_BOX))
    assert response.status_code == 200
    assert generation_reads(captured) == 1


def test_a_write_inside_a_request_reads_the_generation_again(two_tier_catalog):
    selectors.hold_for_request()
    try:
        before = current_generation()
        with CaptureQueriesContext(connection) as captured:
            assert current_generation() == before  # held: no query
        assert generation_reads(captured) == 0
        tier = Tier.objects.first()
        tier.name = "renamed"
        tier.save()  # a recorded change
        assert current_generation().number > before.number
    finally:
        selectors.release()
    with CaptureQueriesContext(connection) as captured:
        current_generation()
        current_generation()
    assert generation_reads(captured) == 2  # outside a request: read each time


def test_a_kept_value_lives_for_its_generation_only(two_tier_catalog):
    calls = []

    def compute():
        calls.append(1)
        return len(calls)

    first = current_generation()
    assert memo.kept(first, "test", "k", compute, most=2) == 1
    assert memo.kept(first, "test", "k", compute, most=2) == 1  # kept
    record("test.write")
    second = current_generation()
    assert memo.kept(second, "test", "k", compute, most=2) == 2  # a new generation: again
    assert memo.kept(first, "test", "k", compute, most=2) == 3  # the old one was dropped


def test_the_oldest_entry_goes_first_and_generation_zero_is_never_kept():
    calls = []

    def compute():
        calls.append(1)
        return len(calls)

    empty = selectors.Generation(0, "empty")  # no change recorded yet
    assert memo.kept(empty, "test", "k", compute, most=2) == 1
    assert memo.kept(empty, "test", "k", compute, most=2) == 2  # not kept
    record("test.write")
    now = current_generation()
    for key in ("a", "b", "c"):
        memo.kept(now, "test", key, compute, most=2)
    assert memo.kept(now, "test", "c", compute, most=2) == 5  # kept
    assert memo.kept(now, "test", "a", compute, most=2) == 6  # the oldest, dropped
