"""The plan's charts as SVG: cumulative cost, monthly cost split, capacity use.

Plain data in, SVG bytes out: no request, no database. Each chart takes a small
JSON-able dict (built from the engine's comparison by `chart_inputs`), so the
same dict gives a content hash for the chart's URL and cache key, and the same
bytes every time (`svg.hashsalt` fixed, no date in the metadata), in every
process. matplotlib's `Figure` object only, never pyplot, and no `rc_context`:
both are global state that a web server's threads would share. The look comes
from `common.chart_style`, given to each figure, axes and legend.

Text stays text in the SVG (`svg.fonttype: none`), so the files are small, the
browser's font draws them, and a test can read the labels.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import textwrap
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, MaxNLocator

from common import chart_style, formatting
from planner.web import chart_tornado

# Bump when the drawing code changes, so cached SVGs of the old look are not served.
CHART_VERSION = "8"
KINDS = ("cumulative", "monthly", "capacity", "compare", "tornado")
MAX_OPTIONS = 4  # the cumulative chart shows the baseline and the best few options

BASELINE_COLOUR = "#333333"
OPTION_COLOURS = ("#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2")
# Text is measured in characters before it is drawn: DejaVu Sans averages some 6 px a
# character at 8 pt (100 dpi), capitals up to 7.5, so these leave room for the widest.
LEGEND_CHARS = 84  # 8 pt legend text across a 7.2 in figure, all columns, handles included
HANDLE_CHARS = 6  # a legend entry's line sample and the gap after it
BAR_LABEL_CHARS = 36  # a bar's label (10 pt) wraps at this width, between its parts
LEGEND_LINE_IN = 8 * 1.2 / 72  # one line of 8 pt legend text
LEGEND_ROW_IN = 8 * 0.5 / 72  # the space between legend entries (labelspacing 0.5 em)
LEGEND_PAD_IN = 0.15  # the legend's border padding and its gap to the axes
PART_COLOURS = {"servers": "#1f77b4", "operations": "#ff7f0e", "one_time": "#bbbbbb",
                "transition": "#8c564b"}  # fmt: skip

_renders = 0


def render_count() -> int:
    """How many charts this process has drawn (the cache tests count redraws)."""
    return _renders


def content_hash(kind: str, data: Mapping[str, Any], language: str) -> str:
    """The key of one drawing: what it draws, in which language, by which version of the code."""
    payload = json.dumps(
        {"kind": kind, "data": data, "language": language, "version": CHART_VERSION},
        sort_keys=True,
        separators=(",", ":"),
        default=str,
    )
    return hashlib.sha256(payload.encode()).hexdigest()[:32]


def render(kind: str, data: Mapping[str, Any], language: str) -> bytes:
    """One chart as SVG bytes, labelled in `language`."""
    global _renders
    with translation.override(language):
        svg = chart_style.svg_bytes(figure(kind, data, language))
    _renders += 1
    return svg


def figure(kind: str, data: Mapping[str, Any], language: str) -> Figure:
    """One chart drawn and not yet saved (a test measures where its texts fall)."""
    with translation.override(language):
        width = chart_tornado.width(data) if kind == "tornado" else 7.2
        drawn = chart_style.new_figure(width, _height(kind, data))
        DRAWERS[kind](drawn, data, language)
    return drawn


def _height(kind: str, data: Mapping[str, Any]) -> float:
    """Inches of the plot, titles and ticks: bar charts grow with their bars so labels never
    collide, and `_legend` adds the legend's own height below."""
    if kind == "cumulative":
        return 3.2
    if kind == "compare":
        return 4.2 + 0.25 * len(data["plans"])  # room for the legend's two lines a plan
    if kind == "tornado":
        return chart_tornado.height(data)
    rows = len(data["bars"]) + (1 if data.get("more") else 0)
    return min(8.4, max(2.2, 0.9 + 0.5 * rows))


def _axes(figure: Figure) -> Axes:
    return chart_style.new_axes(figure, grid_below=True)  # bars and lines over the grid


def _money_axis(currency: str, language: str) -> FuncFormatter:
    return FuncFormatter(lambda value, _pos: formatting.money(value, currency, language, 0))


def _percent_axis(language: str) -> FuncFormatter:
    return FuncFormatter(lambda value, _pos: formatting.percent(value / 100, 0, language))


def _cumulative(figure: Figure, data: Mapping[str, Any], language: str) -> None:
    currency = data["currency"]
    months = data["months"]
    ax = _axes(figure)
    baseline = data["baseline"]
    ax.plot(months, baseline, color=BASELINE_COLOUR, linewidth=2.4, label=_("Baseline (today)"))
    options = data["options"][:MAX_OPTIONS]
    for colour, option in zip(OPTION_COLOURS, options, strict=False):
        month = option.get("payback_month")
        label = option["label"]
        if month is not None and 0 <= month < len(months):
            # In the legend rather than on the plot: break-evens close together would collide.
            label = _("%(option)s (break-even: month %(month)s)") % {
                "option": label,
                "month": month,
            }
            ax.axvline(month, color=colour, linestyle=":", linewidth=1)
            ax.plot([month], [option["values"][month]], marker="o", color=colour, markersize=6)
        ax.plot(months, option["values"], color=colour, linewidth=1.8, label=label)
    ax.set_xlabel(_("Month"))
    ax.set_ylabel(_("Cumulative cost (%(currency)s)") % {"currency": currency})
    ax.set_title(_("Cumulative cost over %(months)s months") % {"months": months[-1]})
    ax.set_xlim(0, months[-1])
    ax.set_ylim(bottom=0)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_formatter(_money_axis(currency, language))
    _legend(figure, 2)


def _monthly(figure: Figure, data: Mapping[str, Any], language: str) -> None:
    currency = data["currency"]
    bars = list(reversed(data["bars"]))  # the first bar on top
    labels = [bar["label"] for bar in bars]
    # One row per bar by position, not by label: two options said alike must still be two bars.
    positions = list(range(len(bars)))
    ax = _axes(figure)
    left = [0.0] * len(bars)
    parts = (
        ("servers", _("Servers")),
        ("operations", _("Other monthly costs (operations, usage, egress, commitments)")),
        ("one_time", _("One-time, spread over the horizon")),
        ("transition", _("Running both systems, once, spread over the horizon")),
    )
    for key, name in parts:
        values = [float(bar.get(key) or 0) for bar in bars]
        if key == "transition" and not any(values):
            continue  # no months of running both: no legend entry for them
        ax.barh(positions, values, left=left, color=PART_COLOURS[key], label=name, height=0.6)
        left = [a + b for a, b in zip(left, values, strict=True)]
    for y, total in enumerate(left):
        ax.annotate(
            formatting.money(total, currency, language, 0),
            (total, y),
            xytext=(4, 0),
            textcoords="offset points",
            va="center",
            fontsize=8,
        )
    _more_row(ax, positions, labels, data.get("more") or "")
    ax.set_xlabel(_("Monthly cost (%(currency)s per month)") % {"currency": currency})
    ax.set_title(_("Monthly cost by option"))
    ax.xaxis.set_major_formatter(_money_axis(currency, language))
    ax.set_xlim(0, max(left, default=1) * 1.18 or 1)
    ax.grid(axis="y", visible=False)
    _legend(figure, 2)


def _capacity(figure: Figure, data: Mapping[str, Any], language: str) -> None:
    bars = list(reversed(data["bars"]))
    labels = [bar["label"] for bar in bars]
    ax = _axes(figure)
    positions = range(len(bars))
    height = 0.38
    threads = [float(bar.get("threads_pct") or 0) for bar in bars]
    memory = [float(bar.get("memory_pct") or 0) for bar in bars]
    ax.barh([p + height / 2 for p in positions], threads, height, label=_("Threads"),
            color="#1f77b4")  # fmt: skip
    ax.barh([p - height / 2 for p in positions], memory, height, label=_("Memory"),
            color="#17becf")  # fmt: skip
    target = data.get("utilisation_target")
    if target is not None:
        ax.axvline(float(target) * 100, color="#d62728", linestyle="--", linewidth=1,
                   label=_("Utilisation target"))  # fmt: skip
    ax.axvline(100, color=BASELINE_COLOUR, linewidth=1)
    _more_row(ax, list(positions), labels, "")
    ax.set_xlabel(_("Share of what the servers offer (%)"))
    ax.set_title(_("Capacity use per option"))
    ax.xaxis.set_major_formatter(_percent_axis(language))
    ax.set_xlim(0, max([110.0, *threads, *memory]) * 1.05)
    ax.grid(axis="y", visible=False)
    _legend(figure, 3)


def _legend(figure: Figure, columns: int) -> None:
    """The legend under the plot, and the figure taller by the legend's height. Side by
    side while every label fits its column; else one column, long labels (German, option
    titles) wrapped: never past the figure's edge, where they would be cut off."""
    handles, labels = figure.axes[0].get_legend_handles_labels()
    longest = max((len(label) for label in labels), default=0)
    fits = next((n for n in range(columns, 1, -1) if longest <= _column_chars(n)), 1)
    wrapped = [_wrap(label, _column_chars(fits)) for label in labels]
    lines = [label.count("\n") + 1 for label in wrapped]
    figure.legend(handles, wrapped, loc="outside lower center", ncols=fits, fontsize=8,
                  **chart_style.LEGEND)  # fmt: skip
    # matplotlib stacks each column on its own, the first ones one entry longer.
    size, longer = divmod(len(lines), fits)
    ends = [0, *(size * (c + 1) + min(c + 1, longer) for c in range(fits))]
    columns = [lines[start:end] for start, end in itertools.pairwise(ends)]
    grow = LEGEND_PAD_IN + max(
        (sum(c) * LEGEND_LINE_IN + len(c) * LEGEND_ROW_IN for c in columns), default=0.0
    )
    figure.set_figheight(figure.get_figheight() + grow)


def _column_chars(columns: int) -> int:
    return LEGEND_CHARS // columns - HANDLE_CHARS


def _wrap(label: str, width: int) -> str:
    """Lines of at most `width` characters, broken between an option's parts (" · ")
    where it can, else between words; a word longer than a line stays whole."""
    lines: list[str] = []
    for part in label.split(" · "):
        if lines and len(lines[-1]) + 3 + len(part) <= width:
            lines[-1] += " · " + part
            continue
        if lines:
            lines[-1] += " ·"
        lines += textwrap.wrap(part, width, break_long_words=False, break_on_hyphens=False) or [""]
    return "\n".join(lines)


def _more_row(ax: Axes, positions: list[int], labels: list[str], more: str) -> None:
    """The bars' labels, and below them, without a bar, "3 more options in the table"."""
    if more:
        positions, labels = [-1, *positions], [more, *labels]
    ax.set_yticks(positions, [_wrap(label, BAR_LABEL_CHARS) for label in labels])
    # Half a row of room beyond the outer labels: wrapped, they would reach the tick labels.
    ax.set_ylim(min(positions, default=0) - 0.6, max(positions, default=0) + 0.6)
    for label in ax.get_yticklabels():
        label.set_multialignment("right")  # a wrapped label's lines end at its bar
    if more:
        ax.get_yticklabels()[0].set_fontstyle("italic")


def _compare(figure: Figure, data: Mapping[str, Any], language: str) -> None:
    """Plans side by side: each one's best option (solid) and its baseline (dashed)."""
    currency = data["currency"]
    ax = _axes(figure)
    last = 1
    for colour, plan in zip(OPTION_COLOURS, data["plans"], strict=False):
        months = list(range(len(plan["baseline"])))
        last = max(last, len(months) - 1)
        ax.plot(months, plan["baseline"], color=colour, linestyle="--", linewidth=1.4,
                label=_("%(plan)s: today") % {"plan": plan["plan"]})  # fmt: skip
        if plan["values"]:
            label = _("%(plan)s: %(option)s") % {"plan": plan["plan"], "option": plan["best"]}
            ax.plot(list(range(len(plan["values"]))), plan["values"], color=colour,
                    linewidth=2.2, label=label)  # fmt: skip
            month = plan.get("payback_month")
            if month is not None and 0 <= month < len(plan["values"]):
                ax.plot([month], [plan["values"][month]], marker="o", color=colour, markersize=6)
    ax.set_xlabel(_("Month"))
    ax.set_ylabel(_("Cumulative cost (%(currency)s)") % {"currency": currency})
    ax.set_title(_("Cumulative cost: each plan's best option and its baseline"))
    ax.set_xlim(0, last)
    ax.set_ylim(bottom=0)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_formatter(_money_axis(currency, language))
    figure.legend(loc="outside lower center", ncols=1, fontsize=8, **chart_style.LEGEND)


DRAWERS: dict[str, Callable[[Figure, Mapping[str, Any], str], None]] = {
    "cumulative": _cumulative,
    "monthly": _monthly,
    "capacity": _capacity,
    "compare": _compare,
    "tornado": chart_tornado.draw,
}


def _float(value: Any) -> float:
    return float(value) if value is not None else 0.0


def _round(values: Sequence[Any]) -> list[float]:
    # Cents are what the page shows; rounding here keeps float noise out of the hash.
    return [round(_float(v), 2) for v in values]
