# ruff: noqa: RUF002, RUF003  (math notation: σ, κ, λ, ×, − read as in the papers)
"""Scaling fits over one host's thread sweep, and predictions for that same host.

Models (N = hardware threads, or concurrent processes for process-parallel profiles):

- Amdahl:  X(N) = X1·N / (1 + s·(N − 1)),  0 ≤ s ≤ 1 the serial fraction, X1 > 0.
  Needs ≥ 3 distinct thread counts.
- Gunther's Universal Scalability Law (USL):
  X(N) = λ·N / (1 + σ·(N − 1) + κ·N·(N − 1)),  σ ≥ 0 contention, κ ≥ 0 coherency, λ > 0.
  Needs ≥ 4 distinct thread counts. With κ > 0 throughput peaks at N* = √((1 − σ)/κ)
  and falls beyond it (retrograde scaling).

Both are fitted by bounded least squares on throughput (``scipy.optimize.least_squares``,
trust-region reflective, residuals model − measured), the way the references fit the USL:
codahale/usl (Levenberg–Marquardt on X − X(N)) and the R package ``usl`` (nls/nlxb on
throughput). The tests reproduce both on their published data sets. Quality is reported
as RMSE (in the metric's unit), R² (None for a flat sweep, where it is undefined) and the
mean absolute relative error.

``weighting="relative"`` minimises relative residuals (model/measured − 1) instead. It is
the maximum-likelihood fit when each point's noise is proportional to its value (a
constant coefficient of variation, which is what the repetition policy's ``cv_target``
aims at), so it gives the small thread counts of a sweep spanning 1 to 64 the same say as
the large ones. It is an option, never the default: its σ, κ and N* are not the published
ones, and a plan sized from a fit must be checkable against the references.

A fit describes the host it was measured on and nothing else: ``predict`` refuses another
host when both are named. Outside the measured thread range a prediction is labelled
extrapolated, with how far.
"""

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np
from scipy.optimize import least_squares

from common.messages import Message, Number, msg, plain

AMDAHL_MIN_POINTS = 3
USL_MIN_POINTS = 4
# USL must cut Amdahl's RMSE by this factor to be chosen: with κ = 0 USL *is* Amdahl, so
# its extra parameter always fits at least as well; a small gain is noise, not coherency.
USL_PREFERENCE = 0.9
# Where Amdahl already fits to within this share of the mean throughput, both fits are exact
# and their RMSEs differ only in the solver's last digits: Amdahl, the simpler, stays.
EXACT_FIT = 1e-6


class FitError(ValueError):
    """Points or a question a fit cannot take; `message` says why (str(): in English)."""

    def __init__(self, message: Message) -> None:
        super().__init__(plain(message))
        self.message = message


@dataclass(frozen=True)
class Fit:
    model: str  # "amdahl" | "usl"
    enough: bool
    n_points: int
    reason: str = ""  # English, as the API and the logs have it; pages use reason_message
    reason_message: Message | None = None  # set whenever `reason` is
    params: dict = field(default_factory=dict)
    rmse: float | None = None
    r2: float | None = None
    rel_error: float | None = None  # mean |model/measured − 1|
    peak_threads: float | None = None  # USL N*, None when throughput never peaks
    min_threads: int | None = None
    max_threads: int | None = None
    host: str | None = None

    def throughput(self, threads: float) -> float:
        n = float(threads)
        if self.model == "amdahl":
            return self.params["x1"] * n / (1 + self.params["serial_fraction"] * (n - 1))
        p = self.params
        return p["lambda_"] * n / (1 + p["sigma"] * (n - 1) + p["kappa"] * n * (n - 1))


@dataclass(frozen=True)
class Prediction:
    value: float | None
    kind: str  # "interpolation" | "extrapolation" | "unavailable"
    distance: float | None  # 1.0 inside the range; beyond it the ratio to the nearest end
    label: str  # English (plain(label_message)), as the API has it
    label_message: Message


def _points(threads, throughput) -> tuple[np.ndarray, np.ndarray]:
    n = np.asarray(threads, dtype=float)
    x = np.asarray(throughput, dtype=float)
    if n.shape != x.shape or n.ndim != 1:
        raise FitError(msg("benchmarks.fit_unequal_points"))
    if np.any(n < 1) or np.any(x <= 0) or not np.all(np.isfinite(x)):
        raise FitError(msg("benchmarks.fit_bad_points"))
    return n, x


def _not_enough(model: str, need: int, n: np.ndarray) -> Fit:
    distinct = len(set(n.tolist()))
    reason = msg("benchmarks.fit_too_few_points", model=model, need=need, got=distinct)
    return Fit(model=model.lower(), enough=False, n_points=len(n), reason=plain(reason),
               reason_message=reason)  # fmt: skip


def _quality(model_values: np.ndarray, x: np.ndarray) -> tuple[float, float | None, float]:
    rmse = float(np.sqrt(np.mean((model_values - x) ** 2)))
    ss_tot = float(np.sum((x - x.mean()) ** 2))
    # A flat sweep has no variance to explain: R² is undefined, not 0 or 1.
    tolerance = 1e-12 * float(np.sum(x**2))
    r2 = None if ss_tot <= tolerance else 1 - float(np.sum((model_values - x) ** 2)) / ss_tot
    return rmse, r2, float(np.mean(np.abs(model_values / x - 1)))


def _single_thread_guess(n: np.ndarray, x: np.ndarray) -> float:
    i = int(np.argmin(n))
    return float(x[i] / n[i])


WEIGHTINGS = ("absolute", "relative")
# Converge well past the references' printed digits (codahale/usl's tests compare to 1e-5
# relative); the defaults (1e-8) stop a few parts in 1e6 short on a flat σ–κ valley.
_TOLERANCES = {"xtol": 1e-12, "ftol": 1e-12, "gtol": 1e-12}


def _residuals(model: Callable[[np.ndarray], np.ndarray], x: np.ndarray, weighting: str):
    """The residual function least squares minimises: model − measured, or its ratio − 1."""
    if weighting not in WEIGHTINGS:
        raise ValueError(f"weighting must be one of {WEIGHTINGS}, not {weighting!r}")
    if weighting == "relative":
        return lambda p: model(p) / x - 1
    return lambda p: model(p) - x


def _best_of(residuals, starts, lower, upper, x_scale) -> np.ndarray:
    """The lowest-cost solution over a few starts: the surface has flat valleys (σ against
    κ, s against X1) where a single start can stall."""
    best = None
    for start in starts:
        sol = least_squares(residuals, start, bounds=(lower, upper), x_scale=x_scale, **_TOLERANCES)
        if best is None or sol.cost < best.cost:
            best = sol
    return best.x


def fit_amdahl(threads, throughput, *, host: str | None = None, weighting: str = "absolute") -> Fit:
    """Fit X(N) = X1·N / (1 + s(N−1)); ``enough=False`` below 3 distinct thread counts.

    ``weighting``: "absolute" (least squares on throughput) or "relative" (see the module).
    """
    n, x = _points(threads, throughput)
    if len(set(n.tolist())) < AMDAHL_MIN_POINTS:
        return _not_enough("Amdahl", AMDAHL_MIN_POINTS, n)
    residuals = _residuals(lambda p: p[0] * n / (1 + p[1] * (n - 1)), x, weighting)
    x1 = _single_thread_guess(n, x)
    starts = [[x1, s0] for s0 in (0.0, 0.1, 0.5, 0.9)]
    x1, serial = _best_of(residuals, starts, [x1 * 1e-6, 0.0], [np.inf, 1.0], [x1, 0.1])
    params = {"x1": float(x1), "serial_fraction": float(serial)}
    fit = Fit(model="amdahl", enough=True, n_points=len(n), params=params,
              min_threads=int(n.min()), max_threads=int(n.max()), host=host)  # fmt: skip
    rmse, r2, rel = _quality(np.array([fit.throughput(v) for v in n]), x)
    return replace(fit, rmse=rmse, r2=r2, rel_error=rel)


def _usl_peak(lam: float, sigma: float, kappa: float) -> float | None:
    """N* = √((1−σ)/κ), or None when the curve never really peaks.

    A near-flat sweep fits σ ≈ 1 with a tiny κ, whose formal N* (say 2.6) gains nothing over
    one thread: a peak is reported only where the model gains ≥ 1 % over N = 1.
    """
    if kappa <= 1e-9 or sigma >= 1:
        return None
    peak = math.sqrt((1 - sigma) / kappa)
    at_peak = lam * peak / (1 + sigma * (peak - 1) + kappa * peak * (peak - 1))
    return peak if at_peak >= 1.01 * lam else None


def fit_usl(threads, throughput, *, host: str | None = None, weighting: str = "absolute") -> Fit:
    """Fit Gunther's USL X(N) = λN / (1 + σ(N−1) + κN(N−1)); needs 4 distinct thread counts.

    ``weighting``: "absolute" (least squares on throughput, as the references) or
    "relative" (see the module docstring for when that is the better estimate).
    """
    n, x = _points(threads, throughput)
    if len(set(n.tolist())) < USL_MIN_POINTS:
        return _not_enough("USL", USL_MIN_POINTS, n)

    def model(p: np.ndarray) -> np.ndarray:
        lam, sigma, kappa = p
        return lam * n / (1 + sigma * (n - 1) + kappa * n * (n - 1))

    lam0 = _single_thread_guess(n, x)
    starts = [[lam0, s0, k0] for s0, k0 in ((0.0, 0.0), (0.1, 0.001), (0.5, 0.01), (0.9, 0.1))]
    solution = _best_of(
        _residuals(model, x, weighting), starts,
        [lam0 * 1e-6, 0.0, 0.0], [np.inf, 1.0, 1.0], [lam0, 0.1, 0.001],
    )  # fmt: skip
    lam, sigma, kappa = (float(v) for v in solution)
    peak = _usl_peak(lam, sigma, kappa)
    fit = Fit(model="usl", enough=True, n_points=len(n),
              params={"sigma": sigma, "kappa": kappa, "lambda_": lam}, peak_threads=peak,
              min_threads=int(n.min()), max_threads=int(n.max()), host=host)  # fmt: skip
    rmse, r2, rel = _quality(np.array([fit.throughput(v) for v in n]), x)
    return replace(fit, rmse=rmse, r2=r2, rel_error=rel)


def best_fit(threads, throughput, *, host: str | None = None) -> Fit:
    """USL when it has ≥ 4 distinct points and cuts Amdahl's RMSE by ≥ 10 %, else Amdahl."""
    amdahl = fit_amdahl(threads, throughput, host=host)
    usl = fit_usl(threads, throughput, host=host)
    if not usl.enough:
        return amdahl
    if not amdahl.enough:
        return usl
    exact = amdahl.rmse <= EXACT_FIT * float(np.mean(throughput))
    return usl if usl.rmse < USL_PREFERENCE * amdahl.rmse and not exact else amdahl


def predict(fit: Fit, threads: int, *, host: str | None = None) -> Prediction:
    """Throughput of the fitted host at ``threads``, labelled interpolation or extrapolation."""
    if not fit.enough:
        why = fit.reason_message or msg("common.text", text=fit.reason)
        return _prediction(None, "unavailable", None, why)
    if host is not None and fit.host is not None and host != fit.host:
        raise FitError(msg("benchmarks.fit_other_host", fit_host=fit.host, host=host))
    if threads < 1:
        raise FitError(msg("benchmarks.fit_threads_below_one"))
    value = fit.throughput(threads)
    lo, hi = fit.min_threads, fit.max_threads
    if lo <= threads <= hi:
        label = msg("benchmarks.fit_interpolated", lo=lo, hi=hi)
        return _prediction(value, "interpolation", 1.0, label)
    if threads > hi:
        distance = threads / hi
        label = msg("benchmarks.fit_extrapolated_beyond", factor=Number(distance, 1), hi=hi)
    else:
        distance = lo / threads
        label = msg("benchmarks.fit_extrapolated_below", factor=Number(distance, 1), lo=lo)
    return _prediction(value, "extrapolation", distance, label)


def _prediction(value: float | None, kind: str, distance: float | None, label: Message):
    return Prediction(value=value, kind=kind, distance=distance, label=plain(label),
                      label_message=label)  # fmt: skip
