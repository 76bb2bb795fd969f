# ruff: noqa: RUF002, RUF003  (money notation: ×, −, ÷ as in docs/design.md)
"""Owned servers: a purchase, its running costs and its resale as monthly lines in cents.

The money conventions for owned hardware (docs/design.md, "Owned hardware"), everything
before tax (no depreciation tax shield):
- cash: purchase and set-up at month 0 (a one-time cost); a replacement bought at the
  end of the service life (12 × depreciation years) pays both in that month's line;
- loan or lease: set-up in cash; the price through a monthly annuity
  P·r ÷ (1 − (1+r)^−n), r = annual rate ÷ 12, paid at month ends (P ÷ n at rate 0); a
  balance still outstanding at the horizon is paid in its last month;
- running costs a server a month: power = watts × PUE × price per kWh × 730 h ÷ 1000,
  support = yearly share × purchase price ÷ 12, colocation and spares as entered;
- depreciation is not a cash line: it sets the book value after m months,
  price × max(0, 1 − m ÷ (12 × years)); the resale (that book value, or a percentage
  of the price) is an inflow in the horizon's last month, in the cumulative curve and
  the NPV alike;
- a horizon longer than the service life buys a replacement at its end, or (when the
  plan says not to) keeps the server running fully depreciated, and says so.

Each line is a quantity × an exact unit price rounded half-up to the cent per month,
as every other bill line of the engine (`tco.line_cents`). Power is metered, not
invoiced at a fixed price: the monthly lines, cumulative curve and payback show it
rounded to the cent, while the present cost and NPV discount its unrounded amount
(the hand calculation's 57.4875 a month), then round.

Pure: no Django.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

import numpy as np

from common.messages import Message, Money, msg
from common.units import HOURS_PER_MONTH
from planner.compute import tco
from planner.compute.schema import OwnedServer

LINES = ("purchase", "setup", "loan", "loan_balance", "power", "colocation", "support",
         "spares", "resale")  # fmt: skip


@dataclass
class OwnedMoney:
    """One owned option's money: month-0 cents, and each line by month (H, in cents)."""

    one_time: dict[str, int]  # purchase (cash), setup
    lines: dict[str, np.ndarray] = field(default_factory=dict)  # name → H cents
    power_exact: float = 0.0  # the power line a month in unrounded cents (it is metered)
    purchases: list[int] = field(default_factory=list)  # months a purchase falls in
    resale_unit: Fraction = Fraction(0)  # a server's resale value at the horizon
    notes: list[Message] = field(default_factory=list)

    @property
    def one_time_cents(self) -> int:
        return sum(self.one_time.values())

    @property
    def monthly_cents(self) -> np.ndarray:
        return np.sum(list(self.lines.values()), axis=0).astype(np.int64)

    @property
    def exact_monthly(self) -> np.ndarray:
        """The monthly lines with power unrounded (float cents): what the NPV discounts."""
        return self.monthly_cents - self.lines["power"] + self.power_exact

    def without_resale(self) -> np.ndarray:
        return self.monthly_cents - self.lines["resale"]

    def to_dict(self) -> dict[str, object]:
        return {
            "one_time": {k: str(tco.money(v)) for k, v in self.one_time.items()},
            "lines": {k: [str(tco.money(c)) for c in v] for k, v in self.lines.items()},
            "purchase_months": self.purchases,
            "resale_per_server": str(tco.money(tco.to_cents(self.resale_unit))),
        }


def power_unit(server: OwnedServer) -> Fraction:
    """A server's power a month: watts × PUE × price per kWh × 730 h ÷ 1000."""
    watts = Fraction(Decimal(repr(float(server.watts))))
    return watts * Fraction(server.pue) * Fraction(server.kwh_price) * HOURS_PER_MONTH / 1000


def support_unit(server: OwnedServer) -> Fraction:
    return Fraction(server.support_share) * Fraction(server.purchase_price) / 12


def annuity(price: Fraction, annual_rate: Fraction, months: int) -> Fraction:
    """P·r ÷ (1 − (1+r)^−n), r = annual ÷ 12; P ÷ n at rate 0 (exact)."""
    r = annual_rate / 12
    if r == 0:
        return price / months
    return price * r / (1 - (1 + r) ** -months)


def balance(price: Fraction, annual_rate: Fraction, months: int, paid: int) -> Fraction:
    """What is still owed after `paid` payments of the annuity."""
    r = annual_rate / 12
    payment = annuity(price, annual_rate, months)
    if r == 0:
        return price - payment * paid
    grown = (1 + r) ** paid
    return price * grown - payment * (grown - 1) / r


def book_value(price: Fraction, years: int, age_months: int) -> Fraction:
    return price * max(Fraction(0), 1 - Fraction(age_months, 12 * years))


def owned_money(server: OwnedServer, horizon: int) -> OwnedMoney:
    h, n = horizon, server.count
    price, setup = Fraction(server.purchase_price), Fraction(server.setup)
    life = 12 * server.depreciation_years
    buys = list(range(0, h, life)) if server.replace_at_end_of_life else [0]
    counts = np.full((1, h), n, dtype=np.int64)
    lines = {name: np.zeros(h, dtype=np.int64) for name in LINES}
    one_time = {"purchase": 0, "setup": 0}

    def pay(line: str, month: int, unit: Fraction) -> None:
        cents = tco.to_cents(unit * n)
        if month == 0:
            one_time[line] += cents
        else:
            lines[line][month - 1] += cents

    for start in buys:
        pay("setup", start, setup)
        if server.financing == "cash":
            pay("purchase", start, price)
            continue
        rate, term = Fraction(server.loan_annual_rate or 0), int(server.loan_months or 1)
        end = min(start + term, h)
        lines["loan"][start:end] += tco.to_cents(annuity(price, rate, term) * n)
        if start + term > h:
            lines["loan_balance"][h - 1] += tco.to_cents(balance(price, rate, term, h - start) * n)
    lines["power"] += tco.line_cents([power_unit(server)], counts)[0]
    lines["colocation"] += tco.line_cents([Fraction(server.colocation_monthly)], counts)[0]
    lines["support"] += tco.line_cents([support_unit(server)], counts)[0]
    lines["spares"] += tco.line_cents([Fraction(server.spares_monthly)], counts)[0]
    age = h - buys[-1]
    if server.resale == "percent":
        resale = price * Fraction(server.resale_percent or 0)
    else:
        resale = book_value(price, server.depreciation_years, age)
    lines["resale"][h - 1] -= tco.to_cents(resale * n)
    metered = float(power_unit(server) * n * 100)
    out = OwnedMoney(one_time, lines, metered, buys, resale)
    if not server.replace_at_end_of_life and h > life:
        out.notes.append(msg("owned.runs_past_life", years=server.depreciation_years, month=life))
    if len(buys) > 1:
        out.notes.append(msg("owned.replaced", months=buys[1:]))
    return out


def resale_payback_note(
    money: OwnedMoney,
    baseline: np.ndarray,
    shared_monthly: np.ndarray,
    shared_one_time: int,
    currency: str,
) -> Message | None:
    """The label for a payback that exists only because of the resale in the last month."""
    one_time = money.one_time_cents + shared_one_time
    with_resale = money.monthly_cents + shared_monthly
    without = money.without_resale() + shared_monthly
    result = tco.compute(
        names=["with", "without"], baseline_cents=baseline,
        one_time_cents=np.array([one_time, one_time]),
        monthly_cents=np.vstack([with_resale, without]), annual_rate=0,
    )  # fmt: skip
    if result.payback_month[0] and not result.payback_month[1]:
        resale = Money(tco.money(-int(money.lines["resale"][-1])), currency)
        return msg("owned.payback_by_resale", month=len(baseline), resale=resale)
    return None
