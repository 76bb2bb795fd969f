"""/readyz and the cache against a hung Redis (issue 29, item 4).

Starts a redis-server of its own on a free port (the cache and the broker, as production
configures them through REDIS_URL), pauses it with SIGSTOP (connections are accepted,
nothing is answered: a hung host), then times in process (Django's test client, a
throwaway SQLite database):

- /readyz, --rounds times: 503 within its own timeout (`planner.web.views.READY_TIMEOUT_S`);
- 20 cache reads in a row: one waits its socket timeout, the breaker skips the rest.

Prints a table and writes bench/results/hung_redis.json. Target: /readyz answers in less
than its timeout + 1 s (before: 60.9 s, then a 500 from gunicorn's worker timeout).

    .venv/bin/python bench/hung_redis.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
RESULTS = ROOT / "bench" / "results" / "hung_redis.json"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    binary = shutil.which("redis-server")
    if binary is None:
        print("redis-server is not installed (apt-get install redis-server)")
        return 1
    port = free_port()
    redis = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                              "--appendonly", "no"], stdout=subprocess.DEVNULL)  # fmt: skip
    try:
        with tempfile.TemporaryDirectory() as tmp:
            time.sleep(0.5)
            os.environ.pop("DATABASE_URL", None)
            os.environ.update(REDIS_URL=f"redis://127.0.0.1:{port}/0",
                              SQLITE_PATH=str(Path(tmp) / "bench.sqlite3"),
                              PLANNER_QUEUE_PREFIX=f"bench-{secrets.token_hex(4)}-")  # fmt: skip
            os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
            import django

            django.setup()
            return run(redis, args.rounds)
    finally:
        redis.send_signal(signal.SIGCONT)
        redis.kill()
        redis.wait()


def run(redis: subprocess.Popen, rounds: int) -> int:
    from django.core.cache import cache
    from django.test import Client

    from common.django import cache as tolerant
    from planner.web import views

    client = Client()
    healthy = client.get("/readyz")
    redis.send_signal(signal.SIGSTOP)
    times, statuses = [], set()
    for _ in range(rounds):
        start = time.perf_counter()
        statuses.add(client.get("/readyz").status_code)
        times.append(time.perf_counter() - start)
    tolerant.TolerantRedisCache._skip_until = 0.0
    start = time.perf_counter()
    for i in range(20):
        cache.get(f"bench-{i}")
    reads = time.perf_counter() - start
    out = {
        "readyz_healthy_status": healthy.status_code,
        "readyz_hung_status": sorted(statuses),
        "readyz_hung_median_s": round(statistics.median(times), 3),
        "readyz_hung_max_s": round(max(times), 3),
        "readyz_timeout_s": views.READY_TIMEOUT_S,
        "target_s": views.READY_TIMEOUT_S + 1.0,
        "cache_20_reads_hung_s": round(reads, 3),
        "breaker_seconds": tolerant.BREAKER_SECONDS,
        "python": platform.python_version(),
        "host": platform.node(),
    }
    for key, value in out.items():
        print(f"{key:28} {value}")
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
