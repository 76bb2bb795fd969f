# ruff: noqa: E501  (the report lines)
"""The stand-alone runner's time estimates against the measured time (issue 22 item 7).

Two steps, so the slow one can run while the machine is otherwise quiet:

    .venv/bin/python bench/runner_estimates.py --measure var/measure --scale smoke
    .venv/bin/python bench/runner_estimates.py --measure var/measure --scale standard \
        --only inference-tabular --only micro-matmul --budget-s 1500
    .venv/bin/python bench/runner_estimates.py --report var/measure

`--measure` runs the runner's dry run (the range it would announce, from the profiles'
budgets and this host's child start-ups: `benchmarks_app.estimate.estimate`) into
DIR/SCALE-dry.txt, then the runner itself, one profile after another into DIR/SCALE/,
stopping (Ctrl-C: the run under way is written as cancelled) once `--budget-s` is spent,
with the time and load average of each step in DIR/timeline.txt.

`--report` reads those: each profile's announced range against its run file's own time
(started_at to finished_at), whether the measured time lies inside the range, the suite's
whole time against the sum of the ranges, and, for the standard scale, the range the plan
page now says (`estimate.suite_range` at this host's CPUs, child starts taken as
`estimate.START_S`) over the profiles measured. It prints the table and writes
bench/results/runner_estimates.json. Figures are what this machine did, with its load
said beside them: never edited.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks_app import estimate  # noqa: E402  (pure: no Django)

LINE = re.compile(r"^  (?P<name>\S+) (?P<version>\S+): threads \[(?P<threads>[^\]]*)\], "
                  r"budget (?P<budget>[^,]+), expected (?P<expected>.+?) \((?P<basis>[^)]*)\)$")  # fmt: skip


def seconds_of(text: str) -> float:
    """ "about 12 min", "under a minute", "about 7.7 h" (time_left.minutes_text) in seconds."""
    text = text.strip()
    if text == "under a minute":
        return 59.0
    number = float(re.search(r"[\d.]+", text).group())
    return number * (3600 if text.endswith(" h") else 60)


def range_of(text: str) -> tuple[float, float]:
    """`estimate.range_text`'s forms back in seconds (its rounding kept)."""
    text = text.strip()
    if m := re.fullmatch(r"(\d+)-(\d+) s", text):
        return float(m[1]), float(m[2])
    if m := re.fullmatch(r"(\d+)-(\d+) min", text):
        return float(m[1]) * 60, float(m[2]) * 60
    if m := re.fullmatch(r"([\d.]+)-([\d.]+) h", text):
        return float(m[1]) * 3600, float(m[2]) * 3600
    if m := re.fullmatch(r"about (\d+) min", text):
        return float(m[1]) * 60, float(m[1]) * 60
    low, _, high = text.partition(" to ")
    return seconds_of(low), seconds_of(high)


def _load() -> str:
    return Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() else "?"


def measure(folder: Path, scale: str, only: list[str], budget_s: float) -> int:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / scale).mkdir(exist_ok=True)
    timeline = folder / "timeline.txt"
    runner = [sys.executable, "-m", "benchmarks_app.standalone", "--scale", scale]
    picked = [a for name in only for a in ("--only", name)]

    def log(text: str) -> None:
        with timeline.open("a") as out:
            out.write(f"{dt.datetime.now(dt.UTC):%Y-%m-%dT%H:%M:%SZ} {text}; load {_load()}\n")

    dry = subprocess.run([*runner, *picked, "--out", str(folder / scale), "--dry-run"],
                         cwd=ROOT, capture_output=True, text=True, check=False)  # fmt: skip
    (folder / f"{scale}-dry.txt").write_text(dry.stdout + dry.stderr)
    names = [m["name"] for line in dry.stdout.splitlines() if (m := LINE.match(line))]
    began = time.monotonic()
    for name in names:
        left = budget_s - (time.monotonic() - began)
        if left < 60:
            log(f"{scale} stops before {name}: the {budget_s:.0f} s window is spent")
            break
        log(f"{scale} {name} begins (at most {left:.0f} s)")
        with (folder / f"{scale}-{name}.txt").open("w") as out:
            child = subprocess.Popen([*runner, "--only", name, "--out", str(folder / scale),
                                      "--no-cpu-score"], cwd=ROOT, stdout=out, stderr=out)  # fmt: skip
            try:
                child.wait(timeout=left)
            except subprocess.TimeoutExpired:
                child.send_signal(signal.SIGINT)
                child.wait()
        log(f"{scale} {name} ends rc={child.returncode}")
    return 0


def _runs(folder: Path) -> dict[str, dict]:
    """{profile name: its newest run file's run} in `folder`."""
    found: dict[str, dict] = {}
    for path in sorted(folder.glob("*.json"), key=os.path.getmtime):
        document = json.loads(path.read_text())
        found[document["profile"]["name"]] = document
    return found


def _seconds(run: dict) -> float:
    started = dt.datetime.fromisoformat(run["started_at"])
    return (dt.datetime.fromisoformat(run["finished_at"]) - started).total_seconds()


def report(folder: Path) -> dict:
    out: dict = {"host": None, "scales": {}, "measured_at": None}
    timeline = (folder / "timeline.txt").read_text() if (folder / "timeline.txt").exists() else ""
    out["timeline"] = timeline.splitlines()
    for scale in ("smoke", "standard"):
        dry = folder / f"{scale}-dry.txt"
        if not dry.exists() or not (folder / scale).is_dir():
            continue
        announced = {
            m["name"]: m for line in dry.read_text().splitlines() if (m := LINE.match(line))
        }
        header = next(
            (line for line in dry.read_text().splitlines() if " profile(s) at scale " in line), ""
        )
        dropped = [line for line in dry.read_text().splitlines() if "dropped" in line]
        runs = _runs(folder / scale)
        rows, contents, timed = [], [], {}
        for name, said in announced.items():
            document = runs.get(name)
            low, high = range_of(said["expected"])
            row = {"profile": name, "threads": said["threads"], "budget": said["budget"],
                   "announced": said["expected"], "low_s": low, "high_s": high,
                   "basis": said["basis"], "measured_s": None, "status": "not run"}  # fmt: skip
            if document is not None:
                run = document["run"]
                seconds = _seconds(run)
                row |= {"measured_s": round(seconds, 1), "status": run["status"],
                        "inside": low <= seconds <= high if run["status"] == "succeeded" else None,
                        "host": document["target"]["hostname"]}  # fmt: skip
                out["host"] = out["host"] or {
                    "hostname": document["target"]["hostname"],
                    "cpu_model": run["fingerprint"].get("cpu_model"),
                    "usable_cpus": run["fingerprint"].get("usable_cpus"),
                }
                if run["status"] == "succeeded":
                    contents.append(document["profile"]["content"])
                    timed[name] = seconds
            rows.append(row)
        done = [r for r in rows if r["status"] == "succeeded"]
        entry = {"announced_suite": header, "dropped": dropped, "profiles": rows,
                 "measured_profiles": len(done),
                 "inside": sum(bool(r.get("inside")) for r in done),
                 "measured_sum_s": round(sum(r["measured_s"] for r in done), 1),
                 "announced_sum_s": [sum(r["low_s"] for r in done), sum(r["high_s"] for r in done)]}  # fmt: skip
        if m := re.search(rf"{scale} suite ends rc=\d+ after (\d+) s", timeline):
            entry["suite_wall_s"] = int(m[1])
        if contents and out["host"]:
            page = estimate.suite_range(contents, scale, out["host"]["usable_cpus"])
            entry["page_range_s"] = [round(page.low_s), round(page.high_s)]
            entry["page_minutes"] = list(page.minutes)
            entry["page_dropped"] = list(page.dropped)
        out["scales"][scale] = entry
    return out


def show(result: dict) -> None:
    host = result["host"] or {}
    print(
        f"host: {host.get('hostname')} ({host.get('cpu_model')}, {host.get('usable_cpus')} usable CPUs)"
    )
    for scale, entry in result["scales"].items():
        print(f"\n== {scale}: {entry['announced_suite'].strip()}")
        for line in entry["dropped"]:
            print(f"   {line}")
        print(f"   {'profile':<20} {'announced':>22} {'measured':>10}  inside  status")
        for r in entry["profiles"]:
            measured = "-" if r["measured_s"] is None else f"{r['measured_s']:.0f} s"
            inside = {True: "yes", False: "NO", None: "-"}[r.get("inside")]
            print(
                f"   {r['profile']:<20} {r['announced']:>22} {measured:>10}  {inside:<6}  {r['status']}"
            )
        low, high = entry["announced_sum_s"]
        print(
            f"   measured {entry['measured_profiles']} profiles: {entry['measured_sum_s']:.0f} s "
            f"(announced for them {low:.0f}-{high:.0f} s); inside their range: "
            f"{entry['inside']} of {entry['measured_profiles']}"
        )
        if "suite_wall_s" in entry:
            print(f"   whole suite, wall clock: {entry['suite_wall_s']} s")
        if "page_range_s" in entry:
            print(
                f"   the plan page's range for these profiles at {host.get('usable_cpus')} CPUs: "
                f"{entry['page_minutes'][0]}-{entry['page_minutes'][1]} min "
                f"({entry['page_range_s'][0]}-{entry['page_range_s'][1]} s), dropped threads {entry['page_dropped']}"
            )
    print("\nload while measuring (timeline):")
    for line in result["timeline"]:
        print(f"   {line}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--measure", type=Path, metavar="DIR")
    parser.add_argument("--report", type=Path, metavar="DIR")
    parser.add_argument("--scale", default="smoke", choices=("smoke", "standard"))
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("--budget-s", type=float, default=1200.0)
    args = parser.parse_args()
    if args.measure:
        return measure(args.measure, args.scale, args.only, args.budget_s)
    folder = args.report or ROOT / "var" / "measure"
    result = report(folder)
    show(result)
    results = ROOT / "bench" / "results"
    results.mkdir(exist_ok=True)
    (results / "runner_estimates.json").write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
