# ruff: noqa: RUF002, RUF003  (money notation: ×, −, ÷)
"""One-way sensitivity of the headline to the money inputs, and their break-even values.

For the base case's best option, each input is moved alone to its low and its high
value and the option's NPV, saving over the horizon and payback month are recomputed
by the same money engine (`tco.compute`, every month rounded to the cent as a bill
is). Inputs here, each with its range (low, base, high) and where the range comes from:

- the baseline's monthly bill (today's spend): −25 % … +25 %, a planner default;
- the best option's monthly cost (its price lines, every month in proportion): −10 % …
  +10 %, the default range of a price line;
- the one-time costs the plan enters (migration, retraining, other; a tier's set-up fee
  stays as the catalog gives it): −50 % … +100 % (vendor tools leave out 30–50 % of the
  first year: docs/design.md, "Default assumptions");
- the discount rate: 0 … twice the plan's (at least 14 %).

The ranges are `uncertainty.DEFAULT_RANGES`, the same the full one-way table
(`uncertainty.one_way`, every input through the engine, deferred) and the Monte Carlo
use, and the sentences are `breakeven`'s: this table is that story's money inputs,
cheap enough to compute inside every comparison.

Break-even: the value at which the best option stops paying back within the horizon
(the bill below which, the cost above which), found to the cent by bisection, or none
between low and high. Payback is undiscounted, so the discount rate has none.

Inputs that change the server count (measured throughput, workload volumes,
utilisation, growth) need the capacity model again; they are not in this table yet.

Pure: no Django.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import numpy as np

from common.messages import Message, Money, Percent, msg
from planner.compute import tco
from planner.compute.uncertainty import DEFAULT_RANGES, DISCOUNT_RATE_HIGH

RANGES: dict[str, tuple[Decimal, Decimal]] = {
    name: (Decimal(low), Decimal(high))
    for name, (low, high) in (
        ("baseline_monthly", DEFAULT_RANGES["baseline_monthly"]),
        ("option_monthly", DEFAULT_RANGES["price"]),
        ("one_time", DEFAULT_RANGES["one_time"]),
    )
}


@dataclass(frozen=True)
class Case:
    """The best option's money as the engine priced it (cents)."""

    baseline: np.ndarray  # H
    monthly: np.ndarray  # H
    one_time: int
    rate: Decimal
    fixed_one_time: int = 0  # set-up fees inside `one_time`: not an uncertain input

    def outcome(self, **scaled: Any) -> tuple[int, int, int]:
        """(NPV cents, saving cents, payback month or 0) with inputs replaced."""
        return tco.headline(
            baseline_cents=scaled.get("baseline", self.baseline),
            one_time_cents=int(scaled.get("one_time", self.one_time)),
            monthly_cents=scaled.get("monthly", self.monthly),
            annual_rate=scaled.get("rate", self.rate),
        )

    def pays(self, **scaled: Any) -> bool:
        """Whether the option pays back within the horizon with inputs replaced."""
        month = tco.payback_month(
            baseline_cents=scaled.get("baseline", self.baseline),
            one_time_cents=int(scaled.get("one_time", self.one_time)),
            monthly_cents=scaled.get("monthly", self.monthly),
        )
        return month > 0


def _scale(cents: np.ndarray, month_one: int) -> Callable[[int], np.ndarray]:
    """The line with its month 1 at `value` cents, every month in the same proportion."""
    base = int(cents[0])

    def scaled(value: int) -> np.ndarray:
        if base == 0:
            return cents.copy()
        if base > 0 and int(np.abs(cents).max()) * abs(value) * 2 + base < tco._SAFE:
            # tco._round_half_up month by month, in int64 (the numbers allow it here).
            n = cents.astype(np.int64) * value
            return np.sign(n) * ((2 * np.abs(n) + base) // (2 * base))
        return np.array([tco._round_half_up(int(c) * value, base) for c in cents], np.int64)

    return scaled


def _cents(value: Decimal) -> int:
    """A scaled amount in cents, rounded half-up as every bill line is."""
    return int(value.to_integral_value(ROUND_HALF_UP))


def _break_even(pays: Callable[[int], bool], low: int, high: int) -> int | None:
    """The cent where paying back flips between `low` and `high` (the first value, counted
    from the paying side, that still pays back), or None when it does not flip."""
    if pays(low) == pays(high):
        return None
    return last_paying(pays, *((low, high) if pays(low) else (high, low)))


def last_paying(pays: Callable[[int], bool], paying: int, not_paying: int) -> int:
    """Bisect between a cent that pays back and one that does not: the last that does."""
    while abs(paying - not_paying) > 1:
        mid = (paying + not_paying) // 2
        if pays(mid):
            paying = mid
        else:
            not_paying = mid
    return paying


def analyse(case: Case, currency: str, horizon: int) -> list[dict[str, Any]]:
    """One row per input: low/base/high values, the headline at each, the break-even."""
    rows = []
    b1, o1 = int(case.baseline[0]), int(case.monthly[0])
    line_inputs = [
        ("baseline_monthly", b1, lambda v: {"baseline": _scale(case.baseline, b1)(v)}),
        ("option_monthly", o1, lambda v: {"monthly": _scale(case.monthly, o1)(v)}),
        ("one_time", case.one_time - case.fixed_one_time,
         lambda v: {"one_time": case.fixed_one_time + v}),
    ]  # fmt: skip
    pays_now = case.outcome()[2] > 0
    for name, base, change in line_inputs:
        if base == 0:
            continue  # nothing to move: no "0–0" row (issue 21)
        lo_f, hi_f = RANGES[name]
        low, high = _cents(base * lo_f), _cents(base * hi_f)
        even = _break_even(lambda v, c=change: case.pays(**c(v)), low, high)
        rows.append(_row(name, case, base, low, high, change, even, currency, horizon, pays_now))
    rate = case.rate
    rate_high = max(rate * 2, DISCOUNT_RATE_HIGH)
    rows.append(_rate_row(case, rate, rate_high))
    base_npv = case.outcome()[0]
    rows.sort(key=lambda r: -max(abs(r["npv_low"] - base_npv), abs(r["npv_high"] - base_npv)))
    for row in rows:
        for key in ("npv_low", "npv_high", "saving_low", "saving_high"):
            row[key] = str(tco.money(row[key]))
    return rows


def _row(name, case, base, low, high, change, even, currency, horizon, pays) -> dict[str, Any]:
    lo, hi = case.outcome(**change(low)), case.outcome(**change(high))
    out: dict[str, Any] = {
        "input": name, "unit": "money", "low": str(tco.money(low)), "base": str(tco.money(base)),
        "high": str(tco.money(high)), "npv_low": lo[0], "npv_high": hi[0],
        "saving_low": lo[1], "saving_high": hi[1],
        "payback_low": lo[2] or None, "payback_high": hi[2] or None,
        "break_even": None if even is None else str(tco.money(even)),
    }  # fmt: skip
    out["break_even_sentence"] = _sentence(name, even, currency, horizon, pays)
    return out


def _rate_row(case: Case, rate: Decimal, high: Decimal) -> dict[str, Any]:
    lo, hi = case.outcome(rate=Decimal(0)), case.outcome(rate=high)
    return {
        "input": "annual_discount_rate", "unit": "per year", "low": "0", "base": str(rate),
        "high": str(high), "npv_low": lo[0], "npv_high": hi[0], "saving_low": lo[1],
        "saving_high": hi[1], "payback_low": lo[2] or None, "payback_high": hi[2] or None,
        "break_even": None,
        "break_even_sentence": msg("sensitivity.no_break_even", low=Percent(Decimal(0)),
                                   high=Percent(high)),
    }  # fmt: skip


LABELS = {
    "baseline_monthly": "uncertainty.baseline_monthly",
    "option_monthly": "sensitivity.option_monthly",
    "one_time": "uncertainty.one_time",
}
RISING_PAYS = {"baseline_monthly"}  # a higher bill pays back sooner; a higher cost later


def _sentence(name: str, even: int | None, currency: str, horizon: int, pays: bool) -> Message:
    if even is None:
        return msg("sensitivity.no_break_even_money")
    amount = Money(tco.money(even), currency)
    if not pays:  # the base case does not pay back: the value it would take (`breakeven`)
        code = "uncertainty.starts_at_least" if name in RISING_PAYS else (
            "uncertainty.starts_at_most"
        )  # fmt: skip
        value = amount if name == "one_time" else msg("uncertainty.a_month", amount=amount)
        return msg(code, months=horizon, input=msg(LABELS[name]), value=value)
    if name == "baseline_monthly":
        return msg("sensitivity.break_even_bill", months=horizon, amount=amount)
    if name == "option_monthly":
        return msg("sensitivity.break_even_option", months=horizon, amount=amount)
    return msg("sensitivity.break_even_one_time", months=horizon, amount=amount)
