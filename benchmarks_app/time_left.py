"""How long a benchmark run has left: from its own pace once it has one, else its budget.

Pure (no Django): the run page and the stand-alone runner both say it. A profile's scale
has a time budget for its whole sweep; repetitions stop at it, though data generation
comes on top and the last repetition may overrun. So the budget stands in only until
the run has shown its pace; after that, the time spent so far per share of progress is
the better guess.
"""

from __future__ import annotations

PACE_FROM = 0.05  # the share of progress after which the run's own pace is trusted


def remaining_s(elapsed_s: float, progress: float, budget_s: float | None) -> float | None:
    """Seconds left; None when neither the pace nor the budget can say (budget overrun)."""
    progress = min(max(progress, 0.0), 1.0)
    if progress >= 1.0:
        return 0.0
    if progress >= PACE_FROM and elapsed_s > 0:
        return elapsed_s * (1.0 - progress) / progress
    if budget_s and budget_s > elapsed_s:
        return budget_s - elapsed_s
    return None


def minutes_text(seconds: float | None) -> str:
    """ "about 12 min", "under a minute", "unknown": the stand-alone runner's English words."""
    if seconds is None:
        return "unknown"
    if seconds < 60:
        return "under a minute"
    minutes = round(seconds / 60)
    if minutes < 90:
        return f"about {minutes} min"
    return f"about {minutes / 60:.1f} h"
