"""Growth adds servers in the month the work needs them and never takes one away (hypothesis)."""

import datetime as dt

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks_app.evidence import BestMeasurement
from planner.compute.capacity import size_tiers
from planner.compute.schema import GbmWorkload, InferenceWorkload

TIERS = pd.DataFrame(
    {
        "slug": ["small", "big"],
        "vcpus": [8, 32],
        "ram_gib": [32.0, 192.0],
        "pricing_model": ["on_demand", "fixed_monthly"],
    }
)


def measured(cls: str, value: float, threads: int, **extra) -> BestMeasurement:
    return BestMeasurement(
        cls, "metric", "unit", value, threads, True, f"run-{cls}-{threads}", "host", "cpu",
        "profile", "1.0.0", "standard", dt.datetime(2026, 1, 1), extra=extra,
    )  # fmt: skip


MEASUREMENTS = {
    ("small", "gbm"): measured("gbm", 2e8, 8),
    ("big", "gbm"): measured("gbm", 1e9, 32),
    ("small", "inference"): measured("inference", 100, 1, mean_s=0.004),
    ("big", "inference"): measured("inference", 100, 1, mean_s=0.003),
}


@settings(max_examples=60, deadline=None)
@given(
    trainings=st.floats(min_value=0, max_value=2000),
    rows=st.integers(min_value=1_000, max_value=50_000_000),
    rps=st.floats(min_value=1, max_value=3000),
    growth=st.floats(min_value=0, max_value=0.3),
    horizon=st.integers(min_value=1, max_value=36),
)
def test_growth_never_lowers_the_server_count(trainings, rows, rps, growth, horizon):
    workloads = [
        GbmWorkload("gbm", trainings_per_month=trainings, rows=rows, features=100, trees=500),
        InferenceWorkload("inference", peak_rps=rps, p99_ms=50),
    ]

    def sized(g: float):
        return size_tiers(TIERS, workloads, MEASUREMENTS, monthly_growth=g, horizon_months=horizon)

    flat, table = sized(0.0).servers, sized(growth)
    grown = table.servers
    assert (np.diff(grown, axis=1) >= 0).all()  # never fewer than the month before
    assert (grown >= flat).all()  # growth never lowers a month's count
    assert (grown[:, 0] == flat[:, 0]).all()  # month 1 is today's work
    # A tier whose RAM cannot hold the GBM working set is ruled out; every other needs one.
    serving = table.status != "ruled_out"
    assert (grown[serving] >= 1).all()
