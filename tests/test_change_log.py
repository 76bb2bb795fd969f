"""The change log: every write that can change a figure advances the data generation."""

import pytest
from django.db import transaction
from django.utils import timezone

from catalog.io.importer import import_catalog
from changes.models import Change
from changes.selectors import changes_after, changes_since, current_generation
from changes.services import record
from planner.models import Plan, Share
from planner.services.plans import live_share_generation
from tests.support.bench import finished_run, target, version
from tests.support.catalog import add_price, csv_bytes, make_tier, price_record

pytestmark = pytest.mark.django_db


def test_a_write_advances_the_generation_read_in_one_query(django_assert_num_queries):
    before = current_generation()
    make_tier("test-box", provider="Test")
    with django_assert_num_queries(1):
        after = current_generation()
    assert after.number > before.number and after.key != before.key


def test_the_log_says_what_changed_since_a_generation():
    tier = make_tier("test-box", provider="Test")
    since = current_generation().number
    add_price(tier, "10", "2026-01-01")
    tier.name = "Test Box 2"
    tier.save()
    moved = changes_since(since)
    assert [(c.kind, c.label) for c in moved] == [
        ("tier.saved", "test-box"),
        ("price.saved", "test-box from 2026-01-01"),
    ]
    assert moved[0].object_type == "catalog.tier" and moved[0].object_id == str(tier.pk)


def test_the_log_says_what_changed_after_a_moment():
    moment = timezone.now()
    make_tier("test-box", provider="Test")
    assert [(c.kind, c.label) for c in changes_after(moment)] == [
        ("tier.saved", "test-box"),
        ("provider.saved", "Test"),
    ]


def test_an_import_is_one_change_however_many_rows_it_writes():
    since = current_generation().number
    records = [price_record(slug=f"test-import-{i}", name=f"box {i}") for i in range(5)]
    import_catalog(csv_bytes(records), "csv")
    [change] = changes_since(since)
    assert change.kind == "catalog.imported"
    assert "5 new tiers" in change.label


def test_a_run_changes_nothing_until_it_is_over():
    pv, host = version(), target()
    since = current_generation().number
    finished_run(pv, host, {1: 10.0}, status="running")
    assert changes_since(since) == []
    finished_run(pv, host, {1: 10.0})
    assert [c.kind for c in changes_since(since)] == ["run.succeeded"]


def test_a_rolled_back_write_leaves_no_change_and_its_key_is_never_reused():
    make_tier("test-box", provider="Test")
    with pytest.raises(RuntimeError), transaction.atomic():
        record("tier.saved", label="rolled back")
        rolled_back = current_generation()
        raise RuntimeError
    assert not Change.objects.filter(label="rolled back").exists()
    record("tier.saved", label="kept")
    assert current_generation().key != rolled_back.key


def test_a_change_committed_after_a_later_numbered_one_still_moves_the_generation():
    _first, late, last = (record("tier.saved", label=name) for name in ("first", "late", "last"))
    late_id = late.pk
    late.delete()  # as seen before the long transaction that numbered it committed
    before = current_generation()
    Change.objects.create(id=late_id, kind="catalog.imported", label="late")  # its commit
    after = current_generation()
    assert after.number == before.number == last.pk
    assert after.key != before.key


def test_a_live_share_check_rides_on_the_generation_query(django_assert_num_queries, owner):
    plan = Plan.objects.create(owner=owner, name="p", inputs={})
    share = Share.objects.create(plan=plan, snapshot={}, created_by=owner)
    with django_assert_num_queries(1):
        found = live_share_generation(share.token)
    assert found == current_generation()
    share.revoke()
    assert live_share_generation(share.token) is None
    assert live_share_generation("no-such-token") is None
