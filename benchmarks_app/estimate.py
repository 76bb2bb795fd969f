"""How long a profile's sweep will take on this host, as a range (the stand-alone runner's
dry run and its first "time left", before a run has a pace of its own).

A scale's `time_budget_s` caps the repetitions of the whole sweep, but a run may end well
before it (the repetitions agree early: a standard run said "about 30 min" and took 3.5)
and each measurement has costs on top of it (a child process that imports its libraries
and generates its data: a smoke run said "under a minute" and took 1 min 46 s). So:

- measured here before (a run file of the same profile and scale from this host in the
  output folder): that run's own time, from 0.8x to 1.25x;
- otherwise from the budget and this host's measured start-up: at least one child start
  per thread count (timed now: a child importing the profile's runner and the libraries
  it requires), at most the budget plus four times those starts (start, data generation,
  warm-up and the last repetition's overrun).

Pure: no Django (the runner imports it).
"""

from __future__ import annotations

import datetime as dt
import json
import math
import subprocess
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from benchmarks_app.time_left import minutes_text

SAME_RUN_RANGE = (0.8, 1.25)
_STARTS: dict[str, float] = {}


@dataclass(frozen=True)
class Estimate:
    low_s: float
    high_s: float
    basis: str  # "measured here" | "budget"

    def text(self) -> str:
        return range_text(self.low_s, self.high_s)


def range_text(low_s: float, high_s: float) -> str:
    """ "3-40 s", "1-3 min", "about 12 min", "1.2-2.0 h"."""
    if high_s < 60:
        return f"{int(low_s)}-{math.ceil(high_s)} s"
    if high_s < 90 * 60:
        low, high = max(1, int(low_s // 60)), max(1, round(high_s / 60 + 0.49))
        return f"about {high} min" if low >= high else f"{low}-{high} min"
    return f"{low_s / 3600:.1f}-{high_s / 3600:.1f} h" if low_s >= 5400 else (
        f"{minutes_text(low_s)} to {minutes_text(high_s)}")  # fmt: skip


def child_start_s(runner: str, requires: Iterable[str] = ()) -> float:
    """Seconds this host takes to start a measurement's child: a Python that imports the
    profile's runner module and the libraries it requires (measured once per set)."""
    modules = ", ".join([f"benchmarks_app.runners.{runner}", *requires])
    if modules not in _STARTS:
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", f"import {modules}"],
                       capture_output=True, check=False, timeout=300)  # fmt: skip
        _STARTS[modules] = time.perf_counter() - started
    return _STARTS[modules]


def _seconds(run: dict) -> float | None:
    try:
        started = dt.datetime.fromisoformat(run["started_at"])
        finished = dt.datetime.fromisoformat(run["finished_at"])
    except (KeyError, TypeError, ValueError):
        return None
    return (finished - started).total_seconds()


def measured_before(folder: Path | None, name: str, scale: str, hostname: str,
                    threads: Iterable[int]) -> float | None:  # fmt: skip
    """The newest succeeded run's seconds of profile `name` at `scale` with the same thread
    counts from `hostname`, among the run files in `folder`; None when there is none."""
    if folder is None or not folder.is_dir():
        return None
    wanted, found = list(threads), []
    for path in folder.glob("*.json"):
        try:
            document = json.loads(path.read_text())
            run, profile = document["run"], document["profile"]
            same = (profile["name"] == name and run["scale"] == scale
                    and run["status"] == "succeeded" and list(run["threads"]) == wanted
                    and document["target"]["hostname"] == hostname)  # fmt: skip
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if same and (seconds := _seconds(run)) is not None:
            found.append((run.get("finished_at", ""), seconds))
    return max(found)[1] if found else None


def estimate(content: dict, scale: str, threads: list[int], *, hostname: str = "",
             folder: Path | None = None, start_s: float | None = None) -> Estimate:  # fmt: skip
    """The range one profile's sweep at `scale` over `threads` takes on this host."""
    before = measured_before(folder, content["name"], scale, hostname, threads)
    if before is not None:
        low, high = SAME_RUN_RANGE
        return Estimate(before * low, before * high, "measured here")
    budget = float(content["scales"][scale]["time_budget_s"])
    if start_s is None:
        start_s = child_start_s(content["runner"], content.get("requires", []))
    starts = len(threads) * start_s
    # On top of the budget, each measurement starts its child, generates its data and warms
    # up: each about as long again as the start (smoke runs here: 2-4x the start).
    return Estimate(starts, budget + 4 * starts, "budget")


# A measurement's child start when the host has not been timed: the stand-alone runner's
# dry run timed 0.3-4.5 s a profile here (a busy 2-CPU VM, 2026-12-03; bench/runner_estimates.py),
# the upper figure taken.
START_S = 4.5


@dataclass(frozen=True)
class SuiteRange:
    """How long a suite takes on one host, as a range, and what it leaves out."""

    low_s: float
    high_s: float
    cpus: int | None  # the host's CPUs (None: unknown, nothing dropped)
    dropped: tuple[int, ...]  # thread counts above them, left out of some profile's sweep
    timed: int  # profiles whose range is their own earlier run's time on this host

    @property
    def minutes(self) -> tuple[int, int]:
        low = max(1, int(self.low_s // 60))
        return low, max(low, math.ceil(self.high_s / 60))


def kept_threads(content: dict, scale: str, cpus: int | None) -> tuple[list[int], list[int]]:
    """The scale's thread counts this host runs (at most its CPUs; the smallest if none fits)
    and those it drops, as the runner plans them."""
    wanted = [int(k) for k in content["scales"][scale].get("threads") or [1]]
    if not cpus:
        return wanted, []
    kept = [k for k in wanted if k <= cpus] or [min(wanted)]
    return kept, [k for k in wanted if k not in kept]


def suite_range(contents: Iterable[dict], scale: str, cpus: int | None,
                measured: dict[str, float] | None = None,
                start_s: float = START_S) -> SuiteRange:  # fmt: skip
    """The suite's time on a host with `cpus` CPUs: each profile's earlier run there
    (`measured`: {profile name: seconds}) from 0.8x to 1.25x, else its budget's range
    (`estimate`), over the thread counts the host keeps."""
    low = high = 0.0
    dropped: set[int] = set()
    timed = 0
    for content in contents:
        if scale not in content.get("scales", {}):
            continue
        kept, left_out = kept_threads(content, scale, cpus)
        dropped.update(left_out)
        seconds = (measured or {}).get(content["name"])
        if seconds is not None:
            timed += 1
            low, high = low + seconds * SAME_RUN_RANGE[0], high + seconds * SAME_RUN_RANGE[1]
            continue
        guess = estimate(content, scale, kept, start_s=start_s)
        low, high = low + guess.low_s, high + guess.high_s
    return SuiteRange(low, high, cpus, tuple(sorted(dropped)), timed)
