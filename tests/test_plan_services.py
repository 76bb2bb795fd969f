"""The database side of plans: what the engine is given, and copies of plans."""

import datetime as dt
from decimal import Decimal

import pytest

from benchmarks_app.evidence import NoMeasurement
from benchmarks_app.profiles_loader import load_shipped_profiles
from planner.models import Plan, SpeedFactor
from planner.services import evaluation
from planner.services import inputs as engine_inputs
from planner.services import plans as services
from tests.support.catalog import add_price, make_tier

pytestmark = pytest.mark.django_db
AS_OF = dt.date(2026, 6, 1)


@pytest.fixture
def tiers():
    load_shipped_profiles()
    made = {
        "a": make_tier("test-a", provider="Test", vcpus=16, ram_gib=Decimal(64)),
        "b": make_tier("test-b", provider="Test", vcpus=32, ram_gib=Decimal(128)),
        "unknown": make_tier("test-unknown", provider="Test", vcpus=None, ram_gib=None),
    }
    for tier in made.values():
        add_price(tier, "1.00", "2026-01-01")
    return made


def plan_with(*slugs: str, workloads=None):
    data = {
        "currency": "USD",
        "baseline": {"monthly": "480"},
        "candidates": [{"tier": s} for s in slugs],
        "workloads": workloads
        or [
            {"kind": "gbm", "trainings_per_month": 10, "rows": 10**6, "features": 50, "trees": 100}
        ],
    }
    return services.parse(data)


def test_each_candidate_tier_without_a_linked_run_gets_the_reason(tiers):
    inputs = engine_inputs.gather(plan_with("test-a", "test-unknown"), as_of=AS_OF)
    reason_a = inputs.measurements["test-a", "gbm"]
    assert isinstance(reason_a, NoMeasurement)
    assert "tier test-a" in str(reason_a)
    assert "specs unknown" in str(inputs.measurements["test-unknown", "gbm"])
    assert list(inputs.frame["slug"]) == ["test-a", "test-b", "test-unknown"]
    assert inputs.as_of == AS_OF


def test_without_candidates_every_tier_is_looked_up(tiers):
    inputs = engine_inputs.gather(plan_with(), as_of=AS_OF)
    assert {slug for slug, _cls in inputs.measurements} == {"test-a", "test-b", "test-unknown"}


def test_a_declared_speed_factor_is_passed_with_its_reference_looked_up(tiers, staff_user):
    SpeedFactor.objects.create(
        tier=tiers["a"], relative_to=tiers["b"], factor=Decimal("0.5"),
        unit=SpeedFactor.Unit.THROUGHPUT_RATIO, source="vendor sheet", author="staff",
        date=dt.date(2026, 5, 1),
    )  # fmt: skip
    inputs = engine_inputs.gather(plan_with("test-a"), as_of=AS_OF)
    factor = inputs.speed_factors["test-a"]
    assert (factor.relative_to, factor.factor, factor.source) == ("test-b", 0.5, "vendor sheet")
    assert ("test-b", "gbm") in inputs.measurements  # the reference tier's own measurement
    assert inputs.speed_factor_rows[0]["date"] == "2026-05-01"


def test_a_tier_with_no_number_says_why_in_the_comparison(tiers):
    body = evaluation.evaluate(plan_with("test-a"), as_of=AS_OF).to_dict()
    assert body["options"] == []
    [entry] = [n for n in body["no_number"] if n["tier"] == "test-a"]
    assert any("no succeeded standard or full run" in r for r in entry["reasons"])


def test_a_duplicate_copies_the_inputs_under_a_new_id(owner, other_user, tiers):
    plan = services.plan_create(owner=owner, plan=plan_with("test-a"))
    copy = services.plan_duplicate(plan)
    assert copy.pk != plan.pk and copy.code != plan.code
    assert copy.owner == owner
    assert copy.name == f"{plan.code} (copy)"
    assert {k: v for k, v in copy.inputs.items() if k != "name"} == {
        k: v for k, v in plan.inputs.items() if k != "name"
    }
    copy.inputs["horizon_months"] = 12
    copy.save()
    plan.refresh_from_db()
    assert plan.inputs["horizon_months"] == 36  # a deep copy: editing one leaves the other
    theirs = plan.duplicate(owner=other_user, name="their scenario")
    assert (theirs.owner, theirs.name, theirs.inputs["name"]) == (
        other_user, "their scenario", "their scenario",
    )  # fmt: skip
    assert Plan.objects.count() == 3


def test_a_stored_plan_still_parses_after_its_tier_is_retired(owner, tiers):
    plan = services.plan_create(owner=owner, plan=plan_with("test-a"))
    tiers["a"].retired = True
    tiers["a"].save()
    assert "test-a" not in services.known_tiers()
    assert services.stored_plan(plan).candidates[0].parts[0].tier == "test-a"
