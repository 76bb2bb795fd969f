"""The chart module: same data, same bytes; labels and numbers in the reader's language."""

import re

import pytest

from planner.web import charts

MONTHS = list(range(13))
CUMULATIVE = {
    "currency": "USD",
    "months": MONTHS,
    "baseline": [480.0 * m for m in MONTHS],
    "options": [
        {"label": "1 x Extreme", "values": [2000 + 349.99 * m for m in MONTHS],
         "payback_month": None},
        {"label": "2 x Advanced", "values": [300 + 299.98 * m for m in MONTHS],
         "payback_month": 2},
    ],
}  # fmt: skip
MONTHLY = {
    "currency": "EUR",
    "bars": [
        {"label": "Baseline", "servers": 1480.0, "operations": 0.0, "one_time": 0.0},
        {"label": "Extreme", "servers": 349.99, "operations": 35.5, "one_time": 55.56},
    ],
}
CAPACITY = {
    "utilisation_target": 0.7,
    "bars": [{"label": "Extreme", "threads_pct": 55.0, "memory_pct": 21.0}],
}
COMPARE = {
    "currency": "USD",
    "plans": [
        {"plan": "Extreme", "best": "1 x Extreme", "baseline": [480.0 * m for m in MONTHS],
         "values": [500 + 349.99 * m for m in MONTHS], "payback_month": 4},
        {"plan": "Cloud", "best": "1 x c5", "baseline": [600.0 * m for m in MONTHS],
         "values": [496.4 * m for m in MONTHS], "payback_month": 1},
    ],
}  # fmt: skip
ALL = [("cumulative", CUMULATIVE), ("monthly", MONTHLY), ("capacity", CAPACITY),
       ("compare", COMPARE)]  # fmt: skip


def texts(svg: bytes) -> list[str]:
    return re.findall(r"<text[^>]*>([^<]+)</text>", svg.decode())


@pytest.mark.parametrize(("kind", "data"), ALL)
def test_the_same_data_draws_the_same_bytes(kind, data):
    first = charts.render(kind, data, "en")
    assert first == charts.render(kind, data, "en")
    assert first.startswith(b"<?xml")
    assert b"<dc:date>" not in first  # no timestamp in the metadata


def test_charts_count_their_renders():
    before = charts.render_count()
    charts.render("capacity", CAPACITY, "en")
    assert charts.render_count() == before + 1


def test_the_cumulative_chart_has_units_a_legend_and_the_break_even():
    labels = texts(charts.render("cumulative", CUMULATIVE, "en"))
    assert "Month" in labels
    assert "Cumulative cost (USD)" in labels
    assert "Baseline (today)" in labels
    assert "2 x Advanced (break-even: month 2)" in labels
    assert "1 x Extreme" in labels  # no break-even within the horizon: none claimed
    assert "$1,000" in labels  # money on the axis, grouped


def test_monthly_bars_show_their_totals_and_the_split(settings):
    labels = texts(charts.render("monthly", MONTHLY, "en"))
    assert "€441" in labels  # 349.99 + 35.50 + 55.56, whole euros
    assert "Servers" in labels
    assert "Monthly cost (EUR per month)" in labels


def test_german_charts_write_german_labels_and_decimal_commas():
    labels = texts(charts.render("cumulative", CUMULATIVE, "de"))
    assert "Monat" in labels
    assert "1.000\u00a0$" in labels
    monthly = texts(charts.render("monthly", MONTHLY, "de"))
    assert "1.480\u00a0€" in monthly
    capacity = texts(charts.render("capacity", CAPACITY, "de"))
    assert "60\u00a0%" in capacity


def test_the_hash_names_exactly_what_is_drawn_and_in_which_language():
    key = charts.content_hash("monthly", MONTHLY, "en")
    assert key == charts.content_hash("monthly", dict(reversed(MONTHLY.items())), "en")
    assert key != charts.content_hash("monthly", MONTHLY, "de")
    assert key != charts.content_hash("capacity", MONTHLY, "en")
    changed = {**MONTHLY, "currency": "USD"}
    assert key != charts.content_hash("monthly", changed, "en")
