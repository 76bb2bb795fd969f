# ruff: noqa: RUF003  (hand calculations written with × and −)
"""One-time costs belong to options (issue 21, item 2): migration, running both and
re-validation fall on an option that moves the work, not on one that stays on the
baseline's provider and instance family; each can be overridden per option."""

from decimal import Decimal

import pytest

from planner.compute import engine
from planner.compute.onetime import Host, instance_family, one_time_costs_for
from planner.compute.schema import PlanValidationError, parse_plan
from tests.support.engine import AS_OF, EXTREME, frame, tier

ON_DEMAND = tier("aws-c5.4xlarge-us-east-1-on-demand", "0.68", "hour", name="c5.4xlarge",
                 kind="cloud_vm", model="on_demand", vcpus=16, ram=32)  # fmt: skip
RESERVED = tier("aws-c5.4xlarge-us-east-1-reserved-1y", "0.428", "hour", name="c5.4xlarge",
                kind="cloud_vm", model="reserved_1y", vcpus=16, ram=32)  # fmt: skip
CATALOG = frame(EXTREME, ON_DEMAND, RESERVED)
ONE_TIME = {"migration_hours": "52.35", "migration_rate": "99.99", "running_both_months": 1,
            "retraining": "1000", "other": "10"}  # fmt: skip
AWS_C5 = Host("aws", "c5")


def test_the_rule_stays_for_the_same_provider_and_family_and_moves_otherwise():
    assert instance_family("AWS", "c5.4xlarge") == "c5"
    assert instance_family("Azure", "Standard_D2als_v7") == "standard_dals_v7"
    assert instance_family("GCP", "e2-standard-2") == "e2-standard"
    reserve = one_time_costs_for([Host.of("AWS", "c5.9xlarge")], AWS_C5)
    assert reserve.stays is True and reserve.charged == []
    move = one_time_costs_for([Host.of("InMotion Hosting", "Extreme Dedicated")], AWS_C5)
    assert move.stays is False
    assert move.charged == ["migration", "running_both", "retraining"]
    # an option with one part elsewhere moves; an owned server (no host) moves
    assert one_time_costs_for([AWS_C5, Host("aws", "r5")], AWS_C5).stays is False
    assert one_time_costs_for([None], AWS_C5).stays is False
    # the baseline's host unknown: every option moves
    unknown = one_time_costs_for([AWS_C5], None)
    assert unknown.stays is None and len(unknown.charged) == 3
    # overrides win, each on its own
    said = one_time_costs_for([AWS_C5], AWS_C5, {"retraining": "charged", "migration": None})
    assert said.charged == ["retraining"] and said.overridden == ["retraining"]
    said = one_time_costs_for([None], AWS_C5, {"migration": "not_charged"})
    assert said.charged == ["running_both", "retraining"]
    with pytest.raises(ValueError):
        one_time_costs_for([None], AWS_C5, {"migration": "maybe"})


def compare(baseline: dict, candidates: list[dict]):
    plan = {"currency": "USD", "baseline": baseline, "candidates": candidates,
            "one_time": ONE_TIME}  # fmt: skip
    return engine.compare(parse_plan(plan), CATALOG, {}, as_of=AS_OF)


def by_tier(result, slug):
    return next(o for o in result.options if o.parts[0].tier == slug)


def test_a_reservation_of_the_quoted_instance_carries_no_migration_the_move_carries_all():
    result = compare(
        {"monthly": "480", "runs_on": ON_DEMAND["slug"]},
        [{"tier": RESERVED["slug"], "count": 1}, {"tier": "inmotion-extreme", "count": 1}],
    )
    stay, move = by_tier(result, RESERVED["slug"]), by_tier(result, "inmotion-extreme")
    # migration 52.35 × 99.99 = 5234.48 (rounded to the cent); retraining 1000; other 10
    assert move.one_time_items["migration"] == Decimal("5234.48")
    assert move.money.one_time == Decimal("6244.48")
    assert move.money.transition_cost == Decimal("480.00")
    assert move.money.monthly[0] == Decimal("829.99")  # 349.99 + the 480 run beside it
    assert move.one_time_costs.stays is False
    # staying: only the other one-time costs; no month of running both
    assert stay.one_time_items["migration"] == Decimal("0.00")
    assert stay.one_time_items["retraining"] == Decimal("0.00")
    assert stay.money.one_time == Decimal("10.00")
    assert stay.money.transition_cost == Decimal("0.00")
    assert stay.money.monthly[0] == Decimal("312.44")  # 0.428 × 730
    assert stay.one_time_costs.charged == []
    assert stay.output().model_dump()["one_time_costs"]["stays"] is True


def test_a_tier_baseline_names_its_host_and_an_override_charges_a_staying_option():
    result = compare(
        {"tier": ON_DEMAND["slug"], "count": 1},
        [{"tier": RESERVED["slug"], "count": 1, "retraining": "charged"},
         {"tier": "inmotion-extreme", "count": 1, "migration": "not_charged",
          "running_both": "not_charged"}],
    )  # fmt: skip
    stay, move = by_tier(result, RESERVED["slug"]), by_tier(result, "inmotion-extreme")
    assert stay.money.one_time == Decimal("1010.00")
    assert stay.one_time_costs.overridden == ["retraining"]
    assert move.money.one_time == Decimal("1010.00")
    assert move.money.transition_cost == Decimal("0.00")
    assert move.money.monthly[0] == Decimal("349.99")


def test_without_runs_on_a_quoted_baseline_charges_every_option_as_before():
    result = compare({"monthly": "480"}, [{"tier": RESERVED["slug"], "count": 1}])
    option = result.options[0]
    assert option.money.one_time == Decimal("6244.48")
    assert option.one_time_costs.stays is None


def test_an_override_outside_the_choices_is_refused_by_its_path():
    with pytest.raises(PlanValidationError) as caught:
        parse_plan({"currency": "USD", "baseline": {"monthly": "480"},
                    "candidates": [{"tier": "inmotion-extreme", "count": 1,
                                    "migration": "no"}]})  # fmt: skip
    assert "candidates[0].migration" in caught.value.details


def test_the_comparison_csv_names_the_one_time_costs_each_option_carries():
    import csv
    import io

    from planner.web import dashboard, exports

    result = compare(
        {"monthly": "480", "runs_on": ON_DEMAND["slug"]},
        [{"tier": RESERVED["slug"], "count": 1}, {"tier": "inmotion-extreme", "count": 1}],
    )
    text = exports.comparison_csv(dashboard.results(result.output()))
    rows = {r["option_key"]: r for r in csv.DictReader(io.StringIO(text))}
    assert rows["baseline"]["one_time_costs"] == ""
    by_tier = {o.parts[0].tier: o.key for o in result.options}
    assert rows[by_tier[RESERVED["slug"]]]["one_time_costs"] == ""
    assert rows[by_tier["inmotion-extreme"]]["one_time_costs"] == (
        "migration;running_both;retraining"
    )
