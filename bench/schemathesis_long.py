"""A longer, unseeded schemathesis run against the API (CI runs the seeded one).

Runs tests/test_api_schemathesis.py under pytest with SCHEMATHESIS_RANDOM=1 (new requests
each run) and --examples per operation (default 1000), on whatever database
DATABASE_URL names (SQLite when unset), and counts every answer by operation and status.
Prints a table and writes bench/results/schemathesis_long.json: requests, server errors
(any 5xx), failed operations (a server error or an answer the document does not allow
fails its operation's test) and the time taken.

    .venv/bin/python bench/schemathesis_long.py [--examples 1000]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "schemathesis_long.json"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=1000, help="per operation")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        stats = Path(tmp) / "answers.json"
        env = {**os.environ, "SCHEMATHESIS_RANDOM": "1", "SCHEMATHESIS_STATS": str(stats),
               "SCHEMATHESIS_EXAMPLES": str(args.examples)}  # fmt: skip
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rf",
                   "tests/test_api_schemathesis.py"]  # fmt: skip
        started = time.monotonic()
        run = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
        seconds = time.monotonic() - started
        answers = json.loads(stats.read_text()) if stats.exists() else {}
    failed = [line.split(" - ")[0] for line in run.stdout.splitlines() if line.startswith("FAILED")]
    requests = sum(sum(c.values()) for c in answers.values())
    server_errors = sum(n for c in answers.values() for s, n in c.items() if s.startswith("5"))
    print(f"{'operation':34} {'requests':>9}  statuses")
    for operation, counts in sorted(answers.items()):
        spread = ", ".join(f"{s}: {n}" for s, n in counts.items())
        print(f"{operation:34} {sum(counts.values()):>9}  {spread}")
    print(f"{requests} requests in {seconds:.0f} s ({requests / seconds:.1f}/s); "
          f"server errors: {server_errors}; failed operations: {len(failed)}")  # fmt: skip
    for line in failed:
        print("  ", line)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({
        "examples_per_operation": args.examples,
        "database": "postgresql" if os.getenv("DATABASE_URL") else "sqlite",
        "seconds": round(seconds, 1),
        "requests": requests,
        "server_errors": server_errors,
        "failed_operations": failed,
        "answers": answers,
        "python": platform.python_version(),
        "pytest_exit": run.returncode,
    }, indent=1))  # fmt: skip
    print(f"wrote {RESULTS.relative_to(ROOT)}")
    if run.returncode not in (0, 1):
        print(run.stdout[-3000:], run.stderr[-3000:])
    return 0 if run.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
