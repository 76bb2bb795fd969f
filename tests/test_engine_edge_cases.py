# ruff: noqa: RUF003  (hand calculations written with ×, ÷)
"""engine.compare() when nothing can be priced, and the usage-based GPU figures by hand."""

import json
from decimal import Decimal

import pytest

from planner.compute.engine import compare
from planner.compute.schema import parse_plan
from tests.support.engine import AS_OF, EXTREME, frame, tier

P4D_SPOT = tier("aws-p4d.24xlarge-us-east-1-spot", "8.00", "hour", kind="cloud_gpu",
                model="spot", vcpus=96, ram=1152, gpus=8)  # fmt: skip
CATALOG = frame(EXTREME, P4D_SPOT)
DL = {"kind": "deep_learning", "task": "vit_from_scratch", "gpu_hours_per_month": 100}


def run(**plan):
    data = {"currency": "USD", "baseline": {"monthly": 900}, "horizon_months": 12} | plan
    return compare(parse_plan(data), CATALOG, {}, as_of=AS_OF)


def test_when_no_option_can_be_priced_the_headline_says_so():
    result = run(candidates=[{"tier": "not-in-the-catalog", "count": 1}])
    assert result.options == []
    assert result.headline.best is None
    assert result.headline.sentence.startswith("No option could be sized or priced.")
    entries = result.output().model_dump()["no_number"]
    assert [{"tier": n["tier"], "reason": n["reason"]} for n in entries] == [
        {"tier": "not-in-the-catalog",
         "reason": "no price in the catalog on or before the plan's date"}
    ]  # fmt: skip
    json.dumps(result.output().model_dump())


def test_gpu_hours_on_a_tier_without_a_gpu_count_are_refused_with_the_reason():
    result = run(candidates=[{"tier": "inmotion-extreme", "gpu_hours_per_month": 10}])
    assert result.options == []
    assert "GPU count" in str(result.no_number[0].reason)


def test_a_baseline_tier_without_a_price_is_an_error_naming_the_field():
    with pytest.raises(ValueError, match=r"baseline\.tier: gone has no price"):
        run(baseline={"tier": "gone"}, candidates=[{"tier": "inmotion-extreme", "count": 1}])


def test_spot_gpu_hours_carry_the_interruption_allowance():
    result = run(
        candidates=[{"tier": "aws-p4d.24xlarge-us-east-1-spot", "mode": "usage"}],
        workloads=[DL],
    )
    # 100 GPU-hours × 1.10 re-run allowance × 8.00 ÷ 8 GPUs = 110.00 a month.
    assert result.options[0].money.monthly == [Decimal("110.00")] * 12
    assert any("re-runs after interruptions" in str(n) for n in result.options[0].notes)
    assert result.stays_on_gpu[0].task == "vit_from_scratch"


def test_instance_hours_are_billed_per_instance_hour():
    result = run(
        candidates=[{"tier": "aws-p4d.24xlarge-us-east-1-spot", "instance_hours_per_month": 15}],
        spot_interruption_allowance=0,
    )
    assert result.options[0].money.monthly[0] == Decimal("120.00")  # 15 × 8.00


def test_the_answers_dump_is_pydantics_own_with_the_tiers_with_no_figure_placed_unwalked():
    """`Answer.model_dump` places each tier with no figure as its own serializer gives it
    (docs/design.md, "Speed at catalog scale"): the same data as pydantic's serialiser."""
    from pydantic import TypeAdapter

    from planner.compute.answer import Answer

    gbm = {"kind": "gbm", "trainings_per_month": 20, "rows": 2_000_000, "features": 50,
           "trees": 100}  # fmt: skip
    dropped = run(candidates=[{"tier": "not-in-the-catalog", "count": 1}]).output()
    unsized = run(workloads=[gbm]).output()
    assert [type(n).__name__ for n in dropped.no_number + unsized.no_number] == [
        "DroppedTier", "NoNumber"
    ]  # fmt: skip
    for answer, field in ((dropped, "reason"), (unsized, "reasons[0]")):
        dumped = answer.model_dump()
        assert dumped == TypeAdapter(Answer).dump_python(answer)
        assert dumped == answer.model_dump(mode="json")
        assert dumped["no_number"][0]["messages"][0]["field"] == field
        assert "no_number" not in answer.model_dump(exclude={"no_number"})
