# ruff: noqa: RUF001, RUF003  (× in the option names)
"""The plan page's charts never clip a legend or a tick label: eight options with long
names (and "N more") in German and English, every drawn text and each legend measured by
matplotlib's own renderer against the figure's edges, as the chart is saved."""

from __future__ import annotations

import pytest
from django.utils import translation
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text

from common import chart_style
from planner.compute.answer import Answer
from planner.compute.engine import compare
from planner.compute.schema import parse_plan
from planner.web import charts, dashboard
from tests.support.engine import AS_OF, frame, tier

MODELS = ("reserved_3y", "reserved_1y", "spot", "on_demand")
LONG = [
    tier(f"aws-c5.4xlarge-{model.replace('_', '-')}", 150 + i, kind="cloud_vm",
         name="c5.4xlarge", model=model, vcpus=16, ram=32)
    for i, model in enumerate(MODELS)
] + [
    tier(f"hetzner-auction-{i}", 60 + i, name=f"auction i7-6700 32GB 2x500GB SSD Gen {i}",
         vcpus=8, ram=32)
    for i in range(4)
] + [
    tier(f"inmotionhosting-extreme-{i}", 349 + i, name=f"Extreme Dedicated Server {i}",
         vcpus=32, ram=192)
    for i in range(3)
]  # fmt: skip
SLACK_PX = 0.5  # rounding in the renderer's extents


def comparison() -> Answer:
    """Eleven options, each twelve servers of a tier with a long title: eight drawn, 3 more."""
    data = {"currency": "EUR", "baseline": {"monthly": 20_000}, "horizon_months": 36,
            "one_time": {"other": 4000},
            "candidates": [{"tier": row["slug"], "count": 12} for row in LONG]}  # fmt: skip
    euros = [{**row, "currency": "EUR"} for row in LONG]
    return compare(parse_plan(data), frame(*euros), {}, as_of=AS_OF).output()


def chart_data(language: str) -> dict[str, dict]:
    with translation.override(language):
        return dashboard.results(comparison()).charts


def saved(kind: str, data: dict, language: str) -> Figure:
    """The chart laid out as `render` saves it, then drawn once more to be measured."""
    figure = charts.figure(kind, data, language)
    chart_style.svg_bytes(figure)
    FigureCanvasAgg(figure).draw()
    return figure


def drawn_texts(figure: Figure) -> list[Text]:
    """Every text the figure draws: tick labels only of the ticks inside the view."""
    outside = set()
    for ax in figure.axes:
        for axis in (ax.xaxis, ax.yaxis):
            low, high = sorted(axis.get_view_interval())
            for tick in axis.get_major_ticks():
                if not low - 1e-9 <= tick.get_loc() <= high + 1e-9:
                    outside |= {id(tick.label1), id(tick.label2)}
    return [
        t for t in figure.findobj(Text)
        if t.get_visible() and t.get_text().strip() and id(t) not in outside
    ]  # fmt: skip


def clipped(figure: Figure) -> list[str]:
    renderer = figure.canvas.get_renderer()
    edge = figure.bbox
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in drawn_texts(figure)]
    boxes += [("legend", legend.get_window_extent(renderer)) for legend in figure.legends]
    return [
        f"{name!r} at {[round(v) for v in box.extents]}, figure {list(edge.extents)}"
        for name, box in boxes
        if box.x0 < edge.x0 - SLACK_PX or box.y0 < edge.y0 - SLACK_PX
        or box.x1 > edge.x1 + SLACK_PX or box.y1 > edge.y1 + SLACK_PX
    ]  # fmt: skip


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("kind", ["monthly", "cumulative"])
def test_no_text_or_legend_of_a_chart_with_eight_long_options_is_cut_off(kind, language):
    data = chart_data(language)[kind]
    figure = saved(kind, data, language)
    assert drawn_texts(figure)  # the measure measures something
    assert clipped(figure) == []


def test_the_german_charts_draw_every_option_and_the_rest_counted():
    data = chart_data("de")
    assert len(data["monthly"]["bars"]) == 1 + 8
    assert data["monthly"]["more"] == "3 weitere Optionen in der Tabelle"
    assert any("reserviert 3 J." in bar["label"] for bar in data["monthly"]["bars"])
    texts = " ".join(t.get_text() for t in drawn_texts(saved("monthly", data["monthly"], "de")))
    assert "3 weitere Optionen" in texts
    assert "Sonstige Monatskosten" in texts  # the legend's long German entry
    legend = " ".join(t.get_text() for t in saved("cumulative", data["cumulative"], "de")
                      .legends[0].get_texts())  # fmt: skip
    assert "Break-even" in legend


def test_a_long_legend_makes_the_figure_taller_not_the_plot_smaller():
    data = chart_data("de")["cumulative"]
    few = {**data, "options": data["options"][:1]}
    assert (
        saved("cumulative", data, "de").get_figheight()
        > saved("cumulative", few, "de").get_figheight()
    )


def test_charts_with_long_labels_keep_their_bytes():
    data = chart_data("de")
    for kind in ("monthly", "cumulative"):
        assert charts.render(kind, data[kind], "de") == charts.render(kind, data[kind], "de")


def test_a_bar_label_wraps_between_the_options_parts():
    wrapped = charts._wrap("12 × AWS c5.4xlarge · reserviert 1 J. · us-east-1", 36)
    assert wrapped.split("\n") == ["12 × AWS c5.4xlarge ·", "reserviert 1 J. · us-east-1"]
    assert (
        charts._wrap("1 × AWS c5.4xlarge · reserved 3 y", 36) == "1 × AWS c5.4xlarge · reserved 3 y"
    )
