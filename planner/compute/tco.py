# ruff: noqa: RUF002, RUF003  (money notation: ×, −, ÷ as in docs/design.md)
"""The money engine: every option × every month at once, exact to the cent.

Conventions (docs/design.md, "Money conventions"):
- one-time costs fall at month 0; monthly costs at the end of months 1…H;
  cumulative(m) = one-time + Σ monthly up to m;
- payback month = the first m ≥ 1 from which the option's cumulative cost stays
  strictly below the baseline's to the end of the horizon, else "never" (an option
  that only equals the baseline never pays back); its fraction is the interpolated
  crossing, which for a constant saving is one-time ÷ monthly saving; labels
  "immediately" (month 1, no one-time cost), "within the first billing period"
  (month 1 with one), "month m", "not within the horizon" (none, but the option is
  cheaper a month at the horizon's end: it would pay back later), "never" (none, and it
  is not). Payback is undiscounted;
- NPV of switching = −one-time + Σ saving_m / (1+i)^m, i = (1+annual)^(1/12) − 1,
  so at rate 0 it is the total saving minus the one-time cost; each option's present
  cost (one-time + Σ cost_m / (1+i)^m) is reported too.

How amounts stay exact: every bill line (servers, set-up fees, operations, usage…)
is a quantity times an exact `Decimal` unit price, rounded half-up to the cent per
month as an invoice would be, in integer arithmetic on the price's exact ratio
p/q (`line_cents`), in Python integers where int64 could overflow, and checked against
the documented maxima (`bounds`: a plan past them is refused, naming the field, never
wrapped). From there on all money is int64 cents: sums, cumulative
curves, savings and the payback comparisons are exact integers. Only the
discounted figures (NPV, present cost) pass through float64, because (1+i)^−m is
irrational; they are rounded half-up to the cent at the end (float64 keeps about 15
significant digits, far below a cent at these sizes), and at rate 0 every factor is
exactly 1.0, so NPV equals total saving − one-time exactly.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import numpy as np
import pandas as pd

from common.messages import Message
from common.units import HOURS_PER_MONTH
from planner.compute import bounds
from planner.compute.answer import BreakEven
from planner.compute.payback import BEYOND, payback_message

CENT = Decimal("0.01")
_SAFE = 2**62  # int64 headroom for the integer rounding formula

Price = Decimal | Fraction | int  # each exact, each with .as_integer_ratio()


def to_cents(amount: Price) -> int:
    """An exact amount rounded half-up to whole cents (an int)."""
    p, q = Fraction(amount).as_integer_ratio()
    return _round_half_up(p * 100, q)


def _round_half_up(numerator: int, denominator: int) -> int:
    # floor(x + ½) for x = n/d; negatives round half away from zero, like ROUND_HALF_UP.
    if numerator < 0:
        return -_round_half_up(-numerator, denominator)
    return (2 * numerator + denominator) // (2 * denominator)


def money(cents: int | np.integer) -> Decimal:
    return Decimal(int(cents)).scaleb(-2)


def _amounts(cents: np.ndarray) -> list[Decimal]:
    """`[money(c) for c in cents]`, from Python ints (`tolist`): the months of thousands of
    options, each a NumPy scalar to convert before."""
    return [Decimal(c).scaleb(-2) for c in cents.tolist()]


def _months(cents: np.ndarray) -> list[Decimal]:
    """`_amounts(cents)`, a month that costs what the month before did given the same
    Decimal (a value: shared, never changed): most options cost the same month after month
    (an answer's 50 options' 36 months: 0.3 of its 0.8 ms of amounts, bench, CPU)."""
    out: list[Decimal] = []
    last, amount = None, None
    for c in cents.tolist():
        if c != last:
            last, amount = c, Decimal(c).scaleb(-2)
        out.append(amount)  # type: ignore[arg-type]
    return out


def line_cents(unit_prices: Sequence[Price], quantities: np.ndarray) -> np.ndarray:
    """round_half_up(quantity × unit price) in cents, row i priced at unit_prices[i].

    `quantities` is a non-negative integer array whose first axis matches the prices
    (servers per month, months owed). Runs in int64 where the numbers allow, else in
    Python integers (exact either way).
    """
    q_arr = np.asarray(quantities, dtype=np.int64)
    seen: dict[Price, tuple[int, int]] = {}
    ratios = [seen.get(p) or seen.setdefault(p, p.as_integer_ratio()) for p in unit_prices]
    num = [p * 100 for p, _ in ratios]
    den = [q for _, q in ratios]
    shape = (len(ratios),) + (1,) * (q_arr.ndim - 1)
    biggest = int(q_arr.max()) if q_arr.size else 0
    if num and max(num) * max(biggest, 1) * 2 + max(den) < _SAFE:
        n = np.array(num, dtype=np.int64).reshape(shape)
        d = np.array(den, dtype=np.int64).reshape(shape)
        return bounds.cents((2 * q_arr * n + d) // (2 * d))
    n = np.array(num, dtype=object).reshape(shape)
    d = np.array(den, dtype=object).reshape(shape)
    return bounds.cents((2 * q_arr.astype(object) * n + d) // (2 * d))


def growth_cents(amount: Price, monthly_growth: Price, horizon: int) -> np.ndarray:
    """amount × (1+g)^(m−1) for m = 1…H, each month rounded half-up to the cent, exact
    (Fractions); `bounds.TooLarge` from the first month past the maximum."""
    base, factor = Fraction(amount), 1 + Fraction(monthly_growth)
    out, grown = [], base
    for m in range(1, horizon + 1):
        c = to_cents(grown)
        if c > bounds.AMOUNT_MAX_CENTS:
            raise bounds.TooLarge("amount", m)
        out.append(c)
        grown *= factor
    return np.array(out, dtype=np.int64)


def renewals(counts: np.ndarray, term: int) -> np.ndarray:
    """Servers whose commitment term starts again in each month (axis 0: months 1…H, as
    index 0…H−1; any axes after it, e.g. draws, ride along).

    The first servers' term starts at month 0 and renews at index `term` (the start of
    month term + 1), then every `term` months; a server added at index a renews at
    a + term. At most the servers still running renew. Zero where the term is not
    shorter than the horizon (that is the minimum term owed instead)."""
    counts = np.asarray(counts, dtype=np.int64)
    out = np.zeros_like(counts)
    h = counts.shape[0]
    if term <= 0 or term >= h:
        return out
    starts = np.zeros_like(counts)
    starts[0] = counts[0]
    starts[1:] = np.maximum(np.diff(counts, axis=0), 0)
    for m in range(term, h):
        out[m] = np.minimum(starts[m - term], counts[m])
        starts[m] += out[m]
    return out


def monthly_rate(annual: Decimal | float) -> float:
    return (1 + float(annual)) ** (1 / 12) - 1


def discount_factors(annual: Decimal | float, horizon: int) -> np.ndarray:
    """1 / (1+i)^m for m = 1…H; exactly 1.0 at rate 0 (read-only: kept per rate and H)."""
    return _discount_factors(float(annual), horizon)


@functools.lru_cache(maxsize=256)
def _discount_factors(annual: float, horizon: int) -> np.ndarray:
    if annual == 0:
        factors = np.ones(horizon)
    else:
        factors = (1 + monthly_rate(annual)) ** -np.arange(1, horizon + 1, dtype=float)
    factors.flags.writeable = False
    return factors


def _cents_round(values: np.ndarray, limit: int = bounds.AMOUNT_MAX_CENTS) -> np.ndarray:
    """Float cents rounded half away from zero; a NaN or an infinity is never cast
    (`bounds.TooLarge`): a figure past `limit` is refused, not wrapped (the plan's own
    figures: the maximum; a sensitivity's or a draw's moved ones: `bounds.MOVED_MAX_CENTS`)."""
    values = np.asarray(values, dtype=float)
    with np.errstate(invalid="ignore"):
        if not np.all(np.abs(values) <= limit):
            raise bounds.TooLarge("amount")
    return (np.sign(values) * np.floor(np.abs(values) + 0.5)).astype(np.int64)


@dataclass
class TcoResult:
    """Money for N options over H months, in int64 cents; `option(i)` gives Decimals."""

    names: list[str]
    baseline_cents: np.ndarray  # H
    one_time_cents: np.ndarray  # N
    monthly_cents: np.ndarray  # N × H
    cumulative_cents: np.ndarray  # N × (H+1), column 0 = month 0
    baseline_cumulative: np.ndarray  # H+1
    total_cents: np.ndarray  # N
    present_cost_cents: np.ndarray  # N
    baseline_present_cents: int
    npv_cents: np.ndarray  # N
    saving_cents: np.ndarray  # N: baseline total − option total
    payback_month: np.ndarray  # N: 1…H, 0 = never
    payback_fraction: np.ndarray  # N: months, NaN = never
    labels: np.ndarray  # N
    # the per-option arrays as Python lists, made when `option` is first asked (the arrays
    # are never changed once computed)
    _listed: dict[str, list] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def horizon(self) -> int:
        return len(self.baseline_cents)

    @property
    def baseline_total_cents(self) -> int:
        return int(self.baseline_cumulative[-1])

    def order(self) -> np.ndarray:
        """Option indices by total cost, cheapest first (ties by name)."""
        return np.lexsort((np.array(self.names, dtype=object), self.total_cents))

    def _lists(self) -> dict[str, list]:
        # Python ints and floats for `option`: NumPy scalars, each converted and computed
        # with one by one, were half its cost for 1,122 options at 20,000 tiers.
        if self._listed is None:
            self._listed = {
                name: getattr(self, name).tolist()
                for name in ("one_time_cents", "total_cents", "present_cost_cents",
                             "npv_cents", "saving_cents", "payback_month",
                             "payback_fraction", "labels")
            }  # fmt: skip
        return self._listed

    def option(self, i: int) -> OptionMoney:
        said = self._lists()
        base = self.baseline_total_cents
        pct = None
        saving = said["saving_cents"][i]
        if base:
            pct = (Decimal(saving) * 100 / Decimal(base)).quantize(CENT, ROUND_HALF_UP)
        frac = said["payback_fraction"][i]
        one_time, total = said["one_time_cents"][i], said["total_cents"][i]
        running = base - (total - one_time)
        return OptionMoney(
            one_time=money(one_time),
            monthly_cents=self.monthly_cents[i],
            cumulative_cents=self.cumulative_cents[i],
            total=money(total),
            present_cost=money(said["present_cost_cents"][i]),
            npv=money(said["npv_cents"][i]),
            saving=money(saving),
            saving_pct=pct,
            saving_per_month=money(_round_half_up(running, self.horizon)),
            payback_month=said["payback_month"][i] or None,
            payback_fraction=(
                None if frac != frac else Decimal(repr(frac)).quantize(CENT, ROUND_HALF_UP)
            ),  # NaN: never
            payback_label=str(said["labels"][i]),
        )

    def frame(self) -> pd.DataFrame:
        """One row per option: totals in cents (exact ints) and the payback figures."""
        return pd.DataFrame(
            {
                "name": self.names,
                "one_time_cents": self.one_time_cents,
                "total_cents": self.total_cents,
                "present_cost_cents": self.present_cost_cents,
                "npv_cents": self.npv_cents,
                "saving_cents": self.saving_cents,
                "payback_month": self.payback_month,
                "payback_fraction": self.payback_fraction,
                "payback_label": self.labels,
            }
        )


@dataclass
class OptionMoney:
    one_time: Decimal
    # months 1…H and 0…H in int64 cents (rows of the `TcoResult`'s arrays); `monthly` and
    # `cumulative` say them as Decimals when first read
    monthly_cents: np.ndarray = field(repr=False)
    cumulative_cents: np.ndarray = field(repr=False)
    total: Decimal
    present_cost: Decimal
    npv: Decimal
    saving: Decimal  # against the baseline over the horizon, one-time included
    saving_pct: Decimal | None  # of the baseline's total
    saving_per_month: Decimal  # mean running saving a month, one-time excluded
    payback_month: int | None
    payback_fraction: Decimal | None
    payback_label: str
    # Set by the engine (issue 21): the option's own monthly cost once the months of
    # running both are over, and what those months cost on top, once (docs/design.md,
    # "Running both"). None / 0 where the engine did not set them.
    steady_monthly: Decimal | None = None
    transition_cost: Decimal = Decimal("0.00")

    # Said when read: an answer shows 50 of a large catalog's thousands of options, and
    # their months as Decimals were 2 x 37 of them an option (at 20,000 tiers, 1,122
    # options: ~25 ms of `engine.compare`, CPU).
    @functools.cached_property
    def monthly(self) -> list[Decimal]:
        """Months 1…H."""
        return _months(self.monthly_cents)

    @functools.cached_property
    def cumulative(self) -> list[Decimal]:
        """Months 0…H."""
        return _amounts(self.cumulative_cents)

    @property
    def saving_per_year(self) -> Decimal:
        return self.saving_per_month * 12

    @property
    def payback(self) -> Message:
        """`payback_label` as a message: the same words, said in the reader's language."""
        return payback_message(
            self.payback_month, self.one_time, self.payback_label, len(self.monthly_cents)
        )


def compute(
    *,
    names: Sequence[str],
    baseline_cents: np.ndarray,
    one_time_cents: np.ndarray,
    monthly_cents: np.ndarray,
    annual_rate: Decimal | float,
    exact_monthly: np.ndarray | None = None,
) -> TcoResult:
    """All options at once. Inputs are int64 cents: baseline (H), one-time (N), monthly (N × H).

    `exact_monthly` (float cents, N × H): the unrounded amounts where a line is metered
    rather than invoiced to the cent (an owned server's power); the discounted figures
    (present cost, NPV) are computed from them, then rounded. Default: `monthly_cents`.
    """
    monthly = bounds.cents(np.asarray(monthly_cents))
    one_time = np.asarray(one_time_cents, dtype=np.int64)
    baseline = bounds.cents(np.asarray(baseline_cents))
    if bounds.first_month_over(one_time, bounds.AMOUNT_MAX_CENTS):
        raise bounds.TooLarge("amount")
    n, h = monthly.shape
    cumulative = np.empty((n, h + 1), dtype=np.int64)
    cumulative[:, 0] = one_time
    np.cumsum(monthly, axis=1, out=cumulative[:, 1:])
    cumulative[:, 1:] += one_time[:, None]
    base_cum = np.concatenate(([0], np.cumsum(baseline)))
    # Each month is below the maximum, so these sums are exact in int64; the totals
    # themselves are figures too.
    if (n and np.abs(cumulative).max() > bounds.AMOUNT_MAX_CENTS) or (
        base_cum[-1] > bounds.AMOUNT_MAX_CENTS
    ):
        raise bounds.TooLarge("amount")
    lead = base_cum[None, :] - cumulative  # > 0: the option is strictly cheaper so far
    month, fraction = _payback(lead)
    factors = discount_factors(annual_rate, h)
    exact = monthly if exact_monthly is None else np.asarray(exact_monthly, dtype=float)
    present = _cents_round(one_time + exact @ factors)
    base_present = int(_cents_round(np.array([baseline @ factors]))[0])
    saving_m = baseline[None, :] - exact
    npv = _cents_round(-one_time + saving_m @ factors)
    # No payback within the horizon: "not within the horizon" while the option is still
    # cheaper a month at the horizon's end (it catches up later), else "never" (the one
    # rule of docs/design.md, "Payback": the odds' percentiles say the same).
    gaining = baseline[-1] > monthly[:, -1] if h else np.zeros(n, dtype=bool)
    labels = np.where(
        month == 0,
        np.where(gaining, BEYOND, "never"),
        np.where(
            month == 1,
            np.where(one_time == 0, "immediately", "within the first billing period"),
            np.char.add("month ", month.astype(str)),
        ),
    ).astype(object)
    return TcoResult(
        names=list(names),
        baseline_cents=baseline,
        one_time_cents=one_time,
        monthly_cents=monthly,
        cumulative_cents=cumulative,
        baseline_cumulative=base_cum,
        total_cents=cumulative[:, -1].copy(),
        present_cost_cents=present,
        baseline_present_cents=base_present,
        npv_cents=npv,
        saving_cents=base_cum[-1] - cumulative[:, -1],
        payback_month=month,
        payback_fraction=fraction,
        labels=labels,
    )


def headline(
    *, baseline_cents: np.ndarray, one_time_cents: int, monthly_cents: np.ndarray,
    annual_rate: Decimal | float,
) -> tuple[int, int, int]:  # fmt: skip
    """(NPV cents, saving cents, payback month or 0) of one option: what `compute` gives
    for it, without the rest (the sensitivity table asks this a dozen times a plan)."""
    monthly = np.asarray(monthly_cents, dtype=np.int64)
    baseline = np.asarray(baseline_cents, dtype=np.int64)
    base_cum, cumulative = _cumulative(baseline, one_time_cents, monthly)
    month = int(_payback_month((base_cum - cumulative)[None, :])[0])
    factors = discount_factors(annual_rate, len(monthly))
    npv = -one_time_cents + (baseline - monthly) @ factors
    npv = int(_cents_round(np.array([npv]), bounds.MOVED_MAX_CENTS)[0])
    return npv, int(base_cum[-1] - cumulative[-1]), month


def payback_month(
    *, baseline_cents: np.ndarray, one_time_cents: int, monthly_cents: np.ndarray
) -> int:
    """`headline`'s payback month alone (0: never): a break-even search asks only this."""
    monthly = np.asarray(monthly_cents, dtype=np.int64)
    baseline = np.asarray(baseline_cents, dtype=np.int64)
    base_cum, cumulative = _cumulative(baseline, one_time_cents, monthly)
    return int(_payback_month((base_cum - cumulative)[None, :])[0])


def _cumulative(
    baseline: np.ndarray, one_time: int, monthly: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The baseline's and the option's cumulative cost, months 0…H (as `compute` sums)."""
    cumulative = np.empty(len(monthly) + 1, dtype=np.int64)
    cumulative[0] = one_time
    np.cumsum(monthly, out=cumulative[1:])
    cumulative[1:] += one_time
    return np.concatenate(([0], np.cumsum(baseline))), cumulative


def _payback_month(lead: np.ndarray) -> np.ndarray:
    """First month from which lead stays > 0 to the end (0: never), per row."""
    h = lead.shape[1] - 1
    behind = lead[:, 1:] <= 0
    # Index (1-based month) of the last month not strictly ahead; 0 when none.
    last_behind = np.where(behind.any(axis=1), h - np.argmax(behind[:, ::-1], axis=1), 0)
    return np.where(last_behind < h, last_behind + 1, 0).astype(np.int64)


def _payback(lead: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """First month from which lead stays > 0 to the end, and the interpolated crossing."""
    n, width = lead.shape
    h = width - 1
    month = _payback_month(lead)
    rows = np.arange(n)
    prev = lead[rows, np.maximum(month - 1, 0)].astype(float)
    this = lead[rows, np.minimum(month, h)].astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        fraction = (month - 1) + (-prev) / (this - prev)
    return month, np.where(month > 0, fraction, np.nan)


# --- comparisons between tiers -----------------------------------------------------


def break_even(hourly_per_hour: Decimal, monthly_per_month: Decimal) -> BreakEven | None:
    """Hours a month at which paying by the hour equals a monthly price (exact ratio)."""
    if hourly_per_hour <= 0:
        return None
    hours = monthly_per_month / hourly_per_hour
    return BreakEven.model_construct(
        hours_per_month=hours.quantize(CENT, ROUND_HALF_UP),
        utilisation=(hours / HOURS_PER_MONTH).quantize(Decimal("0.0001"), ROUND_HALF_UP),
        hourly_always_cheaper=hours >= HOURS_PER_MONTH,
    )


# Price/performance: currency per unit of measured work, the tier running flat out.
# (seconds or hours per metric's time unit, work per quoted unit, quoted unit)
PRICE_PERFORMANCE_UNITS: dict[str, tuple[int, float, str]] = {
    "gbm": (3600, 1e9, "billion cell-trees"),
    "sklearn": (3600, 1e3, "thousand model fits"),
    "features": (3600, 1e3, "TB of input (1,000 GB)"),
    "hpo": (1, 1e3, "thousand trials"),
    "inference": (3600, 1e6, "million requests"),
    "nn": (3600, 1e6, "million samples"),
}


def price_performance(monthly: Sequence[Decimal], throughput: np.ndarray, cls: str) -> list:
    """Currency per quoted unit of work: monthly ÷ (730 h × per-hour throughput) × unit.

    e.g. gbm: monthly ÷ (X cell-trees/s × 3600 × 730) × 1e9 = dollars per billion
    cell-trees, at 100 % busy (divide by the utilisation target for planned cost).
    A rate, not an amount: kept to four significant digits, not rounded to cents.
    """
    per_hour, per_unit, _ = PRICE_PERFORMANCE_UNITS[cls]
    out: list[Decimal | None] = []
    # Python floats (`tolist`): 20,000 tiers' NumPy scalars were a third of the loop. Each
    # (price, throughput) said once: tiers of one CPU share an estimate, and prices repeat
    # (at 20,000 tiers 2,244 figures, ~10 ms). Equal prices give the same four digits
    # whatever their exponent; a zero keeps its own, so it is not shared.
    said: dict[tuple[Decimal, float], Decimal] = {}
    for amount, x in zip(monthly, np.asarray(throughput, dtype=float).tolist(), strict=True):
        if not (x > 0) or amount is None:
            out.append(None)
            continue
        key = (amount, x)
        found = said.get(key) if amount else None
        if found is None:
            work_per_month = Decimal(repr(float(x))) * per_hour * HOURS_PER_MONTH
            value = Decimal(amount) / work_per_month * Decimal(repr(per_unit))
            found = _significant(value, 4)
            if amount:
                said[key] = found
        out.append(found)
    return out


def _significant(value: Decimal, digits: int) -> Decimal:
    if value == 0:
        return value
    exponent = value.adjusted() - digits + 1
    return value.quantize(Decimal(1).scaleb(exponent), ROUND_HALF_UP)
