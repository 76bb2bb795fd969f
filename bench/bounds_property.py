# ruff: noqa: RUF003  (money notation: ×, −)
"""Plans anywhere inside the schema's bounds through the real API: what comes back wrong.

Issue 21, item 6 (docs/design.md, "Bounds"). Draws `--examples` plans (default 10,000)
with the seeded generator the CI test uses (`tests/support/bounds.py`: quoted or tier
baselines, fixed counts of the default catalog's tiers, every growth, horizon, one-time
cost and range the schema takes, the bounds themselves a quarter of the time), posts each
to `POST /api/v1/evaluate` in a throwaway SQLite database over the shipped default
catalog, and every `--uncertainty-every`-th answered plan also to
`GET /api/v1/plans/{id}/uncertainty` (10,000 Monte Carlo draws each). Counts:

- answered (200) and refused (400) plans, and the fields the refusals named;
- failures: a 500 or any other status, a refusal naming an unexpected field or code, an
  answer whose sums or signs are wrong (`check_comparison`, `check_uncertainty`).

Target: 0 failures. Prints a table and writes bench/results/bounds_property.json.

    .venv/bin/python bench/bounds_property.py [--examples 10000] [--seed 21]
"""

from __future__ import annotations

import argparse
import collections
import datetime as dt
import json
import os
import platform
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import logging  # noqa: E402

from bench.api_scale import api_client, setup_django  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "bounds_property.json"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--examples", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--uncertainty-every", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bounds-") as folder:
        cache = setup_django(Path(folder) / "bench.sqlite3")
        from catalog.defaults import load_default_catalog
        from tests.support import bounds as prop
        from tests.support.api import post_json

        load_default_catalog()
        logging.getLogger("django.request").setLevel(logging.CRITICAL)  # 400s are counted
        client = api_client()
        rng = random.Random(args.seed)
        counts: collections.Counter[str] = collections.Counter()
        refused_at: collections.Counter[str] = collections.Counter()
        failures: list[dict] = []
        started = time.perf_counter()
        for n in range(args.examples):
            plan = prop.random_plan(rng)
            response = post_json(client, "/api/v1/evaluate", plan)
            found = _check(
                prop, plan, response, prop.REFUSED_FIELDS, refused_at, counts, "evaluate"
            )
            if found:
                failures.append({"plan": plan, "status": response.status_code, "found": found})
            if response.status_code == 200 and n % args.uncertainty_every == 0:
                created = post_json(client, "/api/v1/plans", plan)
                odds = client.get(f"/api/v1/plans/{created.json()['id']}/uncertainty")
                found = _check(prop, plan, odds, {"ranges"}, refused_at, counts, "uncertainty")
                if found:
                    failures.append({"plan": plan, "status": odds.status_code, "found": found,
                                     "endpoint": "uncertainty"})  # fmt: skip
            if (n + 1) % 500 == 0:
                print(f"   {n + 1:>6} plans, {len(failures)} failures, "
                      f"{time.perf_counter() - started:.0f} s", flush=True)  # fmt: skip
        seconds = time.perf_counter() - started
    result = {
        "when": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "host": platform.node(), "python": platform.python_version(), "cache": cache,
        "examples": args.examples, "seed": args.seed,
        "uncertainty_every": args.uncertainty_every, "seconds": round(seconds, 1),
        "counts": dict(counts), "refused_at": dict(refused_at),
        "failures": len(failures), "first_failures": failures[:20], "target_failures": 0,
        "load_average": os.getloadavg(),
    }  # fmt: skip
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2, default=str) + "\n")
    print(f"== {args.examples} plans in {seconds:.0f} s: {dict(counts)}")
    print(f"   refusals named: {dict(refused_at)}")
    print(f"   failures: {len(failures)} (target 0); written to {RESULTS.relative_to(ROOT)}")
    return 1 if failures else 0


def _check(prop, plan, response, allowed, refused_at, counts, endpoint) -> list[str]:
    status = response.status_code
    counts[f"{endpoint} {status}"] += 1
    if status == 400:
        body = response.json()
        for path in body.get("error_details", {}):
            refused_at[f"{endpoint} {path}"] += 1
        return prop.check_refusal(body, allowed)
    if status != 200:
        return [f"status {status}"]
    body = response.json()
    if endpoint == "evaluate":
        return prop.check_comparison(plan, body)
    return prop.check_uncertainty(body)


if __name__ == "__main__":
    raise SystemExit(main())
