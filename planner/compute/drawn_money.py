# ruff: noqa: RUF002, RUF003  (money notation: ×, −, ÷)
"""Money for many draws at once: the Monte Carlo's kernels, exact to the cent.

`montecarlo.Model.run` prices its draws a chunk at a time in months × draws arrays
(H × n): a draw's value broadcasts along a row, a month's down a column, and a sum over
months adds whole rows. Here:
- `Work`, the chunk's H × n arrays, allocated once a run and written in place: allocating
  and freeing arrays of this size a few hundred times a run costs more than the
  arithmetic (the allocator maps, zero-fills and hands back fresh pages each time);
- `line_cents`: a bill line rounded half-up to the cent per month and draw, as
  `tco.line_cents` rounds it;
- `outcome`: `tco.compute`'s NPV, saving and payback month for one option over n draws.

Money stays int64 cents; float64 carries the counts of servers, the growth and discount
factors, and the exact whole numbers `line_cents` divides. Pure: no Django.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from fractions import Fraction

import numpy as np

from planner.compute import bounds, tco

EXACT = 2**53  # every whole number below this is exact in float64
# A draw's figures may pass the plan's own maximum (its inputs at once at their highs),
# up to ten times it: the sums of 120 months of a few lines stay far inside int64. Past
# that the draws are refused (`bounds.TooLarge`), never wrapped.
DRAWN_MAX_CENTS = bounds.AMOUNT_MAX_CENTS * 10
DRAWN_MAX_SERVERS = bounds.SERVERS_MAX * 10


def guard(values: np.ndarray, limit: float = DRAWN_MAX_CENTS) -> None:
    """`bounds.TooLarge` when a float figure of the draws passes `limit` or is NaN."""
    month = bounds.first_month_over(np.asarray(values).T, limit) if np.size(values) else 0
    if month:
        raise bounds.TooLarge("amount" if limit == DRAWN_MAX_CENTS else "servers", month)


@dataclass
class Work:
    """The H × n work arrays of one chunk of draws; `first(n)` views the first n draws."""

    growth: np.ndarray  # (1+g)^(m−1)
    factors: np.ndarray  # 1/(1+i)^m
    counts: np.ndarray  # servers (whole numbers, float64)
    added: np.ndarray  # servers added in the month (float64)
    scratch: np.ndarray  # float64
    baseline: np.ndarray  # int64 cents
    net: np.ndarray  # int64 cents: the baseline less what every option pays besides its lines
    lines: np.ndarray  # int64 cents: an option's own lines
    cents: np.ndarray  # int64 cents: one line
    behind: np.ndarray  # bool: not strictly ahead of the baseline yet
    month_of: np.ndarray  # int32: the month where behind, else 0

    @classmethod
    def of(cls, h: int, n: int) -> Work:
        def make(dtype: type) -> np.ndarray:
            return np.empty((h, n), dtype=dtype)

        f, i = np.float64, np.int64
        return cls(make(f), make(f), make(f), make(f), make(f), make(i), make(i), make(i),
                   make(i), make(np.bool_), make(np.int32))  # fmt: skip

    def first(self, n: int) -> Work:
        return Work(*(getattr(self, f.name)[:, :n] for f in fields(self)))


def line_cents(
    price: Fraction,
    factor: np.ndarray,
    factor_den: int,
    qty: np.ndarray,
    out: np.ndarray | None = None,
    scratch: np.ndarray | None = None,
) -> np.ndarray:
    """round_half_up(qty × price × factor ÷ factor_den) in int64 cents, into `out`: qty
    by month and draw (H × n, whole numbers), factor an integer per draw (n).

    Below 2⁵³ every step is an exact whole number in float64, and so is the floor of the
    quotient: a correctly rounded N ÷ d with N < 2⁵³ cannot reach the next whole number,
    which lies at least 1/d above N/d. Beyond that int64, then Python integers."""
    out = np.empty(qty.shape, dtype=np.int64) if out is None else out
    guard(qty, DRAWN_MAX_SERVERS)
    p, q = price.as_integer_ratio()
    den = q * factor_den
    top = 2 * int(qty.max(initial=1)) * abs(p) * 100 * int(factor.max(initial=1)) + den
    if top < EXACT:
        scratch = np.empty(qty.shape) if scratch is None else scratch
        np.multiply(qty, ((2 * p * 100) * factor).astype(float), out=scratch)
        scratch += den
        scratch /= 2 * den
        np.floor(scratch, out=scratch)
        np.copyto(out, scratch, casting="unsafe")
    elif top < 2**62:
        num = (p * 100) * factor.astype(np.int64)
        out[...] = (2 * qty.astype(np.int64) * num + den) // (2 * den)
        guard(out)
    else:
        big = np.array([p * 100 * int(f) for f in factor], dtype=object)
        exact = (2 * qty.astype(np.int64).astype(object) * big + den) // (2 * den)
        guard(exact)
        out[...] = exact
    return out


def usage_cents(
    amount: Fraction,
    factor: np.ndarray,
    factor_den: int,
    growth: np.ndarray,
    rate: Callable[[int], Fraction],
    out: np.ndarray,
    scratch: np.ndarray,
) -> np.ndarray:
    """round_half_up(amount × factor ÷ factor_den × (1+g)^(m−1)) in int64 cents, into
    `out`, as `engine.Pricer.usage_cents` rounds the exact product: a usage line at the
    draw's price and growth (`growth`: the H × n float factors; `rate(j)`: draw j's g).

    In float64 the product is within a few parts in 10¹⁵ of the exact one, so only a value
    that close to a half cent can round the other way: those few are priced again in
    exact fractions."""
    cents = np.multiply(growth, (float(amount) * 100 * factor / factor_den)[None, :], out=scratch)
    guard(cents)
    cents += 0.5
    np.floor(cents, out=out, casting="unsafe")
    # x + ½ − round(x) lies in [0, 1): a half cent away from ½ is at either end
    cents -= out
    cents -= 0.5
    np.abs(cents, out=cents)
    near = np.argwhere(cents >= 0.5 - NEAR_HALF * np.maximum(out, 1))
    for m, j in near:
        exact = amount * Fraction(int(factor[j]), factor_den) * (1 + rate(int(j))) ** int(m)
        out[m, j] = tco.to_cents(exact)
    return out


NEAR_HALF = 1e-11  # relative: the float product's error is below 1e-14 of the value


def growth(g: np.ndarray, out: np.ndarray) -> np.ndarray:
    """(1+g)^(m−1) for m = 1…H per draw, as the engine's `_growth` gives it."""
    return np.power((1 + g)[None, :], np.arange(len(out), dtype=float)[:, None], out=out)


def discount_factors(rate: np.ndarray, out: np.ndarray) -> np.ndarray:
    """1 / (1+i)^m for m = 1…H per draw, as `tco.discount_factors` gives them."""
    monthly_rate = (1 + rate) ** (1 / 12) - 1
    exponents = -np.arange(1, len(out) + 1, dtype=float)[:, None]
    np.power((1 + monthly_rate)[None, :], exponents, out=out)
    out[:, rate == 0] = 1.0
    return out


def outcome(
    saving: np.ndarray,
    exact: np.ndarray | None,
    one_time: np.ndarray,
    w: Work,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """NPV and saving (cents), payback month (0: none within the horizon) and whether the
    option is still cheaper a month at the horizon's end (`tco.BEYOND` where it has no
    payback) of one option per draw, as `tco.compute` computes them.

    `saving`: the baseline less the option's bill, cents a month (H × n, int64; summed
    in place); `exact`: the same in float cents where a line is metered, else None;
    `one_time`: cents (n)."""
    h = len(saving)
    gaining = saving[-1] > 0  # still cheaper a month at the horizon's end (before the sums)
    if exact is None:
        exact = w.scratch
        np.copyto(exact, saving)
    npv = tco._cents_round(
        -one_time + np.einsum("hn,hn->n", exact, w.factors), bounds.MOVED_MAX_CENTS
    )
    ahead = running_total(saving)  # + one-time: cumulative(baseline) − cumulative(option)
    # the last month not strictly ahead (0: none); payback is the month after, if any
    np.less_equal(ahead, one_time[None, :], out=w.behind)
    np.multiply(w.behind, np.arange(1, h + 1, dtype=np.int32)[:, None], out=w.month_of)
    last = w.month_of.max(axis=0, initial=0)
    return npv, ahead[-1] - one_time, np.where(last < h, last + 1, 0), gaining


def running_total(monthly: np.ndarray) -> np.ndarray:
    """The running total down the months of an H × n array, in place: one step a month,
    each over every draw at once (about ten times faster than np.cumsum(axis=0), which
    walks each draw's months one strided element at a time)."""
    for m in range(1, len(monthly)):
        np.add(monthly[m - 1], monthly[m], out=monthly[m])
    return monthly
