"""The next run worth making: the estimated tier whose band straddles the best option ranks
first; a tier whose band cannot change the answer is not listed (docs/design.md, "The next
run worth making")."""

import dataclasses
import datetime as dt

from benchmarks_app.evidence import BestMeasurement, Sweep
from planner.compute import next_runs
from planner.compute.schema import parse_plan
from tests.support.engine import frame, tier

GBM = {"kind": "gbm", "trainings_per_month": 1500, "rows": 10_000_000, "features": 100,
       "trees": 1000}  # fmt: skip
BEST = tier("aws-best", "0.40", "hour", kind="cloud_vm", model="on_demand", vcpus=8, ram=64)
CLOSE = tier("aws-close", "0.40", "hour", kind="cloud_vm", model="on_demand", vcpus=8, ram=64)
FAR = tier("aws-far", "4.00", "hour", kind="cloud_vm", model="on_demand", vcpus=8, ram=64)
CATALOG = frame(BEST, CLOSE, FAR)


def measured(value: float, host: str, band=None) -> BestMeasurement:
    reps = [value * f for f in (0.99, 1.0, 1.01)]
    sweep = Sweep(f"run-{host}", host, {8: value}, {8: reps})
    cpu = {"cpu": "Test CPU", "cpu_key": "test", "how": "model", "row": "test"}
    said = {
        "band": list(band or ()),
        "tier_cpu": cpu,
        "reference_cpu": cpu,
        "ratio": 0.9,
        "scaling": 1.0,
        "dataset": "test scores",
        "rung": "published_scores",
    }
    extra = {"estimate": said} if band else {}
    return BestMeasurement(
        "gbm", "cell_trees_per_s", "cell-trees/s", value, 8, band is None, f"run-{host}", host,
        "cpu", "gbm-xgboost", "1.0.3", "standard", dt.datetime(2026, 1, 20), extra=extra,
        sweep=sweep,
    )  # fmt: skip


def plan():
    return parse_plan({
        "currency": "USD", "baseline": {"monthly": "20000"}, "workloads": [GBM],
        "horizon_months": 36,
        "candidates": [{"tier": "aws-best"}, {"tier": "aws-close"}, {"tier": "aws-far"}],
    })  # fmt: skip


MEASUREMENTS = {
    ("aws-best", "gbm"): measured(2e8, "best"),
    # a little slower than the measured tier: its band (x0.5...x2) straddles the best option
    ("aws-close", "gbm"): measured(1.8e8, "close", band=(0.5, 2.0)),
    # ten times the price: even twice as fast it never wins
    ("aws-far", "gbm"): measured(2e8, "far", band=(0.5, 2.0)),
}


def test_the_straddling_estimate_ranks_first_and_the_hopeless_one_is_not_listed():
    found = next_runs.rank(plan(), CATALOG, MEASUREMENTS, draws=2000)
    assert found.best == "candidate:0"  # the measured tier, the cheapest at the base case
    tiers = [r.tier for r in found.runs]
    assert tiers and tiers[0] == "aws-close", found
    assert "aws-far" not in tiers
    first = found.runs[0]
    assert 0.05 < first.changes < 0.95 and first.value_cents > 0
    assert (first.option, first.best, first.against) == (
        "candidate:1",
        "candidate:0",
        "candidate:1",
    )
    assert "candidate:2" not in found.contending  # the far tier
    assert first.profile == "gbm-xgboost"


def test_once_measured_the_tier_leaves_the_ranking():
    measured_now = dict(MEASUREMENTS)
    m = measured_now["aws-close", "gbm"]
    measured_now["aws-close", "gbm"] = dataclasses.replace(m, measured=True, extra={})
    found = next_runs.rank(plan(), CATALOG, measured_now, draws=2000)
    assert "aws-close" not in [r.tier for r in found.runs]
