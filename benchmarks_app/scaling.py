# ruff: noqa: RUF002, RUF003  (math notation: σ, κ, λ, ×, − read as in the papers)
"""Scaling fits over one host's thread sweep, and predictions for that same host.

Models (N = hardware threads, or concurrent processes for process-parallel profiles):

- Amdahl:  X(N) = X1·N / (1 + s·(N − 1)),  0 ≤ s ≤ 1 the serial fraction, X1 > 0.
  Needs ≥ 3 distinct thread counts.
- Gunther's Universal Scalability Law (USL):
  X(N) = λ·N / (1 + σ·(N − 1) + κ·N·(N − 1)),  σ ≥ 0 contention, κ ≥ 0 coherency, λ > 0.
  Needs ≥ 4 distinct thread counts. With κ > 0 throughput peaks at N* = √((1 − σ)/κ)
  and falls beyond it (retrograde scaling).

Both are fitted by bounded least squares (``scipy.optimize.least_squares``, trust-region
reflective) on **relative** residuals (model/measured − 1), so a sweep spanning 1 to 32
threads is not fitted only at its largest values. Quality is reported as RMSE (in the
metric's unit), R² (None for a flat sweep, where it is undefined) and the mean absolute
relative error.

A fit describes the host it was measured on and nothing else: ``predict`` refuses another
host when both are named. Outside the measured thread range a prediction is labelled
extrapolated, with how far.
"""

import math
from dataclasses import dataclass, field, replace

import numpy as np
from scipy.optimize import least_squares

from common.messages import Message, Number, msg, plain

AMDAHL_MIN_POINTS = 3
USL_MIN_POINTS = 4
# USL must cut Amdahl's RMSE by this factor to be chosen: with κ = 0 USL *is* Amdahl, so
# its extra parameter always fits at least as well; a small gain is noise, not coherency.
USL_PREFERENCE = 0.9


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


def fit_amdahl(threads, throughput, *, host: str | None = None) -> Fit:
    """Fit X(N) = X1·N / (1 + s(N−1)); ``enough=False`` below 3 distinct thread counts."""
    n, x = _points(threads, throughput)
    if len(set(n.tolist())) < AMDAHL_MIN_POINTS:
        return _not_enough("Amdahl", AMDAHL_MIN_POINTS, n)

    def residuals(p: np.ndarray) -> np.ndarray:
        return p[0] * n / (1 + p[1] * (n - 1)) / x - 1

    x1 = _single_thread_guess(n, x)
    best = None
    for s0 in (0.0, 0.1, 0.5, 0.9):
        sol = least_squares(residuals, [x1, s0], bounds=([x1 * 1e-6, 0.0], [np.inf, 1.0]))
        if best is None or sol.cost < best.cost:
            best = sol
    params = {"x1": float(best.x[0]), "serial_fraction": float(best.x[1])}
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


def fit_usl(threads, throughput, *, host: str | None = None) -> Fit:
    """Fit Gunther's USL X(N) = λN / (1 + σ(N−1) + κN(N−1)); needs 4 distinct thread counts."""
    n, x = _points(threads, throughput)
    if len(set(n.tolist())) < USL_MIN_POINTS:
        return _not_enough("USL", USL_MIN_POINTS, n)

    def residuals(p: np.ndarray) -> np.ndarray:
        lam, sigma, kappa = p
        return lam * n / (1 + sigma * (n - 1) + kappa * n * (n - 1)) / x - 1

    lam0 = _single_thread_guess(n, x)
    best = None
    # A few starts: the surface is flat along σ–κ trade-offs and one start can stall.
    for sigma0, kappa0 in ((0.0, 0.0), (0.1, 0.001), (0.5, 0.01), (0.9, 0.1)):
        sol = least_squares(
            residuals, [lam0, sigma0, kappa0],
            bounds=([lam0 * 1e-6, 0.0, 0.0], [np.inf, 1.0, 1.0]),
            x_scale=[lam0, 0.1, 0.001],
        )  # fmt: skip
        if best is None or sol.cost < best.cost:
            best = sol
    lam, sigma, kappa = (float(v) for v in best.x)
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
    if not amdahl.enough or usl.rmse < USL_PREFERENCE * amdahl.rmse:
        return usl
    return amdahl


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
