# ruff: noqa: RUF001, RUF002, RUF003  (× and ÷ in the notes)
"""The cost of ranking the next runs worth making, as a multiple of one Monte Carlo summary.

Input: an in-memory catalog frame of 20 on-demand tiers (8 to 64 vCPUs, hourly prices
spread around the measured tier's), a GBM plan over 60 months at 1 % monthly growth naming
them all as candidates; the first tier measured (five repetitions, the bootstrap), the other
19 estimates with a band of ×0.5…×2 (docs/design.md, "Speed estimates"), their figures
spread so that several straddle the best option.

Timed, in rounds (each round: one of each, so a change in the machine's load falls on both
sides of the ratio):
- summary: what the odds cost the page: `montecarlo.Model` (three leading options; the
  base case compared and sized) and `montecarlo.summary` (10,000 draws);
- ranking: `next_runs.rank`: its model over the leading options (at most 20 tiers), one set
  of 4,000 draws with each estimated tier's own speed, priced once, every candidate scored
  from those draws.
The ratio is the median over rounds of (ranking ÷ that round's summary). Target ≤ 5.
Also printed: the ratio against the summary alone (without building its model), the
options priced and the runs listed, and the load average before and after.

Run: .venv/bin/python bench/next_run.py [--rounds 5]  (writes bench/results/next_run.json)
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks_app.evidence import BestMeasurement, Sweep  # noqa: E402
from planner.compute import montecarlo, next_runs  # noqa: E402
from planner.compute.schema import parse_plan  # noqa: E402
from tests.support.engine import frame, tier  # noqa: E402

TARGET = 5.0
TIERS = 20
CPU = {"cpu": "Bench CPU", "cpu_key": "bench", "how": "model", "row": "bench"}


def catalog_and_measurements():
    rows, found = [], {}
    for i in range(TIERS):
        vcpus = (8, 16, 32, 64)[i % 4]
        slug = f"bench-tier-{i:02d}"
        price = round(0.05 * vcpus * (1 + 0.04 * (i % 7)), 4)
        rows.append(tier(slug, str(price), "hour", kind="cloud_vm", model="on_demand",
                         vcpus=vcpus, ram=vcpus * 4, price_id=1000 + i))  # fmt: skip
        value = 2.5e7 * vcpus * (1 + 0.05 * ((i * 3) % 5 - 2))
        reps = [value * f for f in (0.96, 0.99, 1.0, 1.02, 1.05)]
        extra = {}
        if i:
            extra = {"estimate": {"band": [0.5, 2.0], "tier_cpu": CPU, "reference_cpu": CPU,
                                  "ratio": 1.0, "scaling": 1.0, "dataset": "bench",
                                  "rung": "published_scores"}}  # fmt: skip
        found[slug, "gbm"] = BestMeasurement(
            "gbm", "cell_trees_per_s", "cell-trees/s", value, vcpus, not i, f"run-{i}", "host",
            "cpu", "gbm-xgboost", "1.0.3", "standard", dt.datetime(2026, 1, 20), extra=extra,
            sweep=Sweep(f"run-{i}", "host", {vcpus: value}, {vcpus: reps}),
        )  # fmt: skip
    return frame(*rows), found


PLAN = {
    "currency": "USD", "baseline": {"monthly": "9000"}, "horizon_months": 60,
    "monthly_growth": "0.01", "one_time": {"migration_hours": 20, "migration_rate": 100},
    "workloads": [{"kind": "gbm", "trainings_per_month": 1500, "rows": 10_000_000,
                   "features": 100, "trees": 1000}],
    "candidates": [{"tier": f"bench-tier-{i:02d}"} for i in range(TIERS)],
}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    catalog, found = catalog_and_measurements()
    plan = parse_plan(PLAN, known_tiers=None)
    # warm-up: imports, first allocations
    montecarlo.summary(montecarlo.Model(plan, catalog, found), draws=100)
    next_runs.rank(plan, catalog, found, draws=100)
    load_before = os.getloadavg()
    summaries, alone, rankings, ratios, ratios_alone = [], [], [], [], []
    ranked = None
    for _ in range(args.rounds):
        t0 = time.perf_counter()
        model = montecarlo.Model(plan, catalog, found)
        t1 = time.perf_counter()
        montecarlo.summary(model)
        t2 = time.perf_counter()
        ranked = next_runs.rank(plan, catalog, found)
        t3 = time.perf_counter()
        summaries.append(t2 - t0)
        alone.append(t2 - t1)
        rankings.append(t3 - t2)
        ratios.append((t3 - t2) / (t2 - t0))
        ratios_alone.append((t3 - t2) / (t2 - t1))
    load_after = os.getloadavg()
    assert ranked is not None
    out = {
        "bench": "next_run",
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "machine": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "cpus": os.cpu_count(),
            "load_before": load_before,
            "load_after": load_after,
        },
        "rounds": args.rounds,
        "tiers": TIERS,
        "ranking_draws": next_runs.DRAWS,
        "summary_draws": montecarlo.DRAWS,
        "options_contending": len(ranked.contending),
        "runs_listed": len(ranked.runs),
        "first_runs": [r.to_dict() for r in ranked.runs[:5]],
        "summary_s_median": statistics.median(summaries),
        "summary_alone_s_median": statistics.median(alone),
        "ranking_s_median": statistics.median(rankings),
        "ratio_median": statistics.median(ratios),
        "ratio_to_summary_alone_median": statistics.median(ratios_alone),
        "target": {
            "ratio_at_most": TARGET,
            "applies_to": "ratio_median",
            "met": statistics.median(ratios) <= TARGET,
        },
    }
    print(f"summary (model + 10,000 draws): {out['summary_s_median'] * 1000:.0f} ms median")
    print(f"ranking ({TIERS} tiers, {next_runs.DRAWS:,} draws): "
          f"{out['ranking_s_median'] * 1000:.0f} ms median")  # fmt: skip
    print(f"ranking ÷ summary: {out['ratio_median']:.2f}× (target ≤ {TARGET}×); "
          f"÷ summary alone: {out['ratio_to_summary_alone_median']:.2f}×")  # fmt: skip
    print(f"contending options {out['options_contending']}, runs listed {out['runs_listed']}")
    (ROOT / "bench" / "results").mkdir(exist_ok=True)
    (ROOT / "bench" / "results" / "next_run.json").write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
