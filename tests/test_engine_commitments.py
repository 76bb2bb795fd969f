# ruff: noqa: RUF003  (hand calculations written with × and −)
"""Staying and committing (issue 27, items 4 and 5): the baseline tier's reservations,
savings plans and spot as options beside the moves, with no one-time cost of a switch,
each with its break-even month and the utilisation below which it loses; a slot with no
rate says so. And a reservation shorter than the horizon is bought again each term."""

from decimal import Decimal

import numpy as np

from common.messages import msg, plain
from planner.compute import commitments as stay
from planner.compute import engine, tco
from planner.compute.schema import parse_plan
from tests.support.engine import AS_OF, EXTREME, frame, tier

OD = tier("aws-c5.4xlarge-us-east-1-on-demand", "0.68", "hour", name="c5.4xlarge",
          kind="cloud_vm", model="on_demand", vcpus=16, ram=32)  # fmt: skip
RI1 = tier("aws-c5.4xlarge-us-east-1-reserved-1y", "0.428", "hour", name="c5.4xlarge",
           kind="cloud_vm", model="reserved_1y", vcpus=16, ram=32, min_term=12)  # fmt: skip
RI3_ALL = tier("aws-c5.4xlarge-us-east-1-reserved-3y-all", "0", "hour", name="c5.4xlarge",
               kind="cloud_vm", model="reserved_3y_standard_all_upfront", vcpus=16, ram=32,
               min_term=36, setup="7000")  # fmt: skip
SP1_ALL = tier("aws-c5.4xlarge-us-east-1-sp-1y-all", "0", "hour", name="c5.4xlarge",
               kind="cloud_vm", model="savings_plan_compute_1y_all_upfront", vcpus=16, ram=32,
               min_term=12, setup="3000")  # fmt: skip
SPOT = tier("aws-c5.4xlarge-spot", "150", name="c5.4xlarge", kind="cloud_vm", model="spot",
            vcpus=16, ram=32)  # fmt: skip
CATALOG = frame(EXTREME, OD, RI1, RI3_ALL, SP1_ALL, SPOT)


def slot(group, years, row=None):
    if row is None:
        said = msg("catalog.no_savings_plan_rate", tier="c5.4xlarge", years=years)
        return stay.Slot(group, years, None, None, said)
    return stay.Slot(group, years, row["slug"], row["pricing_model"])


ALTERNATIVES = stay.Alternatives(
    OD["slug"], OD["slug"],
    (slot("reserved", 1, RI1), slot("reserved", 3, RI3_ALL), slot("savings_plan", 1, SP1_ALL),
     slot("savings_plan", 3), slot("spot", 0, SPOT)),
)  # fmt: skip


def compare(**plan):
    data = {"currency": "USD", "baseline": {"tier": OD["slug"], "count": 2},
            "candidates": [{"tier": "inmotion-extreme", "count": 2}],
            "one_time": {"migration_hours": 10, "migration_rate": 100,
                         "running_both_months": 1, "retraining": 0},
            **plan}  # fmt: skip
    return engine.compare(parse_plan(data), CATALOG, {}, as_of=AS_OF, commitments=ALTERNATIVES)


def by_key(result):
    return {o.key: o for o in result.options}


def test_each_commitment_is_an_option_beside_the_move_with_no_switching_cost():
    result = compare()
    options = by_key(result)
    assert set(options) == {"candidate:0", "commitment:reserved-1y", "commitment:reserved-3y",
                            "commitment:savings_plan-1y", "commitment:spot"}  # fmt: skip
    move = options["candidate:0"].money
    assert move.one_time == Decimal("1000.00")  # migration; running both in month 1
    assert move.transition_cost > 0
    ri1 = options["commitment:reserved-1y"]
    assert ri1.money.one_time == Decimal("0.00")
    assert ri1.money.transition_cost == Decimal("0.00")
    # it stays on the baseline's provider and family: issue 21's rule charges no switch cost
    assert set(ri1.one_time_items.values()) == {Decimal("0.00")}
    assert ri1.one_time_costs.stays and not ri1.one_time_costs.charged
    # 2 servers × 0.428 × 730 = 624.88 a month, every month (no month of running both)
    assert ri1.money.monthly[0] == ri1.money.monthly[-1] == Decimal("624.88")
    assert plain(ri1.label) == "Stay and commit: aws c5.4xlarge, 1-year reservation"
    assert options["commitment:spot"].parts[0].mode == "usage"


def test_break_even_and_the_utilisation_below_which_a_commitment_loses():
    options = by_key(compare())
    ri1 = options["commitment:reserved-1y"].commitment
    # no upfront and a lower rate: ahead from the first month; loses below 0.428 ÷ 0.68
    assert ri1.break_even_month == 1
    assert ri1.loses_below_utilisation == "0.6294"
    ri3 = options["commitment:reserved-3y"].commitment
    # 7,000 upfront against 496.40 a month on demand: 7000 ÷ 496.40 = 14.1 → month 15
    assert ri3.break_even_month == 15
    assert ri3.loses_below_utilisation == "0.3917"  # 7000 ÷ 36 ÷ 496.40
    assert plain(ri3.summary) == (
        "beats on-demand from month 15; loses to on-demand below 39.17 % utilisation"
    )


def test_a_slot_without_a_rate_says_so_and_makes_up_none():
    result = compare()
    assert "commitment:savings_plan-3y" not in by_key(result)
    (missing,) = result.commitments_missing
    assert (missing.group, missing.years) == ("savings_plan", 3)
    assert "no rate is made up" in plain(missing.reason)
    data = result.output().model_dump()
    assert data["commitments_missing"][0]["reason"].endswith("no rate is made up.")


def test_the_headline_weighs_the_best_move_against_the_best_commitment():
    result = compare()
    said = [plain(s) for s in result.headline.sentences]
    assert any(s.startswith("Against staying and committing:") for s in said)


def test_the_spot_option_carries_its_interruption_rate_and_source():
    spot = by_key(compare())["commitment:spot"]
    info = spot.commitment.interruption
    assert info.source == "assumption" and info.rate == "0.10"
    # 2 × 730 instance-hours × 1.10 re-runs × 150 ÷ 730 = 330.00
    assert spot.money.monthly[0] == Decimal("330.00")


def test_a_quoted_baseline_gets_no_commitment_options():
    data = {"currency": "USD", "baseline": {"monthly": 480},
            "candidates": [{"tier": "inmotion-extreme", "count": 1}]}  # fmt: skip
    result = engine.compare(parse_plan(data), CATALOG, {}, as_of=AS_OF, commitments=ALTERNATIVES)
    assert [o.key for o in result.options] == ["candidate:0"]


def test_a_one_year_all_upfront_plan_is_bought_again_each_year_of_the_horizon():
    options = by_key(compare(horizon_months=36))
    sp = options["commitment:savings_plan-1y"].money
    assert sp.one_time == Decimal("6000.00")  # 2 × 3,000 at month 0
    # bought again at the start of months 13 and 25
    assert sp.monthly[12] == sp.monthly[24] == Decimal("6000.00")
    assert sp.monthly[11] == Decimal("0.00")
    assert sp.total == Decimal("18000.00")


def test_renewals_follow_each_server_from_the_month_it_was_added():
    counts = np.array([1, 1, 2, 2, 2, 3, 3, 3])
    assert tco.renewals(counts, 3).tolist() == [0, 0, 0, 1, 0, 1, 1, 0]
    assert tco.renewals(counts, 8).tolist() == [0] * 8


def test_ten_thousand_servers_on_spot_are_priced_past_a_typed_parts_hour_limit():
    result = compare(baseline={"tier": OD["slug"], "count": 10_000})
    spot = by_key(result)["commitment:spot"]
    assert spot.parts[0].servers_by_month[0] == 0  # usage: hours, not servers
    # 10,000 × 730 × 1.10 × 150 ÷ 730
    assert spot.money.monthly[0] == Decimal("1650000.00")
