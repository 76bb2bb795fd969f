"""Harness overhead: one `standard`-scale profile measured directly and through the
Celery path over Redis, interleaved, plus the CV of each smoke profile over repeated runs.

    .venv/bin/python bench/harness_overhead.py [--pairs 6] [--smoke-repeats 3] [--full-standard]

Direct = the runner child started by hand (`python -m benchmarks_app.runners.gbm --spec
... --out ...`). Celery = `services.create_run` → Redis → a real `celery worker` process
(its own node and queue, a scratch SQLite database) → the task → the same child, with
progress written to the database. Each pair runs both, in alternating order (ABBA...) to
cancel drift. Reported, as the median of the paired relative differences with a
distribution-free confidence interval for the median (order statistics of the binomial):

- metric overhead: direct value / Celery value - 1 (does the harness slow the measured work?)
- wall overhead: Celery wall time / direct wall time - 1 (start-up, queueing, DB writes).

By default the standard scale is REDUCED to fit a shared 2-core box (gbm-xgboost standard
is 1 M rows x 50 features x 100 trees over 1-32 threads: tens of minutes): 500 000 rows,
50 features, 40 trees (about 3 s a repetition on 2 cores, so that scheduler noise is small
beside it), one thread count, 1 warm-up + 3 repetitions. The output says so;
`--full-standard` runs the profile's real standard scale at one thread count instead.

Threads: by default all the host's usable CPUs. On a small shared host that leaves
nothing for the rest of the machine, whose every wake-up then lands on the measurement in
one path or the other: there `--threads 1` measures the harness with far less noise (on
this 2-CPU VM the pairs' spread went from about +-8 % to about +-3 %).

The Celery wall time is the run's own record (created_at, set before it is queued, to
finished_at, set by the worker when the child's result is stored), so the script's 1 s
poll of the database adds neither delay nor CPU load to the figure. The target is on the
median; the output also says whether the whole confidence interval is under it.

Writes bench/results/harness_overhead-<threads>t.json. Needs Redis (REDIS_URL, default
redis://127.0.0.1:6379/0).
"""

import argparse
import json
import math
import os
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "harness_overhead.json"
PROFILE = "gbm-xgboost"
REDUCED = {"rows": 500_000, "features": 50, "trees": 40}
REPETITION = {"warmup": 1, "min_reps": 3, "max_reps": 3}
TARGET = 0.03


def setup_django(db_path: Path, prefix: str, redis_url: str) -> None:
    os.environ.update({
        "DJANGO_SETTINGS_MODULE": "config.settings", "SQLITE_PATH": str(db_path),
        "PLANNER_QUEUE_PREFIX": prefix, "REDIS_URL": redis_url,
    })  # fmt: skip
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def start_worker(name: str, log: Path) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "celery", "-A", "config", "worker", "-n", f"{name}@%h",
           "-Q", f"bench.{name}", "--concurrency", "1", "--loglevel", "INFO",
           "--without-gossip", "--without-mingle"]  # fmt: skip
    proc = subprocess.Popen(cmd, cwd=ROOT, env=dict(os.environ), stdout=log.open("w"),
                            stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if " ready." in log.read_text(errors="replace"):
            return proc
        if proc.poll() is not None:
            raise SystemExit(f"worker exited:\n{log.read_text()}")
        time.sleep(0.2)
    raise SystemExit("worker not ready in 90 s")


def harness_content(full_standard: bool) -> dict:
    from benchmarks_app import runners

    content = runners.load_profile(PROFILE)
    standard = dict(content["scales"]["standard"])
    if not full_standard:
        standard.update(REDUCED)
        standard["repetition"] = REPETITION
    standard["time_budget_s"] = 3600  # never the binding limit: both paths get equal reps
    return {
        **content,
        "name": f"{PROFILE}-harness",
        "title": content["title"] + (" (standard)" if full_standard else " (reduced standard)"),
        "scales": {**content["scales"], "standard": standard},
    }


def direct(content: dict, threads: int) -> tuple[float, float]:
    from benchmarks_app import runners

    with tempfile.TemporaryDirectory(prefix="bench-direct-") as tmp:
        spec = runners.build_spec(content, "standard", threads, tmp, n_measurements=1)
        (Path(tmp) / "spec.json").write_text(json.dumps(spec))
        started = time.monotonic()
        subprocess.run(
            [sys.executable, "-m", f"benchmarks_app.runners.{content['runner']}", "--spec",
             f"{tmp}/spec.json", "--out", f"{tmp}/out.json"],
            cwd=ROOT, check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip
        wall = time.monotonic() - started
        result = json.loads((Path(tmp) / "out.json").read_text())
    return result["summary"]["median"], wall


def harness_cpu_s(worker: subprocess.Popen) -> float:
    """CPU seconds used so far by the worker's own processes (the Celery parent and its
    pool), not counting the measurement children they start and reap."""
    import psutil

    parent = psutil.Process(worker.pid)
    total = 0.0
    for proc in [parent, *parent.children(recursive=True)]:
        try:
            if "celery" in " ".join(proc.cmdline()):
                times = proc.cpu_times()
                total += times.user + times.system
        except psutil.NoSuchProcess:
            pass
    return total


def via_celery(version, target, threads: int, worker: subprocess.Popen) -> tuple[float, ...]:
    from benchmarks_app.services import create_run

    cpu_before = harness_cpu_s(worker)
    run = create_run(version=version, scale="standard", target=target, threads=[threads])
    while True:
        run.refresh_from_db(fields=["status", "reason", "finished_at"])
        if run.is_over:
            break
        time.sleep(1.0)  # a tight poll on a 2-core box steals CPU from the measurement
    if run.status != "succeeded":
        raise SystemExit(f"Celery run {run.pk} {run.status}: {run.reason}")
    wall = (run.finished_at - run.created_at).total_seconds()
    return run.summaries.get().median, wall, harness_cpu_s(worker) - cpu_before


def median_ci(values: list[float], confidence: float = 0.95) -> tuple[float, float, float]:
    """Order-statistic interval for the median: the widest-needed symmetric ranks whose
    binomial coverage is at least `confidence` (or all values for tiny n)."""
    xs, n = sorted(values), len(values)
    best = (xs[0], xs[-1], 1 - 2 * 0.5**n)
    for k in range(1, n // 2 + 1):
        cover = 1 - 2 * sum(math.comb(n, i) for i in range(k)) * 0.5**n
        if cover < confidence:
            break
        best = (xs[k - 1], xs[n - k], cover)
    return best


def smoke_cvs(repeats: int, usable: int) -> dict:
    from benchmarks_app import runners

    out = {}
    for name, content in runners.load_profiles().items():
        threads = max(runners.plan_threads(content["scales"]["smoke"]["threads"], usable))
        values, reason = [], None
        for _ in range(repeats):
            with tempfile.TemporaryDirectory(prefix="bench-smoke-") as tmp:
                spec = runners.build_spec(content, "smoke", threads, tmp, n_measurements=1)
                (Path(tmp) / "spec.json").write_text(json.dumps(spec))
                proc = subprocess.run(
                    [sys.executable, "-m", f"benchmarks_app.runners.{content['runner']}",
                     "--spec", f"{tmp}/spec.json", "--out", f"{tmp}/out.json"],
                    cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                )  # fmt: skip
                result = json.loads((Path(tmp) / "out.json").read_text())
            if proc.returncode != 0:
                reason = result.get("error", f"exit {proc.returncode}")
                break
            values.append(result["summary"]["median"])
        cv = statistics.stdev(values) / statistics.mean(values) if len(values) > 1 else None
        out[name] = {"threads": threads, "medians": values, "cv": cv, "skipped": reason}
        shown = f"{cv:.1%}" if cv is not None else f"skipped ({reason})"
        print(f"  smoke {name:<22} threads={threads}  CV over {len(values)} runs: {shown}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=6)
    parser.add_argument("--smoke-repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, help="default: the host's usable CPUs")
    parser.add_argument("--full-standard", action="store_true")
    args = parser.parse_args()

    redis_url = os.getenv("REDIS_URL", "redis://127.0.0.1:6379/0")
    work = Path(tempfile.mkdtemp(prefix="harness-overhead-"))
    setup_django(work / "db.sqlite3", f"bench-{secrets.token_hex(4)}-", redis_url)
    import redis

    redis.Redis.from_url(redis_url).ping()
    from benchmarks_app import fingerprint
    from benchmarks_app.models import ProfileVersion, Target
    from benchmarks_app.profiles_loader import store_version

    load_before = os.getloadavg()
    # `timeout` and Ctrl-C alike: unwind through the finally below, which stops the worker.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    content = harness_content(args.full_standard)
    store_version(content, source="shipped")
    worker = start_worker("harness", work / "worker.log")
    try:
        target = Target.objects.get(name="harness")
        version = ProfileVersion.objects.get(profile__name=content["name"])
        threads = args.threads or target.fingerprint["usable_cpus"]
        scale = content["scales"]["standard"]
        print(f"harness overhead: {content['title']}, threads={threads}, "
              f"{ {k: scale[k] for k in ('rows', 'features', 'trees')} }")  # fmt: skip
        pairs = []
        for i in range(args.pairs):
            order = ("direct", "celery") if i % 2 == 0 else ("celery", "direct")
            got = {}
            for path in order:
                got[path] = (
                    direct(content, threads)
                    if path == "direct"
                    else via_celery(version, target, threads, worker)
                )
            (dv, dw), (cv, cw, cpu) = got["direct"], got["celery"]
            pair = {"order": order, "direct_value": dv, "celery_value": cv, "direct_wall_s": dw,
                    "celery_wall_s": cw, "metric_overhead": dv / cv - 1,
                    "wall_overhead": cw / dw - 1, "harness_cpu_s": cpu}  # fmt: skip
            pairs.append(pair)
            print(f"  pair {i + 1}: direct {dv:.4g} ({dw:.1f} s)  celery {cv:.4g} ({cw:.1f} s)"
                  f"  metric {dv / cv - 1:+.2%}  wall {cw / dw - 1:+.2%}"
                  f"  worker CPU {cpu:.2f} s")  # fmt: skip
        summary = {}
        for key in ("metric_overhead", "wall_overhead"):
            values = [p[key] for p in pairs]
            low, high, cover = median_ci(values)
            median = statistics.median(values)
            summary[key] = {"median": median, "ci_low": low, "ci_high": high,
                            "ci_confidence": cover, "median_under_target": median < TARGET,
                            "ci_under_target": high < TARGET}  # fmt: skip
            verdict = (
                "met, the whole interval under it" if high < TARGET
                else "met by the median, the interval reaches above it" if median < TARGET
                else "NOT met"
            )  # fmt: skip
            print(f"{key}: median {median:+.2%}, {cover:.0%} CI [{low:+.2%}, {high:+.2%}] "
                  f"(target < {TARGET:.0%}: {verdict})")  # fmt: skip
        cpu = statistics.median(p["harness_cpu_s"] for p in pairs)
        share = cpu / statistics.median(p["celery_wall_s"] for p in pairs)
        summary["harness_cpu_s"] = {"median": cpu, "share_of_one_cpu": share}
        print(f"worker CPU per Celery run (its own processes, not the measurement): median "
              f"{cpu:.2f} s, {share:.1%} of one CPU over the run")  # fmt: skip
    finally:
        os.killpg(worker.pid, 15)
        worker.wait(timeout=30)
    print("smoke profiles, CV of the run median over repeated direct runs:")
    smoke = (
        smoke_cvs(args.smoke_repeats, target.fingerprint["usable_cpus"])
        if args.smoke_repeats
        else {}
    )
    host = fingerprint.collect()
    # One file per thread count, so a 1-thread and an all-CPU run can stand side by side.
    results = RESULTS.with_name(f"{RESULTS.stem}-{threads}t.json")
    results.parent.mkdir(parents=True, exist_ok=True)
    results.write_text(json.dumps({
        "measured_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "host": {k: host.get(k) for k in ("hostname", "cpu_model", "usable_cpus", "ram_bytes",
                                          "hypervisor")},
        "profile": content["name"], "scale": "standard",
        "reduced": not args.full_standard,
        "reduction": None if args.full_standard else {**REDUCED, "repetition": REPETITION},
        "threads": threads, "pairs": pairs, "summary": summary, "target": TARGET,
        # Other work on the machine shows up as noise in both paths: keep it on record.
        "load_average": {"before": load_before, "after": os.getloadavg(),
                         "cpus": os.cpu_count()},
        "smoke_cv": smoke,
    }, indent=1))  # fmt: skip
    print(
        f"load average before/after: {load_before[0]:.1f}/{os.getloadavg()[0]:.1f} "
        f"on {os.cpu_count()} CPUs (other work on the machine is noise in both paths)"
    )
    print(f"written {results.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
