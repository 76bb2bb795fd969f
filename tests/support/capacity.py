"""Builders for the capacity model's tests: tier tables, fake measurements, a GBM workload."""

import datetime as dt
from dataclasses import dataclass, field

import pandas as pd

from benchmarks_app.evidence import BestMeasurement
from planner.compute.capacity import size_tiers
from planner.compute.schema import GbmWorkload


def tiers(*rows) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["slug", "vcpus", "ram_gib", "pricing_model"])


EXTREME = ("extreme", 32, 192.0, "fixed_monthly")
C5 = ("c5", 16, 32.0, "on_demand")
C5_SPOT = ("c5-spot", 16, 32.0, "spot")


def measured(cls, value, threads=32, *, measured=True, fit=None, extrapolation=None, **extra):
    return BestMeasurement(
        cls, "metric", "unit", value, threads, measured, f"run-{cls}", "epyc-1", "EPYC 4545P",
        f"{cls}-standard", "1.2.0", "standard", dt.datetime(2026, 1, 10), fit=fit,
        extrapolation=extrapolation, extra=extra,
    )  # fmt: skip


GBM = GbmWorkload("gbm", trainings_per_month=30, rows=10_000_000, features=100, trees=1000)


def one(workloads, measurements, row=EXTREME, **kw):
    return size_tiers(tiers(row), workloads, measurements, **kw).result(0)


@dataclass(frozen=True)
class Sweep:
    """What capacity reads of a run's whole sweep (`BestMeasurement.sweep` from the batched
    selector): the median throughput at each measured thread count."""

    medians: dict[int, float]


@dataclass(frozen=True)
class _SweptMeasurement(BestMeasurement):
    sweep: Sweep | None = field(default=None, compare=False, repr=False)


def measured_in_sweep(cls, medians: dict[int, float], threads, **extra) -> BestMeasurement:
    """The measurement at `threads` of a run that measured `medians`, carrying that sweep."""
    plain = measured(cls, medians[threads], threads, **extra)
    fields = {name: getattr(plain, name) for name in plain.__dataclass_fields__}
    return _SweptMeasurement(**{**fields, "sweep": Sweep(dict(medians))})
