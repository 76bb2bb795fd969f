# ruff: noqa: RUF002, RUF003  (money notation: ×, −)
"""The largest figures a plan may show (docs/design.md, "Money conventions", "Bounds").

Inputs are bounded by the schema; what they multiply to is not: a $480 bill growing 50 %
a month for 120 months is about 5 × 10²³ dollars in its last month. The money engine
computes every amount exactly (Python integers where int64 could overflow) and then
checks it against these maxima; a plan whose figures pass one is refused with a 400
naming the field that drives it (`TooLarge` → the engine's `PlanValidationError`).

Below the maxima int64 cents are safe everywhere after the lines are priced: one
month of one option sums at most a few dozen lines of ≤ 10¹⁴ cents, and 120 months of
that stay far below 2⁶³ ≈ 9.2 × 10¹⁸.
"""

from __future__ import annotations

import numpy as np

AMOUNT_MAX = 10**12  # currency units: any one month's amount, any total, of any option
AMOUNT_MAX_CENTS = AMOUNT_MAX * 100
SERVERS_MAX = 10**9  # servers of one tier in one month (a line's count)
# A figure moved by a sensitivity's or a draw's inputs (up to 100 × an entered factor) may
# pass the plan's own maximum; computed up to this, still far inside int64 (2⁶³ ≈ 9.2e18).
MOVED_MAX_CENTS = AMOUNT_MAX_CENTS * 10_000


class TooLarge(ValueError):
    """A figure passed a documented maximum. `month`: the first month (1…H) it did, 0
    when it is not a month's figure (a total, a one-time amount); `kind`: "amount" or
    "servers"; `field`: the plan's field that drives it, once the engine knows."""

    def __init__(self, kind: str, month: int = 0, field: str | None = None) -> None:
        self.kind, self.month, self.field = kind, month, field
        super().__init__(f"{kind} past its maximum (month {month}, field {field})")

    def at(self, field: str, growth: object = 0) -> TooLarge:
        """This refusal, named: `field` when month 1 already passes (or nothing grows),
        else `monthly_growth` (growth is what carried it past the maximum)."""
        if self.field is not None:
            return self
        name = "monthly_growth" if growth and self.month > 1 else field
        return TooLarge(self.kind, self.month, name)


def first_month_over(values: np.ndarray, limit: float) -> int:
    """The first month (1-based, over the last axis) where |value| passes `limit` or is not
    a number; 0 when none does."""
    arr = np.asarray(values)
    if arr.dtype == object:
        bad = np.vectorize(lambda v: not (abs(v) <= limit), otypes=[bool])(arr)
    else:
        with np.errstate(invalid="ignore"):
            bad = ~(np.abs(arr) <= limit)
    if not bad.any():
        return 0
    per_month = bad.reshape(-1, arr.shape[-1]).any(axis=0) if arr.ndim else np.array([True])
    return int(np.argmax(per_month)) + 1


def cents(values: np.ndarray | list[int]) -> np.ndarray:
    """Exact cents (ints or an object array of Python ints) as int64, or `TooLarge`."""
    arr = np.asarray(values, dtype=object) if isinstance(values, list) else np.asarray(values)
    month = first_month_over(arr, AMOUNT_MAX_CENTS) if arr.size else 0
    if month:
        raise TooLarge("amount", month)
    return arr.astype(np.int64)


def servers(values: np.ndarray) -> np.ndarray:
    """Server counts (float, whole numbers) as int64, or `TooLarge`."""
    arr = np.asarray(values, dtype=float)
    month = first_month_over(arr, SERVERS_MAX) if arr.size else 0
    if month:
        raise TooLarge("servers", month)
    return arr.astype(np.int64)
