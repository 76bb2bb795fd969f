"""Converting a read bill's lines into one currency at the ECB rates of their charge dates,
through the catalog's exchange rates; the flags name the rate rows used."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from decimal import Decimal

import pyarrow.compute as pc

from bills.readers.dispatch import ReadBill
from bills.readers.errors import BillRefused
from catalog.pricing import conversions_to
from common.messages import msg


def bill_currency(read: ReadBill) -> str:
    """The currency most of the bill's rows are in (ties: the first in the file)."""
    rows = Counter()
    for currency, count in zip(
        read.lines.column("currency").to_pylist(),
        read.lines.column("rows").to_pylist(),
        strict=True,
    ):
        rows[currency] += count
    first = sorted(read.currencies, key=read.currencies.get)
    return max(first, key=lambda c: (rows[c], -first.index(c)))


def factors(read: ReadBill, target: str) -> tuple[list[Decimal], list[dict]]:
    """Per line, the factor into `target` (1 in the same currency), and a flag per other
    currency naming its rate rows; refuses a line whose currency has no rate on or
    before its charge date, naming the file's first line in that currency."""
    currencies = read.lines.column("currency").to_pylist()
    days = read.lines.column("day").to_pylist()
    cache: dict[dt.date, dict] = {}
    used: dict[str, set[int]] = {}
    out: list[Decimal] = []
    for currency, day in zip(currencies, days, strict=True):
        if currency == target:
            out.append(Decimal(1))
            continue
        if day not in cache:
            cache[day] = conversions_to(target, day)
        conversion = cache[day].get(currency)
        if conversion is None:
            raise BillRefused(
                "bills.currency.no_rate", file=read.name, line=read.currencies[currency],
                currency=currency, target=target, date=day,
            )  # fmt: skip
        used.setdefault(currency, set()).update(conversion.ids)
        out.append(conversion.factor)
    flags = [
        msg("bills.flag.converted", currency=c, target=target,
            rates=", ".join(str(i) for i in sorted(ids))).to_json()
        for c, ids in sorted(used.items())
    ]  # fmt: skip
    return out, flags


def same_currency(read: ReadBill) -> bool:
    return len(pc.unique(read.lines.column("currency"))) <= 1 if read.lines.num_rows else True
