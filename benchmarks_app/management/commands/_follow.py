"""Shared by run_profile and run_suite: one refreshing progress line per run, and what
Ctrl-C does while following (ask whether to cancel, or say how to)."""

import getpass
import sys
import time
from typing import TextIO

from django.core.management.base import CommandError, OutputWrapper

from benchmarks_app.models import Run
from benchmarks_app.services import cancel_run
from common.messages import Message, msg

BAR = 24
# The shell's exit status for a command stopped by Ctrl-C (128 + SIGINT).
INTERRUPTED = 130


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


def cancel_command(run: Run) -> str:
    return f"python manage.py cancel_run {run.pk}"


def command_line_user() -> Message:
    try:
        user = getpass.getuser()
    except (KeyError, OSError):  # no name for this uid (a bare container)
        user = "?"
    return msg("benchmarks.command_line_user", user=user)


def refused_to_send(runs: list[Run], err: OutputWrapper) -> list[Run]:
    """The runs that failed while being sent (the broker is down), each said on `err`."""
    failed = []
    for run in runs:
        run.refresh_from_db()
        if run.status == Run.Status.FAILED:
            err.write(f"run {run.pk} failed: {run.reason}")
            failed.append(run)
    return failed


def on_interrupt(
    runs: list[Run], out: OutputWrapper, err: OutputWrapper, stdin: TextIO | None = None
) -> list[Run]:
    """Ctrl-C while following: at a terminal, ask whether to cancel the runs not yet over
    (and cancel them on yes); without one, say how. The runs cancelled; raises
    CommandError (exit 130) when they are left going."""
    stdin = stdin or sys.stdin
    active = [run for run in runs if _still_active(run)]
    if not active:
        return []
    what = f"run {active[0].pk}" if len(active) == 1 else f"these {len(active)} runs"
    if _is_terminal(stdin):
        out.write(f"\nCancel {what}? [y/N] ", ending="")
        out.flush()
        if _read_answer(stdin).strip().lower() in ("y", "yes"):
            for run in active:
                cancel_run(run, who=command_line_user())
            out.write(f"cancel requested for {what}")
            return active
    err.write(f"\nStopped following; {what} go{'es' if len(active) == 1 else ''} on.")
    err.write("To cancel: " + " && ".join(cancel_command(run) for run in active))
    raise CommandError("interrupted", returncode=INTERRUPTED)


def _still_active(run: Run) -> bool:
    run.refresh_from_db()
    return not run.is_over


def _is_terminal(stdin: TextIO) -> bool:
    try:
        return stdin.isatty()
    except (AttributeError, ValueError):
        return False


def _read_answer(stdin: TextIO) -> str:
    try:
        return stdin.readline()
    except (KeyboardInterrupt, EOFError):  # a second Ctrl-C, or no input: no
        return ""
