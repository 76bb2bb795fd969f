"""The bill page's charts as SVG (matplotlib's Figure only, never pyplot; the look from
`common.chart_style`, as the plan charts): monthly billed cost by service category, and
per month the steady floor of machines against the mean and the peak day."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from matplotlib.ticker import FuncFormatter

from bills.tables import category_label
from common import chart_style, formatting

VERSION = "3"
KINDS = ("monthly", "floor")
COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")
TOP = 6  # categories drawn on their own; the rest summed as "other"


def render(kind: str, currency: str, figures: Mapping[str, Any], language: str) -> bytes:
    with translation.override(language):
        drawn = chart_style.new_figure(7.2, 4.0)
        axes = chart_style.new_axes(drawn, grid_below=True)
        if kind == "monthly":
            _monthly(axes, currency, figures, language)
        else:
            _floor(axes, figures, language)
        return chart_style.svg_bytes(drawn)


def _monthly(axes, currency: str, figures, language: str) -> None:
    months = figures["months"]
    totals: dict[str, Decimal] = {}
    for r in figures["by_month"]:
        totals[r["category"]] = totals.get(r["category"], Decimal(0)) + Decimal(r["billed"])
    ranked = sorted(totals, key=lambda k: -totals[k])
    shown, rest = ranked[:TOP], set(ranked[TOP:])
    bottoms = [0.0] * len(months)
    series = [(c, {c}) for c in shown] + ([(_("all other categories"), rest)] if rest else [])
    for (label, members), colour in zip(series, COLOURS, strict=False):
        heights = [float(sum((Decimal(r["billed"]) for r in figures["by_month"]
                              if r["month"] == m and r["category"] in members), Decimal(0)))
                   for m in months]  # fmt: skip
        axes.bar(months, heights, bottom=bottoms, color=colour,
                 label=category_label(label) if label in totals else label)  # fmt: skip
        bottoms = [b + h for b, h in zip(bottoms, heights, strict=True)]
    places = 0 if max(bottoms, default=0) >= 50 else 2
    axes.yaxis.set_major_formatter(
        FuncFormatter(lambda v, _p: formatting.money(v, currency, language, places))
    )
    axes.set_title(_("Billed cost a month, by service category"), loc="left")
    _legend(axes)


def _floor(axes, figures, language: str) -> None:
    rows = figures["floor"]
    months = [r["month"] for r in rows]
    axes.bar(months, [float(r["peak"]) for r in rows], color="#c6dbef", label=_("peak day"))
    axes.bar(months, [float(r["floor"]) for r in rows], color="#1f77b4",
             label=_("steady floor (ran all month)"))  # fmt: skip
    axes.plot(months, [float(r["mean"]) for r in rows], color="#333333", marker="o",
              label=_("mean"))  # fmt: skip
    peak = max((float(r["peak"]) for r in rows), default=0)
    places = 0 if peak >= 10 else 1 if peak >= 1 else 2  # no two ticks alike
    axes.yaxis.set_major_formatter(
        FuncFormatter(lambda v, _p: formatting.number(v, places, language))
    )
    axes.set_title(_("Machines running: steady floor against the peak"), loc="left")
    _legend(axes)


def _legend(axes) -> None:
    """Below the plot, so a phone that shows the chart's left part still reads it."""
    axes.legend(loc="upper left", bbox_to_anchor=(0.0, -0.1), ncol=3, fontsize=8,
                **chart_style.LEGEND)  # fmt: skip
