"""What each per-process memo (changes.memo.kept) saves: its work done again vs. kept.

The shared cache (Redis in production) holds answers and pages; a process keeps in
`changes.memo` only what is too big or too hot to read from it each request. For each use
this times, in a throwaway SQLite database with the default catalog plus --copies
imported copies of its tiers (bench/api_scale.py's catalog), the work the memo saves
(p50 of --runs, the memo dropped before each) and a hit (p50, kept):

- priced_catalog: catalog_frame + engine.Prices (every evaluation);
- tier_index: the offered tiers' keys (the validation of a plan that names a tier);
- factor_index: the offered tiers' declared speed factors (every evaluation);
- best_measurements: a workload-sized plan's evidence for every tier;
- form_options: the editor's tier choices, from the shared cache (the memo's miss path);
- tier_search: the editor's tier-search index;
- catalog_page_frame: the catalog page's frame with its derived columns;
- shared_page / home_page: the pages through the test client, the shared cache warm.

Prints a table and writes bench/results/memo_pays.json. Not run in CI.

    .venv/bin/python bench/memo_pays.py [--copies 1] [--runs 7]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
RESULTS = ROOT / "bench" / "results"


def p50_ms(work: Callable[[], object], runs: int, before: Callable[[], None] | None) -> float:
    times = []
    for _ in range(runs):
        if before:
            before()
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return round(statistics.median(times) * 1000, 3)


def uses(client, share_token: str) -> dict[str, Callable[[], object]]:
    from catalog.page_frame import page_frame
    from changes.selectors import current_generation
    from common.django.clock import today
    from planner.services import inputs
    from planner.services import plans as services
    from planner.web import data as web_data
    from planner.web import tier_search

    generation = current_generation()
    day = today()
    gbm = {"kind": "gbm", "trainings_per_month": 20, "rows": 2_000_000, "features": 50,
           "trees": 100}  # fmt: skip
    sized = services.parse({"currency": "USD", "baseline": {"monthly": "480"}, "workloads": [gbm]})
    frame = inputs.priced_catalog(day, "USD", generation).frame
    slugs = inputs.candidate_tiers(sized, frame)

    def shared_page() -> object:
        assert client.get(f"/s/{share_token}/").status_code == 200
        return None

    def home_page() -> object:
        assert client.get("/").status_code == 200
        return None

    return {
        "priced_catalog": lambda: inputs.priced_catalog(day, "USD", generation),
        "tier_index": lambda: inputs.tier_index(generation),
        "factor_index": lambda: inputs.factor_index(generation),
        "best_measurements": lambda: inputs.best_measurements(
            slugs, ["gbm"], generation=generation, frame=frame
        ),
        "form_options": lambda: web_data.form_options(generation),
        "tier_search": lambda: tier_search.index(generation),
        "catalog_page_frame": lambda: page_frame(day, None, False),
        "shared_page": shared_page,
        "home_page": home_page,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--copies", type=int, default=1, help="imported copies of tiers")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    import api_scale

    with tempfile.TemporaryDirectory(prefix="memo-pays-") as folder:
        cache = api_scale.setup_django(Path(folder) / "bench.sqlite3")
        built = api_scale.build(args.copies)
        print(f"== {built['tiers']} tiers; cache: {cache}")
        from django.contrib.auth import get_user_model
        from django.test import Client

        from changes import memo
        from planner.services import plans as services

        user = get_user_model().objects.create_user("memo", "memo@example.com", "pw-memo-1")
        plan = services.plan_create(owner=user, plan=services.parse(
            {"currency": "USD", "baseline": {"monthly": "480"},
             "candidates": [{"tier": api_scale.plans()["fixed_count"]["candidates"][0]["tier"],
                             "count": 1}]}))  # fmt: skip
        share = services.share_create(plan=plan, user=user)
        client = Client()
        client.force_login(user)
        rows = {}
        for name, work in uses(client, share.token).items():
            work()  # warm: imports, compiled queries, the shared cache
            again = p50_ms(work, args.runs, memo.drop)
            hit = p50_ms(work, args.runs, None)
            rows[name] = {"work_ms": again, "kept_ms": hit,
                          "saved_ms": round(again - hit, 3)}  # fmt: skip
            print(f"{name:20} work {again:10.3f} ms   kept {hit:8.3f} ms")
    report = {
        "benchmark": "memo_pays",
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": {"platform": platform.platform(), "python": platform.python_version(),
                    "cpus": os.cpu_count()},
        "cache": cache,
        "tiers": built["tiers"],
        "results": rows,
    }  # fmt: skip
    RESULTS.mkdir(parents=True, exist_ok=True)
    out = RESULTS / f"memo_pays_{built['tiers']}.json"
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"== wrote {out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
