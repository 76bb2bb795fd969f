# ruff: noqa: RUF003  (hand calculations written with ×, −)
"""engine.compare(): options sized, fixed and usage-based, every figure with its provenance."""

import datetime as dt
import json
from decimal import Decimal

import pytest

from benchmarks_app.evidence import BestMeasurement, NoMeasurement
from planner.compute.capacity import SpeedFactor
from planner.compute.engine import compare
from planner.compute.schema import parse_plan
from tests.support.engine import (
    ADVANCED,
    AS_OF,
    C5_2X,
    ESSENTIAL,
    EXTREME,
    R5_4X,
    frame,
    tier,
)

C5_4X = tier("aws-c5.4xlarge-us-east-1-on-demand", "0.68", "hour", kind="cloud_vm",
             model="on_demand", vcpus=16, ram=32, price_id=41)  # fmt: skip
P4D = tier("aws-p4d.24xlarge-us-east-1-on-demand", "21.957642", "hour", kind="cloud_gpu",
           model="on_demand", vcpus=96, ram=1152, gpus=8)  # fmt: skip
HETZNER = tier("hetzner-ax-fsn1", "40", kind="dedicated", vcpus=16, ram=64, managed=False,
               setup="39", min_term=12)  # fmt: skip
CATALOG = frame(EXTREME, ADVANCED, ESSENTIAL, C5_2X, C5_4X, R5_4X, P4D, HETZNER)


def measured(cls, value, threads, host, **extra):
    return BestMeasurement(
        cls, "metric", "unit", value, threads, True, f"run-{host}-{cls}", host, "cpu",
        f"{cls}-standard", "1.0.3", "standard", dt.datetime(2026, 1, 20), extra=extra,
    )  # fmt: skip


MEASUREMENTS = {
    ("inmotion-extreme", "gbm"): measured("gbm", 1e9, 32, "epyc"),
    ("aws-c5.4xlarge-us-east-1-on-demand", "gbm"): measured("gbm", 4e8, 16, "c5"),
    ("aws-c5.2xlarge-us-east-1-on-demand", "gbm"): measured("gbm", 2e8, 8, "c5-2x"),
    ("aws-r5.4xlarge-us-east-1-on-demand", "gbm"): measured("gbm", 3.5e8, 16, "r5"),
    ("hetzner-ax-fsn1", "gbm"): NoMeasurement("no run on a target linked to this tier"),
}
GBM = {"kind": "gbm", "trainings_per_month": 900, "rows": 10_000_000, "features": 100,
       "trees": 1000}  # fmt: skip


def run(measurements=MEASUREMENTS, catalog=CATALOG, speed_factors=None, **plan):
    data = {"currency": "USD", "baseline": {"monthly": 480}, "workloads": [GBM]} | plan
    return compare(parse_plan(data), catalog, measurements, speed_factors, as_of=AS_OF)


def test_by_default_every_cpu_tier_with_a_number_is_sized_and_sorted_by_total_cost():
    result = run()
    totals = [o.money.total for o in result.options]
    assert totals == sorted(totals)
    # 900 trainings of 1e12 cell-trees a month, threads ÷ (730 × 0.7):
    assert [o.key for o in result.options] == [
        "tier:inmotion-extreme",  # 1000 s × 32 threads → 15.7 threads: 1 × 349.99
        "tier:aws-c5.2xlarge-us-east-1-on-demand",  # 5000 s × 8 → 19.6: 3 × 248.20 = 744.60
        "tier:aws-c5.4xlarge-us-east-1-on-demand",  # 2500 s × 16 → 19.6: 2 × 496.40 = 992.80
        "tier:aws-r5.4xlarge-us-east-1-on-demand",  # 2857 s × 16 → 22.4: 2 × 735.84
    ]
    assert [o.parts[0].servers_by_month[0] for o in result.options] == [1, 3, 2, 2]
    assert [o.money.monthly[0] for o in result.options] == [
        Decimal("349.99"),
        Decimal("744.60"),
        Decimal("992.80"),
        Decimal("1471.68"),
    ]
    assert result.headline.best == "tier:inmotion-extreme"


def test_tiers_without_a_number_are_listed_with_their_reasons():
    result = run()
    no_number = {entry.tier: entry for entry in result.no_number}
    assert set(no_number) == {"inmotion-advanced", "inmotion-essential", "hetzner-ax-fsn1"}
    assert "specs unknown" in str(no_number["inmotion-advanced"].reasons[0])
    assert [str(r) for r in no_number["hetzner-ax-fsn1"].reasons] == [
        "gbm #1: no run on a target linked to this tier"
    ]
    assert all(o.parts[0].tier != "aws-p4d.24xlarge-us-east-1-on-demand" for o in result.options)


def test_every_number_carries_its_provenance_in_json():
    out = json.loads(json.dumps(run().output().model_dump()))
    best = out["options"][0]
    price = best["parts"][0]["price"]
    assert price["amount"] == "349.99" and price["effective_from"] == "2026-01-19"
    assert price["source"].startswith("vendor's published tier") and price["confirmed"] is False
    basis = best["parts"][0]["capacity"]["workloads"][0]["basis"]
    assert basis == {
        "kind": "measured", "run_id": "run-epyc-gbm", "host": "epyc",
        "profile": "gbm-standard 1.0.3", "scale": "standard", "threads": 32, "fit": None,
        "extrapolation": None, "value": 1e9, "unit": "unit",
    }  # fmt: skip
    assert best["money"]["monthly"][0] == "349.99"
    assert out["assumptions"][0]["source"].startswith("Azure Migrate business case default")


def test_an_estimate_from_a_speed_factor_is_labelled_as_such():
    factor = SpeedFactor("inmotion-extreme", 1.0, "throughput_ratio", "same CPU", "ops",
                         dt.date(2026, 1, 2))  # fmt: skip
    result = run(speed_factors={"hetzner-ax-fsn1": factor})
    hetzner = next(o for o in result.options if o.key == "tier:hetzner-ax-fsn1")
    assert hetzner.figure == "estimate"
    out = json.loads(json.dumps(result.output(limit=2).model_dump()))
    assert len(out["options"]) == 2 and out["options_total"] == len(result.options)
    basis = out["options"][0]["parts"][0]["capacity"]["workloads"][0]["basis"]["estimate"]
    assert basis["speed_factor"]["date"] == "2026-01-02"
    assert basis["reference"]["run_id"] == "run-epyc-gbm"
    assert result.options[0] is hetzner  # 40 + 140.83 operations: cheapest, but an estimate
    assert result.headline.best == "tier:hetzner-ax-fsn1"
    assert "an estimate from a declared speed factor" in result.headline.sentence
    extreme = next(o for o in result.options if o.key == "tier:inmotion-extreme")
    assert extreme.figure == "measured"


def test_a_hybrid_prices_cpu_servers_and_gpu_hours_together():
    result = run(
        candidates=[
            {"name": "hybrid", "parts": [
                {"tier": "inmotion-extreme"},
                {"tier": "aws-p4d.24xlarge-us-east-1-on-demand", "mode": "usage"}]},
            {"tier": "inmotion-extreme", "count": 1},
        ],
        workloads=[GBM, {"kind": "deep_learning", "task": "llm_finetune",
                         "gpu_hours_per_month": 120}],
        horizon_months=12,
    )  # fmt: skip
    hybrid = next(o for o in result.options if o.key == "candidate:0")
    # 120 GPU-hours × 21.957642 ÷ 8 GPUs = 329.3646 → 329.36, plus one Extreme.
    assert hybrid.money.monthly[0] == Decimal("349.99") + Decimal("329.36")
    cpu_only = next(o for o in result.options if o.key == "candidate:1")
    assert any("stays on GPUs and is not priced" in str(n) for n in cpu_only.notes)
    assert not any("stays on GPUs" in str(n) for n in hybrid.notes)
    assert result.stays_on_gpu[0].task == "llm_finetune"


def test_running_both_keeps_the_baseline_for_those_months():
    result = run(
        candidates=[{"tier": "inmotion-extreme", "count": 1}],
        one_time={"running_both_months": 2, "migration_hours": 0, "migration_rate": 0,
                  "retraining": 0},
        horizon_months=12,
    )  # fmt: skip
    money = result.options[0].money
    assert money.monthly[:3] == [Decimal("829.99"), Decimal("829.99"), Decimal("349.99")]
    # Behind by 2 × 349.99 after month 2; 130.01 a month back: ahead from month 8.
    assert money.payback_month == 8
    assert money.payback_fraction == Decimal("7.38")  # 2 + 699.98 ÷ 130.01
    assert result.headline.not_entered == []


def test_commitments_keep_costing_after_the_switch_until_they_run_out():
    result = run(
        baseline={"monthly": 480, "commitments": [{"monthly": "100", "months_remaining": 3}]},
        candidates=[{"tier": "inmotion-extreme", "count": 1}],
        horizon_months=6,
    )
    monthly = result.options[0].money.monthly
    assert monthly == [Decimal("449.99")] * 3 + [Decimal("349.99")] * 3


def test_a_minimum_term_beyond_the_horizon_is_owed_in_the_last_month():
    result = run(
        candidates=[{"tier": "hetzner-ax-fsn1", "count": 1}],
        monthly={"ops_hours_per_server": 0, "ops_rate": 0},
        horizon_months=6,
    )
    option = result.options[0]
    assert option.money.monthly[:5] == [Decimal("40.00")] * 5
    assert option.money.monthly[5] == Decimal("280.00")  # 40 + 6 more months of a 12-month term
    assert option.one_time_items["setup_fees"] == Decimal("39.00")
    assert any("6 more months owed" in str(n) for n in option.notes)


def test_self_managed_servers_get_the_published_operations_default():
    result = run(candidates=[{"tier": "hetzner-ax-fsn1", "count": 3}], horizon_months=12)
    option = result.options[0]
    # 3 servers × (430 + 430 + 580 + 250) ÷ 12 = 422.50 a month, plus 3 × 40.
    assert option.money.monthly[0] == Decimal("542.50")
    assert any("Azure Migrate" in str(n) for n in option.notes)
    entered = run(
        candidates=[{"tier": "hetzner-ax-fsn1", "count": 3}],
        monthly={"ops_hours_per_server": 2, "ops_rate": "60"},
        horizon_months=12,
    )
    assert entered.options[0].money.monthly[0] == Decimal("480.00")  # 3 × (40 + 2 × 60)


def test_growth_adds_servers_and_their_set_up_fees_when_needed():
    busy = GBM | {"trainings_per_month": 1500}
    result = run(
        candidates=[{"tier": "hetzner-ax-fsn1"}],
        workloads=[busy],
        monthly_growth="0.1",
        horizon_months=12,
        monthly={"ops_hours_per_server": 0, "ops_rate": 0},
        speed_factors={"hetzner-ax-fsn1": SpeedFactor(
            "aws-c5.4xlarge-us-east-1-on-demand", 1.0, "throughput_ratio", "same class", "ops",
            dt.date(2026, 1, 2))},
    )  # fmt: skip
    option = result.options[0]
    servers = option.parts[0].servers_by_month
    assert servers == sorted(servers) and servers[-1] > servers[0]
    first_added = next(m for m in range(1, 12) if servers[m] > servers[m - 1])
    added = servers[first_added] - servers[first_added - 1]
    assert option.money.monthly[first_added] == Decimal(40 * servers[first_added] + 39 * added)
    assert option.one_time_items["setup_fees"] == Decimal(39 * servers[0])
    # The quoted baseline grows with the work: 480 × 1.1^(m−1).
    assert result.baseline.monthly[:3] == ["480.00", "528.00", "580.80"]


def test_inference_figures_of_the_leading_options_are_checked_by_simulation():
    samples = [0.001] * 90 + [0.030] * 10
    measurements = dict(MEASUREMENTS)
    for slug, host in (("inmotion-extreme", "epyc"), ("aws-c5.4xlarge-us-east-1-on-demand", "c5")):
        measurements[(slug, "inference")] = measured("inference", 250, 1, host,
                                                     service_times_s=samples)  # fmt: skip
    result = run(
        measurements=measurements,
        workloads=[GBM, {"kind": "inference", "peak_rps": 1000, "p99_ms": 40}],
        candidates=[{"tier": "inmotion-extreme"}, {"tier": "aws-c5.4xlarge-us-east-1-on-demand"}],
    )
    json.dumps(result.output().model_dump())  # every figure is plain data
    for option in result.options:
        serve = option.parts[0].capacity.workloads[1]
        assert serve.simulated is True
        assert serve.workers == 6  # M/M/c on the mean said 5; the tail needs 6
        assert serve.p99_ms_sim <= 40


def test_when_every_option_costs_more_the_headline_says_staying_is_cheapest():
    result = run(baseline={"monthly": 100}, candidates=[{"tier": "inmotion-extreme", "count": 1}])
    assert result.headline.sentence.startswith("Staying is cheapest over 36 months")
    assert result.options[0].money.payback_label == "never"


def test_a_fixed_count_below_the_models_need_is_flagged():
    busy = GBM | {"trainings_per_month": 3000}
    result = run(candidates=[{"tier": "inmotion-extreme", "count": 1}], workloads=[busy])
    check = result.options[0].capacity_check
    assert "cannot carry the work from month 1: " in str(check.said)
    assert "needs 2 servers, the fixed count is 1" in str(check.said)


def test_growth_outgrows_a_fixed_count_from_its_month_and_it_is_never_best():
    """Issue 21, item 5: the same capacity model as sized options, month by month; the
    cheaper fixed option that cannot carry the work ranks after the one that can."""
    plan = {"workloads": [GBM], "monthly_growth": "0.05",
            "candidates": [{"tier": "inmotion-extreme", "count": 1},
                           {"tier": "inmotion-extreme", "count": 3}]}  # fmt: skip
    result = run(**plan)
    sized = run(monthly_growth="0.05", candidates=[{"tier": "inmotion-extreme"}])
    need = sized.options[0].parts[0].servers_by_month
    first = next(m for m, n in enumerate(need, start=1) if n > 1)
    one = next(o for o in result.options if o.key == "candidate:0")
    three = next(o for o in result.options if o.key == "candidate:1")
    assert one.capacity_check.status == "cannot_carry"
    assert one.capacity_check.from_month == first > 1
    assert one.capacity_check.needed == max(need) <= 3
    assert one.money.total < three.money.total  # cheaper, and still not best
    assert three.capacity_check.status == "carries"
    assert result.options[0] is three and result.headline.best == "candidate:1"
    dumped = one.output().model_dump()
    assert dumped["capacity_check"]["status"] == "cannot_carry"
    # the sentence as its English text, and as data in the option's messages
    assert dumped["capacity_check"]["said"] == str(one.capacity_check.said)
    assert [m["code"] for m in dumped["messages"] if m["field"] == "capacity_check.said"] == [
        one.capacity_check.said.code
    ]


def test_a_fixed_count_without_evidence_says_capacity_not_checked():
    result = run(measurements={}, candidates=[{"tier": "inmotion-advanced", "count": 1}])
    check = result.options[0].capacity_check
    assert check.status == "not_checked"
    assert str(check.said).startswith("capacity not checked")
    assert result.headline.best == "candidate:0"  # not checked is not ruled out
    assert run(workloads=[], baseline={"monthly": 480},
               candidates=[{"tier": "inmotion-advanced", "count": 1}],
               ).options[0].capacity_check is None  # fmt: skip


def test_price_performance_is_listed_for_measured_tiers():
    perf = {(p.tier, p.profile_class): p for p in run().price_performance}
    extreme = perf[("inmotion-extreme", "gbm")]
    assert extreme.per == "billion cell-trees"
    assert Decimal(extreme.amount) == Decimal("0.0001332")  # 349.99 ÷ (1e9 × 3600 × 730) × 1e9
    assert extreme.basis["run_id"] == "run-epyc-gbm"


def test_a_converted_frame_reports_its_exchange_rate_and_date():
    row = tier("inmotion-extreme", "322.59", name="Extreme", vcpus=32, ram=192, currency="EUR")
    row |= {"fx_rate": 0.9217, "fx_date": dt.date(2026, 1, 30)}
    eur = frame(row)
    result = run(catalog=eur, currency="EUR", candidates=[{"tier": "inmotion-extreme", "count": 1}])
    assert [f.model_dump() for f in result.fx] == [
        {"rate": 0.9217, "date": "2026-01-30", "into": "EUR"}
    ]
    assert result.options[0].parts[0].price["fx_date"] == "2026-01-30"
    with pytest.raises(ValueError, match="pass catalog_frame"):
        run(catalog=eur, candidates=[{"tier": "inmotion-extreme", "count": 1}])


def test_a_candidate_the_frame_dropped_is_listed_with_the_frames_reason():
    dropped = frame(EXTREME)
    dropped.attrs["dropped"] = [{"slug": "aws-c5.4xlarge-us-east-1-on-demand",
                                 "reason": "no USD→EUR rate on or before 2026-02-01"}]  # fmt: skip
    result = run(
        catalog=dropped,
        candidates=[{"tier": "aws-c5.4xlarge-us-east-1-on-demand", "count": 1},
                    {"tier": "inmotion-extreme", "count": 1}],
    )  # fmt: skip
    assert [o.key for o in result.options] == ["candidate:1"]
    said = [
        {"tier": n["tier"], "reason": n["reason"]}
        for n in result.output().model_dump()["no_number"]
    ]
    assert {"tier": "aws-c5.4xlarge-us-east-1-on-demand",
            "reason": "no USD→EUR rate on or before 2026-02-01"} in said  # fmt: skip
