"""The tornado chart: which input moves the base-case best option's NPV most.

One row per input (the eight widest swings, widest on top), each with two bars from the
base case's NPV: to the NPV with the input at its low value and to the NPV at its high.
A line marks the base case, a dotted one NPV 0 (below it the switch loses money in
present value). Each bar ends in its NPV, in the reader's formats.

Drawn by `planner.web.charts.render` like the plan's other charts (its data dict is the
content hash, `svg.hashsalt` fixed and no date in the file: byte-stable), with
matplotlib's `Figure` only. The data comes from `planner.web.uncertainty.tornado_data`:
labels already in the reader's language.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from matplotlib import transforms
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, MaxNLocator

from common import chart_style, formatting

LOW_COLOUR = "#c2410c"  # the input at its low value
HIGH_COLOUR = "#1d4ed8"  # at its high value
BASE_COLOUR = "#333333"
ZERO_COLOUR = "#888888"
LABEL_CHARS = 30  # a y label wraps after this many characters
NARROW_CHARS = 46  # a label above its bar (the narrow layout, for phones)
# The narrow chart is shown about 300 px wide (0.78 of its 4 in): 10 pt reads as 10 px.
NARROW_PT = 10
WIDE, NARROW = 7.2, 4.0  # inches


def width(data: Mapping[str, Any]) -> float:
    return NARROW if data.get("narrow") else WIDE


def height(data: Mapping[str, Any]) -> float:
    """Inches: each bar's row has room for a two-line label and its range."""
    if data.get("narrow"):
        return min(14.0, 3.0 + 0.95 * len(data["bars"]))
    return min(9.0, max(3.0, 1.9 + 0.62 * len(data["bars"])))


def _text(value: str) -> str:
    """Text as written: two dollar signs ("$360.00 to $600.00") would start mathtext."""
    return value.replace("$", r"\$")


def _label(bar: Mapping[str, Any]) -> str:
    text = textwrap.fill(bar["label"], LABEL_CHARS)
    return _text(f"{text}\n{bar['range']}" if bar.get("range") else text)


def draw(figure: Figure, data: Mapping[str, Any], language: str) -> None:
    """Labels left of the bars (wide), or above each bar (narrow: `data["narrow"]`)."""
    currency = data["currency"]
    narrow = bool(data.get("narrow"))
    base = float(data["base_npv"])
    bars = list(reversed(data["bars"]))  # the widest swing on top
    positions = list(range(len(bars)))
    ax = chart_style.new_axes(figure, grid_below=True)
    height_ = 0.34 if narrow else 0.62
    lows = [float(b["low"]) for b in bars]
    highs = [float(b["high"]) for b in bars]
    ax.barh(positions, [v - base for v in lows], left=base, height=height_, color=LOW_COLOUR,
            label=_("Input at its low value"))  # fmt: skip
    ax.barh(positions, [v - base for v in highs], left=base, height=height_, color=HIGH_COLOUR,
            label=_("Input at its high value"))  # fmt: skip
    said = _("Base case: %(npv)s") % {"npv": formatting.money(base, currency, language, 0)}
    ax.axvline(base, color=BASE_COLOUR, linewidth=1.2, label=_text(said))
    values = [base, *lows, *highs]
    left, right = min(values), max(values)
    if left < 0 < right:
        ax.axvline(0, color=ZERO_COLOUR, linestyle=":", linewidth=1,
                   label=_("NPV 0: no gain in present value"))  # fmt: skip
    for y, (low, high) in enumerate(zip(lows, highs, strict=True)):
        for value in (low, high):
            if value == base:
                continue
            ax.annotate(formatting.money(value, currency, language, 0), (value, y),
                        xytext=(3 if value > base else -3, 0), textcoords="offset points",
                        ha="left" if value > base else "right", va="center",
                        fontsize=NARROW_PT if narrow else 7)  # fmt: skip
    span = (right - left) or abs(base) or 1.0
    pad = 0.3 if narrow else 0.22
    ax.set_xlim(left - pad * span, right + pad * span)
    if narrow:
        _labels_above(ax, bars)
    else:
        ax.set_yticks(positions, [_label(b) for b in bars], fontsize=8)
        ax.set_ylim(-0.6, len(bars) - 0.4)
    ax.grid(axis="y", visible=False)
    ax.xaxis.set_major_formatter(
        FuncFormatter(lambda value, _pos: formatting.money(value, currency, language, 0))
    )
    ax.xaxis.set_major_locator(MaxNLocator(3 if narrow else 5))
    if narrow:
        ax.tick_params(axis="x", labelsize=NARROW_PT)
    xlabel = _("NPV of switching (%(currency)s), each input alone at its low and its high") % {
        "currency": currency
    }
    ax.set_xlabel(
        textwrap.fill(xlabel, 42 if narrow else 100), fontsize=NARROW_PT if narrow else 10
    )
    title = _("Which input moves the NPV most")
    if data.get("option"):
        title = _("Which input moves the NPV of %(option)s most") % {"option": data["option"]}
    ax.set_title(
        _text(textwrap.fill(title, 40 if narrow else 62)), fontsize=NARROW_PT if narrow else 10
    )
    figure.legend(loc="outside lower center", ncols=1 if narrow else 2,
                  fontsize=NARROW_PT if narrow else 8,
                  **chart_style.LEGEND)  # fmt: skip


def _labels_above(ax: Any, bars: list[Mapping[str, Any]]) -> None:
    """Each input's name and range over its bar, from the axes' left edge: the bars keep
    the figure's whole width."""
    ax.set_yticks([])
    ax.spines["left"].set_visible(False)
    place = transforms.blended_transform_factory(ax.transAxes, ax.transData)
    for y, bar in enumerate(bars):
        said = f"{bar['label']} ({bar['range']})" if bar.get("range") else bar["label"]
        ax.text(0, y + 0.22, _text(textwrap.fill(said, NARROW_CHARS)), transform=place,
                fontsize=NARROW_PT, ha="left", va="bottom", zorder=4,
                bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.6})  # fmt: skip
    ax.set_ylim(-0.45, len(bars) - 0.05)
