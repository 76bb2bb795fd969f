# ruff: noqa: RUF003  (× and ÷ in the notes)
"""Time the vectorised Monte Carlo beside a plain loop of `engine.compare` over the same draws.

Input: an in-memory catalog frame (the engine tests' tiers), a GBM plan over 60 months at
1 % monthly growth, measurements with five repetitions each (the throughput bootstrap).
The three leading options are priced for 10,000 draws by `montecarlo.Model.run`; the
first 200 draws are also priced one at a time by `engine.compare` on the inputs
`uncertainty.apply` gives, and every NPV, saving and payback month must agree to the cent.

Target: the 10,000-draw vectorised run costs no more than 20 of the loop's evaluations.
Run: .venv/bin/python bench/sensitivity.py  (writes bench/results/sensitivity.json)
"""

from __future__ import annotations

import datetime as dt
import json
import platform
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks_app.evidence import BestMeasurement, Sweep  # noqa: E402
from planner.compute import engine, montecarlo, tco, uncertainty  # noqa: E402
from planner.compute.schema import parse_plan  # noqa: E402
from tests.support.engine import ADVANCED, C5_2X, EXTREME, R5_4X, frame, tier  # noqa: E402

LOOP = 200
C5_4X = tier("aws-c5.4xlarge-us-east-1-on-demand", "0.68", "hour", kind="cloud_vm",
             model="on_demand", vcpus=16, ram=32, price_id=41)  # fmt: skip
CATALOG = frame(EXTREME, ADVANCED, C5_2X, C5_4X, R5_4X)
PLAN = {
    "currency": "USD", "baseline": {"monthly": "1480"}, "horizon_months": 60,
    "monthly_growth": "0.01", "one_time": {"migration_hours": 20, "migration_rate": 100},
    "workloads": [{"kind": "gbm", "trainings_per_month": 1500, "rows": 10_000_000,
                   "features": 100, "trees": 1000}],
}  # fmt: skip


def measured(value: float, threads: int, host: str) -> BestMeasurement:
    reps = [value * f for f in (0.96, 0.99, 1.0, 1.02, 1.05)]
    sweep = Sweep(f"run-{host}", host, {threads: value}, {threads: reps})
    return BestMeasurement(
        "gbm", "cell_trees_per_s", "cell-trees/s", value, threads, True, f"run-{host}", host,
        "cpu", "gbm-standard", "1.0.3", "standard", dt.datetime(2026, 1, 20), sweep=sweep,
    )  # fmt: skip


MEASUREMENTS = {
    ("inmotion-extreme", "gbm"): measured(1e9, 32, "epyc"),
    ("aws-c5.4xlarge-us-east-1-on-demand", "gbm"): measured(4e8, 16, "c5"),
    ("aws-c5.2xlarge-us-east-1-on-demand", "gbm"): measured(2e8, 8, "c5-2x"),
    ("aws-r5.4xlarge-us-east-1-on-demand", "gbm"): measured(3.5e8, 16, "r5"),
}


def main() -> int:
    plan = parse_plan(PLAN)
    model = montecarlo.Model(plan, CATALOG, MEASUREMENTS)
    drawn = montecarlo.draw(model.items, montecarlo.DRAWS, montecarlo.SEED)
    model.run({k: v[:10] for k, v in drawn.items()})  # warm
    start = time.perf_counter()
    found = model.run(drawn)
    vectorised = time.perf_counter() - start
    mismatches, start = 0, time.perf_counter()
    for d in range(LOOP):
        values = montecarlo.values_of(model.items, drawn, d)
        values = uncertainty.bill_for_tier_baseline(plan, values)
        result = engine.compare(*uncertainty.apply(plan, CATALOG, MEASUREMENTS, values))
        by_key = {o.key: o.money for o in result.options}
        for k, key in enumerate(model.keys):
            m = by_key[key]
            expected = (tco.to_cents(m.npv), tco.to_cents(m.saving), m.payback_month or 0)
            got = tuple(int(found[n][d, k]) for n in ("npv", "saving", "payback"))
            mismatches += got != expected
    single = (time.perf_counter() - start) / LOOP
    out = {
        "draws": montecarlo.DRAWS, "options": len(model.keys), "months": plan.horizon_months,
        "vectorised_s": round(vectorised, 4), "loop_single_evaluation_s": round(single, 5),
        "vectorised_in_single_evaluations": round(vectorised / single, 1), "target": 20,
        "checked_draws": LOOP, "mismatches_to_the_cent": mismatches,
        "numpy": np.__version__, "python": platform.python_version(),
    }  # fmt: skip
    print(json.dumps(out, indent=2))
    (ROOT / "bench" / "results").mkdir(exist_ok=True)
    (ROOT / "bench" / "results" / "sensitivity.json").write_text(json.dumps(out, indent=2) + "\n")
    return 0 if mismatches == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
