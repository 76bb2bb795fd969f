"""The editor's tier search at cloud scale: 20,000 tiers, p95 under 50 ms.

Builds, in a throwaway SQLite database, the default catalog and 20,000 more tiers through
`catalog.io.import_catalog` (the CSV of bench/catalog_page.py), signs a user in, and times
`GET /plans/tiers?q=…` through the whole Django stack (test client) for the prefixes a
reader types on the way to a handful of real searches (slug starts, provider, name words,
region, specs), as JSON and as htmx `<option>`s. The first request after the import builds
the index for the new data generation: it is timed apart (cold). Then, after a sync (a new
data generation, issue 28), the first search in a process whose caches are empty, without
and with the control worker's warm-up (`catalog.page_frame.warm`, which runs the tier
picker's warmer). As one sample is at the mercy of the machine's load, the first search
after the warm-up is also taken 5 times (the memo dropped each time, the shared index kept,
as a second worker finds it), and for each whole search its first run beside the same
search warm. Targets: p95 under 50 ms (issue 13); the median of the 5 first searches after
the warm-up within 2x the warm p50 (issue 28). Prints the figures and writes
bench/results/tier_search.json.
Not run in CI.

    .venv/bin/python bench/tier_search.py [--tiers 20000] [--queries 200]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.catalog_page import (  # noqa: E402
    forget_process_caches,
    new_generation,
    percentiles,
    setup_django,
    tiers_csv,
)

RESULTS = ROOT / "bench" / "results" / "tier_search.json"
URL = "/plans/tiers"
TARGET_MS = 50
# What readers type: each is sent as it grows, from its second character on.
SEARCHES = ["bench-123", "bench-0042", "aws bench.4", "hetzner 64 vcpu", "azure eu-west",
            "ovhcloud fixed", "bench.13x8", "us-east-1 on_demand", "c5.4xlarge",
            "extreme", "eu-central-1 16 vcpu", "bench.96x128"]  # fmt: skip


def queries(count: int) -> list[str]:
    typed = [s[:n] for s in SEARCHES for n in range(2, len(s) + 1) if not s[:n].endswith(" ")]
    return list(itertools.islice(itertools.cycle(typed), count))


def time_search(client, wanted: list[str], htmx: bool) -> dict:
    headers = {"HX-Request": "true"} if htmx else {}
    times, found = [], 0
    for q in wanted:
        started = time.perf_counter()
        response = client.get(URL, {"q": q}, headers=headers)
        times.append(time.perf_counter() - started)
        assert response.status_code == 200, (q, response.status_code)
        found += bool(response.content.strip() if htmx else response.json()["results"])
    return {**percentiles(times), "answered_with_tiers": found}


def after_sync(client, warm_p50_ms: float) -> dict:
    """The first search after a sync (a new data generation) in a process whose caches are
    empty, without and with the control worker's warm-up (issue 28)."""
    from catalog import page_frame

    def first() -> float:
        forget_process_caches()
        started = time.perf_counter()
        assert client.get(URL, {"q": "bench"}).status_code == 200
        return round((time.perf_counter() - started) * 1000, 1)

    def timed(q: str) -> float:
        started = time.perf_counter()
        assert client.get(URL, {"q": q}).status_code == 200
        return (time.perf_counter() - started) * 1000

    new_generation()
    unwarmed = first()
    new_generation()
    started = time.perf_counter()
    page_frame.warm()
    warm_s = round(time.perf_counter() - started, 1)
    warmed = first()
    # One sample is at the mercy of the machine's load: the first search of each whole
    # search, in a process that had not read the index (the shared one stays, as in a
    # second worker), beside the same search warm (median of 5), and "bench" 5 times cold.
    per_query = {}
    for q in SEARCHES:
        forget_process_caches()
        cold = timed(q)
        warm = statistics.median(timed(q) for _ in range(5))
        per_query[q] = {"cold_ms": round(cold, 1), "warm_ms": round(warm, 1),
                        "ratio": round(cold / warm, 2)}  # fmt: skip
    colds = [first() for _ in range(5)]
    same_warm = statistics.median(timed("bench") for _ in range(5))
    ratios = sorted(f["ratio"] for f in per_query.values())
    return {"cold_unwarmed_ms": unwarmed, "warmup_task_s": warm_s,
            "cold_after_warmup_ms": warmed,
            "cold_after_warmup_to_warm_p50": round(warmed / warm_p50_ms, 2),
            "cold_bench_median_of_5_ms": round(statistics.median(colds), 1),
            "warm_bench_median_of_5_ms": round(same_warm, 1),
            "cold_bench_median_to_warm_p50": round(statistics.median(colds) / warm_p50_ms, 2),
            "per_query": per_query,
            "per_query_ratio_median": statistics.median(ratios),
            "per_query_ratio_max": ratios[-1]}  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tiers", type=int, default=20_000)
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        setup_django(Path(folder) / "bench.sqlite3")
        from django.contrib.auth import get_user_model
        from django.test import Client

        from catalog.defaults import load_default_catalog
        from catalog.io.importer import import_catalog
        from catalog.models import Tier

        load_default_catalog()
        started = time.perf_counter()
        import_catalog(tiers_csv(args.tiers), "csv")
        import_s = time.perf_counter() - started
        tiers = Tier.objects.filter(retired=False).count()
        client = Client()
        client.force_login(get_user_model().objects.create_user("bench", password="x"))
        started = time.perf_counter()
        assert client.get(URL, {"q": "bench"}).status_code == 200
        cold_ms = round((time.perf_counter() - started) * 1000, 1)
        wanted = queries(args.queries)
        figures = {"json": time_search(client, wanted, False),
                   "htmx": time_search(client, wanted, True)}  # fmt: skip
        synced = after_sync(client, figures["json"]["p50_ms"])
    result = {
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "host": platform.node(),
        "cpus": os.cpu_count(),
        "load_average_1_5_15": [round(x, 2) for x in os.getloadavg()],  # others' work too
        "tiers": tiers,
        "import_s": round(import_s, 1),
        "cold_ms": cold_ms,
        "after_sync": synced,
        "queries": len(wanted),
        **figures,
        "target": f"p95 < {TARGET_MS} ms at {args.tiers} tiers",
        "met": all(f["p95_ms"] < TARGET_MS for f in figures.values())
        and synced["cold_bench_median_to_warm_p50"] <= 2,
    }
    print(f"{tiers} tiers (import {import_s:.1f} s); first search, index built: {cold_ms} ms")
    print(f"{'answer':<8}{'p50 ms':>9}{'p95 ms':>9}{'min ms':>9}{'runs':>7}{'with tiers':>12}")
    for name, f in figures.items():
        print(f"{name:<8}{f['p50_ms']:>9}{f['p95_ms']:>9}{f['min_ms']:>9}{f['runs']:>7}"
              f"{f['answered_with_tiers']:>12}")  # fmt: skip
    print(f"after a sync: first search {synced['cold_unwarmed_ms']} ms without warm-up; "
          f"warm-up task {synced['warmup_task_s']} s; first search after it "
          f"{synced['cold_after_warmup_ms']} ms ({synced['cold_after_warmup_to_warm_p50']}x "
          f"the warm p50)")  # fmt: skip
    print(
        f"  same after the warm-up, 5 first searches of 'bench': median "
        f"{synced['cold_bench_median_of_5_ms']} ms ({synced['cold_bench_median_to_warm_p50']}x "
        f"the warm p50); 'bench' warm: {synced['warm_bench_median_of_5_ms']} ms"
    )
    print(f"  {'first search, cold vs warm':<28}{'cold ms':>9}{'warm ms':>9}{'ratio':>7}")
    for q, f in synced["per_query"].items():
        print(f"  {q:<28}{f['cold_ms']:>9}{f['warm_ms']:>9}{f['ratio']:>7}")
    print(
        f"  cold/warm of the same search: median {synced['per_query_ratio_median']}, "
        f"worst {synced['per_query_ratio_max']}"
    )
    print(f"target p95 < {TARGET_MS} ms and cold after warm-up <= 2x warm: {result['met']}")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")
    return 0 if result["met"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
