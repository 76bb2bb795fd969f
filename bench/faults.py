"""Fault scenarios at standard scale: how long each run takes to reach a final state
after a fault, with the product's default intervals.

    .venv/bin/python bench/faults.py [--reduced] [--only SCENARIO ...]

The same scenarios as the fault suite (tests/test_faults.py, through tests/support/faults.py):
a worker killed mid-run, a worker restarted with a run queued behind, a message lost in a
broker restart without persistence, the broker down when a run is sent (and back), a run
over its time limit, cancels from the web and the command line, and two runs on one
target with a duplicate message. Each gets its own Redis (a redis-server on a free port),
real `celery` workers, a control worker and beat, and a scratch SQLite database.

Standard: the default intervals (BENCH_HEARTBEAT_SECONDS 15, BENCH_QUEUED_BOUND_SECONDS
300) and gbm-xgboost's standard scale at one thread count (1 M rows x 50 features x 100
trees: minutes a run on one core, so the whole script takes an hour or more). --reduced
keeps the default intervals but measures the fault suite's reduced profile (200 000 rows,
1 warm-up + 4 repetitions, seconds a run): the times to a final state are the intervals'
doing, not the profile's, except where a run has to complete. The output says which.

Prints one line per run: its scenario, final state, reason code and seconds from the
fault to the final state, beside the bound the settings promise where one applies.
Writes bench/results/faults.json (or faults-reduced.json).
"""

import argparse
import json
import logging
import os
import secrets
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ("killed", "restarted", "lost", "broker", "limit", "cancel", "two")


def setup_django(db: Path, prefix: str) -> None:
    os.environ.update({"DJANGO_SETTINGS_MODULE": "config.settings", "SQLITE_PATH": str(db),
                       "PLANNER_QUEUE_PREFIX": prefix})  # fmt: skip
    os.environ.pop("DATABASE_URL", None)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def profile(reduced: bool):
    from benchmarks_app.models import Profile
    from benchmarks_app.profiles_loader import load_shipped_profiles
    from tests.support import faults

    if reduced:
        return faults.reduced_profile()
    load_shipped_profiles()
    return Profile.objects.get(name="gbm-xgboost").current_version()


def staff_client():
    from django.contrib.auth import get_user_model
    from django.test import Client

    user, _ = get_user_model().objects.get_or_create(username="staff", is_staff=True)
    client = Client()
    client.force_login(user)
    return client


def scenario(name: str, stack, pv, timeout: float) -> list:
    from tests.support import faults

    match name:
        case "killed":
            return [faults.worker_killed(stack, pv, timeout=timeout)]
        case "restarted":
            return faults.worker_restarted(stack, pv, timeout=timeout)
        case "lost":
            return faults.message_lost(stack, pv, timeout=timeout)
        case "broker":
            return faults.broker_down_at_send(stack, pv, timeout=timeout)[0]
        case "limit":
            return [faults.over_time_limit(stack, pv, timeout=timeout)]
        case "cancel":
            return faults.cancelled(stack, pv, staff_client(), timeout=timeout)
        case "two":
            return faults.two_runs_one_target(stack, pv, timeout=timeout)
    raise ValueError(name)


def rows_of(name: str, outcomes: list, intervals) -> list[dict]:
    """One row per run, with the bound the settings promise where one applies (README,
    "Settings"): a killed worker's run ends within 4 heartbeats of the kill; a lost
    message's run is claimed within a quarter of the queued bound (plus one reconciler
    period) of its target going idle."""
    rows = [{**outcome.as_dict(), "bound_s": None} for outcome in outcomes]
    if name in ("killed", "restarted"):
        rows[0]["bound_s"] = intervals.vanished_bound_s
    if name == "lost":
        busy, lost = outcomes
        idle = (lost.run.started_at - busy.run.finished_at).total_seconds()
        rows[1] |= {"idle_until_claimed_s": round(idle, 2), "bound_s": intervals.resend_bound_s}
    return rows


def line(row: dict) -> str:
    text = (f"{row['scenario']:<46} {row['status']:<9} {row['code'] or '-':<36} "
            f"{row['seconds_to_final']:>7.1f} s")  # fmt: skip
    if "idle_until_claimed_s" in row:
        text += f"  (claimed {row['idle_until_claimed_s']:.1f} s after its target went idle"
        return text + f"; bound {row['bound_s']:g} s)"
    return text + (f"  (bound {row['bound_s']:g} s)" if row["bound_s"] else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reduced", action="store_true", help="the fault suite's profile")
    parser.add_argument("--only", nargs="+", choices=SCENARIOS, default=list(SCENARIOS))
    args = parser.parse_args()
    # The faults log what they should (a send refused, a message dropped): not here.
    logging.disable(logging.ERROR)
    scratch = Path(tempfile.mkdtemp(prefix="faults-bench-"))
    setup_django(scratch / "db.sqlite3", f"faults-{secrets.token_hex(4)}-")
    from django.conf import settings

    from tests.support.faults import Intervals, Stack

    intervals = Intervals(settings.BENCH_HEARTBEAT_SECONDS, settings.BENCH_QUEUED_BOUND_SECONDS)
    pv = profile(args.reduced)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    scale = "reduced (the fault suite's profile)" if args.reduced else "standard"
    print(f"== faults: {pv} at {scale} scale, heartbeat {intervals.heartbeat_s} s, "
          f"queued bound {intervals.bound_s} s, {os.cpu_count()} CPUs")  # fmt: skip
    rows = []
    for name in args.only:
        logs = scratch / name
        logs.mkdir()
        stack = Stack(env, logs, intervals).start()
        settings.REDIS_URL = stack.redis.url
        started = time.monotonic()
        try:
            outcomes = scenario(name, stack, pv, timeout=4 * 3600)
        finally:
            stack.stop()
        for row in rows_of(name, outcomes, intervals):
            rows.append(row)
            print(line(row))
        print(f"   ({name}: {time.monotonic() - started:.0f} s in all)")
    file_name = "faults-reduced.json" if args.reduced else "faults.json"
    results = ROOT / "bench" / "results" / file_name
    results.parent.mkdir(parents=True, exist_ok=True)
    results.write_text(json.dumps({
        "when": datetime.now(UTC).isoformat(timespec="seconds"), "profile": str(pv),
        "scale": scale, "heartbeat_s": intervals.heartbeat_s, "bound_s": intervals.bound_s,
        "cpus": os.cpu_count(), "runs": rows,
    }, indent=1))  # fmt: skip
    print(f"written to {results.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
