# ruff: noqa: RUF002, RUF003  (math notation: λ, μ, ρ, θ, ×, − as in the queueing texts)
"""How many servers of each tier a team's workloads need (docs/design.md, "Sizing rules").

Per candidate tier, from the measurement on a target linked to it (or a declared
speed factor against a measured tier, which makes the figure an "estimate"):

- time per unit of work, per workload kind (seconds, at the measured thread count k):
  gbm       R·F·T / X                      X: cell-trees/s
  sklearn   G·K·(R·F)/(R₀·F₀) / X          X: model fits/s at the profile's R₀, F₀
  features  GB / X                         X: input GB/s; memory = GB × RSS-per-GB (GiB)
  hpo       N / X(P) × (t / t₀ if given)   X: trials/h with P concurrent trials; k = P;
                                         t₀ = 3600 / X(1), the run's own one-process trial
  nn        S·E / X                        X: samples/s
- batch thread-hours a month = Σ units a month × hours per unit × k, times
  (1 + interruption allowance) on spot tiers, times (1+g)^(m−1) in month m;
- inference workers c: the smallest c with M/M/c p99 ≤ bound (`queueing`), one
  pool per inference workload; `verify_inference` checks it by an M/G/c
  simulation on the measured service-time samples and raises c if needed (or
  sizes it, where exponential service makes M/M/c infeasible);
- threads needed = c + batch thread-hours ÷ (730 × utilisation);
- servers = max(⌈threads ÷ threads per server⌉, ⌈memory ÷ RAM⌉ for working sets
  that may be split, 1 when a must-fit working set fits, the servers a deadline
  forces), never fewer than the month before, plus one spare for N+1;
- memory (GiB) of a job: features GB × RSS ratio; gbm and sklearn R·F·4 bytes (the
  float32 matrix, decimal GB) × RSS ratio. The ratio is the run's `rss_per_input_gb`
  (peak RSS GiB per input GB), else the library's factor in MEMORY_FACTORS, labelled
  as an estimate. A GBM training or a scikit-learn fit holds its whole matrix, so its
  working set must fit one server: a tier with less RAM is ruled out.

Deadlines are per job: sklearn searches and HPO searches spread over servers, so a
deadline forces ⌈job hours ÷ deadline⌉ servers; a GBM or NN training and a
features run do not split, so a job longer than its deadline rules the tier out.
Memory counts the working sets of features, gbm and sklearn jobs (the classes that
measure RSS); jobs are assumed to run one at a time per working set, so the need is
the largest, not the sum. Growth scales the number of jobs and requests, not a job's size.

Deep-learning workloads are never sized onto CPU tiers: they stay on GPUs.
All arrays are per tier (N) or per tier × month (N × H), computed at once.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from benchmarks_app.evidence import BestMeasurement, NoMeasurement
from benchmarks_app.findings import Findings, Why
from common.message_texts import TEXTS
from common.messages import MADE, Message, TierRef, msg
from common.units import HOURS_PER_MONTH
from planner.compute import bounds, fitgate, queueing
from planner.compute.answer import Capacity, WorkloadCapacity, constructed
from planner.compute.message_fields import as_message, figure
from planner.compute.schema import (
    DeepLearningWorkload,
    FeaturesWorkload,
    GbmWorkload,
    HpoWorkload,
    InferenceWorkload,
    NnWorkload,
    SklearnWorkload,
    Workload,
)

GIB_PER_GB = 1e9 / 2**30  # dataset sizes are decimal GB; memory is GiB
FLOAT32_BYTES = 4  # a gbm or sklearn matrix of R rows × F features, as the runners build it
EPS = 1e-9  # keeps ⌈2.0000000001⌉ from becoming 3 after float arithmetic
SPEED_UNITS = ("throughput_ratio", "per_thread_ratio")

# A reason arrives as a NoMeasurement, a Message or (from older callers) a string.
Measurement = BestMeasurement | NoMeasurement | Message | str | None
Lookup = Mapping[tuple[str, str], Measurement] | Callable[[str, str], Measurement]


@dataclass(frozen=True)
class SpeedFactor:
    """A staff member's declared speed of an unmeasured tier against a measured one.

    unit "throughput_ratio": the whole tier does `factor` × the reference's measured
    throughput; "per_thread_ratio": each thread is `factor` × as fast, at the
    reference's thread count (capped at the tier's).
    """

    relative_to: str
    factor: float
    unit: str
    source: str
    author: str
    date: dt.date

    def to_dict(self) -> dict[str, Any]:
        return {
            "relative_to": self.relative_to,
            "factor": self.factor,
            "unit": self.unit,
            "source": self.source,
            "author": self.author,
            "date": self.date.isoformat(),
        }


@dataclass(frozen=True)
class MemoryFactor:
    """Peak RSS (GiB) per decimal GB of float32 input where a run records no ratio of its own."""

    ratio: float
    library: str  # as the label names it
    rows: int  # the size it was measured at (× `features` float32 columns)
    features: int


# Measured by this project, not taken from the libraries' documentation (none of them
# publishes a ratio): the gbm and sklearn runners at the sizes below, 2 threads, 10 trees,
# on the development machine (2-core AMD EPYC, Python 3.13, xgboost 3.4.1, lightgbm 4.7.0,
# scikit-learn 1.9.1), peak RSS above the baseline taken after the imports (and after the
# joblib workers started) over the float32 input, rounded up to one decimal. The grid
# search counts its 2 workers' summed RSS, fold copies and shared pages included, so it
# grows with the workers a team runs. benchmarks_app/profiles/README.md has the runs.
MEMORY_FACTORS: dict[str, MemoryFactor] = {
    "xgboost": MemoryFactor(1.6, "XGBoost hist", 1_000_000, 50),  # measured 1.56
    "lightgbm": MemoryFactor(1.9, "LightGBM", 1_000_000, 50),  # 1.89
    "rf_fit": MemoryFactor(1.8, "scikit-learn RandomForestClassifier", 500_000, 50),  # 1.77
    "grid_search": MemoryFactor(6.1, "scikit-learn GridSearchCV", 200_000, 50),  # 6.02
}
# A run's library (gbm) or mode (sklearn) is in its extra; else its shipped profile names it;
# else (a staff-made profile) the class's larger factor applies.
MEMORY_PROFILES = {"gbm-xgboost": "xgboost", "gbm-lightgbm": "lightgbm",
                   "sklearn-rf": "rf_fit", "sklearn-gridsearch": "grid_search"}  # fmt: skip
MEMORY_FALLBACK = {"gbm": "lightgbm", "sklearn": "grid_search"}


def _getter(measurements: Lookup) -> Callable[[str, str], Measurement]:
    if callable(measurements):
        call = measurements

        def get(slug: str, cls: str) -> Measurement:
            try:
                return call(slug, cls)
            except NoMeasurement as exc:
                return exc

        return get
    return lambda slug, cls: measurements.get((slug, cls))


def _no_measurement_reason(found: Measurement, cls: str) -> Message:
    if found:
        return as_message(found)
    return Message("capacity.no_measurement", {"class": cls})


@dataclass
class ClassEvidence:
    """One workload class's measured (or estimated) throughput on every tier."""

    profile_class: str
    value: np.ndarray  # throughput at `threads`; NaN where there is no number
    threads: np.ndarray
    estimate: np.ndarray  # bool: from a declared speed factor
    records: list[BestMeasurement | None]  # the measurement (the reference one for estimates)
    factors: list[SpeedFactor | None]
    reasons: list[Message | None]
    service_scale: np.ndarray  # inference: divide service times by this

    def extra(self, key: str) -> np.ndarray:
        return np.array(
            [_float(r.extra.get(key)) if r else np.nan for r in self.records], dtype=float
        )

    # What a tier's record and speed factor say (its basis and labels), by the identity of
    # the two (`records` and `factors` keep them): a large catalog's tiers share a few
    # records (an estimate's reference run, a CPU model's published scores), and the shown
    # options' capacities and the price/performance rows said them again per tier.
    _said: dict[tuple[int, int], tuple[Any, Any, dict[str, Any], list[Message]]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def basis(self, i: int) -> dict[str, Any]:
        """What tier i's figure rests on (shared by the tiers with the same record and
        factor: read, never changed)."""
        record = self.records[i]
        if record is None:
            return {"none": self.reasons[i]}
        return self._of(record, self.factors[i])[2]

    def labels(self, i: int) -> list[Message]:
        """Tier i's labels: a list of its own, the messages shared as `basis` is."""
        record = self.records[i]
        if record is None:
            return []
        return list(self._of(record, self.factors[i])[3])

    def _of(
        self, record: BestMeasurement, factor: SpeedFactor | None
    ) -> tuple[Any, Any, dict[str, Any], list[Message]]:
        key = (id(record), id(factor))
        kept = self._said.get(key)
        # the two kept beside, so no other object takes their ids while kept (and checked:
        # a table carried through a pickle keeps its old ids as keys)
        if kept is None or kept[0] is not record or kept[1] is not factor:
            kept = (record, factor, _basis(record, factor), _labels(record, factor))
            self._said[key] = kept
        return kept


def _basis(record: BestMeasurement, factor: SpeedFactor | None) -> dict[str, Any]:
    measured = {**record.provenance, "value": record.value, "unit": record.unit}
    if factor is None:
        return measured
    return {"estimate": {"speed_factor": factor.to_dict(), "reference": measured}}


def _labels(record: BestMeasurement, factor: SpeedFactor | None) -> list[Message]:
    out = []
    if factor is not None:
        out.append(
            msg("capacity.label_estimate", factor=figure(factor.factor), unit=factor.unit,
                tier=TierRef(factor.relative_to))
        )  # fmt: skip
    if estimate := record.estimate_labels():
        out += estimate
    elif not record.measured:
        out.append(msg("capacity.label_predicted", fit=record.fit or "scaling", host=record.host))
    if fallback := fitgate.fallback_label(record):
        out.append(fallback)
    if record.extrapolation:
        out.append(as_message(record.extrapolation))
    return out


def _float(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return np.nan


def gather_evidence(
    slugs: Sequence[str],
    vcpus: np.ndarray,
    cls: str,
    get: Callable[[str, str], Measurement],
    speed_factors: Mapping[str, SpeedFactor],
    column: Sequence[BestMeasurement | Message | None] | None = None,
) -> ClassEvidence:
    """`column`: what the lookup holds for each of `slugs` where it says them all at once
    (`Findings.columns`); else each is asked of `get`."""
    n = len(slugs)
    value, threads, scale = np.full(n, np.nan), np.full(n, np.nan), np.ones(n)
    estimate = np.zeros(n, dtype=bool)
    records: list[BestMeasurement | None] = [None] * n
    factors: list[SpeedFactor | None] = [None] * n
    reasons: list[Message | None] = [None] * n
    for i, slug in enumerate(slugs):
        found = get(slug, cls) if column is None else column[i]
        if isinstance(found, BestMeasurement):
            records[i], value[i], threads[i] = found, found.value, found.threads
            estimate[i] = bool(found.extra.get("estimate"))  # from published scores
            continue
        # A message as it is (most tiers of a large catalog), else said as one.
        reasons[i] = found if type(found) is Message else _no_measurement_reason(found, cls)
        factor = speed_factors.get(slug) if speed_factors else None
        if factor is None:
            continue
        ref = get(factor.relative_to, cls)
        if isinstance(ref, BestMeasurement) and factor.unit in SPEED_UNITS:
            records[i], factors[i], estimate[i] = ref, factor, True
            value[i], threads[i], scale[i] = _scaled(ref, factor, float(vcpus[i]))
        else:
            reasons[i] = msg(
                "capacity.reference_has_none", reason=reasons[i], tier=TierRef(factor.relative_to)
            )
    return ClassEvidence(cls, value, threads, estimate, records, factors, reasons, scale)


def _scaled(ref: BestMeasurement, factor: SpeedFactor, vcpus: float) -> tuple[float, float, float]:
    """(throughput, threads, service-time divisor) an estimate gives the tier."""
    if factor.unit == "throughput_ratio":
        whole = vcpus if np.isfinite(vcpus) else ref.threads
        return ref.value * factor.factor, whole, factor.factor
    threads = min(ref.threads, vcpus) if np.isfinite(vcpus) else ref.threads
    return ref.value * factor.factor * threads / ref.threads, threads, factor.factor


# --- per-workload columns -------------------------------------------------------------


@dataclass
class WorkloadColumns:
    index: int
    workload: Workload
    evidence: ClassEvidence
    seconds_per_unit: np.ndarray  # one job on one server at `threads`; NaN: no number
    threads: np.ndarray
    memory_gib: np.ndarray
    problems: list[Message | None]  # a reason this workload gives the tier no number
    out_of_range: np.ndarray  # bool: workload outside the profile's trusted range
    range_label: Message | None = None
    deadline_forced: np.ndarray | None = None  # servers a divisible job's deadline forces
    deadline_missed: np.ndarray | None = None  # an indivisible job longer than its deadline
    # inference only
    workers: np.ndarray | None = None  # N × H
    mu: np.ndarray | None = None
    p99_mmc_s: np.ndarray | None = None
    p99_sim_s: np.ndarray | None = None
    provisional: np.ndarray | None = None  # bool: not yet checked by simulation
    ruled_out: dict[int, Message] = field(default_factory=dict)  # tier index → why it cannot serve
    memory_labels: list[Message | None] | None = None  # where the memory is an estimate


def _ratio(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(b > 0, a / b, np.nan)


def _batch_seconds(w: Workload, ev: ClassEvidence) -> tuple[np.ndarray, np.ndarray, Message | None]:
    """(seconds per unit, threads used, what a measurement lacks) for a batch workload."""
    x, k = ev.value, ev.threads
    if isinstance(w, GbmWorkload):
        return _ratio(np.full_like(x, float(w.rows) * w.features * w.trees), x), k, None
    if isinstance(w, SklearnWorkload):
        base = ev.extra("rows") * ev.extra("features")
        work = w.grid_size * w.folds * _ratio(np.full_like(x, float(w.rows) * w.features), base)
        return _ratio(work, x), k, msg("capacity.needs_rows_features")
    if isinstance(w, FeaturesWorkload):
        return _ratio(np.full_like(x, w.dataset_gb), x), k, None
    if isinstance(w, HpoWorkload):
        concurrency = ev.extra("concurrency")
        k = np.where(np.isfinite(concurrency), concurrency, k)
        seconds = _ratio(np.full_like(x, w.trials * 3600.0), x)
        if w.trial_hours_single_thread is None:
            return seconds, k, None
        t = np.full_like(x, w.trial_hours_single_thread * 3600)
        return (
            seconds * _ratio(t, _single_process_trial_seconds(ev)),
            k,
            msg("capacity.needs_trial_length"),
        )
    if isinstance(w, NnWorkload):
        return _ratio(np.full_like(x, float(w.samples) * w.epochs), x), k, None
    raise TypeError(f"not a batch workload: {w.kind}")


def _single_process_trial_seconds(ev: ClassEvidence) -> np.ndarray:
    """t₀ per tier: the length of one trial when the run ran one process, 3600 / X(1) s.

    The design scales a team's trial length t by the profile's own single-thread trial t₀,
    measured at P = 1. The trial length measured with P trials at once (the record's
    `t0_seconds` at P > 1) is longer by their contention, and dividing by it would cancel
    that contention out. One process runs its trials back to back, so X(1) trials an hour
    is one trial every 3600 / X(1) s: the search takes N·t/3600 single-thread hours over
    the measured speedup X(P)/X(1). X(1) comes from the record itself when it was measured
    at one process, else from its run's sweep (`BestMeasurement.sweep`, the medians by
    thread count); NaN (no figure, with the reason) where neither has it.
    """
    out = np.full(len(ev.records), np.nan)
    for i, record in enumerate(ev.records):
        if record is None:
            continue
        medians = getattr(getattr(record, "sweep", None), "medians", None) or {}
        if record.measured and _float(record.extra.get("concurrency", record.threads)) == 1:
            out[i] = 3600 / record.value
        elif _float(medians.get(1)) > 0:
            out[i] = 3600 / float(medians[1])
    return out


def _working_set(w: Workload, ev: ClassEvidence) -> tuple[np.ndarray, list[Message | None]]:
    """(GiB one job holds at its peak, the estimate label where no run ratio sized it)."""
    n = len(ev.records)
    labels: list[Message | None] = [None] * n
    rss = ev.extra("rss_per_input_gb")
    if isinstance(w, FeaturesWorkload):
        return np.where(np.isfinite(rss), w.dataset_gb * rss, w.dataset_gb * GIB_PER_GB), labels
    if not isinstance(w, GbmWorkload | SklearnWorkload):
        return np.zeros(n), labels
    input_gb = float(w.rows) * w.features * FLOAT32_BYTES / 1e9
    ratio = rss.copy()
    said: dict[MemoryFactor, Message] = {}  # one label per factor (messages are immutable)
    for i in np.flatnonzero(~np.isfinite(rss)).tolist():
        if ev.records[i] is None:
            continue  # no measurement: the tier has no figure anyway
        factor = _memory_factor(ev.records[i], w.kind)
        ratio[i] = factor.ratio
        if factor not in said:
            said[factor] = msg(
                "capacity.label_memory_estimate", ratio=figure(factor.ratio),
                library=factor.library, rows=figure(factor.rows, "d"),
                features=figure(factor.features, "d"),
            )  # fmt: skip
        labels[i] = said[factor]
    return np.nan_to_num(input_gb * ratio), labels


def _memory_factor(record: BestMeasurement, kind: str) -> MemoryFactor:
    """The factor of the record's library (gbm) or mode (sklearn), else the class's larger."""
    named = record.extra.get("library") if kind == "gbm" else record.extra.get("mode")
    if named not in MEMORY_FACTORS:
        named = MEMORY_PROFILES.get(record.profile_name, MEMORY_FALLBACK[kind])
    return MEMORY_FACTORS[named]


def must_fit_one_box(w: Workload) -> bool:
    """Whether a job's working set has to fit one server (gbm and sklearn always do)."""
    if isinstance(w, FeaturesWorkload):
        return w.must_fit_one_box
    return isinstance(w, GbmWorkload | SklearnWorkload)


def _trusted_range(w: Workload, ev: ClassEvidence) -> tuple[np.ndarray, Message | None]:
    n = len(ev.records)
    out = np.zeros(n, dtype=bool)
    label = None
    for i, record in enumerate(ev.records):
        rng = record.extra.get("trusted_range") if record else None
        if not rng or not hasattr(w, str(rng.get("param"))):
            continue
        given = float(getattr(w, rng["param"]))
        low, high = _float(rng.get("min")), _float(rng.get("max"))
        if given < low or given > high:
            out[i] = True
            label = msg(
                "capacity.label_out_of_range", param=rng["param"], given=figure(given),
                low=figure(low), high=figure(high),
            )  # fmt: skip
    return out, label


def _batch_columns(index: int, w: Workload, ev: ClassEvidence) -> WorkloadColumns:
    seconds, threads, needs = _batch_seconds(w, ev)
    n = len(seconds)
    problems: list[Message | None] = [None] * n
    for i in np.flatnonzero(~np.isfinite(seconds) | ~(threads > 0)).tolist():
        # made only where the tier has no reason of its own (most have one: 15,000 unused)
        problems[i] = ev.reasons[i] or Message(
            "capacity.measurement_lacks", {"class": ev.profile_class, "what": needs}
        )
    memory, memory_labels = _working_set(w, ev)
    out_of_range, label = _trusted_range(w, ev)
    cols = WorkloadColumns(index, w, ev, seconds, threads, memory, problems, out_of_range, label)
    cols.memory_labels = memory_labels
    deadline = getattr(w, "deadline_hours", None)
    if deadline:
        hours = seconds / 3600
        if isinstance(w, SklearnWorkload | HpoWorkload):
            cols.deadline_forced = np.ceil(np.nan_to_num(hours / deadline) - EPS).astype(np.int64)
        else:
            cols.deadline_missed = hours > deadline
    return cols


def _inference_columns(
    index: int, w: InferenceWorkload, ev: ClassEvidence, growth: np.ndarray
) -> WorkloadColumns:
    mean = ev.extra("mean_s")
    own_p99 = ev.extra("p99_s")
    # Fall back to the samples only where the runner's summary lacks a figure.
    for i in np.flatnonzero(~np.isfinite(mean) | ~np.isfinite(own_p99)).tolist():
        samples = ev.records[i].extra.get("service_times_s") if ev.records[i] else None
        if samples is not None and len(samples):  # a list, or an estimate's array
            mean[i] = mean[i] if np.isfinite(mean[i]) else np.mean(samples)
            own_p99[i] = own_p99[i] if np.isfinite(own_p99[i]) else np.quantile(samples, 0.99)
    mean = mean / ev.service_scale
    own_p99 = own_p99 / ev.service_scale
    mu = _ratio(np.ones_like(mean), mean)
    n = len(mu)
    problems: list[Message | None] = [
        ev.reasons[i] or msg("capacity.no_service_times") if bad else None
        for i, bad in enumerate((~(mu > 0)).tolist())
    ]
    lam = w.peak_rps * growth[None, :]
    good = mu > 0
    bound = w.p99_ms / 1000
    workers = np.zeros((n, len(growth)), dtype=np.int64)
    workers[good] = queueing.min_workers(lam, mu[good, None], bound)
    # Where exponential service makes M/M/c infeasible, the stability minimum is a
    # lower bound until the simulation sizes the pool.
    provisional = good.copy()
    short = good & (workers[:, -1] == 0)
    workers[short] = np.floor(lam * (1 / mu[short, None])).astype(np.int64) + 1
    p99 = np.full(n, np.nan)
    ok = good & ~short
    p99[ok] = queueing.sojourn_quantile(workers[ok, 0], lam[0, 0], mu[ok])
    cols = WorkloadColumns(
        index, w, ev, np.where(good, mean, np.nan), np.ones(n), np.zeros(n), problems,
        np.zeros(n, dtype=bool), workers=workers, mu=mu, p99_mmc_s=p99,
        p99_sim_s=np.full(n, np.nan), provisional=provisional,
    )  # fmt: skip
    for i in np.flatnonzero(good & (own_p99 > bound)):
        cols.ruled_out[i] = msg(
            "capacity.own_p99_over_bound", p99=figure(own_p99[i] * 1000, ".3g"),
            bound=figure(w.p99_ms),
        )  # fmt: skip
    return cols


def _service_samples(c: WorkloadColumns, i: int) -> np.ndarray:
    """Tier i's service-time samples in seconds (the mean alone when none were kept)."""
    record = c.evidence.records[i]
    samples = record.extra.get("service_times_s") if record else None
    if samples is None or not len(samples):  # a list, or an estimate's array
        return np.array([1 / c.mu[i]])
    return np.asarray(samples, dtype=float) / c.evidence.service_scale[i]


# --- the table -----------------------------------------------------------------------


@dataclass
class CapacityTable:
    """Every tier's capacity at once; `result(i)` gives one tier as plain data."""

    slugs: list[str]
    vcpus: np.ndarray
    ram_gib: np.ndarray
    spot: np.ndarray
    growth: np.ndarray  # (1+g)^(m−1), m = 1..H
    utilisation: float
    spot_allowance: float
    columns: list[WorkloadColumns]
    stays_on_gpu: list[dict[str, Any]]
    spec_missing: np.ndarray
    status: np.ndarray = field(init=False)
    servers: np.ndarray = field(init=False)  # N × H, 0 where no number
    threads_needed: np.ndarray = field(init=False)  # N × H
    memory_need: np.ndarray = field(init=False)
    row_of: dict[str, int] = field(init=False)  # slug → row
    _flags: tuple[list[bool], list[tuple]] | None = field(default=None, init=False, repr=False)
    # the M/G/c runs made to check the inference pools, kept by their inputs
    _simulations: queueing.Simulations = field(
        default_factory=queueing.Simulations, init=False, repr=False
    )

    def __post_init__(self) -> None:
        self.row_of = {slug: i for i, slug in enumerate(self.slugs)}
        self.recompute()

    @property
    def batch(self) -> list[WorkloadColumns]:
        return [c for c in self.columns if c.workers is None]

    @property
    def inference(self) -> list[WorkloadColumns]:
        return [c for c in self.columns if c.workers is not None]

    def batch_thread_hours(self) -> np.ndarray:
        """N × H thread-hours a month of all batch work, growth and spot re-runs included."""
        n, h = len(self.slugs), len(self.growth)
        per_month = np.zeros(n)
        for c in self.batch:
            hours = np.nan_to_num(c.seconds_per_unit / 3600 * c.threads)
            per_month += c.workload.per_month * hours
        rerun = np.where(self.spot, 1 + self.spot_allowance, 1.0)
        return (per_month * rerun)[:, None] * self.growth[None, :] if n else np.zeros((0, h))

    def recompute(self) -> None:
        self._flags = None  # `_reason_flags` again from what changed
        n, h = len(self.slugs), len(self.growth)
        workers = sum((c.workers for c in self.inference), np.zeros((n, h), dtype=np.int64))
        threads = workers + self.batch_thread_hours() / (HOURS_PER_MONTH * self.utilisation)
        with np.errstate(divide="ignore", invalid="ignore"):
            servers = np.ceil(threads / self.vcpus[:, None] - EPS)
        floor = np.ones(n)
        self.memory_need = np.zeros(n)
        must_fit = np.zeros(n, dtype=bool)
        for c in self.batch:
            self.memory_need = np.maximum(self.memory_need, c.memory_gib)
            if must_fit_one_box(c.workload):
                must_fit |= c.memory_gib > self.ram_gib
            elif isinstance(c.workload, FeaturesWorkload):
                with np.errstate(divide="ignore", invalid="ignore"):
                    split = np.ceil(c.memory_gib / self.ram_gib - EPS)
                floor = np.maximum(floor, np.nan_to_num(split))
            if c.deadline_forced is not None:
                floor = np.maximum(floor, c.deadline_forced)
        servers = np.maximum(np.nan_to_num(servers), floor[:, None])
        servers = np.maximum.accumulate(servers, axis=1)
        if any(c.workload.n_plus_one for c in self.inference):  # type: ignore[attr-defined]
            servers += 1
        self.threads_needed = threads
        self.status, sized = self._status(must_fit)
        self.servers = bounds.servers(np.where(sized[:, None], servers, 0))

    def _status(self, too_big: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each tier's status, and where it is "sized" or "estimate" (a figure)."""
        no_number = self.spec_missing.copy()
        ruled_out = too_big.copy()
        estimate = np.zeros(len(self.slugs), dtype=bool)
        for c in self.columns:
            no_number |= np.array([p is not None for p in c.problems], dtype=bool)
            estimate |= c.evidence.estimate
            if c.deadline_missed is not None:
                ruled_out |= c.deadline_missed
            ruled_out[list(c.ruled_out)] = True
        status = np.where(estimate, "estimate", "sized").astype(object)
        status[ruled_out] = "ruled_out"
        status[no_number] = "no_number"
        return status, ~(ruled_out | no_number)

    # --- checking inference by simulation ---

    def verify_inference(self, i: int, *, seed: int = 0, customers: int = 20_000) -> bool:
        """Check tier i's inference pools by M/G/c simulation at the peak month; True if c rose.

        M/M/c sized: the simulation may raise c (by the same count in every month,
        which is conservative). M/M/c infeasible: the simulation sizes c at months 1
        and H, and months between scale month 1's count with the load, capped at H's.
        """
        rose = False
        for c in self.inference:
            if not c.provisional[i]:
                continue
            rose |= self._simulate_pool(c, i, seed, customers)
            c.provisional[i] = False
        if rose:
            self.recompute()
        return rose

    def _simulate_pool(self, c: WorkloadColumns, i: int, seed: int, customers: int) -> bool:
        w: InferenceWorkload = c.workload  # type: ignore[assignment]
        samples = _service_samples(c, i)
        bound, lam = w.p99_ms / 1000, w.peak_rps * self.growth
        before = c.workers[i].copy()
        mmc_feasible = bool(queueing.feasible_p99(c.mu[i], bound))
        simulate = self._simulations
        peak = queueing.min_workers_by_simulation(
            lam[-1], samples, bound, start=int(before[-1]), seed=seed, customers=customers,
            simulate=simulate,
        )  # fmt: skip
        if peak is None:
            c.ruled_out[i] = msg("capacity.no_workers_meet_bound", bound=figure(w.p99_ms))
            self.recompute()
            return False
        if mmc_feasible:
            c.workers[i] = before + (peak[0] - before[-1])
        else:
            first = queueing.min_workers_by_simulation(
                lam[0], samples, bound, start=int(before[0]), seed=seed, customers=customers,
                simulate=simulate,
            )  # fmt: skip
            start = first[0] if first else peak[0]
            scaled = bounds.servers(np.ceil(start * self.growth - EPS))
            c.workers[i] = np.minimum(np.maximum(scaled, start), peak[0])
            c.workers[i, -1] = peak[0]
        first_c = int(c.workers[i, 0])
        c.p99_sim_s[i] = simulate(lam[0], samples, first_c, seed=seed, customers=customers)
        if mmc_feasible:
            c.p99_mmc_s[i] = simulate.quantile(first_c, lam[0], c.mu[i])
        return bool((c.workers[i] > before).any())

    # --- one tier as plain data ---

    def result(self, i: int) -> Capacity:
        status = str(self.status[i])
        reasons = self.reasons(i)
        has_number = status in ("sized", "estimate")
        workloads = [self._workload_result(c, i) for c in self.columns]
        # Each label once, in the order of its English text (as the strings always were).
        labels = sorted({str(m): m for w in workloads for m in w.labels}.items())
        ram = float(self.ram_gib[i]) if np.isfinite(self.ram_gib[i]) else None
        need = float(self.memory_need[i])
        vcpus = float(self.vcpus[i])
        fields = {
            "tier": self.slugs[i], "status": status, "reasons": reasons,
            "servers": int(self.servers[i, 0]) if has_number else None,
            "servers_by_month": self.servers[i].tolist() if has_number else [],
            "threads_per_server": vcpus if np.isfinite(vcpus) else None,
            "threads_needed": float(self.threads_needed[i, 0]) if has_number else None,
            "memory_need_gib": need, "ram_gib": ram,
            "fits_in_ram": need <= ram if need and ram is not None else None,
            "spare_server": any(c.workload.n_plus_one for c in self.inference),  # type: ignore[attr-defined]
            "workloads": workloads, "labels": [m for _text, m in labels], "provenance": None,
        }  # fmt: skip
        # `Capacity.model_construct(**fields but provenance)`, a fifth of its cost: the
        # shown options' capacities are made on the answer's first output (50 at 2,018
        # tiers: the pydantic walk was some 0.5 ms of their 3, bench, CPU).
        return constructed(Capacity, fields, _CAPACITY_GIVEN)

    def reasons(self, i: int) -> list[Message]:
        """Why tier i has no number or is ruled out (`result(i).reasons`, without the rest)."""
        out: list[Message] = []
        spec_missing, columns = self._reason_flags()
        if spec_missing[i]:
            out.append(msg("capacity.specs_unknown"))
        for c, name, missed, too_big, shapes in columns:
            problems = [c.problems[i], c.ruled_out.get(i)]
            if missed is not None and missed[i]:
                hours = c.seconds_per_unit[i] / 3600
                problems.append(
                    msg(
                        "capacity.deadline_missed", hours=figure(hours, ".2f"),
                        threads=figure(c.threads[i]),
                        deadline=figure(c.workload.deadline_hours),  # type: ignore[attr-defined]
                        kind=c.workload.kind,
                    )
                )  # fmt: skip
            if too_big is not None and too_big[i]:
                problems.append(
                    msg("capacity.must_fit_one_box", need=figure(c.memory_gib[i], ".2f"),
                        ram=figure(self.ram_gib[i]))
                )  # fmt: skip
            for p in problems:
                if p:
                    said = Message("capacity.workload_reason", {"workload": name, "problem": p})
                    made = p.__dict__.get(MADE)
                    if made is not None:  # made from its shape within this workload's
                        said.__dict__[MADE] = shapes.get(made) or _within(shapes, name, made)
                    out.append(said)
        return out

    def _reason_flags(self) -> tuple[list[bool], list[tuple]]:
        """What `reasons` asks of every tier, as Python lists, once per `recompute` (the
        tiers with no number are most of a large catalog): the missing specs, and per
        workload its name, the deadline it misses, whether it cannot fit one box, and the
        shapes of its reasons (`_within`)."""
        if self._flags is None:
            columns = []
            for c in self.columns:
                missed = c.deadline_missed.tolist() if c.deadline_missed is not None else None
                too_big = None
                if must_fit_one_box(c.workload):
                    too_big = (c.memory_gib > self.ram_gib).tolist()
                columns.append((c, _workload_name(c), missed, too_big, {}))
            self._flags = (self.spec_missing.tolist(), columns)
        return self._flags

    def _workload_result(self, c: WorkloadColumns, i: int) -> WorkloadCapacity:
        """`WorkloadCapacity.model_construct` of what the workload gives tier i (through
        `constructed`, as `result` makes the capacity)."""
        w, ev = c.workload, c.evidence
        seconds = float(c.seconds_per_unit[i]) if np.isfinite(c.seconds_per_unit[i]) else None
        labels = ev.labels(i) + ([c.range_label] if c.out_of_range[i] and c.range_label else [])
        if c.memory_labels and c.memory_labels[i] is not None:
            labels.append(c.memory_labels[i])
        fields = {
            "index": c.index, "name": _workload_name(c), "kind": w.kind, "basis": ev.basis(i),
            "estimate": bool(ev.estimate[i]), "labels": labels, "seconds_per_unit": seconds,
            "threads_used": float(c.threads[i]) if seconds is not None else None,
            "thread_hours_per_month": None, "memory_gib": float(c.memory_gib[i]),
            "deadline_hours": None, "deadline_met": None, "servers_forced_by_deadline": None,
            "workers": None, "p99_ms_mmc": None, "p99_ms_sim": None, "simulated": None,
            "problem": c.problems[i],
        }  # fmt: skip
        if c.workers is not None:
            fields["workers"] = int(c.workers[i, 0])
            fields["p99_ms_mmc"] = mmc = _ms(c.p99_mmc_s[i])
            fields["p99_ms_sim"] = _ms(c.p99_sim_s[i])
            fields["simulated"] = not bool(c.provisional[i])
            if c.provisional[i] and mmc is None and seconds is not None:
                labels.append(msg("capacity.label_provisional"))
            return constructed(WorkloadCapacity, fields, _WORKLOAD_GIVEN_INFERENCE)
        given = _WORKLOAD_GIVEN
        if seconds is not None:
            spot = 1 + self.spot_allowance if self.spot[i] else 1.0
            fields["thread_hours_per_month"] = w.per_month * seconds / 3600 * c.threads[i] * spot
        deadline = getattr(w, "deadline_hours", None)
        if deadline and seconds is not None:
            fields["deadline_hours"] = deadline
            fields["deadline_met"] = seconds / 3600 <= deadline or c.deadline_forced is not None
            given = _WORKLOAD_GIVEN_DEADLINE
            if c.deadline_forced is not None:
                fields["servers_forced_by_deadline"] = int(c.deadline_forced[i])
                given = _WORKLOAD_GIVEN_FORCED
        return constructed(WorkloadCapacity, fields, given)


# The fields `result` and `_workload_result` give (`model_fields_set`, as `model_construct`
# and the assignments after it recorded them).
_CAPACITY_GIVEN = tuple(name for name in Capacity.model_fields if name != "provenance")
_WORKLOAD_GIVEN = ("index", "name", "kind", "basis", "estimate", "labels", "seconds_per_unit",
                   "threads_used", "thread_hours_per_month", "memory_gib", "problem")  # fmt: skip
_WORKLOAD_GIVEN_INFERENCE = (*_WORKLOAD_GIVEN, "workers", "simulated", "p99_ms_mmc", "p99_ms_sim")
_WORKLOAD_GIVEN_DEADLINE = (*_WORKLOAD_GIVEN, "deadline_hours", "deadline_met")
_WORKLOAD_GIVEN_FORCED = (*_WORKLOAD_GIVEN_DEADLINE, "servers_forced_by_deadline")


def _within(shapes: dict[Why, Why], name: str, why: Why) -> Why:
    """The shape of "`name`: <a reason made from `why`>", kept in `shapes` (one workload's):
    a tier's reason noted as made from a shape (`messages.MADE`) is noted as made from this
    one within its workload, so that `answer_json` encodes the tiers with no figure by it
    without walking their reasons (bench/api_scale.py, CPU: the entries' shapes 4.4 ms at
    2,018 tiers, 49 at 20,000; 1.8 and 28 with these notes and the reasons', which cost
    some 0 and 3 ms here)."""
    within = shapes[why] = Why("capacity.workload_reason", {"workload": name, "problem": why})
    return within


def _ms(seconds: float) -> float | None:
    return round(float(seconds) * 1000, 3) if np.isfinite(seconds) else None


def _workload_name(c: WorkloadColumns) -> str:
    return c.workload.name or f"{c.workload.kind} #{c.index + 1}"


TierSpecs = tuple[list[str], np.ndarray, np.ndarray, np.ndarray]


def tier_specs(tiers: pd.DataFrame) -> TierSpecs:
    """Slugs, vCPUs, RAM (GiB; NaN where unknown) and whether spot, of catalog-frame rows."""
    slugs = [str(s) for s in tiers["slug"].tolist()]  # a list first: arrow strings iterate slowly
    vcpus = pd.to_numeric(tiers["vcpus"], errors="coerce").to_numpy(dtype=float, na_value=np.nan)
    ram = pd.to_numeric(tiers["ram_gib"], errors="coerce").to_numpy(dtype=float, na_value=np.nan)
    spot = (tiers["pricing_model"] == "spot").to_numpy(dtype=bool)
    return slugs, vcpus, ram, spot


def size_tiers(
    tiers: pd.DataFrame | None,
    workloads: Sequence[Workload],
    measurements: Lookup,
    *,
    speed_factors: Mapping[str, SpeedFactor] | None = None,
    utilisation: float = 0.7,
    monthly_growth: float = 0.0,
    horizon_months: int = 1,
    spot_allowance: float = 0.1,
    specs: TierSpecs | None = None,
) -> CapacityTable:
    """Size every tier in `tiers` (catalog-frame rows: slug, vcpus, ram_gib, pricing_model).

    `specs`: `tier_specs(tiers)` computed once by a caller that sizes the same rows
    again and again (the arrays are copied, so a kept one never changes); with it, `tiers`
    may be None (nothing else of them is read).
    """
    if specs is None:
        assert tiers is not None, "size_tiers needs the tiers or their specs"
        specs = tier_specs(tiers)
    slugs, vcpus, ram, spot = specs
    slugs, vcpus, ram, spot = list(slugs), vcpus.copy(), ram.copy(), spot.copy()
    growth = (1 + monthly_growth) ** np.arange(horizon_months, dtype=float)
    get = _getter(measurements)
    # A `Findings` says each class's reasons for all the tiers at once (each tier's shared
    # parts made once for all its classes), made here: it keeps none per tier.
    kinds = list(
        dict.fromkeys(w.kind for w in workloads if not isinstance(w, DeepLearningWorkload))
    )
    said = measurements.columns(slugs, kinds) if isinstance(measurements, Findings) else {}
    evidence: dict[str, ClassEvidence] = {}
    columns: list[WorkloadColumns] = []
    stays: list[dict[str, Any]] = []
    for index, w in enumerate(workloads):
        if isinstance(w, DeepLearningWorkload):
            stays.append(stays_on_gpu(index, w))
            continue
        if w.kind not in evidence:
            evidence[w.kind] = gather_evidence(
                slugs, vcpus, w.kind, get, speed_factors or {}, said.get(w.kind)
            )
        ev = evidence[w.kind]
        if isinstance(w, InferenceWorkload):
            columns.append(_inference_columns(index, w, ev, growth))
        else:
            columns.append(_batch_columns(index, w, ev))
    return CapacityTable(
        slugs, vcpus, ram, spot, growth, utilisation, spot_allowance, columns, stays,
        spec_missing=~(vcpus > 0) | ~(ram > 0),
    )  # fmt: skip


def stays_on_gpu(index: int, w: DeepLearningWorkload) -> dict[str, Any]:
    return {
        "index": index,
        "name": w.name or f"deep_learning #{index + 1}",
        "task": w.task,
        "gpu_hours_per_month": str(w.gpu_hours_per_month or 0),
        "reason": msg("capacity.stays_on_gpu", task=_task(w.task)),
    }


def _task(task: str) -> Message:
    code = f"capacity.task_{task}"
    return msg(code) if code in TEXTS else msg("common.text", text=task.replace("_", " "))
