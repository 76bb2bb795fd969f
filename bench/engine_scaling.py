"""Time the planner's capacity and TCO stages against a plain NumPy floor, 100 → 10,000 tiers.

Input: an in-memory catalog frame (the columns of `catalog_frame`) and a measurement
for every tier and workload class, no database. The plan: 60 months, 2 % monthly
growth, a GBM, a features, an HPO and an inference workload, every tier sized.

- capacity: `engine.size_plan` → `capacity.size_tiers` (evidence lookup, batch
  thread-hours, M/M/c workers for every tier and month, memory, servers by month);
- tco: `engine.Pricer.price` (exact-cent bill lines for servers, operations and
  set-up fees, then `tco.compute`: cumulative curves, payback, NPV, present cost).

The floor computes the same outputs with plain float64 NumPy from the same inputs
(reading the same measurement mapping), with no provenance, no exact cents and
no result objects: the least any implementation must do. The M/G/c simulation
that `evaluate` runs for the few leading options is timed apart (per tier checked).

Run: .venv/bin/python bench/engine_scaling.py  (writes bench/results/engine_scaling.json)
"""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
import sys
import time
from decimal import Decimal
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks_app.evidence import BestMeasurement  # noqa: E402
from planner.compute import engine, queueing  # noqa: E402
from planner.compute.schema import parse_plan  # noqa: E402

SIZES = (100, 1000, 10_000)
HORIZON = 60
REPEATS = 3
PLAN = {
    "currency": "USD",
    "baseline": {"monthly": "4800"},
    "horizon_months": HORIZON,
    "monthly_growth": "0.02",
    "workloads": [
        {"kind": "gbm", "trainings_per_month": 600, "rows": 10_000_000, "features": 100,
         "trees": 1000},
        {"kind": "features", "runs_per_month": 60, "dataset_gb": 40},
        {"kind": "hpo", "searches_per_month": 8, "trials": 256},
        {"kind": "inference", "peak_rps": 800, "p99_ms": 50},
    ],
}  # fmt: skip


def catalog(n: int, rng: np.random.Generator) -> pd.DataFrame:
    vcpus = rng.choice([4, 8, 16, 32, 48, 64, 96], n)
    ram = vcpus * rng.choice([2, 4, 8], n)
    hourly = rng.random(n) < 0.6
    per_hour = np.round(vcpus * rng.uniform(0.02, 0.06, n), 4)
    per_month = np.round(vcpus * rng.uniform(5, 15, n), 2)
    amount = [Decimal(str(h)) if is_h else Decimal(str(m))
              for h, m, is_h in zip(per_hour, per_month, hourly, strict=True)]  # fmt: skip
    monthly = [a * 730 if is_h else a for a, is_h in zip(amount, hourly, strict=True)]
    frame = pd.DataFrame(
        {
            "slug": [f"tier-{i}" for i in range(n)], "name": [f"Tier {i}" for i in range(n)],
            "provider": "bench", "kind": np.where(hourly, "cloud_vm", "dedicated"),
            "pricing_model": np.where(hourly, "on_demand", "fixed_monthly"), "region": "",
            "vcpus": pd.array(vcpus, dtype="Int64"), "cores": pd.array(vcpus // 2, dtype="Int64"),
            "cpu_model": "", "ram_gib": ram.astype(float), "gpus": pd.array([0] * n, dtype="Int64"),
            "gpu_model": "", "gpu_mem_gib": np.nan,
            "managed": pd.array(np.where(hourly, True, rng.random(n) < 0.5), dtype="boolean"),
            "min_term_months": pd.array([None] * n, dtype="Int64"), "price_id": np.arange(n),
            "amount": amount, "unit": np.where(hourly, "hour", "month"),
            "effective_from": dt.date(2026, 1, 19), "source": "bench", "source_url": "",
            "confirmed": True, "stale": False, "currency": "USD",
            "monthly": [float(m) for m in monthly], "monthly_exact": monthly,
            "setup_fee": np.where(hourly, 0.0, 49.0),
            "setup_fee_exact": [Decimal(0) if h else Decimal(49) for h in hourly],
            "per_vcpu_hour": np.nan, "per_gib_hour": np.nan, "per_gpu_hour": np.nan,
        }
    )  # fmt: skip
    frame.attrs["dropped"] = []
    return frame


def measurements(frame: pd.DataFrame, rng: np.random.Generator) -> dict:
    out = {}
    when = dt.datetime(2026, 1, 20)
    for slug, threads in zip(frame["slug"], frame["vcpus"], strict=True):
        speed = rng.uniform(0.5, 1.5)

        def m(cls: str, value: float, k: int, slug=slug, **extra) -> BestMeasurement:
            run = f"run-{slug}-{cls}"
            return BestMeasurement(
                cls, "metric", "unit", value, k, True, run, slug, "cpu", cls, "1.0.0", "standard",
                when, extra=extra,
            )  # fmt: skip

        k = int(threads)
        mean = 0.004 / speed
        out[(slug, "gbm")] = m("gbm", 3e7 * k * speed, k)
        out[(slug, "features")] = m("features", 0.02 * k * speed, k, rss_per_input_gb=1.2)
        out[(slug, "hpo")] = m("hpo", 30.0 * k * speed, k, concurrency=k, t0_seconds=120)
        out[(slug, "inference")] = m(
            "inference", 1 / mean, 1, mean_s=mean, p99_s=mean * 3,
            service_times_s=list(rng.gamma(4.0, mean / 4, 50)),
        )  # fmt: skip
    return out


# --- the floor: the same outputs in plain float64 NumPy ---------------------------------


def floor_capacity(frame: pd.DataFrame, meas: dict, plan: dict) -> np.ndarray:
    slugs = frame["slug"].tolist()
    vcpus = frame["vcpus"].to_numpy(dtype=float)
    ram = frame["ram_gib"].to_numpy(dtype=float)
    growth = 1.02 ** np.arange(HORIZON)
    gbm, feat, hpo, inf = plan["workloads"]
    x_gbm = np.array([meas[(s, "gbm")].value for s in slugs])
    k_gbm = np.array([meas[(s, "gbm")].threads for s in slugs])
    x_f = np.array([meas[(s, "features")].value for s in slugs])
    k_f = np.array([meas[(s, "features")].threads for s in slugs])
    rss = np.array([meas[(s, "features")].extra["rss_per_input_gb"] for s in slugs])
    x_h = np.array([meas[(s, "hpo")].value for s in slugs])
    p_h = np.array([meas[(s, "hpo")].extra["concurrency"] for s in slugs])
    mean = np.array([meas[(s, "inference")].extra["mean_s"] for s in slugs])
    cells = gbm["rows"] * gbm["features"] * gbm["trees"]
    th = gbm["trainings_per_month"] * cells / x_gbm / 3600 * k_gbm
    th += feat["runs_per_month"] * feat["dataset_gb"] / x_f / 3600 * k_f
    th += hpo["searches_per_month"] * hpo["trials"] / x_h * p_h
    lam = inf["peak_rps"] * growth[None, :]
    workers = queueing.min_workers(lam, 1 / mean[:, None], inf["p99_ms"] / 1000)
    queueing.sojourn_quantile(workers[:, 0], lam[0, 0], 1 / mean)  # the p99 each tier reports
    threads = workers + th[:, None] * growth[None, :] / (730 * 0.7)
    servers = np.ceil(threads / vcpus[:, None] - 1e-9)
    memory = feat["dataset_gb"] * rss
    servers = np.where((memory <= ram)[:, None], np.maximum(servers, 1), 0)
    return np.maximum.accumulate(servers, axis=1)


def floor_tco(frame: pd.DataFrame, servers: np.ndarray) -> dict[str, np.ndarray]:
    monthly_price = frame["monthly"].to_numpy(dtype=float)
    setup = frame["setup_fee"].to_numpy(dtype=float)
    ops = np.where((frame["kind"] == "dedicated") & ~frame["managed"].to_numpy(bool), 1690 / 12, 0)
    added = np.maximum(np.diff(servers, axis=1, prepend=servers[:, :1]), 0)
    monthly = servers * (monthly_price + ops)[:, None] + added * setup[:, None]
    one_time = servers[:, 0] * setup
    baseline = 4800 * 1.02 ** np.arange(HORIZON)
    cumulative = one_time[:, None] + np.cumsum(monthly, axis=1)
    base_cum = np.cumsum(baseline)
    behind = cumulative >= base_cum[None, :]
    last = np.where(behind.any(axis=1), HORIZON - np.argmax(behind[:, ::-1], axis=1), 0)
    payback = np.where(last < HORIZON, last + 1, 0)
    factors = (1.07 ** (1 / 12)) ** -np.arange(1, HORIZON + 1)
    return {
        "total": cumulative[:, -1],
        "payback": payback,
        "npv": -one_time + (baseline[None, :] - monthly) @ factors,
        "present": one_time + monthly @ factors,
    }


# --- timing ----------------------------------------------------------------------------


def best_of(fn, repeats: int) -> tuple[float, object]:
    """Least CPU seconds of this process over the repeats.

    CPU time, not wall time: the machine is shared, and wall time there measures the
    neighbours' load as much as this code. The work is single-threaded NumPy, so CPU
    time is what it costs; wall time is kept beside it in the report.
    """
    times, out = [], None
    for _ in range(repeats):
        start = time.process_time()
        out = fn()
        times.append(time.process_time() - start)
    return min(times), out


def wall(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def measure(n: int) -> dict:
    rng = np.random.default_rng(n)
    frame = catalog(n, rng)
    meas = measurements(frame, rng)
    plan = parse_plan(PLAN)
    prices = engine.Prices(frame, "USD")
    specs, _ = engine.plan_options(plan, prices)
    slugs = [o.parts[0].tier for o in specs]

    repeats = REPEATS if n <= 1000 else 1  # the largest sizes run long enough to time once
    t_cap, table = best_of(lambda: engine.size_plan(plan, prices, slugs, meas, {}), repeats)
    priced = [o for o in specs if engine._has_number(o, table)]
    pricer = engine.Pricer(plan, prices, table)
    baseline, _ = pricer.baseline()
    t_tco, money = best_of(lambda: pricer.price(priced, baseline), repeats)
    t_fcap, servers = best_of(lambda: floor_capacity(frame, meas, PLAN), repeats)
    t_ftco, floor = best_of(lambda: floor_tco(frame, servers), repeats)

    wall_s = wall(lambda: pricer.price(priced, baseline)) + wall(
        lambda: engine.size_plan(plan, prices, slugs, meas, {})
    )
    # Same outputs: server counts, totals and payback months agree with the floor.
    ok = table.servers[np.isin(table.status, ["sized", "estimate"])]
    assert np.array_equal(ok, servers[servers[:, 0] > 0]), "server counts differ from the floor"
    totals = money.result.total_cents / 100
    assert np.allclose(totals, floor["total"][servers[:, 0] > 0], atol=0.01 * HORIZON * 3)
    return {
        "tiers": n,
        "months": HORIZON,
        "options_priced": len(priced),
        "capacity_s": t_cap,
        "tco_s": t_tco,
        "floor_capacity_s": t_fcap,
        "floor_tco_s": t_ftco,
        "ratio_capacity": t_cap / t_fcap,
        "ratio_tco": t_tco / t_ftco,
        "ratio_total": (t_cap + t_tco) / (t_fcap + t_ftco),
        "wall_s_capacity_plus_tco_once": wall_s,
    }


def simulation_check_seconds() -> float:
    """One tier's M/G/c check as `evaluate` runs it for a leading option (20,000 customers)."""
    rng = np.random.default_rng(1)
    samples = rng.gamma(4.0, 0.004 / 4, 200)
    start = time.perf_counter()
    queueing.min_workers_by_simulation(800 * 1.02**59, samples, 0.05, customers=20_000)
    return time.perf_counter() - start


def evaluate_seconds(n: int = 1000) -> float:
    """The whole `evaluate` once (results objects and the M/G/c checks included), for scale."""
    rng = np.random.default_rng(n)
    frame = catalog(n, rng)
    meas = measurements(frame, rng)
    start = time.perf_counter()
    engine.compare(parse_plan(PLAN), frame, meas)
    return time.perf_counter() - start


def main() -> None:
    rows = [measure(n) for n in SIZES]
    sizes = np.array([r["tiers"] for r in rows], dtype=float)
    total = np.array([r["capacity_s"] + r["tco_s"] for r in rows])
    slope = float(np.polyfit(np.log(sizes), np.log(total), 1)[0])
    at_1000 = next(r for r in rows if r["tiers"] == 1000)
    report = {
        "measured_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "machine": {
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
        },
        "plan": "60 months, 2 % growth, gbm + features + hpo + inference, every tier sized",
        "clock": "process CPU seconds, least of the repeats (3 up to 1,000 tiers, else 1)",
        "rows": rows,
        "ratio_at_1000_tiers": at_1000["ratio_total"],
        "target_ratio": 10,
        "log_log_slope_100_to_10000": slope,
        "target_slope": "about 1 (linear)",
        "simulation_check_s_per_tier": simulation_check_seconds(),
        "evaluate_s_at_1000_tiers": evaluate_seconds(),
    }
    print(f"{'tiers':>7} {'capacity':>10} {'tco':>9} {'floor cap':>10} {'floor tco':>10} "
          f"{'ratio cap':>9} {'ratio tco':>9} {'ratio':>6}")  # fmt: skip
    for r in rows:
        print(
            f"{r['tiers']:>7} {r['capacity_s'] * 1e3:>8.1f}ms {r['tco_s'] * 1e3:>7.1f}ms "
            f"{r['floor_capacity_s'] * 1e3:>8.1f}ms {r['floor_tco_s'] * 1e3:>8.1f}ms "
            f"{r['ratio_capacity']:>8.1f}x {r['ratio_tco']:>8.1f}x {r['ratio_total']:>5.1f}x"
        )
    print(f"1,000 tiers x 60 months: engine/floor = {report['ratio_at_1000_tiers']:.1f}x "
          f"(target <= 10x)")  # fmt: skip
    print(f"time vs tiers, log-log slope 100 -> 10,000: {slope:.2f} (1.0 = linear)")
    print(f"M/G/c check of one leading tier: {report['simulation_check_s_per_tier'] * 1e3:.0f} ms")
    print(f"whole engine.compare() at 1,000 tiers: {report['evaluate_s_at_1000_tiers']:.2f} s")
    out = ROOT / "bench" / "results" / "engine_scaling.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
