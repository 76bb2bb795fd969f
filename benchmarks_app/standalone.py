"""The stand-alone runner: the benchmark profiles on a server you only rent for a day.

    python -m benchmarks_app.standalone --scale standard --out runs/

Runs each profile's thread sweep on this machine, one child process per measurement
exactly as a Celery worker would (benchmarks_app.execution, benchmarks_app.runners),
and writes one run file per profile in the format `python manage.py import_run FILE`
and the benchmarks page's import read (benchmarks_app.run_files), the hardware
fingerprint included. No database, broker, Django or Celery: a checkout of this
repository and `pip install -r requirements-runner.txt` are all it needs (an
import-linter contract in pyproject.toml keeps Django and Celery out of what it
imports). It prints its progress and an estimate of the time left as it goes.

A run file is written as soon as its profile ends, so an interrupted session keeps
what it measured; Ctrl-C stops the measurement under way (its run is written as
cancelled) and the session.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import importlib.util
import json
import math
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from benchmarks_app import cpu_score, fingerprint, runners
from benchmarks_app.estimate import estimate, range_text
from benchmarks_app.execution import run_child, runner_command, time_limit
from benchmarks_app.time_left import minutes_text, remaining_s
from common import safejson
from common.messages import Message, msg, plain

# The run file's format, as benchmarks_app.run_files reads it (that module needs Django;
# tests/test_bench_standalone.py checks that the two agree).
FORMAT, FORMAT_VERSION = "planner-run", 1
SUMMARY_KEYS = ("n", "median", "min", "max", "mean", "cv")
PRINT_EVERY_S = 5.0  # progress lines when the output is not a terminal


def content_hash(content: dict) -> str:
    """The profile content's hash, as benchmarks_app.models.content_hash computes it."""
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat()


# --- what to run ------------------------------------------------------------------------


@dataclass
class Planned:
    """One profile this session runs: its content, thread counts and time budget."""

    content: dict
    threads: list[int]
    budget_s: float  # the scale's budget for the whole sweep

    @property
    def name(self) -> str:
        return f"{self.content['name']} {self.content['version']}"


def load_profiles(directory: Path, only: Sequence[str] = ()) -> list[dict]:
    """The profiles in `directory` (*.json), by name; `only` keeps the named ones."""
    profiles = []
    for path in sorted(directory.glob("*.json")):
        content = safejson.loads(path.read_bytes(), decimals=False)
        if not only or content.get("name") in only:
            profiles.append(content)
    unknown = set(only) - {p.get("name") for p in profiles}
    if unknown:
        raise SystemExit(f"no such profile in {directory}: {', '.join(sorted(unknown))}")
    return profiles


def plan(
    profiles: list[dict], scale: str, host: dict, threads: list[int] | None, out: TextIO
) -> list[Planned]:
    """The profiles this host can run at `scale`; each one it cannot is said, and left out."""
    planned = []
    usable = host.get("usable_cpus") or 1
    for content in profiles:
        missing = [m for m in content.get("requires", []) if not _importable(m)]
        if missing:
            print(f"skip {content['name']}: needs {', '.join(missing)}", file=out)
            continue
        requested = threads or content["scales"].get(scale, {}).get("threads") or []
        counts = runners.plan_threads(requested, usable)
        if dropped := sorted(k for k in set(requested) if k > usable):
            print(f"{content['name']}: thread counts {', '.join(map(str, dropped))} dropped: "
                  f"above this host's {usable} usable CPUs", file=out)  # fmt: skip
        problems = runners.validation_messages(content, scale, host, counts)
        if problems:
            print(f"skip {content['name']}: {'; '.join(plain(p) for p in problems)}", file=out)
            continue
        budget = float(content["scales"][scale]["time_budget_s"])
        planned.append(Planned(content, counts, budget))
    return planned


def _importable(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


# --- progress ---------------------------------------------------------------------------


@dataclass
class Progress:
    """Prints where the session is and how long it has left, from the budgets and the pace."""

    planned: list[Planned]
    out: TextIO
    tty: bool
    index: int = 0
    started: float = 0.0
    spent: list[tuple[float, float]] = field(default_factory=list)  # (seconds, budget) done
    last_print: float = 0.0

    def begin(self, index: int) -> None:
        self.index, self.started = index, time.monotonic()

    def end(self) -> None:
        self.spent.append((time.monotonic() - self.started, self.planned[self.index].budget_s))
        if self.tty:
            print(file=self.out)

    def pace(self) -> float:
        """Seconds taken per second of budget by the profiles done (1 until one is)."""
        seconds = sum(s for s, _budget in self.spent)
        budget = sum(b for _seconds, b in self.spent)
        return min(max(seconds / budget, 0.1), 3.0) if budget else 1.0

    def left_s(self, fraction: float) -> float | None:
        """The session's time left: this profile by its pace, the rest by budget and pace."""
        current = self.planned[self.index]
        elapsed = time.monotonic() - self.started
        here = remaining_s(elapsed, fraction, current.budget_s * self.pace())
        later = sum(p.budget_s for p in self.planned[self.index + 1 :]) * self.pace()
        return None if here is None else here + later

    def update(self, measurement: int, threads: int, fraction: float, step: Message | str) -> None:
        current = self.planned[self.index]
        done = (measurement + fraction) / len(current.threads)
        now = time.monotonic()
        if not self.tty and now - self.last_print < PRINT_EVERY_S and fraction < 1.0:
            return
        self.last_print = now
        said = plain(step) if isinstance(step, Message) else str(step)
        line = (
            f"[{self.index + 1}/{len(self.planned)}] {current.name} · {threads} threads · "
            f"{said[:60]} · {100 * done:.0f} % · time left: {minutes_text(self.left_s(done))}"
        )
        if self.tty:
            print("\r" + line[:150].ljust(150), end="", file=self.out, flush=True)
        else:
            print(line, file=self.out, flush=True)


# --- one profile ------------------------------------------------------------------------


@dataclass
class Sweep:
    """What one profile's run measured, and how it ended."""

    summaries: list[dict] = field(default_factory=list)
    measurements: list[dict] = field(default_factory=list)
    status: str = "succeeded"
    reason: Message | None = None


def run_profile(
    item: Planned, scale: str, progress: Progress, cancelled: list[bool], workdir: Path
) -> Sweep:
    content, sweep = item.content, Sweep()
    budget = runners.measurement_budget_s(content, scale, len(item.threads))
    limit = time_limit(budget, content["scales"][scale].get("time_limit_s"))
    for index, threads in enumerate(item.threads):
        progress.update(index, threads, 0.0, msg("benchmarks.step_starting"))
        outcome = run_child(
            runner_command(content["runner"]),
            runners.build_spec(content, scale, threads, workdir / f"t{threads}",
                               time_budget_s=budget),
            workdir / f"t{threads}",
            limit_s=limit,
            on_progress=lambda f, step, i=index, k=threads: progress.update(i, k, f, step),
            should_cancel=lambda: cancelled[0],
        )  # fmt: skip
        if not outcome.ok:
            kind, why = outcome.failure_message(limit)
            sweep.status = "cancelled" if kind == "cancelled" else "failed"
            sweep.reason = msg("benchmarks.run_failed_at", threads=threads, why=why)
            return sweep
        if problem := _take(sweep, threads, outcome.result or {}):
            sweep.status = "failed"
            sweep.reason = msg("benchmarks.run_failed_at", threads=threads, why=problem)
            return sweep
    return sweep


def _finite(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _take(sweep: Sweep, threads: int, result: dict) -> Message | None:
    """One thread count's summary and repetitions, as lifecycle.store_result keeps them."""
    summary = result.get("summary") or {}
    if not all(_finite(summary.get(key)) for key in SUMMARY_KEYS):
        return msg("benchmarks.run_summary_incomplete", summary=str(summary))
    sweep.summaries.append({
        "threads": threads, **{k: summary[k] for k in SUMMARY_KEYS},
        "n": int(summary["n"]), "stop_reason": str(summary.get("stop_reason", ""))[:32],
        "outliers": summary.get("outliers") or [], "peak_rss_bytes": result.get("peak_rss_bytes"),
        "runtime": result.get("runtime") or {}, "extra": result.get("extra") or {},
    })  # fmt: skip
    for warmup, key in ((True, "warmup"), (False, "repetitions")):
        for i, rep in enumerate(result.get(key) or []):
            if _finite(rep.get("value")) and _finite(rep.get("seconds")):
                sweep.measurements.append({
                    "threads": threads, "repetition": i, "warmup": warmup,
                    "value": float(rep["value"]), "seconds": float(rep["seconds"]),
                })  # fmt: skip
    return None


def run_file(
    item: Planned, scale: str, sweep: Sweep, host: dict, target: str, times: tuple[str, str]
) -> dict:
    """The run in the run file format (benchmarks_app.run_files.export_run's shape)."""
    content = item.content
    digest = content_hash(content)
    hostname = str(host.get("hostname") or socket.gethostname())
    started, finished = times
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "exported_at": finished,
        "profile": {"name": content["name"], "version": content["version"],
                    "content_hash": digest, "content": content},
        "target": {"name": target, "hostname": hostname, "fingerprint": host},
        "run": {
            "id": str(uuid.uuid4()), "scale": scale, "status": sweep.status,
            "reason": plain(sweep.reason) if sweep.reason else "",
            "reason_message": sweep.reason.to_json() if sweep.reason else None,
            "threads": item.threads, "content_hash": digest,
            "executed_by": f"standalone@{hostname}", "fingerprint": host,
            "created_at": started, "started_at": started, "finished_at": finished,
        },
        "summaries": sweep.summaries,
        "measurements": sweep.measurements,
    }  # fmt: skip


# --- the session ------------------------------------------------------------------------


def _out_path(out: Path, document: dict, several: bool) -> Path:
    if out.suffix == ".json" and not several:
        out.parent.mkdir(parents=True, exist_ok=True)
        return out
    out.mkdir(parents=True, exist_ok=True)
    run = document["run"]
    stem = f"{document['target']['name']}-{document['profile']['name']}-{run['scale']}"
    return out / f"{stem}-{run['id'][:8]}.json"


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks_app.standalone",
        description="Run the benchmark profiles on this machine and write run files to import "
        "(python manage.py import_run FILE, or the benchmarks page's import).",
    )
    parser.add_argument("--scale", default="standard", choices=runners.SCALES)
    parser.add_argument("--out", required=True, type=Path,
                        help="a directory for the run files (one per profile); a FILE.json "
                             "when only one profile runs")  # fmt: skip
    parser.add_argument("--profiles", type=Path, default=runners.PROFILES_DIR,
                        help="where the profile files are (default: the shipped ones)")  # fmt: skip
    parser.add_argument("--only", action="append", default=[], metavar="NAME",
                        help="run only this profile (repeat for several)")  # fmt: skip
    parser.add_argument("--threads", type=lambda s: [int(k) for k in s.split(",")],
                        help="thread counts instead of the scale's, e.g. 1,2,4")  # fmt: skip
    parser.add_argument("--target", help="the name the runs are filed under (default: host name)")
    parser.add_argument("--no-cpu-score", action="store_true",
                        help="skip the stress-ng CPU score (20 s; 4 s at smoke)")  # fmt: skip
    parser.add_argument("--dry-run", action="store_true",
                        help="say what would run and its time budget; run nothing")  # fmt: skip
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout) -> int:
    args = _arguments(argv)
    host = fingerprint.collect()
    target = (args.target or str(host.get("hostname") or socket.gethostname())).lower()
    planned = plan(load_profiles(args.profiles, args.only), args.scale, host, args.threads, out)
    total = sum(p.budget_s for p in planned)
    hostname = str(host.get("hostname") or socket.gethostname())
    folder = args.out if args.out.suffix != ".json" else args.out.parent
    # A dry run times this host's child start-up (a few seconds a profile); a real run
    # starts measuring at once and says the range only from its earlier runs here.
    start_s = None if args.dry_run else 0.0
    ranges = [estimate(p.content, args.scale, p.threads, hostname=hostname, folder=folder,
                       start_s=start_s) for p in planned]  # fmt: skip
    measured = all(r.basis == "measured here" for r in ranges)
    low, high = sum(r.low_s for r in ranges), sum(r.high_s for r in ranges)
    shown = args.dry_run or (measured and ranges)
    expected = f"; expected {range_text(low, high)}" if shown else ""
    print(
        f"{len(planned)} profile(s) at scale {args.scale} on {target} "
        f"({host.get('cpu_model') or 'CPU unknown'}, {host.get('usable_cpus')} usable CPUs): "
        f"time budget {minutes_text(total)}{expected}",
        file=out,
    )
    if args.dry_run or not planned:
        for item, guess in zip(planned, ranges, strict=True):
            basis = ("as its last run here" if guess.basis == "measured here" else
                     "from its budget and this host's start-up time")  # fmt: skip
            print(f"  {item.name}: threads {item.threads}, budget {minutes_text(item.budget_s)}, "
                  f"expected {guess.text()} ({basis})", file=out)  # fmt: skip
        return 0 if planned or args.dry_run else 1
    if args.out.suffix == ".json" and len(planned) > 1:
        print("several profiles run: give --out a directory", file=out)
        return 2
    if not args.no_cpu_score:
        seconds = 2 if args.scale == "smoke" else cpu_score.SECONDS
        host = {**host, **_cpu_score(host, out, seconds)}
    return _session(args, planned, host, target, out)


def _cpu_score(host: dict, out: TextIO, seconds: int) -> dict:
    """The host's stress-ng div16 scores, kept in its fingerprint (`speed_scores`)."""
    print(f"scoring the CPU: stress-ng div16, 1 worker and all ({2 * seconds} s)", file=out,
          flush=True)  # fmt: skip
    try:
        scores = cpu_score.score_host(int(host.get("usable_cpus") or 1), seconds)
    except (cpu_score.NoScore, OSError, subprocess.SubprocessError) as exc:
        print(f"no CPU score: {exc}", file=out)
        return {}
    busy = " - contended: the host was busy" if scores["contended"] else ""
    one, every = scores["sng_div16_1core"], scores["sng_div16_all"]
    print(f"CPU score: {one} (1 worker), {every} (all){busy}", file=out)
    return {"speed_scores": scores}


def _session(
    args: argparse.Namespace, planned: list[Planned], host: dict, target: str, out: TextIO
) -> int:
    cancelled = [False]
    previous = signal.signal(signal.SIGINT, lambda *_: cancelled.__setitem__(0, True))
    progress = Progress(planned, out, tty=out.isatty())
    failed = 0
    try:
        with tempfile.TemporaryDirectory(prefix="standalone-bench-") as tmp:
            for index, item in enumerate(planned):
                progress.begin(index)
                started = _now()
                sweep = run_profile(item, args.scale, progress, cancelled, Path(tmp) / str(index))
                progress.end()
                document = run_file(item, args.scale, sweep, host, target, (started, _now()))
                path = _out_path(args.out, document, len(planned) > 1)
                path.write_text(json.dumps(document, indent=1))
                ended = sweep.status + (f" ({plain(sweep.reason)})" if sweep.reason else "")
                print(f"{item.name}: {ended} -> {path}", file=out, flush=True)
                failed += sweep.status != "succeeded"
                if cancelled[0]:
                    return 130
    finally:
        signal.signal(signal.SIGINT, previous)
    print(f"done: import with  python manage.py import_run FILE  ({args.out})", file=out)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
