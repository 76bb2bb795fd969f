"""A share is frozen: later prices never change it; recomputing shows today's figures beside it."""

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone

from catalog.models import Price
from planner.models import Share
from planner.services import evaluation
from planner.services import plans as services
from tests.support.api import post_json, token_client
from tests.support.catalog import add_price, make_tier

pytestmark = pytest.mark.django_db
BOX, OTHER = "test-box", "test-other-box"


@pytest.fixture
def today() -> dt.date:
    """The day the test runs (not the day the module was imported: a run across midnight
    compared a snapshot made on the 5th with the 4th)."""
    return timezone.localdate()


@pytest.fixture(autouse=True)
def _catalog(settings, today):
    settings.API_RATE_LIMIT_PER_MINUTE = 10_000
    for slug, amount in ((BOX, "100"), (OTHER, "300")):
        tier = make_tier(slug, provider="Test", kind="dedicated", pricing_model="fixed_monthly")
        add_price(tier, amount, today - dt.timedelta(days=30), unit="month", source="list 1")


@pytest.fixture
def shared(owner):
    api = token_client(owner)[0]
    plan = {
        "currency": "USD",
        "baseline": {"monthly": "480"},
        "horizon_months": 12,
        "candidates": [{"tier": BOX, "count": 1}, {"tier": OTHER, "count": 1}],
    }
    plan_id = post_json(api, "/api/v1/plans", plan).json()["id"]
    token = api.post(f"/api/v1/plans/{plan_id}/shares").json()["token"]
    return Share.objects.get(token=token)


def option(results: dict, tier: str) -> dict:
    return next(o for o in results["options"] if o["parts"][0]["tier"] == tier)


def test_the_snapshot_records_what_computed_it_and_when(shared, today):
    from planner.compute import engine

    snapshot = shared.snapshot
    assert snapshot["engine_version"] == engine.ENGINE_VERSION
    assert snapshot["as_of"] == today.isoformat()
    assert {row["tier"] for row in snapshot["prices"]} == {BOX, OTHER}


def test_a_new_price_leaves_the_shared_figures_as_they_were(shared, today):
    old_row = Price.objects.get(tier__slug=BOX)
    add_price(old_row.tier, "150", today, unit="month", source="list 2")
    body = Client().get(f"/api/v1/shared/{shared.token}").json()
    assert option(body["results"], BOX)["money"]["monthly"][0] == "100.00"
    assert [p["id"] for p in body["prices"] if p["tier"] == BOX] == [old_row.pk]
    # while a fresh evaluation of the same plan already uses the new price
    fresh = evaluation.evaluate(services.stored_plan(shared.plan)).to_dict()
    assert option(fresh, BOX)["money"]["monthly"][0] == "150.00"


def test_recomputing_shows_todays_figures_and_what_changed(shared, today):
    box = Price.objects.get(tier__slug=BOX).tier
    new_row = add_price(box, "150", today, unit="month", source="list 2")
    again = services.recompute_snapshot_inputs(shared)
    assert again["as_of"] == today.isoformat()
    assert option(again["snapshot"]["results"], BOX)["money"]["monthly"][0] == "150.00"
    diff = again["diff"]
    [price] = diff["prices"]
    assert price["tier"] == BOX
    assert (price["then"]["amount"], price["now"]["amount"]) == ("100.000000", "150.000000")
    assert price["now"]["id"] == new_row.pk
    changed = {c["path"]: (c["then"], c["now"]) for c in diff["figures"]}
    assert changed["options[candidate:0].money.total"] == ("1200.00", "1800.00")
    assert changed["options[candidate:0].money.saving_per_month"] == ("380.00", "330.00")
    assert not any(path.startswith("options[candidate:1]") for path in changed)
    assert diff["no_longer_offered"] == [] and diff["retired"] == []


def test_recomputing_names_tiers_no_longer_offered(shared):
    other = Price.objects.get(tier__slug=OTHER).tier
    other.retired = True
    other.save()
    diff = services.recompute_snapshot_inputs(shared)["diff"]
    assert diff["no_longer_offered"] == [OTHER]
    assert diff["retired"] == [OTHER]
    gone = {c["path"] for c in diff["figures"] if c["now"] is None}
    assert "options[candidate:1]" in gone
    # the share itself still shows the option as it was
    body = Client().get(f"/api/v1/shared/{shared.token}").json()
    assert option(body["results"], OTHER)["money"]["monthly"][0] == "300.00"


def test_nothing_changed_means_an_empty_diff(shared):
    diff = services.recompute_snapshot_inputs(shared)["diff"]
    assert diff["prices"] == diff["measurements"] == diff["figures"] == []
