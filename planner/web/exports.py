"""CSV exports of a plan's comparison, for spreadsheets and scripts.

Machine-readable whatever the page's language: comma-separated, UTF-8, a header
row, dot decimals with exactly two places for money, ISO 8601 dates, booleans as
`true`/`false`, empty for "not known". Column names are stable (snake_case,
English); the tables below are their documentation, also shown on the plan page.
Text cells that a spreadsheet would run as a formula (a candidate or tier named
`=HYPERLINK(...)`) get a leading `'` (common.csv_cells); numbers are left alone.
"""

from __future__ import annotations

import calendar
import csv
import datetime as dt
import io
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext_lazy as _

from common.csv_cells import neutralise
from planner.web.dashboard import Results, dec

COMPARISON_COLUMNS: tuple[tuple[str, Any], ...] = (
    ("option_key", _("stable key of the option: 'baseline', 'candidate:<n>' or 'tier:<key>'")),
    ("option", _("the option's name: each tier with its provider and pricing model")),
    ("rank", _("1 = cheapest total over the horizon; empty for the baseline")),
    ("figure", _("measured, estimate (declared speed factor) or entered (fixed count)")),
    ("servers", _("servers in month 1, all parts together")),
    ("currency", _("ISO 4217 code of every amount in the row")),
    ("monthly", _("cost in month 1")),
    ("one_time", _("one-time cost at month 0 (migration, retraining, set-up fees, other)")),
    ("total", _("one-time + every monthly cost over the horizon")),
    ("saving", _("baseline total minus this total (negative: dearer)")),
    ("saving_pct", _("saving as a percentage of the baseline total")),
    ("payback_month", _("first month from which the option stays cheaper; empty: never")),
    ("payback", _("the payback as words: immediately, within the first billing period, month m")),
    ("fits_in_ram", _("true/false: every working set that must fit one server fits; empty: none")),
    ("horizon_months", _("months compared")),
    ("as_of", _("date of the prices and runs used (ISO 8601)")),
    ("price_sources", _("each price used: tier key @ effective date, separated by ';'")),
)
CUMULATIVE_COLUMNS: tuple[tuple[str, Any], ...] = (
    ("month", _("0 = the switch (one-time costs), 1…horizon = end of each month")),
    ("date", _("ISO 8601 date of that month's end, counted from as_of (month 0 = as_of)")),
    ("option_key", _("'baseline' or the option's key as in the comparison export")),
    ("option", _("the option's name, as in the comparison export")),
    ("currency", _("ISO 4217 code")),
    ("cumulative_cost", _("one-time + the monthly costs up to and including that month")),
)
# Columns holding text (labels, keys, sources): the ones a spreadsheet could take for a formula.
TEXT_COLUMNS = frozenset(("option_key", "option", "figure", "currency", "payback", "price_sources"))


def _money(value: Decimal | None) -> str:
    return "" if value is None else f"{Decimal(value).quantize(Decimal('0.01')):f}"


def _bool(value: bool | None) -> str:
    return "" if value is None else ("true" if value else "false")


def _write(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    text = [name in TEXT_COLUMNS for name in header]
    for row in rows:
        writer.writerow(
            [neutralise(c) if is_text else c for c, is_text in zip(row, text, strict=True)]
        )
    return buffer.getvalue()


def comparison_csv(results: Results) -> str:
    """One row for the baseline, then one per option, cheapest total first."""
    header = [name for name, _doc in COMPARISON_COLUMNS]
    common = [str(results.horizon), results.as_of.isoformat() if results.as_of else ""]
    rows: list[list[str]] = [
        ["baseline", "baseline", "", "entered", "", results.currency,
         _money(results.baseline_monthly), "0.00", _money(results.baseline_total), "0.00", "0.00",
         "", "", "", *common, ""],
    ]  # fmt: skip
    for rank, row in enumerate(results.rows, start=1):
        sources = ";".join(f"{p.tier}@{p.effective_from or ''}" for p in row.prices)
        rows.append(
            [row.key, row.label, str(rank), row.figure, str(row.server_count), results.currency,
             _money(row.monthly), _money(row.one_time), _money(row.total), _money(row.saving),
             _money(row.saving_pct), "" if row.payback_month is None else str(row.payback_month),
             row.payback_label, _bool(row.fits_in_ram), *common, sources]
        )  # fmt: skip
    return _write(header, rows)


def month_end(start: dt.date, months: int) -> dt.date:
    """The date `months` months after `start`, clamped to the month's last day."""
    year, month = divmod(start.month - 1 + months, 12)
    year += start.year
    day = min(start.day, calendar.monthrange(year, month + 1)[1])
    return dt.date(year, month + 1, day)


def cumulative_csv(comparison: Mapping[str, Any]) -> str:
    """Long format: one row per month and series (baseline first, then options by total)."""
    header = [name for name, _doc in CUMULATIVE_COLUMNS]
    currency = comparison["currency"]
    as_of = comparison.get("as_of")
    start = dt.date.fromisoformat(as_of) if as_of else None
    series = [("baseline", "baseline", comparison["baseline"]["cumulative"])]
    options = sorted(comparison.get("options") or [], key=lambda o: dec(o["money"]["total"]))
    series += [(o["key"], o.get("title") or o["label"], o["money"]["cumulative"]) for o in options]
    rows = []
    for key, label, values in series:
        for month, value in enumerate(values):
            date = month_end(start, month).isoformat() if start else ""
            rows.append([str(month), date, key, label, currency, _money(dec(value))])
    return _write(header, rows)
