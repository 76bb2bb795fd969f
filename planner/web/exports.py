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
from common.messages import plain
from planner.compute.uncertainty_answer import Uncertainty
from planner.web.dashboard import Results

COMPARISON_COLUMNS: tuple[tuple[str, Any], ...] = (
    ("option_key", _("stable key of the option: 'baseline', 'candidate:<n>' or 'tier:<key>'")),
    ("option", _("the option's name: each tier with its provider and pricing model")),
    ("rank", _("1 = cheapest total over the horizon; empty for the baseline")),
    ("figure", _("measured, estimate (declared speed factor) or entered (fixed count)")),
    ("servers", _("servers in month 1, all parts together")),
    ("currency", _("ISO 4217 code of every amount in the row")),
    ("monthly", _("steady monthly cost: the first month after the months of running both")),
    ("one_time", _("one-time cost at month 0 (migration, retraining, set-up fees, other)")),
    ("transition_cost", _("what the months of running both cost, once (inside the total)")),
    (
        "one_time_costs",
        _(
            "the switch's one-time costs the option carries, separated by ';': "
            "migration, running_both, retraining; empty: none (it stays)"
        ),
    ),
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
SENSITIVITY_COLUMNS: tuple[tuple[str, Any], ...] = (
    ("rank", _("1 = the input that swings the NPV most")),
    (
        "input",
        _(
            "stable key: baseline_monthly, price:<tier key>, fx, batch_volume, "
            "requests_per_second, throughput:<class>, monthly_growth, annual_discount_rate, "
            "one_time, utilisation_target"
        ),
    ),
    ("label", _("the input in words (English)")),
    ("kind", _("scale: a factor on the base case (1 = as planned); absolute: a rate")),
    ("low", _("the input's low value (a factor or a rate)")),
    ("base", _("its base value")),
    ("high", _("its high value")),
    (
        "source",
        _(
            "where the range comes from: default, entered (your range), measured (the "
            "run's bootstrap interval)"
        ),
    ),
    ("currency", _("ISO 4217 code of every amount in the row")),
    ("low_amount", _("money inputs: the low value as an amount; empty otherwise")),
    ("base_amount", _("money inputs: the base value as an amount")),
    ("high_amount", _("money inputs: the high value as an amount")),
    ("option_key", _("the base case's best option, whose figures the row gives")),
    ("option", _("the option's name, as in the comparison export")),
    ("npv_low", _("the option's NPV of switching with the input at its low value")),
    ("npv_high", _("its NPV with the input at its high value")),
    ("saving_low", _("its saving over the horizon with the input at its low value")),
    ("saving_high", _("its saving with the input at its high value")),
    ("payback_month_low", _("its payback month with the input at its low value; empty: never")),
    ("payback_month_high", _("its payback month with the input at its high value; empty: never")),
    (
        "break_even",
        _(
            "the value (factor or rate) at which paying back within the horizon flips; "
            "empty: none between low and high"
        ),
    ),
    ("break_even_amount", _("money inputs: the break-even to the cent")),
    ("break_even_sentence", _("the break-even in words (English)")),
    ("horizon_months", _("months compared")),
)
ODDS_COLUMNS: tuple[tuple[str, Any], ...] = (
    ("option_key", _("one of the base case's three leading options")),
    ("option", _("the option's name, as in the comparison export")),
    ("best", _("true for the base case's best option")),
    ("currency", _("ISO 4217 code")),
    ("horizon_months", _("months compared")),
    ("pays_back", _("share of the draws (0 to 1) in which it pays back within the horizon")),
    ("saving_p10", _("10th percentile of the saving over the horizon")),
    ("saving_p50", _("median saving")),
    ("saving_p90", _("90th percentile of the saving")),
    ("payback_month_p10", _("10th percentile of the payback month; empty: never")),
    ("payback_month_p50", _("median payback month; empty: never")),
    ("payback_month_p90", _("90th percentile of the payback month; empty: never")),
    ("draws", _("number of draws")),
    ("seed", _("the random generator's seed: the same seed gives the same figures")),
    ("numpy", _("the NumPy version that drew them")),
)
UNCERTAINTY_EXPORTS = ("sensitivity", "odds")
# Columns holding text (labels, keys, sources): the ones a spreadsheet could take for a formula.
TEXT_COLUMNS = frozenset(
    (
        "option_key",
        "option",
        "figure",
        "currency",
        "payback",
        "price_sources",
        "input",
        "label",
        "kind",
        "source",
        "break_even_sentence",
        "numpy",
    )
)


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
         _money(results.baseline_monthly), "0.00", "0.00", "", _money(results.baseline_total),
         "0.00",
         "0.00",
         "", "", "", *common, ""],
    ]  # fmt: skip
    for rank, row in enumerate(results.rows, start=1):
        sources = ";".join(f"{p.tier}@{p.effective_from or ''}" for p in row.prices)
        rows.append(
            [row.key, row.label, str(rank), row.figure, str(row.server_count), results.currency,
             _money(row.monthly), _money(row.one_time), _money(row.transition),
             ";".join(row.one_time_costs or []), _money(row.total),
             _money(row.saving),
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


def cumulative_csv(results: Results) -> str:
    """Long format: one row per month and series (baseline first, then options by total)."""
    header = [name for name, _doc in CUMULATIVE_COLUMNS]
    start = results.as_of
    series = [("baseline", "baseline", results.baseline_cumulative)]
    options = sorted(results.rows, key=lambda row: (row.total, row.position))
    series += [(row.key, row.label, row.cumulative) for row in options]
    rows = []
    for key, label, values in series:
        for month, value in enumerate(values):
            date = month_end(start, month).isoformat() if start else ""
            rows.append([str(month), date, key, label, results.currency, _money(value)])
    return _write(header, rows)


def _month(value: Any) -> str:
    return "" if value is None else str(value)


def sensitivity_csv(found: Uncertainty, results: Results, titles: Mapping[str, str]) -> str:
    """One row per uncertain input, the widest NPV swing first (`evaluation.uncertainty`);
    `results`: the view of the answer it goes with."""
    header = [name for name, _doc in SENSITIVITY_COLUMNS]
    currency = found.currency or results.currency
    horizon = found.horizon_months or results.horizon
    option = found.option or ""
    rows = []
    for rank, r in enumerate(found.one_way, start=1):
        rows.append(
            [str(rank), r.input, plain(r.label), r.kind, r.low, r.base, r.high,
             r.source, currency, r.low_amount or "", r.base_amount or "",
             r.high_amount or "", option, titles.get(option, option), r.npv_low,
             r.npv_high,
             r.saving_low, r.saving_high, _month(r.payback_low),
             _month(r.payback_high), r.break_even or "",
             r.break_even_amount or "", plain(r.break_even_sentence), str(horizon)]
        )  # fmt: skip
    return _write(header, rows)


def odds_csv(found: Uncertainty, titles: Mapping[str, str]) -> str:
    """One row per leading option: the Monte Carlo's odds and percentiles."""
    header = [name for name, _doc in ODDS_COLUMNS]
    mc = found.montecarlo
    rows = []
    for o in mc.options if mc else []:
        key = o.option
        saving, month = o.saving, o.payback_month
        rows.append(
            [key, titles.get(key, key), _bool(key == found.option), mc.currency,
             str(mc.horizon_months), o.pays_back, saving.p10, saving.p50,
             saving.p90, _month(month.p10), _month(month.p50),
             _month(month.p90), str(mc.draws), str(mc.seed), mc.numpy]
        )  # fmt: skip
    return _write(header, rows)
