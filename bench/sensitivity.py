# ruff: noqa: RUF003  (× and ÷ in the notes)
"""Time the vectorised Monte Carlo beside a plain loop of `engine.compare` over the same draws.

Input: an in-memory catalog frame (the engine tests' tiers), a GBM plan over 60 months at
1 % monthly growth, measurements with five repetitions each (the throughput bootstrap).
The three leading options are priced for 10,000 draws by `montecarlo.Model.run`; the
first 200 draws are also priced one at a time by `engine.compare` on the inputs
`uncertainty.apply` gives, and every NPV, saving and payback month must agree to the cent.

Timed, in rounds (each round: one run, one summary, a fifth of the loop, so that a change
in the machine's load falls on both sides of a ratio):
- run: `Model.run` over the 10,000 drawn inputs, the pricing alone;
- summary: `montecarlo.summary`, what the page waits for: drawing the inputs
  (`montecarlo.draw`), `Model.run`, and per option the share that pays back with
  P10/P50/P90 of the saving and of the payback month;
- one evaluation: the loop's step for one draw, `values_of` → `bill_for_tier_baseline` →
  `uncertainty.apply` → `engine.compare` (the check against the run is not timed).
Each ratio is the median over rounds of (time ÷ that round's mean single evaluation).
Also reported: the first full-size run of the process (after a 10-draw warm-up), the draw
alone, and building the `Model` (once per plan: the base case compared and sized; it is
not part of the summary), with the load average before and after.

Target: the 10,000-draw vectorised run costs no more than 20 of the loop's evaluations
(`target.applies_to` says which figures it is held to; the summary is held to it too).
Run: .venv/bin/python bench/sensitivity.py [--rounds 5]  (writes bench/results/sensitivity.json)
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
from planner.compute import engine, montecarlo, tco, uncertainty  # noqa: E402
from planner.compute.schema import parse_plan  # noqa: E402
from tests.support.engine import ADVANCED, C5_2X, EXTREME, R5_4X, frame, tier  # noqa: E402

LOOP = 200
TARGET = 20
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


def evaluate(plan, model: montecarlo.Model, drawn: dict, d: int) -> dict:
    """One draw priced by the engine: option key → its money."""
    values = montecarlo.values_of(model.items, drawn, d)
    values = uncertainty.bill_for_tier_baseline(plan, values)
    result = engine.compare(*uncertainty.apply(plan, CATALOG, MEASUREMENTS, values))
    return {o.key: o.money for o in result.options}


def mismatches(model: montecarlo.Model, found: dict, evaluated: list[dict]) -> int:
    count = 0
    for d, by_key in enumerate(evaluated):
        for k, key in enumerate(model.keys):
            m = by_key[key]
            expected = (tco.to_cents(m.npv), tco.to_cents(m.saving), m.payback_month or 0)
            got = tuple(int(found[n][d, k]) for n in ("npv", "saving", "payback"))
            count += got != expected
    return count


def timed(fn, *args):
    start = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args().rounds
    load_before = os.getloadavg()
    plan = parse_plan(PLAN)
    model, build = timed(montecarlo.Model, plan, CATALOG, MEASUREMENTS)
    drawn = montecarlo.draw(model.items, montecarlo.DRAWS, montecarlo.SEED)
    model.run({k: v[:10] for k, v in drawn.items()})  # warm: first calls, at a small size
    found, first = timed(model.run, drawn)
    runs, summaries, draws, singles, evaluated = [], [], [], [], []
    step = -(-LOOP // rounds)
    for _ in range(rounds):
        again, seconds = timed(model.run, drawn)
        assert all(np.array_equal(again[n], found[n]) for n in found)
        runs.append(seconds)
        summaries.append(timed(montecarlo.summary, model)[1])
        draws.append(timed(montecarlo.draw, model.items, montecarlo.DRAWS, montecarlo.SEED)[1])
        start, done = time.perf_counter(), len(evaluated)
        for d in range(done, min(done + step, LOOP)):
            evaluated.append(evaluate(plan, model, drawn, d))
        singles.append((time.perf_counter() - start) / (len(evaluated) - done))
    load_after = os.getloadavg()
    wrong = mismatches(model, found, evaluated)
    single = statistics.median(singles)

    def ratio(times: list[float]) -> float:
        return round(statistics.median(t / s for t, s in zip(times, singles, strict=True)), 1)

    run_ratio, summary_ratio = ratio(runs), ratio(summaries)
    out = {
        "draws": montecarlo.DRAWS, "options": len(model.keys), "months": plan.horizon_months,
        "chunk": montecarlo.CHUNK, "rounds": rounds,
        "loop_single_evaluation_s": round(single, 5),
        "run": {
            "times": "Model.run over the drawn inputs (pricing alone)",
            "median_s": round(statistics.median(runs), 4),
            "in_single_evaluations": run_ratio,
            "first_s": round(first, 4),
            "first_in_single_evaluations": round(first / single, 1),
        },
        "summary": {
            "times": "montecarlo.summary: draw + Model.run + pays-back share and P10/P50/P90",
            "median_s": round(statistics.median(summaries), 4),
            "in_single_evaluations": summary_ratio,
            "draw_alone_s": round(statistics.median(draws), 4),
        },
        "model_build": {
            "times": "montecarlo.Model(...): once per plan, not part of the summary",
            "s": round(build, 4), "in_single_evaluations": round(build / single, 1),
        },
        "target": {
            "at_most_single_evaluations": TARGET, "applies_to": ["run", "summary"],
            "run_met": run_ratio <= TARGET, "summary_met": summary_ratio <= TARGET,
        },
        "checked_draws": len(evaluated), "mismatches_to_the_cent": wrong,
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in load_after],
        "numpy": np.__version__, "python": platform.python_version(),
    }  # fmt: skip
    print(json.dumps(out, indent=2))
    (ROOT / "bench" / "results").mkdir(exist_ok=True)
    (ROOT / "bench" / "results" / "sensitivity.json").write_text(json.dumps(out, indent=2) + "\n")
    return 0 if wrong == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
