"""Chart styling shared by every app's matplotlib charts (project configuration, like
settings: the apps may use it; it holds no plans logic).

matplotlib's rcParams are one dict for the whole process, and charts may be drawn in
several threads at once (a threaded server, a test): switching them around each chart
(`rc_context`) lets one drawing read another's settings half-way, and its bytes change.
So the two settings the SVG writer reads only from rcParams are set once, here, at
import, and never switched; the rest of the look is given to each Figure, Axes, legend
and text by the helpers below.

A fixed `svg.hashsalt`, plus `metadata={"Date": None}` at save time, keeps the SVGs
byte-stable so caches and tests can compare them.
"""

import io

import matplotlib
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.text import Text

# Read by the SVG backend at save time from rcParams alone: no Figure or savefig option
# carries them. Text stays text (small files, the browser's font, labels a test can read).
# One salt for every chart: it only has to be fixed, since the ids it salts hash what
# they name; it is the one the plan charts always had, so their bytes did not change.
GLOBAL_RC = {"svg.fonttype": "none", "svg.hashsalt": "planner-charts"}
matplotlib.rcParams.update(GLOBAL_RC)

FONT = "DejaVu Sans"  # matplotlib's own font, named so every SVG text asks for just it
DPI = 100
GRID = {"color": "#dddddd", "linewidth": 0.6}
LEGEND = {"frameon": False}


def new_figure(width: float, height: float) -> Figure:
    """A figure of that size in inches, laid out so labels never overlap."""
    return Figure(figsize=(width, height), dpi=DPI, layout="constrained")


def new_axes(figure: Figure, *, grid_below: bool = False) -> Axes:
    """The figure's one Axes in the shared look: no top or right spine, a light grid."""
    ax = figure.add_subplot()
    ax.spines[["top", "right"]].set_visible(False)
    ax.grid(True, **GRID)
    if grid_below:
        ax.set_axisbelow(True)
    ax.tick_params(which="both", labelfontfamily=FONT)  # ticks made later copy this
    return ax


def svg_bytes(figure: Figure) -> bytes:
    """The finished figure as SVG: every text in the shared font, no date in the file."""
    for text in figure.findobj(Text):
        text.set_fontfamily(FONT)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()
