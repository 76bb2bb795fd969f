"""Charts drawn at the same time in threads: each comes out as its own bytes, because
drawing one switches nothing process-wide that another could read half-way."""

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest

from benchmarks_app import charts as bench_charts
from benchmarks_app import scaling
from planner.web import charts

MONTHS = list(range(13))
CUMULATIVE = {
    "currency": "USD",
    "months": MONTHS,
    "baseline": [480.0 * m for m in MONTHS],
    "options": [{"label": "2 x Advanced", "values": [300 + 299.98 * m for m in MONTHS],
                 "payback_month": 2}],
}  # fmt: skip
MONTHLY = {
    "currency": "EUR",
    "bars": [
        {"label": "Baseline", "servers": 1480.0, "operations": 0.0, "one_time": 0.0},
        {"label": "Extreme", "servers": 349.99, "operations": 35.5, "one_time": 55.56},
    ],
}
THREADS = [1, 2, 4, 8]
VALUES = [100 * k / (1 + 0.05 * (k - 1)) for k in THREADS]
SCALING = bench_charts.chart_data(
    title="toy on here",
    unit="cell-trees/s",
    points=[(k, v, v * 0.98, v * 1.02) for k, v in zip(THREADS, VALUES, strict=True)],
    fits=[scaling.fit_amdahl(THREADS, VALUES), scaling.fit_usl(THREADS, VALUES)],
    usable=16,
)
DRAW: dict[str, Callable[[], bytes]] = {
    "cumulative": lambda: charts.render("cumulative", CUMULATIVE, "en"),
    "monthly": lambda: charts.render("monthly", MONTHLY, "de"),
    "scaling": lambda: bench_charts.scaling_svg(SCALING, "en"),
}
WORKERS = 8
DRAWS_EACH = 12


def draw(name: str) -> tuple[str, bytes]:
    return name, DRAW[name]()


@pytest.mark.slow  # 96 draws: some 12 s on two cores (about half differed before the fix)
def test_charts_drawn_at_once_in_threads_match_each_chart_drawn_alone():
    alone = {name: make() for name, make in DRAW.items()}
    assert len(set(alone.values())) == len(DRAW)  # three different charts
    names = [list(DRAW)[i % len(DRAW)] for i in range(WORKERS * DRAWS_EACH)]
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        drawn = list(pool.map(draw, names))
    wrong = [name for name, svg in drawn if svg != alone[name]]
    assert wrong == [], f"{len(wrong)} of {len(drawn)} drawings differ from the chart drawn alone"
