"""What the planner reads from benchmarks: one measured (or same-host predicted)
throughput with its provenance. Plain data; `selectors.best_measurement` builds it.

Metrics per workload class (docs/design.md, "Workload classes and metrics"):

- `gbm`: `cell_trees_per_s` (cell-trees/s); extra `rows`, `features`, `trees` (R0, F0, T0)
- `sklearn`: `fits_per_s` (model fits/s); extra `rows`, `features` (R0, F0)
- `features`: `input_gb_per_s` (decimal GB/s); extra `rss_per_input_gb` (peak RSS GiB per GB)
- `hpo`: `trials_per_hour` (trials/h); extra `t0_seconds` (single-thread trial), `concurrency`
- `inference`: `requests_per_s`; extra `service_times_s` (samples, s), `mean_s`, `p50_s`, `p99_s`
- `nn`: `samples_per_s`; extra `batch_size`, `parameters`

`trusted_range` in `extra` (e.g. {"param": "rows", "min": 1e4, "max": 1e7}) bounds where
the profile's scaling rule holds; outside it a planner figure is labelled extrapolated.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from common.messages import Message, Number, msg, plain

from . import scaling

METRICS: dict[str, tuple[str, str]] = {
    "gbm": ("cell_trees_per_s", "cell-trees/s"),
    "sklearn": ("fits_per_s", "model fits/s"),
    "features": ("input_gb_per_s", "GB/s"),
    "hpo": ("trials_per_hour", "trials/h"),
    "inference": ("requests_per_s", "requests/s"),
    "nn": ("samples_per_s", "samples/s"),
}


@dataclass(frozen=True)
class BestMeasurement:
    profile_class: str
    metric: str
    unit: str
    value: float  # throughput at `threads` hardware threads (higher is better)
    threads: int
    measured: bool  # False: predicted by a same-host fit
    run_id: str
    host: str  # the target's node name
    cpu_model: str
    profile_name: str
    profile_version: str  # X.Y.Z
    scale: str  # "standard" or "full" (never "smoke")
    measured_at: datetime
    fit: str | None = None  # "usl" / "amdahl" when predicted
    extrapolation: str | None = None  # e.g. "extrapolated: 2.0x beyond the largest measured 16"
    extra: dict = field(default_factory=dict)
    # The winning run's whole sweep (repetitions, fit and its quality), shared by every
    # tier that run sizes; None where a caller built the measurement by hand.
    sweep: Sweep | None = field(default=None, compare=False, repr=False)

    @property
    def provenance(self) -> dict:
        estimate = self.extra.get("estimate")
        out = {
            "kind": "estimate" if estimate else "measured" if self.measured else "predicted",
            "run_id": self.run_id,
            "host": self.host,
            "profile": f"{self.profile_name} {self.profile_version}",
            "scale": self.scale,
            "threads": self.threads,
            "fit": self.fit,
            "extrapolation": self.extrapolation,
        }
        # The planner's fit gate adds the fit's R², residual spread and threshold to a
        # predicted figure, and says when a poor fit fell back to a measured count.
        for key in ("fit_quality", "fallback"):
            if key in self.extra:
                out[key] = self.extra[key]
        if estimate:  # not "estimate": a basis's "estimate" is a declared speed factor
            out["published_estimate"] = estimate
        return out

    def estimate_labels(self) -> list[Message]:
        """What an estimate from published scores rests on (empty for a measurement)."""
        said = self.extra.get("estimate")
        return estimate_labels(said) if said else []


def estimate_labels(said: Mapping[str, Any]) -> list[Message]:
    """An estimate's labels: the rung, the CPUs, the ratio and the band; the offer's CPU
    where the runs saw another; a neighbour or a family label said as such."""
    tier, ref = said["tier_cpu"], said["reference_cpu"]
    low, high = (Number(v, 2) for v in said["band"])
    host = said.get("reference", {}).get("host", ref.get("row", ""))
    if said.get("rung") == "same_cpu_model":
        out = [msg("estimates.label_same_cpu", tier_cpu=tier["cpu"], host=host,
                   scaling=Number(said["scaling"], 2), low=low, high=high)]  # fmt: skip
    else:
        out = [msg("estimates.label_published", dataset=said["dataset"], tier_cpu=tier["cpu"],
                   ref_cpu=ref["cpu"] or ref["cpu_key"], host=host,
                   ratio=Number(said["ratio"], 2), scaling=Number(said["scaling"], 2),
                   low=low, high=high)]  # fmt: skip
    if tier.get("offered_cpu"):
        out.append(msg("estimates.label_offer_cpu", offered=tier["offered_cpu"], seen=tier["cpu"]))
    return out + side_labels(said)


def no_public_row(said: Mapping[str, Any]) -> list[dict[str, str]]:
    """The estimate's CPUs no public row covers, each with the nearest neighbour standing
    in (`no_public_row`; an estimate kept before that field: from its sides' `how`)."""
    if "no_public_row" in said:
        return list(said["no_public_row"])
    sides = ((said.get("tier_cpu") or {}, "tier"), (said.get("reference_cpu") or {}, "reference"))
    return [{"side": name, "cpu": side.get("cpu", ""), "row": side.get("row", ""),
             "nearest_neighbour": side.get("stands_in", "")}
            for side, name in sides if side.get("how") == "neighbour"]  # fmt: skip


def side_labels(said: Mapping[str, Any]) -> list[Message]:
    """What an estimate's CPUs lack, said as such: no public row (a nearest neighbour stands
    in) or only a family label. The marker says these beside the basis."""
    out = []
    for side in no_public_row(said):
        neighbour = side.get("nearest_neighbour") or side["row"]
        out.append(msg("estimates.label_no_public_row", cpu=side["cpu"], neighbour=neighbour))
    for side in (said.get("tier_cpu") or {}, said.get("reference_cpu") or {}):
        if side.get("how") == "family":
            out.append(msg("estimates.label_family", cpu=side["cpu"] or side["cpu_key"]))
    return out


class NoMeasurement(LookupError):
    """No usable measurement. `message` is the reason (a `common.messages.Message`);
    str(exc) is its English text, as the API gives it."""

    def __init__(self, message: Message | str) -> None:
        if isinstance(message, str):
            message = msg("common.text", text=message)
            super().__init__(message)
        # Else `BaseException.__new__` has kept the message as the one argument already
        # (a plan sized over every tier makes some 70,000 reasons).
        self.message = message

    def __str__(self) -> str:
        # Said when asked: a plan sized over every tier gathers thousands of reasons.
        return plain(self.message)

    def __reduce__(self) -> tuple:  # keeps the message (not only its text) through pickle
        return (type(self), (self.message,))


class Sweep:
    """One run's measured points on its host: each thread count's median and its
    repetitions, and the scaling fit over the medians with its quality.

    The fit is computed when first asked (most plans read a measured thread count and
    never need it), once for every tier the run sizes.
    """

    def __init__(
        self,
        run_id: str,
        host: str,
        medians: Mapping[int, float],
        repetitions: Mapping[int, Sequence[float]],
    ) -> None:
        self.run_id = run_id
        self.host = host
        self.medians = dict(sorted(medians.items()))
        self.repetitions = {k: list(v) for k, v in sorted(repetitions.items())}

    def __repr__(self) -> str:
        return f"Sweep(run {self.run_id} on {self.host}: {sorted(self.medians)} threads)"

    @functools.cached_property
    def fit(self) -> scaling.Fit:
        """`scaling.best_fit` over the medians: USL or Amdahl, with `r2`, `rmse`,
        `rel_error` and `params`; `enough` is False (with the reason) below 3 points."""
        return scaling.best_fit(list(self.medians), list(self.medians.values()), host=self.host)

    def fit_quality(self) -> dict[str, Any]:
        """The fit's model, parameters and quality as plain data (for pages and the API)."""
        fit = self.fit
        return {
            "model": fit.model if fit.enough else None,
            "params": dict(fit.params),
            "r2": fit.r2,
            "rmse": fit.rmse,
            "rel_error": fit.rel_error,
        }


def residual_spread(fit: Any, medians: Mapping[int, float]) -> float | None:
    """√(mean((fit(n) ÷ median(n) - 1)²)) over the measured points: how far, typically,
    the fitted curve sits from what was measured (0.05 = 5 %)."""
    if not getattr(fit, "enough", False) or not medians:
        return None
    residuals = [fit.throughput(n) / x - 1 for n, x in medians.items() if x > 0]
    if not residuals:
        return None
    return math.sqrt(sum(r * r for r in residuals) / len(residuals))
