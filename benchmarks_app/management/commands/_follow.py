"""Shared by run_profile and run_suite: one refreshing progress line per run."""

import time

from django.core.management.base import OutputWrapper

from benchmarks_app.models import Run

BAR = 24


def progress_line(run: Run) -> str:
    filled = round(BAR * max(0.0, min(1.0, run.progress)))
    bar = "#" * filled + " " * (BAR - filled)
    step = run.step or run.status
    return f"[{bar}] {run.percent:3d}% {run.profile_name} {step}"


def follow(run: Run, out: OutputWrapper, every_s: float = 0.5) -> Run:
    """Redraw the run's progress line until it ends; then print its outcome."""
    width = 0
    while True:
        run.refresh_from_db()
        line = progress_line(run)
        out.write("\r" + line.ljust(width), ending="")
        out.flush()
        width = max(width, len(line))
        if run.is_over:
            break
        time.sleep(every_s)
    out.write("")
    outcome = f"{run.profile_name}: {run.status}"
    out.write(outcome + (f" ({run.reason})" if run.reason else ""))
    for summary in run.summaries.all():
        out.write(
            f"  {summary.threads:>3} threads  median {summary.median:.4g}  "
            f"cv {summary.cv:.3f}  n={summary.n}  {summary.stop_reason}"
        )
    return run
