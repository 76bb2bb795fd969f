# ruff: noqa: RUF002, RUF003  (money notation: ×, −)
"""The one-way table in a reader's terms: money inputs as amounts, their break-even to the
cent, and every break-even said in the direction it works.

`uncertainty.one_way` moves each input as a factor on the base case (four places) or as
a rate (six), and finds the factor at which the base-case best option stops paying back
within the horizon. For an input that is an amount of money (today's bill, a tier's
monthly price, the one-time costs) a factor's fourth place is coarser than a cent ($480
× 0.0001 = 4.8 cents), so `in_money` carries on from that factor by bisection on whole
cents through the same evaluation: the field-notes bill pays back at $363.88 a month and
not at $363.87, so the switch "stops paying back within 36 months if the cloud bill
falls below $363.88 a month" (the hand figure: 36 × B > 500 + 36 × 349.99, B > 363.8789).

A sentence says which way the input must move: with a base case that pays back, the
switch stops paying back above (or below) the value; with one that does not, it pays
back only at or beyond it. Values read as money ("$363.88 a month"), a share of the base
case ("93.10 % of the base case") or a rate ("0.86 %").

Pure: no Django.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from common.messages import Message, Money, Percent, msg
from planner.compute import tco
from planner.compute.sensitivity import last_paying
from planner.compute.uncertainty import FACTOR, Evaluate, Uncertain
from planner.compute.uncertainty_answer import UncertainInput

MONTH, ONCE = "month", "once"
CENT = Decimal("0.01")


@dataclass(frozen=True)
class Amount:
    """What an input's factor 1 is in money: the base case's amount and how often."""

    value: Decimal
    per: str  # MONTH | ONCE


def in_money(
    rows: Sequence[Mapping[str, Any]],
    items: Sequence[Uncertain],
    amounts: Mapping[str, Amount],
    evaluate: Evaluate,
    *,
    currency: str,
    horizon: int,
    base_pays: bool,
    labels: Mapping[str, Message] | None = None,
) -> list[UncertainInput]:
    """`one_way`'s rows as the answer's (`UncertainInput`), with `low_amount`,
    `base_amount`, `high_amount` and `break_even_amount` (money inputs; else None) and the
    sentence said both ways round."""
    by_name = {i.name: i for i in items}
    out = []
    for given in rows:
        row = dict(given)
        item = by_name[row["input"]]
        if labels and item.name in labels:
            item = dataclasses.replace(item, label=labels[item.name])
            row["label"] = item.label
        amount = amounts.get(item.name) if item.kind == "scale" else None
        even_cents = None
        if amount is not None and row["break_even"] is not None:
            paying_at_low = row["payback_low"] is not None
            even_cents = to_the_cent(item, amount.value, Decimal(row["break_even"]), evaluate,
                                     paying_at_low=paying_at_low)  # fmt: skip
        row.update(
            low_amount=_amount(amount, item.low),
            base_amount=_amount(amount, item.base),
            high_amount=_amount(amount, item.high),
            break_even_amount=None if even_cents is None else str(tco.money(even_cents)),
        )
        row["break_even_sentence"] = sentence(item, row, amount, currency, horizon, base_pays)
        out.append(UncertainInput(**row))
    return out


def _amount(amount: Amount | None, factor: Decimal) -> str | None:
    return None if amount is None else str((amount.value * factor).quantize(CENT))


def to_the_cent(
    item: Uncertain, base: Decimal, even: Decimal, evaluate: Evaluate, *, paying_at_low: bool
) -> int | None:
    """The last whole cent that still pays back, next to the factor `even` (which does, while
    one step of the factor further does not). None when the base amount is zero."""
    base_cents = tco.to_cents(base)
    if base_cents == 0:
        return None
    away = 1 if paying_at_low else -1  # the direction in which paying back stops

    def pays(cents: int) -> bool:
        found = evaluate({item.name: Decimal(cents) / Decimal(base_cents)})
        return found is not None and found[2] > 0

    paying = tco.to_cents(base * even)
    not_paying = tco.to_cents(base * (even + away * FACTOR))
    for _ in range(3):  # rounding to the cent may land a cent on the other side
        if pays(paying):
            break
        paying -= away
    else:
        return None
    for _ in range(3):
        if not pays(not_paying):
            break
        not_paying += away
    else:
        return None
    return last_paying(pays, paying, not_paying)


def _shown(item: Uncertain, amount: Amount | None, value: Decimal, currency: str, *,
           cents: int | None = None, per_month: bool = True) -> Any:  # fmt: skip
    """A value as the reader reads it: money, a share of the base case, or a rate."""
    if amount is not None:
        money = Money(
            tco.money(cents) if cents is not None else (amount.value * value).quantize(CENT),
            currency,
        )
        return msg("uncertainty.a_month", amount=money) if per_month and amount.per == MONTH else (
            money
        )  # fmt: skip
    if item.kind == "scale":
        return msg("uncertainty.of_base", share=Percent(value, 2))
    return Percent(value, 2)


def sentence(
    item: Uncertain,
    row: Mapping[str, Any],
    amount: Amount | None,
    currency: str,
    horizon: int,
    base_pays: bool,
) -> Message:
    """The input's break-even as a sentence, or that it has none between its low and high."""
    if row["break_even"] is None:
        if item.name == "annual_discount_rate":  # payback is undiscounted: the rate never flips it
            return msg("sensitivity.no_break_even", low=Percent(item.low), high=Percent(item.high))
        return msg("uncertainty.no_break_even", input=item.label,
                   low=_shown(item, amount, item.low, currency, per_month=False),
                   high=_shown(item, amount, item.high, currency, per_month=False))  # fmt: skip
    cents = (
        tco.to_cents(Decimal(row["break_even_amount"])) if row.get("break_even_amount") else None
    )
    paying_at_low = row["payback_low"] is not None
    if cents is not None and base_pays:
        money = Money(tco.money(cents), currency)
        if item.name == "baseline_monthly" and not paying_at_low:
            return msg("sensitivity.break_even_bill", months=horizon, amount=money)
        if item.name == "one_time" and paying_at_low:
            return msg("sensitivity.break_even_one_time", months=horizon, amount=money)
    value = _shown(item, amount, Decimal(row["break_even"]), currency, cents=cents)
    if base_pays:
        code = "uncertainty.stops_above" if paying_at_low else "uncertainty.stops_below"
    else:
        code = "uncertainty.starts_at_most" if paying_at_low else "uncertainty.starts_at_least"
    return msg(code, months=horizon, input=item.label, value=value)
