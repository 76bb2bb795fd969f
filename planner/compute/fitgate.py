# ruff: noqa: RUF002, RUF003  (R², ≤ and − as a reader writes them)
"""A scaling fit sizes a plan only when it describes its sweep well enough.

A same-host fit predicts throughput at a thread count the run did not measure. A fit
whose R² falls below the threshold (`settings.PLANNER_FIT_MIN_R2`, default 0.9: the
fit explains less than 90 % of the variance of the medians it was fitted on) does
not size anything: the tier falls back to the nearest measured thread count not above
its own threads (that count's median, labelled), or gets no figure with the reason.

Every predicted figure carries its fit's quality in the provenance: R², the residual
spread (root mean square of the relative residuals, model ÷ measured − 1, over the
sweep's medians) and the threshold it was held to.

Pure: no Django.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from benchmarks_app.evidence import BestMeasurement, NoMeasurement, Sweep, residual_spread
from common.messages import Number, msg

DEFAULT_MIN_R2 = 0.9


def quality(sweep: Sweep, min_r2: float) -> dict[str, Any]:
    """The fit's model, R², residual spread and the threshold, as plain data."""
    fit = sweep.fit
    return {
        "model": fit.model if fit.enough else None,
        "r2": fit.r2,
        "spread": residual_spread(fit, sweep.medians),
        "min_r2": min_r2,
    }


def passes(found: dict[str, Any]) -> bool:
    """R² at or above the threshold; a flat sweep (R² undefined) passes on a spread of at
    most 1 − threshold, since a fit that explains nothing there also misses nothing."""
    r2 = found["r2"]
    if r2 is None:
        spread = found["spread"]
        return spread is not None and spread <= 1 - found["min_r2"]
    return r2 >= found["min_r2"]


def gate(found: Any, min_r2: float = DEFAULT_MIN_R2) -> Any:
    """`found` unchanged when measured (or not a measurement); a predicted figure with its
    fit's quality added, or the fallback (or the reason for none) when the fit is poor."""
    if not isinstance(found, BestMeasurement) or found.measured or found.sweep is None:
        return found
    sweep = found.sweep
    said = quality(sweep, min_r2)
    if passes(said):
        return replace(found, extra={**found.extra, "fit_quality": said})
    below = [k for k in sweep.medians if k <= found.threads]
    r2 = _r2(said["r2"])
    if not below:
        return NoMeasurement(
            msg("fitgate.poor_fit_no_fallback", fit=said["model"] or "scaling", host=found.host,
                r2=r2, threshold=Number(min_r2, 2), threads=found.threads,
                measured=sorted(sweep.medians))
        )  # fmt: skip
    nearest = max(below)
    fallback = {**said, "threads": nearest, "tier_threads": found.threads}
    return replace(
        found,
        value=float(sweep.medians[nearest]),
        threads=nearest,
        measured=True,
        fit=None,
        extrapolation=None,
        extra={**found.extra, "fallback": fallback},
    )


def fallback_label(record: BestMeasurement) -> Any:
    """The label a fallback figure carries, or None."""
    fb = record.extra.get("fallback")
    if not fb:
        return None
    r2 = _r2(fb["r2"])
    return msg(
        "fitgate.fallback", fit=fb["model"] or "scaling", host=record.host, r2=r2,
        threshold=Number(fb["min_r2"], 2), threads=fb["threads"], tier_threads=fb["tier_threads"],
    )  # fmt: skip


def _r2(value: float | None) -> Number | str:
    return Number(value, 2) if value is not None else "undefined"
