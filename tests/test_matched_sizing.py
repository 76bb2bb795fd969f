# ruff: noqa: RUF003  (hand calculations written with × and ÷)
"""Sizing the options to the capacity of the bill's machines (issue 25, item 4):
`baseline.sizing: "matched"` counts each sized option so that it carries what the
baseline's tiers carry (planner/compute/matched.py), from the same speed evidence."""

from decimal import Decimal

import pytest

from planner.compute import engine
from planner.compute.schema import PlanValidationError, parse_plan
from tests.support.capacity import measured
from tests.support.engine import AS_OF, C5_2X, EXTREME, R5_4X, frame

CATALOG = frame(EXTREME, C5_2X, R5_4X)
C5 = C5_2X["slug"]
BOX = EXTREME["slug"]
WORK = [{"kind": "gbm", "rows": 1_000_000, "features": 50, "trees": 200,
         "trainings_per_month": 10}]  # fmt: skip
# Per thread, the Extreme (32 threads) is twice the c5.2xlarge (8): a server carries
# 32 × 64/32 = 64 against 8 × 8/8 = 8 (× 10⁸ cell-trees/s), eight times as much.
SPEED = {(C5, "gbm"): measured("gbm", 8e8, 8), (BOX, "gbm"): measured("gbm", 6.4e9, 32)}


def compare(baseline: dict, measurements=SPEED, **plan):
    data = {"currency": "USD", "baseline": baseline, "workloads": WORK,
            "candidates": [{"tier": BOX}], **plan}  # fmt: skip
    return engine.compare(parse_plan(data), CATALOG, measurements, as_of=AS_OF)


def test_an_option_carries_what_the_bills_machines_carry() -> None:
    tiers = [{"tier": C5, "count": "20", "monthly": "4964.00"}]
    sized = compare({"monthly": "4964.00", "tiers": tiers})
    assert sized.options[0].parts[0].servers_by_month[0] == 1  # the workloads need one
    found = compare({"monthly": "4964.00", "tiers": tiers, "sizing": "matched"})
    option = found.options[0]
    # 20 c5.2xlarge carry 20 × 8 = 160; one Extreme 64: ⌈160 ÷ 64⌉ = ⌈2.5⌉ = 3
    assert option.parts[0].servers_by_month == [3] * 36
    assert option.money.monthly[0] == Decimal("1049.97")  # 3 × 349.99
    said = found.baseline.matched
    assert said is not None
    assert said["sizing"] == "matched" and said["missing"] == []
    share = Decimal(said["tiers"][0]["share"])
    assert Decimal(said["capacity"]) == pytest.approx(20 * share, abs=Decimal("0.001"))
    assert found.baseline.monthly[0] == "4964.00"  # the money stays the bill's figure
    assert [n.code for n in option.notes if n.code.startswith("matched.")] == ["matched.note"]


def test_the_count_grows_with_the_plans_growth() -> None:
    tiers = [{"tier": C5, "count": "16", "monthly": "100"}]
    found = compare({"monthly": "100", "tiers": tiers, "sizing": "matched"},
                    monthly_growth="0.1", horizon_months=6)  # fmt: skip
    # 16 × 8 ÷ 64 = 2 in month 1; × 1.1^(m−1): 2.2 → 3, 2.42 → 3, 2.66 → 3, 2.93 → 3, 3.22 → 4
    assert found.options[0].parts[0].servers_by_month == [2, 3, 3, 3, 3, 4]


def test_a_bill_tier_with_no_figure_is_said_and_nothing_is_invented() -> None:
    tiers = [{"tier": C5, "count": "20", "monthly": "100"},
             {"tier": R5_4X["slug"], "count": "2", "monthly": "50"}]  # fmt: skip
    found = compare({"monthly": "150", "tiers": tiers, "sizing": "matched"})
    said = found.baseline.matched
    assert said is not None
    assert said["capacity"] is None and said["missing"] == [R5_4X["slug"]]
    option = found.options[0]
    assert option.parts[0].servers_by_month[0] == 1  # sized to the workloads, as without
    notes = [n for n in option.notes if n.code.startswith("matched.")]
    assert [n.code for n in notes] == ["matched.no_capacity"]
    assert R5_4X["slug"] in notes[0].params["tiers"]


def test_an_option_tier_with_no_figure_has_no_number() -> None:
    tiers = [{"tier": C5, "count": "20", "monthly": "100"}]
    found = compare({"monthly": "100", "tiers": tiers, "sizing": "matched"},
                    measurements={(C5, "gbm"): SPEED[(C5, "gbm")]})  # fmt: skip
    assert found.options == [] and [n.tier for n in found.no_number] == [BOX]


def test_matched_sizing_needs_the_baselines_tiers() -> None:
    with pytest.raises(PlanValidationError) as refused:
        parse_plan({"currency": "USD", "baseline": {"monthly": "1", "sizing": "matched"},
                    "workloads": WORK})  # fmt: skip
    assert [m.code for m in refused.value.details["baseline.sizing"]] == [
        "schema.matched_needs_tiers"
    ]
    with pytest.raises(PlanValidationError) as refused:
        parse_plan({"currency": "USD", "baseline": {"monthly": "1", "sizing": "by_magic"}})
    assert "baseline.sizing" in refused.value.errors
