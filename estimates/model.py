# ruff: noqa: RUF002  (math notation: times, sigma, kappa)
"""The estimate of a profile's throughput on a tier nobody has measured.

    X_tier(n) = X_ref(k) × (score_tier ÷ score_ref) × (S(n) ÷ S(k))

- X_ref(k): the nearest measured host's run of the profile, at its thread count k;
- score: a single-thread score both sides have (PassMark single thread, else stress-ng's
  `cpu` div16 with one worker, else Geekbench 6 single core) from the shipped table, or the
  host's own stress-ng figure;
- S(n): the profile library's speed-up curve: the reference run's own scaling fit where it
  has one, else the pooled GBM-perf curve of the library (xgboost, lightgbm), else of all
  GBM libraries; n is the tier's thread count.

Every estimate carries a band: ×exp(±h). h combines in quadrature the leave-one-out error
of the model itself (`band.json`, written by `bench/speed_estimates.py` from GBM-perf's
per-server times, never typed by hand) and each side's own doubt: a CPU known only by its
family label spreads over its family's models, a nearest neighbour by how far neighbours'
scores differ (also measured by the bench).
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks_app import scaling

from . import scores as score_table
from .cpu_keys import cpu_key, display

BAND_FILE = Path(__file__).parent / "data" / "band.json"
DATASET = "Spare Cores sc-inspector-data (CC BY-SA 4.0)"
# Profiles' libraries, as GBM-perf names them.
LIBRARIES = {"gbm-xgboost": "xgboost", "gbm-lightgbm": "lightgbm"}


@dataclass(frozen=True)
class Side:
    """One CPU of the ratio: what it is called, its score and where the score comes from."""

    cpu: str  # as a page shows it
    cpu_key: str
    how: str  # server | model | family | neighbour | host
    row: str  # the table row ("aws c5.4xlarge", "cpu epyc-4345p") or "host NAME"
    values: dict[str, float] = field(default_factory=dict)
    spread: float = 0.0  # this side's own log doubt (family or neighbour), 0 for a model
    offered_cpu: str = ""  # the CPU the offer names, where the runs saw another
    date: str = ""
    stands_in: str = ""  # how "neighbour": the neighbour's CPU, as a page shows it

    def to_dict(self) -> dict[str, Any]:
        out = {"cpu": self.cpu, "cpu_key": self.cpu_key, "how": self.how, "row": self.row,
               "date": self.date}  # fmt: skip
        if self.offered_cpu:
            out["offered_cpu"] = self.offered_cpu
        if self.stands_in:
            out["stands_in"] = self.stands_in
        return out

    def no_public_row(self, side: str) -> dict[str, str] | None:
        """What an estimate says when no public row covers this CPU: the CPU, the nearest
        neighbour standing in for it and that neighbour's row; None for a covered CPU."""
        if self.how != "neighbour":
            return None
        return {"side": side, "cpu": self.cpu, "nearest_neighbour": self.stands_in,
                "row": self.row}  # fmt: skip


@dataclass(frozen=True)
class Unknown:
    """Why a CPU has no score: a reason code and its parameters (messages are data)."""

    code: str  # no_cpu | not_covered | no_score_in_common
    cpu: str = ""


@dataclass(frozen=True)
class Curve:
    """S(n) = X(n)/X(1) under Amdahl (serial fraction s) or USL (σ, κ)."""

    model: str
    params: dict[str, float]
    source: str  # "run" (the reference run's own fit) | "gbm-perf:<library>"

    @classmethod
    def from_fit(cls, fit: scaling.Fit, source: str) -> Curve:
        return cls(fit.model, {k: float(v) for k, v in fit.params.items()}, source)

    def speedup(self, n: float) -> float:
        p = self.params
        if self.model == "amdahl":
            return n / (1 + p["serial_fraction"] * (n - 1))
        return n / (1 + p["sigma"] * (n - 1) + p["kappa"] * n * (n - 1))


@dataclass(frozen=True)
class Band:
    low: float  # multiply the estimate by these
    high: float
    half_width: float  # h, in natural log

    @classmethod
    def of(cls, h: float) -> Band:
        return cls(math.exp(-h), math.exp(h), h)


@dataclass(frozen=True)
class Estimate:
    value: float
    threads: int
    ratio: float  # score_tier ÷ score_ref
    scaling: float  # S(n) ÷ S(k)
    metric: str
    reference: Side
    target: Side
    curve: Curve
    band: Band
    dataset: str = DATASET

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "estimate", "dataset": self.dataset, "metric": self.metric,
            "ratio": round(self.ratio, 4), "scaling": round(self.scaling, 4),
            "curve": self.curve.source, "reference_cpu": self.reference.to_dict(),
            "tier_cpu": self.target.to_dict(), "band": [round(self.band.low, 4),
            round(self.band.high, 4)], "band_basis": "docs/design.md#the-band",
            "no_public_row": self.no_public_row(),
        }  # fmt: skip

    def no_public_row(self) -> list[dict[str, str]]:
        """Each CPU of the ratio that no public row covers, with the nearest neighbour
        standing in for it (said as such); empty when the public rows cover both."""
        sides = ((self.target, "tier"), (self.reference, "reference"))
        return [found for side, name in sides if (found := side.no_public_row(name))]


# --- the band's measured widths -----------------------------------------------------------


@functools.cache
def band_widths() -> dict[str, float]:
    """{"model": h of the model itself, "neighbour": h of a nearest-neighbour score}, as
    `bench/speed_estimates.py` measured them (leave one out); a fresh dict each call."""
    return dict(_shipped_widths())


@functools.cache
def _shipped_widths() -> dict[str, float]:
    """The shipped band file, read once per process (as `scores.load`): every tier's side
    asked for it, and 20,000 reads of the file were most of an estimate's time."""
    return {k: float(v) for k, v in json.loads(BAND_FILE.read_text())["half_widths"].items()}


def band(
    reference: Side, target: Side, widths: dict[str, float] | None = None, curve_source: str = "run"
) -> Band:
    """×exp(±h): the model's own leave-one-out width (wider where the curve is the pooled
    published one, the run having no fit of its own) and each side's doubt, in quadrature."""
    widths = widths if widths is not None else band_widths()
    own = widths["model"]
    if curve_source != "run":
        own = widths.get("model_published_curve", own)
    h = math.sqrt(own**2 + reference.spread**2 + target.spread**2)
    return Band.of(h)


# --- a CPU's scores -----------------------------------------------------------------------


def _spread(rows: list[score_table.Score], centre: dict[str, float]) -> float:
    """The largest |log(score ÷ centre)| over the rows, on the first score all share."""
    for metric in score_table.SCORES:
        values = [r.values[metric] for r in rows if metric in r.values]
        if values and metric in centre:
            return max(abs(math.log(v / centre[metric])) for v in values)
    return 0.0


def _median_values(rows: list[score_table.Score]) -> dict[str, float]:
    out = {}
    for metric in score_table.SCORES:
        values = sorted(r.values[metric] for r in rows if metric in r.values)
        if values:
            out[metric] = values[len(values) // 2]
    return out


def _model_number(key: str) -> int | None:
    digits = re.findall(r"\d+", key.split("-", 1)[-1])
    return int(digits[0]) if digits else None


def cpu_side(
    cpu_text: str | None,
    *,
    table: score_table.ScoreTable | None = None,
    vendor: str = "",
    server: str = "",
    widths: dict[str, float] | None = None,
) -> Side | Unknown:
    """The scores of a tier or host: its server type's own row (the CPU the runs saw), else
    its CPU model's row, else (a family label) the family's median with its spread, else
    the nearest neighbour in its family, said as such."""
    table = table or score_table.load()
    widths = widths if widths is not None else band_widths()
    named = cpu_key(cpu_text)
    vendor = score_table.vendor_of(vendor)
    if vendor and server and (row := table.server(vendor, server)):
        offered = display(cpu_text) if named and named.key != row.cpu_key else ""
        spread = 0.0 if row.cpu_exact else _spread(table.neighbours(row.cpu_family), row.values)
        return Side(display(row.cpu_model), row.cpu_key, "server", f"{vendor} {row.server_id}",
                    row.values, spread, offered, row.date)  # fmt: skip
    if not named:
        return Unknown("no_cpu")
    if named.exact and (row := table.cpu(named.key)):
        return Side(display(cpu_text), named.key, "model", f"cpu {named.key}", row.values,
                    0.0, "", row.date)  # fmt: skip
    members = [
        r
        for r in table.cpus.values()
        if r.cpu_exact and (r.cpu_family == named.family or r.cpu_family.startswith(named.key))
    ]
    if not named.exact and (members or (row := table.cpu(named.key))):
        members = members or [row]
        centre = _median_values(members)
        return Side(display(cpu_text), named.key, "family", f"family {named.key}", centre,
                    _spread(members, centre), "", max(r.date for r in members))  # fmt: skip
    if named.exact and members:
        own = _model_number(named.key) or 0
        nearest = min(
            members, key=lambda r: (abs((_model_number(r.cpu_key) or 0) - own), r.cpu_key)
        )
        return Side(display(cpu_text), named.key, "neighbour", f"cpu {nearest.cpu_key}",
                    nearest.values, widths["neighbour"], "", nearest.date,
                    display(nearest.cpu_model) or nearest.cpu_key)  # fmt: skip
    return Unknown("not_covered", display(cpu_text))


def side_key(cpu_text: str | None, *, vendor: str = "", server: str = "") -> tuple:
    """What `cpu_side(cpu_text, vendor=, server=)` (shipped table and widths) depends on:
    the server type where the table has its row, else the CPU text alone; tiers of one key
    share one side (thousands of catalog tiers name a handful of CPUs)."""
    vendor = score_table.vendor_of(vendor)
    if vendor and server and score_table.load().server(vendor, server):
        return (cpu_text, vendor, server.lower())
    return (cpu_text,)


def side_keys(cpus: Iterable[tuple[str, str, str]]) -> list[tuple]:
    """`side_key` of each (provider, server type, CPU text), in order: each provider's
    vendor and each distinct triple's key worked out once (a catalog-sized plan asks for
    every tier's)."""
    servers = score_table.load().servers
    vendors: dict[str, str] = {}
    known: dict[tuple[str, str, str], tuple] = {}
    out = []
    for cpu in cpus:
        key = known.get(cpu)
        if key is None:
            provider, server, text = cpu
            vendor = vendors.get(provider)
            if vendor is None:
                vendor = vendors[provider] = score_table.vendor_of(provider)
            if vendor and server and (vendor, low := server.lower()) in servers:
                key = known[cpu] = (text, vendor, low)
            else:
                key = known[cpu] = (text,)
        out.append(key)
    return out


def host_side(
    cpu_text: str | None, host: str, own: dict[str, float] | None = None, **kw
) -> Side | Unknown:
    """A measured host: its own stress-ng figures where it was scored, else the table's."""
    if own:
        # Its own figures only: a ratio against the tier is formed on the score the host
        # itself measured, not on its family's published median.
        return Side(display(cpu_text), cpu_key(cpu_text).key, "host", f"host {host}", dict(own))
    return cpu_side(cpu_text, **kw)


# --- curves -----------------------------------------------------------------------------


@functools.cache
def published_curves() -> dict[str, Curve]:
    """The pooled Amdahl curve of each GBM-perf library (and "all"), fitted to the shipped
    speed-ups of every server and data size."""
    return curves_from(score_table.load().scaling)


def curves_from(rows: list[dict[str, str]], leave_out: str = "") -> dict[str, Curve]:
    points: dict[str, list[tuple[int, float]]] = defaultdict(list)
    for row in rows:
        if row["instance"] == leave_out:
            continue
        point = (int(row["threads"]), float(row["speedup"]))
        points[row["tool"]].append(point)
        points["all"].append(point)
    out = {}
    for tool, pts in points.items():
        fit = scaling.fit_amdahl([p[0] for p in pts], [p[1] for p in pts])
        if fit.enough:
            out[tool] = Curve.from_fit(fit, f"gbm-perf:{tool}")
    return out


def curve_for(profile_name: str, run_fit: scaling.Fit | None = None, curves=None) -> Curve:
    """The reference run's own fit where it has one, else the library's published curve."""
    if run_fit is not None and run_fit.enough:
        return Curve.from_fit(run_fit, "run")
    curves = curves if curves is not None else published_curves()
    return curves.get(LIBRARIES.get(profile_name, ""), curves["all"])


# --- the estimate -----------------------------------------------------------------------


def common_metric(a: Side, b: Side) -> str | None:
    return next((m for m in score_table.SCORES if m in a.values and m in b.values), None)


def estimate(
    value: float,
    threads: int,
    reference: Side,
    target: Side,
    tier_threads: int,
    curve: Curve,
    widths: dict[str, float] | None = None,
) -> Estimate | Unknown:
    """X_tier(n) from X_ref(k), or `Unknown("no_score_in_common")`."""
    metric = common_metric(reference, target)
    if metric is None:
        return Unknown("no_score_in_common", target.cpu)
    ratio = target.values[metric] / reference.values[metric]
    factor = curve.speedup(tier_threads) / curve.speedup(threads)
    return Estimate(value * ratio * factor, tier_threads, ratio, factor, metric, reference,
                    target, curve, band(reference, target, widths, curve.source))  # fmt: skip
