# ruff: noqa: RUF001, RUF002, RUF003, E501  (×, ÷ and ± in the notes; the report lines)
"""How good the speed estimates are: leave one out on GBM-perf's per-server training times.

A case: a library (xgboost, lightgbm, catboost, h2o), a data size, a held-out server S at
n threads (its measured median time T_S(n)), and a reference server R ≠ S measured at k
threads. The estimate is the model's (estimates/model.py):

    X_S(n) = X_R(k) × (score_S ÷ score_R) × (S(n) ÷ S(k)),   X = 1 ÷ T

with both servers' single-thread scores from the shipped table (their AWS server rows) and
the curve S either pooled from GBM-perf *without S's own sweeps* ("published") or R's own
Amdahl/USL fit ("run"). Error = estimate ÷ measured − 1.

The band: for each held-out server, h = the 90th percentile of |ln(estimate ÷ measured)|
over the cases that involve neither S as target nor as reference (the case tested never
sets its own band); coverage = the share of cases whose measured value lies within
estimate × exp(±h). The shipped band (data/band.json) is that 90th percentile over all
cases of the model the planner uses, plus the measured error of standing a CPU model in by
its nearest neighbour in the table (leave one out over every model with a family member).

Beside it: one generic all-thread score (PassMark CPU Mark), whole server against whole
server, on the same pairs (the public figure for a single generic score is about 30 %
median error).

The project's own runs (`--runs FILE…`; by default the shipped reference runs and the real
runs under tests/fixtures/runs/): every ordered pair of run files of one profile from two
hosts, each host's side as the planner forms it (its own stress-ng figures, else the table's
row for its CPU, else its family's median), the reference run's own fit or the pooled
curve. Printed beside the rest with the share of cases the estimate's own band covers; they
do not set the band (so far two busy 2-CPU VMs, each naming only a CPU family).

Run: .venv/bin/python bench/speed_estimates.py   (writes bench/results/speed_estimates.json
and estimates/data/band.json)
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import json
import math
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks_app import scaling  # noqa: E402
from estimates import model, scores  # noqa: E402

GBMPERF = ROOT.parent / "shared" / "reference" / "speed" / "gbmperf_multicore_scaling.csv"
QUANTILE = 90  # the band is the held-in cases' 90th-percentile error
PUBLIC_GENERIC_MEDIAN = 0.30


def sweeps(path: Path) -> dict[tuple[str, str, str], dict[int, float]]:
    """(tool, server, size) → {threads: median seconds}, one socket's physical cores."""
    out: dict[tuple[str, str, str], dict[int, float]] = defaultdict(dict)
    with path.open() as handle:
        for row in csv.DictReader(handle):
            if row["core_set"] == "physical_1socket" and row["median_train_time_s"]:
                key = (row["tool"], row["instance"], row["rows_millions"])
                out[key][int(row["threads"])] = float(row["median_train_time_s"])
    return out


def server_side(instance: str, table) -> model.Side:
    found = model.cpu_side("", table=table, vendor="aws", server=instance.split()[0], widths=W0)
    assert isinstance(found, model.Side), instance
    return found


W0 = {"model": 0.0, "neighbour": 0.0}


def cases(data, table, scaling_rows, metric: str | None = None):
    servers = sorted({s for _t, s, _z in data})
    sides = {s: server_side(s, table) for s in servers}
    held_out_curves = {s: model.curves_from(scaling_rows, leave_out=s) for s in servers}
    out = []
    for (tool, target, size), times_s in data.items():
        for (tool_r, ref, size_r), times_r in data.items():
            if tool_r != tool or size_r != size or ref == target:
                continue
            ks = sorted(times_r)
            run_fit = scaling.best_fit(ks, [1 / times_r[k] for k in ks])
            curves = held_out_curves[target]
            published = curves.get(tool, curves["all"])
            own = model.Curve.from_fit(run_fit, "run") if run_fit.enough else published
            a, b = sides[ref], sides[target]
            m = metric or model.common_metric(a, b)
            ratio = b.values[m] / a.values[m]
            generic = b.values["pm_cpu_mark"] / a.values["pm_cpu_mark"]
            for k in ks:
                for n in sorted(times_s):
                    measured = 1 / times_s[n]
                    base = (1 / times_r[k]) * ratio
                    out.append({
                        "tool": tool, "size": size, "target": target, "ref": ref, "k": k, "n": n,
                        "measured": measured,
                        "published": base * published.speedup(n) / published.speedup(k),
                        "run": base * own.speedup(n) / own.speedup(k),
                        "single_ratio_only": base,
                        "generic": (1 / times_r[max(ks)]) * generic
                        if k == max(ks) and n == max(times_s) else None,
                    })  # fmt: skip
    return out


OWN_RUNS = [
    *sorted((ROOT / "benchmarks_app" / "reference_runs_data").glob("*.json")),
    *sorted((ROOT / "tests" / "fixtures" / "runs").glob("*.json")),
]


def own_run_cases(paths: list[Path]) -> list[dict]:
    """Leave one out over the project's own run files: each run estimated from every other
    host's run of the same profile, as `benchmarks_app.estimate_selectors` would."""
    runs = []
    for path in paths:
        data = json.loads(path.read_text())
        fingerprint = data["run"].get("fingerprint") or data["target"].get("fingerprint") or {}
        host = data["target"]["name"]
        own = fingerprint.get("speed_scores") or None
        side = model.host_side(str(fingerprint.get("cpu_model") or ""), host, own)
        medians = {int(s["threads"]): float(s["median"]) for s in data["summaries"]}
        runs.append((data["profile"]["name"], host, side, medians))
    out = []
    for name, host, side, medians in runs:
        for name_r, host_r, side_r, medians_r in runs:
            if name_r != name or host_r == host:
                continue
            if not (isinstance(side, model.Side) and isinstance(side_r, model.Side)):
                continue
            ks = sorted(medians_r)
            curve = model.curve_for(name, scaling.best_fit(ks, [medians_r[k] for k in ks]))
            for k in ks:
                for n in sorted(medians):
                    found = model.estimate(medians_r[k], k, side_r, side, n, curve)
                    if isinstance(found, model.Unknown):
                        continue
                    out.append({
                        "profile": name, "target": host, "ref": host_r, "k": k, "n": n,
                        "measured": medians[n], "estimate": found.value,
                        "metric": found.metric, "curve": curve.source,
                        "covered": found.band.low <= medians[n] / found.value <= found.band.high,
                    })  # fmt: skip
    return out


def own_summary(rows: list[dict]) -> dict:
    rel = np.array([abs(r["estimate"] / r["measured"] - 1) for r in rows])
    return {
        "cases": len(rows),
        "pairs": sorted({(r["profile"], r["ref"], r["target"]) for r in rows}),
        "median_error": float(np.median(rel)) if len(rel) else None,
        "p90_error": float(np.percentile(rel, 90)) if len(rel) else None,
        "band_coverage": float(np.mean([r["covered"] for r in rows])) if rows else None,
    }


def summary(rows, key: str) -> dict:
    rel = np.array([abs(r[key] / r["measured"] - 1) for r in rows if r[key] is not None])
    logs = np.array([abs(math.log(r[key] / r["measured"])) for r in rows if r[key] is not None])
    covered = []
    for r in rows:
        if r[key] is None:
            continue
        held_in = [
            abs(math.log(o[key] / o["measured"]))
            for o in rows
            if o[key] is not None and r["target"] not in (o["target"], o["ref"])
        ]
        h = float(np.percentile(held_in, QUANTILE)) if held_in else math.inf
        covered.append(abs(math.log(r[key] / r["measured"])) <= h)
    return {
        "cases": len(rel),
        "median_error": float(np.median(rel)),
        "p90_error": float(np.percentile(rel, 90)),
        "p90_log_error": float(np.percentile(logs, QUANTILE)),
        "band_coverage": float(np.mean(covered)) if covered else None,
    }


def neighbour_error(table) -> dict:
    """|ln(score ÷ nearest family member's score)| over every exact model with a member."""
    errors = []
    for key, row in table.cpus.items():
        if not row.cpu_exact or "pm_single_thread" not in row.values:
            continue
        others = [
            r for r in table.neighbours(row.cpu_family)
            if r.cpu_key != key and "pm_single_thread" in r.values
        ]  # fmt: skip
        if not others:
            continue
        own = model._model_number(key) or 0
        near = min(
            others, key=lambda r: (abs((model._model_number(r.cpu_key) or 0) - own), r.cpu_key)
        )
        errors.append(
            abs(math.log(near.values["pm_single_thread"] / row.values["pm_single_thread"]))
        )
    return {"models": len(errors), "p90_log_error": float(np.percentile(errors, QUANTILE)),
            "median_log_error": float(np.median(errors))}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-write-band", action="store_true", help="print only")
    parser.add_argument("--runs", nargs="*", type=Path, default=OWN_RUNS, metavar="FILE",
                        help="the project's own run files to pair (default: the shipped "
                             "reference runs and tests/fixtures/runs/)")  # fmt: skip
    parser.add_argument(
        "--only-runs",
        action="store_true",
        help="only the project's own runs (seconds; GBM-perf takes minutes)",
    )
    args = parser.parse_args()
    own_rows = own_run_cases(args.runs)
    own = own_summary(own_rows)
    own["profiles"] = {p: own_summary([r for r in own_rows if r["profile"] == p])
                       for p in sorted({r["profile"] for r in own_rows})}  # fmt: skip
    for label, said in [("the project's own runs, every pair", own),
                        *((f"  … {p}", v) for p, v in own["profiles"].items())]:  # fmt: skip
        figures = (f"{said['median_error']:>7.1%} {said['p90_error']:>7.1%} "
                   f"{said['band_coverage']:>12.0%}" if said["cases"] else "")  # fmt: skip
        print(f"{label:<48} {said['cases']:>6} {figures}")
    for profile, ref, target in own["pairs"]:
        print(f"  pair: {profile}, {ref} → {target}")
    if args.only_runs:
        return
    table = scores.load()
    data = sweeps(GBMPERF)
    rows = cases(data, table, table.scaling)
    out = {"date": dt.date.today().isoformat(), "source": str(GBMPERF.name), "variants": {},
           "own_runs": own}  # fmt: skip
    print(f"leave-one-out over {len({r['target'] for r in rows})} GBM-perf servers, "
          f"{len(rows)} (reference k threads → held-out n threads) cases")  # fmt: skip
    print(f"{'variant':<48} {'cases':>6} {'median':>7} {'P90':>7} {'band covers':>12}")
    labels = {
        "published": "single-thread ratio × GBM-perf curve (held out)",
        "run": "single-thread ratio × the reference run's fit",
        "single_ratio_only": "single-thread ratio, no thread scaling",
        "generic": "one generic all-thread score (CPU Mark)",
    }
    for key, label in labels.items():
        s = summary(rows, key)
        out["variants"][key] = s
        cover = f"{s['band_coverage']:.0%}" if s["band_coverage"] is not None else "-"
        print(f"{label:<48} {s['cases']:>6} {s['median_error']:>7.1%} {s['p90_error']:>7.1%} "
              f"{cover:>12}")  # fmt: skip
    print(f"{'public figure for one generic score':<48} {'':>6} {PUBLIC_GENERIC_MEDIAN:>7.0%} "
          f"{'60-90%':>7}")  # fmt: skip
    for metric in ("sng_div16_1core",):
        s = summary(cases(data, table, table.scaling, metric), "published")
        out["variants"][f"published[{metric}]"] = s
        print(f"{'… with stress-ng div16 1-core as the score':<48} {s['cases']:>6} "
              f"{s['median_error']:>7.1%} {s['p90_error']:>7.1%} {s['band_coverage']:>12.0%}")  # fmt: skip
    neighbour = neighbour_error(table)
    out["neighbour"] = neighbour
    print(f"nearest neighbour's single-thread score: {neighbour['models']} models, median "
          f"{math.expm1(neighbour['median_log_error']):.1%}, P90 {math.expm1(neighbour['p90_log_error']):.1%}")  # fmt: skip
    # The planner's model: a reference run's own fit where it has one, else the curve.
    chosen = out["variants"]["run"]
    band = {
        "half_widths": {"model": round(chosen["p90_log_error"], 4),
                        "model_published_curve": round(out["variants"]["published"]["p90_log_error"], 4),
                        "neighbour": round(neighbour["p90_log_error"], 4)},
        "set_by": "bench/speed_estimates.py: 90th percentile of |ln(estimate ÷ measured)|, "
                  "leave one out on GBM-perf (model: the reference run's own fit; model_published_curve: "
                  "the pooled GBM-perf curve, where the run has no fit); nearest-neighbour score "
                  "error (neighbour)",
        "coverage_left_out": chosen["band_coverage"],
        "median_error": round(chosen["median_error"], 4),
        "p90_error": round(chosen["p90_error"], 4),
        "cases": chosen["cases"],
        "date": out["date"],
    }  # fmt: skip
    out["band"] = band
    print(f"band set: ×exp(±{band['half_widths']['model']}) = "
          f"{math.exp(-band['half_widths']['model']):.2f}…{math.exp(band['half_widths']['model']):.2f} "
          f"(left-out coverage {chosen['band_coverage']:.0%}); neighbour adds ±{band['half_widths']['neighbour']}")  # fmt: skip
    (ROOT / "bench" / "results").mkdir(exist_ok=True)
    (ROOT / "bench" / "results" / "speed_estimates.json").write_text(
        json.dumps(out, indent=2) + "\n"
    )
    if not args.no_write_band:
        model.BAND_FILE.write_text(json.dumps(band, indent=2) + "\n")


if __name__ == "__main__":
    main()
