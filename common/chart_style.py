"""Chart styling shared by every app's matplotlib charts (project configuration, like
settings: the apps may use it; it holds no plans logic).

A fixed `svg.hashsalt` per chart family, plus `metadata={"Date": None}` at save time,
keeps the SVGs byte-stable so caches and tests can compare them.
"""

BASE_RC = {
    "svg.fonttype": "none",
    "font.family": "DejaVu Sans",
    "font.size": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.color": "#dddddd",
    "grid.linewidth": 0.6,
    "legend.frameon": False,
}


def chart_rc(hashsalt: str, **extra: object) -> dict[str, object]:
    """rcParams for one chart family: the shared look, its own salt, and any extras."""
    return {**BASE_RC, "svg.hashsalt": hashsalt, **extra}
