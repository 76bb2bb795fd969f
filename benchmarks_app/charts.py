"""The thread-scaling chart of one run: measured medians (min-max bars) and the
Amdahl/USL fits, dashed and labelled where they extrapolate.

Plain data in, SVG bytes out. matplotlib's `Figure` only, and no `rc_context` (pyplot
and rcParams are global state a threaded web server would share): the look comes from
`common.chart_style`. Byte-stable output: a fixed `svg.hashsalt` and no date in the
metadata, so the bytes can be cached and compared by their content.
"""

import hashlib
import json
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from matplotlib.figure import Figure
from matplotlib.ticker import EngFormatter, FixedLocator, NullLocator

from common import chart_style
from common.django.message_render import render
from common.messages import Message, msg

from . import scaling

CHART_VERSION = "3"  # 3: fit notes stored as messages, said in the chart's language
COLOURS = {"amdahl": "#1f77b4", "usl": "#d62728"}
MODEL_NAMES = {"amdahl": "Amdahl", "usl": "USL"}


def chart_data(
    *, title: str, unit: str, points: list[tuple[int, float, float, float]], fits, usable: int
) -> dict[str, Any]:
    """JSON-able inputs: points are (threads, median, min, max); fits are scaling.Fit."""
    return {
        "title": title,
        "unit": unit,
        "points": [[int(k), float(m), float(lo), float(hi)] for k, m, lo, hi in points],
        "fits": [
            {
                "model": f.model,
                "params": {k: float(v) for k, v in f.params.items()},
                "r2": f.r2,
                "max_threads": f.max_threads,
            }
            for f in fits
            if f.enough
        ],
        # Messages in their JSON form: the drawing says them in the chart's language.
        "not_fitted": [_why(f).to_json() for f in fits if not f.enough],
        "usable": int(usable or 1),
    }


def _why(fit: scaling.Fit) -> Message:
    return fit.reason_message or msg("common.text", text=fit.reason)


def content_key(data: dict, language: str) -> str:
    payload = json.dumps([data, language, CHART_VERSION], sort_keys=True, default=str)
    return hashlib.sha256(payload.encode()).hexdigest()[:32]


def scaling_svg(data: dict, language: str) -> bytes:
    with translation.override(language):
        figure = chart_style.new_figure(7.0, 4.0)
        _draw(figure, data)
        return chart_style.svg_bytes(figure)


def _draw(figure: Figure, data: dict) -> None:
    ax = chart_style.new_axes(figure)
    points = data["points"]
    measured = [p[0] for p in points]
    top = max(measured, default=1)
    right = max(top * 2, data["usable"], 2)
    for fit in data["fits"]:
        _draw_fit(ax, fit, right)
    if points:
        threads, med = [p[0] for p in points], [p[1] for p in points]
        low = [p[1] - p[2] for p in points]
        high = [p[3] - p[1] for p in points]
        ax.errorbar(
            threads, med, yerr=[low, high], fmt="o", color="#222222", capsize=3,
            label=_("measured median (bars: min-max)"), zorder=3,
        )  # fmt: skip
    ax.set_xscale("log", base=2)
    ticks = sorted({1, *measured, right})
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xticklabels([str(t) for t in ticks])
    ax.set_xlim(0.8, right * 1.15)
    ax.margins(y=0.15)  # room above the highest point for the legend
    ax.set_ylim(bottom=0)
    ax.yaxis.set_major_formatter(EngFormatter(sep=" "))  # "50 M", not a "1e7" offset
    ax.set_xlabel(_("hardware threads"))
    ax.set_ylabel(data["unit"])
    ax.set_title(data["title"], fontsize=10, loc="left")
    if data["not_fitted"]:
        # supxlabel, unlike figure.text, takes part in the constrained layout: no overlap.
        notes = "; ".join(render(note, translation.get_language()) for note in data["not_fitted"])
        figure.supxlabel(notes, fontsize=7, color="#666666")
    if points or data["fits"]:
        ax.legend(fontsize=8, loc="upper left", **chart_style.LEGEND)


def _draw_fit(ax, fit: dict, right: int) -> None:
    model = scaling.Fit(model=fit["model"], enough=True, n_points=0, params=fit["params"])
    name = MODEL_NAMES.get(fit["model"], fit["model"])
    colour = COLOURS.get(fit["model"], "#555555")
    edge = fit["max_threads"] or 1
    inside = _grid(1, edge)
    r2 = f", R² {fit['r2']:.3f}" if fit["r2"] is not None else ""
    ax.plot(inside, [model.throughput(n) for n in inside], color=colour,
            label=_("%(model)s fit%(r2)s") % {"model": name, "r2": r2})  # fmt: skip
    if right > edge:
        beyond = _grid(edge, right)
        label = _("%(model)s fit (extrapolated beyond %(n)s threads)") % {"model": name, "n": edge}
        ax.plot(beyond, [model.throughput(n) for n in beyond], color=colour, linestyle="--",
                label=label)  # fmt: skip


def _grid(start: float, stop: float, steps: int = 60) -> list[float]:
    if stop <= start:
        return [start]
    ratio = (stop / start) ** (1 / steps)
    return [start * ratio**i for i in range(steps + 1)]
