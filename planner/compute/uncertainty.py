# ruff: noqa: RUF003  (money notation: ×, −)
"""The uncertain inputs of a plan, each with its low/base/high range, and the one-way
sensitivity of the base-case best option recomputed through the engine.

An input's value is either a factor on what the plan or the catalog gives (`scale`:
1 is the base case) or the plan's own figure (`absolute`: a rate or a share). Every
value is a `Decimal` with at most four places (factors) or six (rates), so a changed
price or bill is an exact `Decimal` and the money engine prices it to the cent, the same
way whether one evaluation or a vectorised Monte Carlo asks.

Ranges (each says where it comes from):
- the baseline's bill, the leading options' price lines, the exchange rate: planner
  defaults (±25 %, ±10 %, ±5 %), or what the plan enters;
- workload volumes (batch runs a month, inference requests a second): ±25 %;
- measured throughput: the bootstrap interval (P5…P95) of the median over the run's
  repetitions at the measured thread count (`bootstrap_medians`);
- growth, discount rate, utilisation and one-time costs: around the plan's own value.

`apply(plan, frame, measurements, values)` gives the engine's inputs with the values
in place; `one_way` moves each input alone to its low and high and asks the engine.
Pure: no Django.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import numpy as np
import pandas as pd

from benchmarks_app.evidence import BestMeasurement
from benchmarks_app.findings import Findings
from common.messages import Message, Percent, msg
from planner.compute.commitments import Interruption, assumed
from planner.compute.schema import Plan
from planner.compute.uncertainty_answer import Tornado, TornadoBar, UncertainInput

FACTOR = Decimal("0.0001")  # a factor's places: keeps a scaled price an exact Decimal
RATE = Decimal("0.000001")
BOOTSTRAP_SAMPLES = 2000
BOOTSTRAP_SEED = 12  # the interval is a property of the run: always the same resamples
# The planner's default ranges of the inputs given as a factor on the base case (low, high):
# the one home of these figures (`sensitivity`, the engine's money-only table, reads them).
DEFAULT_RANGES: dict[str, tuple[str, str]] = {
    "baseline_monthly": ("0.75", "1.25"),
    "price": ("0.9", "1.1"),
    "fx": ("0.95", "1.05"),
    "volume": ("0.75", "1.25"),
    "one_time": ("0.5", "2"),
}
# Owned hardware's inputs (issue 21, item 3), each a factor on every owned server's own
# figure, planner defaults (docs/design.md, "Owned hardware in the sensitivity and the
# odds" gives each range's reasoning): the purchase price, the electricity price, the PUE
# (never below 1), colocation, a resale percentage, and the service life (depreciation
# years × the factor, rounded half-up to whole years, 1…15).
OWNED_RANGES: dict[str, tuple[str, str]] = {
    "owned:purchase_price": ("0.9", "1.2"),
    "owned:kwh_price": ("0.7", "1.5"),
    "owned:pue": ("0.85", "1.25"),
    "owned:colocation": ("0.8", "1.3"),
    "owned:resale": ("0.5", "1.5"),
    "owned:lifetime": ("0.6", "1.4"),
}
DISCOUNT_RATE_HIGH = Decimal("0.14")  # the discount rate's high: twice the plan's, at least this
# The schema's own bounds of the inputs given as the rate itself: a default range never
# leaves them (the growth range runs to twice the plan's growth, at most 0.5).
ABSOLUTE_BOUNDS: dict[str, tuple[Decimal, Decimal]] = {
    "monthly_growth": (Decimal(0), Decimal("0.5")),
    "annual_discount_rate": (Decimal(0), Decimal(1)),
    "utilisation_target": (Decimal("0.05"), Decimal(1)),
}


SPOT_INTERRUPTION = "spot_interruption_allowance"  # issue 27: a spot tier among the leading


@dataclass(frozen=True)
class Uncertain:
    """One input: its name, kind, range and where the range comes from."""

    name: str  # baseline_monthly | price:<slug> | fx | batch_volume | requests_per_second |
    # throughput:<class> | monthly_growth | annual_discount_rate | one_time | utilisation_target
    kind: str  # scale | absolute
    low: Decimal
    base: Decimal
    high: Decimal
    source: str  # default | entered | measured | estimate | aggregator | assumption
    label: Message
    medians: tuple[float, ...] = ()  # throughput: bootstrap medians ÷ the run's median

    def to_dict(self) -> dict[str, Any]:
        return {
            "input": self.name, "kind": self.kind, "low": str(self.low),
            "base": str(self.base), "high": str(self.high), "source": self.source,
        }  # fmt: skip


def _q(value: Decimal | float, places: Decimal = FACTOR) -> Decimal:
    return Decimal(repr(float(value))).quantize(places) if isinstance(value, float) else (
        Decimal(value).quantize(places)
    )  # fmt: skip


def bootstrap_medians(repetitions: Sequence[float], seed: int = BOOTSTRAP_SEED) -> np.ndarray:
    """Medians of `BOOTSTRAP_SAMPLES` resamples (with replacement) of the repetitions,
    each divided by the repetitions' own median (1 = the measured figure)."""
    reps = np.asarray(repetitions, dtype=float)
    if len(reps) < 2 or not np.all(reps > 0):
        return np.ones(1)
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(reps), size=(BOOTSTRAP_SAMPLES, len(reps)))
    return np.median(reps[picks], axis=1) / float(np.median(reps))


def _estimate_band(cls: str, measurements: Mapping[Any, Any], leading: Sequence[str]):
    """The widest band of the leading tiers' estimates from published scores, if any."""
    bands = [
        m.extra["estimate"]["band"]
        for (slug, c), m in sorted(measurements.items())
        if c == cls and slug in leading and isinstance(m, BestMeasurement)
        and m.extra.get("estimate")
    ]  # fmt: skip
    return max(bands, key=lambda b: b[1] / b[0]) if bands else None


def _throughput_inputs(
    plan: Plan, measurements: Mapping[Any, Any], leading: Sequence[str] = ()
) -> list[Uncertain]:
    """One input per workload class: the band of the leading tiers' estimate where they
    rest on one, else the bootstrap of its leading measurement."""
    out = []
    classes = sorted({w.kind for w in plan.workloads if w.kind != "deep_learning"})
    for cls in classes:
        if band := _estimate_band(cls, measurements, leading):
            label = msg("uncertainty.throughput_estimate", kind=cls)
            out.append(
                Uncertain(f"throughput:{cls}", "scale", _q(float(band[0])), Decimal(1),
                          _q(float(band[1])), "estimate", label)
            )  # fmt: skip
            continue
        found = [m for (_s, c), m in sorted(measurements.items()) if c == cls]
        found = [m for m in found if isinstance(m, BestMeasurement) and m.sweep is not None]
        if not found:
            continue
        best = found[0]
        reps = best.sweep.repetitions.get(best.threads) if best.sweep else None
        medians = bootstrap_medians(reps or [])
        low, high = np.percentile(medians, [5, 95])
        label = msg("uncertainty.throughput", kind=cls)
        out.append(
            Uncertain(f"throughput:{cls}", "scale", _q(float(low)), Decimal(1), _q(float(high)),
                      "measured", label, tuple(float(m) for m in medians))
        )  # fmt: skip
    return out


def inputs(
    plan: Plan,
    frame: pd.DataFrame,
    measurements: Mapping[Any, Any],
    leading: Sequence[str],
    interruptions: Mapping[str, Interruption] | None = None,
) -> list[Uncertain]:
    """Every uncertain input of the plan with its range; `leading`: the tier slugs of the
    three leading options (their price lines are inputs); `interruptions`: spot tiers'
    published interruption ranges, by slug."""
    entered = {r.input: r for r in plan.ranges}
    ranges = DEFAULT_RANGES
    out = [
        _scale("baseline_monthly", *ranges["baseline_monthly"], msg("uncertainty.baseline_monthly"))
    ]
    for slug in dict.fromkeys(leading):
        out.append(_scale(f"price:{slug}", *ranges["price"], msg("uncertainty.price", tier=slug)))
    if converted_tiers(frame) & {*leading, plan.baseline.tier}:
        out.append(_scale("fx", *ranges["fx"], msg("uncertainty.fx")))
    batch = [w for w in plan.workloads if w.kind not in ("inference", "deep_learning")]
    if batch:
        out.append(_scale("batch_volume", *ranges["volume"], msg("uncertainty.batch_volume")))
    if any(w.kind == "inference" for w in plan.workloads):
        out.append(_scale("requests_per_second", *ranges["volume"], msg("uncertainty.rps")))
    out += _throughput_inputs(plan, measurements, leading)
    g, r, u = plan.monthly_growth, plan.annual_discount_rate, plan.utilisation_target
    if plan.workloads or plan.baseline.monthly is not None:
        out.append(_absolute("monthly_growth", Decimal(0), g, max(g * 2, Decimal("0.02")), g))
    out.append(_absolute("annual_discount_rate", Decimal(0), r, max(r * 2, DISCOUNT_RATE_HIGH), r))
    out.append(_scale("one_time", *ranges["one_time"], msg("uncertainty.one_time")))
    out += owned_inputs(plan)
    if plan.workloads:
        low, high = max(u - Decimal("0.15"), Decimal("0.3")), min(u + Decimal("0.15"), Decimal(1))
        out.append(_absolute("utilisation_target", min(low, u), u, max(high, u), u))
    if spot := _spot_interruption(plan, frame, leading, interruptions or {}):
        out.append(spot)
    return [_entered(i, entered.get(i.name.split(":")[0])) for i in out]


def owned_inputs(plan: Plan) -> list[Uncertain]:
    """Owned hardware's inputs, each only where it moves a figure (no "$0-$0" row): power
    where a server draws any, colocation where one pays any, a resale percentage where
    one is entered (a book value moves with the price and the service life)."""
    servers = plan.owned
    if not servers:
        return []
    moves = {
        "owned:purchase_price": any(s.purchase_price > 0 for s in servers),
        "owned:kwh_price": any(s.watts > 0 and s.kwh_price > 0 and s.pue > 0 for s in servers),
        "owned:pue": any(s.watts > 0 and s.kwh_price > 0 and s.pue > 1 for s in servers),
        "owned:colocation": any(s.colocation_monthly > 0 for s in servers),
        "owned:resale": any(s.resale == "percent" and (s.resale_percent or 0) > 0
                            for s in servers),
        "owned:lifetime": any(s.purchase_price > 0 for s in servers),
    }  # fmt: skip
    out = []
    for name, (low, high) in OWNED_RANGES.items():
        if not moves[name]:
            continue
        if name == "owned:pue":  # a PUE below 1 is no PUE: the low stops at 1
            least = max(Decimal(1) / min(s.pue for s in servers), Decimal(low))
            low = str(least.quantize(FACTOR, rounding="ROUND_UP"))
        label = msg(f"uncertainty.{name.replace(':', '_')}")
        out.append(_scale(name, low, high, label))
    return out


def owned_years(years: int, factor: Decimal) -> int:
    """A service life moved by `factor`: whole years, rounded half-up, 1…15."""
    moved = (Decimal(years) * factor).to_integral_value(rounding="ROUND_HALF_UP")
    return int(min(max(moved, Decimal(1)), Decimal(15)))


def _owned_server(server: Any, values: Mapping[str, Decimal]) -> Any:
    """One owned server with owned hardware's inputs in place (`OWNED_RANGES`)."""
    f = {k.split(":", 1)[1]: v for k, v in values.items() if k.startswith("owned:")}
    update: dict[str, Any] = {}
    if "purchase_price" in f:
        update["purchase_price"] = server.purchase_price * f["purchase_price"]
    if "kwh_price" in f:
        update["kwh_price"] = server.kwh_price * f["kwh_price"]
    if "pue" in f:
        update["pue"] = max(server.pue * f["pue"], Decimal(1))
    if "colocation" in f:
        update["colocation_monthly"] = server.colocation_monthly * f["colocation"]
    if "resale" in f and server.resale == "percent" and server.resale_percent is not None:
        update["resale_percent"] = server.resale_percent * f["resale"]
    if "lifetime" in f:
        update["depreciation_years"] = owned_years(server.depreciation_years, f["lifetime"])
    return server.model_copy(update=update) if update else server


def _spot_interruption(
    plan: Plan, frame: pd.DataFrame, leading: Sequence[str], found: Mapping[str, Interruption]
) -> Uncertain | None:
    """The share of spot work re-run after interruptions, where a leading tier is spot: the
    aggregator's bucket of each (the widest over them) where every one has one, else the
    planner's assumption (`commitments.assumed`), said as such."""
    models = dict(zip(frame["slug"], frame["pricing_model"], strict=False))
    spot = [s for s in dict.fromkeys(leading) if models.get(s) == "spot"]
    if not spot:
        return None
    rate = plan.spot_interruption_allowance
    ranges = [found.get(s) for s in spot]
    if all(r is not None for r in ranges):
        low = min(r.low for r in ranges if r is not None)
        high = max(r.high for r in ranges if r is not None)
        source, bucket = "aggregator", " / ".join(sorted({r.bucket for r in ranges if r}))
    else:
        guess = assumed(rate)
        low, high, source, bucket = guess.low, guess.high, "assumption", ""
    label = msg(f"uncertainty.spot_interruption_{source}", bucket=bucket)
    low, high = min(low, rate), max(high, rate)
    return Uncertain(SPOT_INTERRUPTION, "absolute", _q(low, RATE), rate, _q(high, RATE), source,
                     label)  # fmt: skip


def _scale(name: str, low: str, high: str, label: Message) -> Uncertain:
    return Uncertain(name, "scale", Decimal(low), Decimal(1), Decimal(high), "default", label)


def _absolute(name: str, low: Decimal, base: Decimal, high: Decimal, _v: Decimal) -> Uncertain:
    label = msg(f"uncertainty.{name}")
    least, most = ABSOLUTE_BOUNDS[name]
    low, high = max(min(low, base), least), min(max(high, base), most)
    return Uncertain(name, "absolute", _q(low, RATE), base, _q(high, RATE), "default", label)


def within_bounds(
    items: Sequence[Uncertain], evaluate: Evaluate, entered: Mapping[str, int]
) -> list[Uncertain]:
    """The inputs with every end the engine can price (docs/design.md, "Bounds").

    `evaluate` raises `bounds.TooLarge` where a figure passes the maximum. A default
    range whose end does is narrowed to the last value (to the input's places) that
    stays within it; an entered range is the manager's own: refused, naming
    `ranges[i].low` or `ranges[i].high` (`entered`: input name → its index in `ranges`).
    """
    from planner.compute import bounds

    out = []
    for item in items:
        for end in ("low", "high"):
            value = getattr(item, end)
            if value == item.base:
                continue
            try:
                evaluate({item.name: value})
            except bounds.TooLarge as exc:
                where = entered.get(item.name.split(":")[0])
                if item.source == "entered" and where is not None:
                    raise bounds.TooLarge(exc.kind, exc.month, f"ranges[{where}].{end}") from None
                item = dataclasses.replace(item, **{end: _last_within(item, value, evaluate)})
        out.append(item)
    return out


def _last_within(item: Uncertain, bad: Decimal, evaluate: Evaluate) -> Decimal:
    """Bisection between the base (priced) and `bad` (past the maximum)."""
    from planner.compute import bounds

    step = FACTOR if item.kind == "scale" else RATE
    good = item.base
    for _ in range(60):
        if abs(bad - good) <= step:
            break
        mid = ((good + bad) / 2).quantize(step)
        if mid in (good, bad):
            break
        try:
            evaluate({item.name: mid})
            good = mid
        except bounds.TooLarge:
            bad = mid
    return good


def _entered(item: Uncertain, given: Any) -> Uncertain:
    """The plan's own range where it gives one (low ≤ base ≤ high is kept)."""
    if given is None:
        return item
    places = FACTOR if item.kind == "scale" else RATE
    low = min(_q(given.low, places), item.base)
    high = max(_q(given.high, places), item.base)
    return dataclasses.replace(item, low=low, high=high, source="entered")


# --- the engine's inputs with values in place ---------------------------------------------


def apply(
    plan: Plan,
    frame: pd.DataFrame,
    measurements: Mapping[Any, Any],
    values: Mapping[str, Decimal],
) -> tuple[Plan, pd.DataFrame, Mapping[Any, Any]]:
    """(plan, frame, measurements) with each input at `values[name]` (others at base)."""
    plan = _apply_plan(plan, values)
    frame = _apply_frame(frame, values)
    # The evidence as it is, unless a throughput moves: a `Findings` copied as a dictionary
    # made a reason for every pair, and the engine then its message (at 2,018 tiers 10 %
    # of the sensitivity's time); it copies only the figures it changes.
    compact = isinstance(measurements, Findings)
    found = measurements if compact else dict(measurements)
    for name, value in values.items():
        if name.startswith("throughput:") and value != 1:
            cls = name.split(":", 1)[1]
            pairs = found.figures() if compact else ((*k, m) for k, m in found.items())
            scaled = {
                (slug, c): dataclasses.replace(m, value=m.value * float(value))
                for slug, c, m in pairs
                if c == cls and isinstance(m, BestMeasurement)
            }
            found = found.with_figures(scaled) if compact else {**found, **scaled}
    return plan, frame, found


def _apply_plan(plan: Plan, values: Mapping[str, Decimal]) -> Plan:
    update: dict[str, Any] = {}
    for name in ("monthly_growth", "annual_discount_rate", "utilisation_target",
                 SPOT_INTERRUPTION):  # fmt: skip
        if name in values:
            update[name] = values[name]
    bill = values.get("baseline_monthly", Decimal(1))
    if bill != 1 and plan.baseline.monthly is not None:
        baseline = plan.baseline.model_copy(update={"monthly": plan.baseline.monthly * bill})
        update["baseline"] = baseline
    once = values.get("one_time", Decimal(1))
    if once != 1:
        ot = plan.one_time
        changed = {
            k: getattr(ot, k) * once
            for k in ("migration_rate", "retraining", "other")
            if getattr(ot, k) is not None
        }
        update["one_time"] = ot.model_copy(update=changed)
    if plan.owned and any(k.startswith("owned:") for k in values):
        update["owned"] = tuple(_owned_server(s, values) for s in plan.owned)
    volume, rps = values.get("batch_volume", Decimal(1)), values.get("requests_per_second")
    if volume != 1 or (rps is not None and rps != 1):
        update["workloads"] = tuple(_workload(w, volume, rps) for w in plan.workloads)
    return plan.model_copy(update=update) if update else plan


VOLUME_FIELDS = {
    "gbm": "trainings_per_month", "sklearn": "searches_per_month", "features": "runs_per_month",
    "hpo": "searches_per_month", "nn": "trainings_per_month", "inference": "peak_rps",
}  # fmt: skip


def _workload(w: Any, volume: Decimal, rps: Decimal | None) -> Any:
    field = VOLUME_FIELDS.get(w.kind)
    factor = (rps if rps is not None else Decimal(1)) if w.kind == "inference" else volume
    if field is None or factor == 1:
        return w
    return w.model_copy(update={field: getattr(w, field) * float(factor)})


def _apply_frame(frame: pd.DataFrame, values: Mapping[str, Decimal]) -> pd.DataFrame:
    """Scaled prices: a tier's own line (`price:<slug>`), every converted row (`fx`), and
    the baseline's tier (the bill)."""
    factors: dict[str, Decimal] = {}
    for name, value in values.items():
        if name.startswith("price:") and value != 1:
            factors[name.split(":", 1)[1]] = value
    fx = values.get("fx", Decimal(1))
    if not factors and fx == 1:
        return frame
    out = frame.copy()
    moved = converted_tiers(out)
    converted = [slug in moved for slug in out["slug"]]
    for column in ("monthly_exact", "amount"):
        scaled = []
        for slug, value, conv in zip(out["slug"], out[column], converted, strict=True):
            factor = factors.get(slug, Decimal(1)) * (fx if conv else Decimal(1))
            scaled.append(value if factor == 1 or value is None else Decimal(value) * factor)
        out[column] = pd.Series(scaled, index=out.index, dtype=object)
    out.attrs = dict(frame.attrs)
    return out


def converted_tiers(frame: pd.DataFrame) -> set[str]:
    """The tiers whose price was converted from another currency. A row already in the
    plan's currency has `fx_rate` 1 and no `fx_date`: the exchange rate does not move it."""
    if "fx_date" not in frame.columns:
        return set()
    return set(frame.loc[frame["fx_date"].notna(), "slug"])


def bill_for_tier_baseline(plan: Plan, values: Mapping[str, Decimal]) -> dict[str, Decimal]:
    """A tier baseline's bill moves with its tier's price line."""
    bill = values.get("baseline_monthly", Decimal(1))
    if plan.baseline.tier is None or bill == 1:
        return dict(values)
    key = f"price:{plan.baseline.tier}"
    return {**values, key: values.get(key, Decimal(1)) * bill}


# --- one-way, through the engine ----------------------------------------------------------

Outcome = tuple[int, int, int]  # NPV cents, saving cents, payback month (0: never)
Evaluate = Callable[[Mapping[str, Decimal]], Outcome | None]


def one_way(items: Sequence[Uncertain], evaluate: Evaluate, horizon: int) -> list[dict[str, Any]]:
    """Each input alone at its low and its high; its break-even between them by bisection
    on the value (to the input's places); rows by the NPV swing, widest first."""
    base = evaluate({})
    if base is None:
        return []
    rows = []
    for item in items:
        lo, hi = evaluate({item.name: item.low}), evaluate({item.name: item.high})
        if lo is None or hi is None:
            continue
        even = _break_even(item, evaluate, lo, hi)
        rows.append(_row(item, base, lo, hi, even, horizon))
    rows.sort(key=lambda r: (-r["swing_cents"], r["input"]))
    return rows


def _break_even(item: Uncertain, evaluate: Evaluate, lo: Outcome, hi: Outcome) -> Decimal | None:
    if (lo[2] > 0) == (hi[2] > 0):
        return None
    step = FACTOR if item.kind == "scale" else RATE
    paying, not_paying = (item.low, item.high) if lo[2] > 0 else (item.high, item.low)
    for _ in range(40):  # a value to the input's places: at most ~30 halvings
        if abs(paying - not_paying) <= step:
            break
        mid = ((paying + not_paying) / 2).quantize(step)
        found = evaluate({item.name: mid})
        if found is not None and found[2] > 0:
            paying = mid
        else:
            not_paying = mid
    return paying


def _row(
    item: Uncertain, base: Outcome, lo: Outcome, hi: Outcome, even: Decimal | None, horizon: int
) -> dict[str, Any]:
    from planner.compute import tco

    swing = max(abs(lo[0] - base[0]), abs(hi[0] - base[0]))
    return {
        **item.to_dict(), "label": item.label,
        "npv_low": str(tco.money(lo[0])), "npv_high": str(tco.money(hi[0])),
        "saving_low": str(tco.money(lo[1])), "saving_high": str(tco.money(hi[1])),
        "payback_low": lo[2] or None, "payback_high": hi[2] or None,
        "swing_cents": swing, "break_even": None if even is None else str(even),
        "break_even_sentence": _sentence(item, even, horizon),
    }  # fmt: skip


def _sentence(item: Uncertain, even: Decimal | None, horizon: int) -> Message:
    if even is None:
        return msg("uncertainty.no_break_even", input=item.label, low=_value(item, item.low),
                   high=_value(item, item.high))  # fmt: skip
    code = "uncertainty.break_even" if item.kind == "scale" else "uncertainty.break_even_rate"
    return msg(code, months=horizon, input=item.label, value=_value(item, even))


def _value(item: Uncertain, value: Decimal) -> Percent:
    """A factor as a percentage of the base case (0.85 → 85.00 %), a rate as itself."""
    return Percent(value, 2)


def tornado(rows: Sequence[UncertainInput], base_npv: str, limit: int = 8) -> Tornado:
    """The `limit` inputs that swing the NPV most (`uncertainty_answer.Tornado`): each
    one-way row's (`UncertainInput`) label, low NPV and high NPV around base."""
    return Tornado(
        base_npv=base_npv,
        bars=[  # never a bar whose low equals its high (issue 21): it moves nothing
            TornadoBar(input=r.input, label=r.label, npv_low=r.npv_low, npv_high=r.npv_high)
            for r in [r for r in rows if r.npv_low != r.npv_high][:limit]
        ],
    )
