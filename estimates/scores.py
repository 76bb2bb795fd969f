"""The speed-score table shipped with the product, and how it is built from public data.

`data/speed_scores.csv` (CC BY-SA 4.0, derived from Spare Cores' sc-inspector-data: see
data/ATTRIBUTION.md) has one row per server type (`row_kind` "server": the CPU the runs
saw, its vCPUs and scores) and one per CPU model key (`row_kind` "cpu": the median of its
server rows). `data/gbm_scaling.csv` (MIT, from szilard/GBM-perf) has each library's
measured speed-up X(n)/X(1) by thread count on named servers.

`build_scores` and `build_scaling` derive them from the reference CSVs; the management
command `refresh_speed_scores` writes them from newer files. `load()` reads the shipped
tables once per process.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .cpu_keys import cpu_key, display

DATA = Path(__file__).parent / "data"
SCORES_FILE = DATA / "speed_scores.csv"
SCALING_FILE = DATA / "gbm_scaling.csv"

# The single-thread and all-thread scores a ratio may be formed from, best first.
SCORES = ("pm_single_thread", "sng_div16_1core", "gb6_single")
ALL_THREAD_SCORES = ("pm_cpu_mark", "sng_div16_all", "gb6_multi")
SCORE_COLUMNS = (*SCORES, *ALL_THREAD_SCORES, "gb6_multi_object_detection")
COLUMNS = (
    "row_kind", "vendor", "server_id", "cpu_key", "cpu_exact", "cpu_family", "cpu_model",
    "vcpus", *SCORE_COLUMNS, "n_servers", "date", "source", "licence",
)  # fmt: skip
SPARECORES_SOURCE = "Spare Cores (sparecores.com), sc-inspector-data"
SPARECORES_LICENCE = "CC BY-SA 4.0"
GBMPERF_SOURCE = "szilard/GBM-perf, analysis/multicore-*/results"
GBMPERF_LICENCE = "MIT"
SCALING_COLUMNS = ("tool", "instance", "cpu_key", "rows_millions", "threads", "speedup",
                   "date", "source", "licence")  # fmt: skip
SPARECORES_HEADER = {"vendor", "server_id", "cpu_model", "vcpus", "pm_single_thread"}
GBMPERF_HEADER = {"instance", "cpu", "tool", "threads", "median_train_time_s", "core_set"}


class TableError(ValueError):
    """A file the builder cannot read: `line` and `reason` say where and why."""

    def __init__(self, path: str, line: int, reason: str) -> None:
        super().__init__(f"{path}, line {line}: {reason}")
        self.path, self.line, self.reason = path, line, reason


def _number(value: str | None) -> float | None:
    try:
        number = float(value) if value not in (None, "") else None
    except ValueError:
        return None
    return number if number is not None and number > 0 else None


def _date(row: Mapping[str, str]) -> str:
    dates = [row.get(k) or "" for k in ("pm_date", "sng_date", "gb6_date")]
    return max(d for d in dates) if any(dates) else ""


def build_scores(rows: Iterable[Mapping[str, str]], path: str = "") -> list[dict[str, str]]:
    """Server rows (one per vendor and server type) then CPU rows (one per model key, the
    median over its servers' scores), from Spare Cores' per-server results."""
    servers: list[dict[str, str]] = []
    for line, row in enumerate(rows, start=2):
        missing = SPARECORES_HEADER - set(row)
        if missing:
            raise TableError(path, line, f"missing column(s) {', '.join(sorted(missing))}")
        key = cpu_key(row["cpu_model"])
        scores = {c: _number(row.get(c)) for c in SCORE_COLUMNS}
        if not key or not any(scores[c] for c in SCORES):
            continue
        servers.append({
            "row_kind": "server", "vendor": row["vendor"], "server_id": row["server_id"],
            "cpu_key": key.key, "cpu_exact": "1" if key.exact else "0",
            "cpu_family": key.family, "cpu_model": row["cpu_model"].strip(),
            "vcpus": row.get("vcpus") or "",
            **{c: _fmt(v) for c, v in scores.items()}, "n_servers": "1",
            "date": _date(row), "source": SPARECORES_SOURCE, "licence": SPARECORES_LICENCE,
        })  # fmt: skip
    by_key: dict[str, list[dict[str, str]]] = defaultdict(list)
    for row in servers:
        by_key[row["cpu_key"]].append(row)
    cpus = []
    for key, group in sorted(by_key.items()):
        first = group[0]
        medians = {}
        for c in SCORE_COLUMNS:
            values = [float(r[c]) for r in group if r[c] and c not in ALL_THREAD_SCORES]
            medians[c] = _fmt(statistics.median(values)) if values else ""
        cpus.append({
            "row_kind": "cpu", "vendor": "", "server_id": "", "cpu_key": key,
            "cpu_exact": first["cpu_exact"], "cpu_family": first["cpu_family"],
            "cpu_model": first["cpu_model"], "vcpus": "", **medians,
            "n_servers": str(len(group)), "date": max(r["date"] for r in group),
            "source": SPARECORES_SOURCE, "licence": SPARECORES_LICENCE,
        })  # fmt: skip
    servers.sort(key=lambda r: (r["vendor"], r["server_id"]))
    return servers + cpus


def build_scaling(rows: Iterable[Mapping[str, str]], path: str = "") -> list[dict[str, str]]:
    """Each (library, server, data size) sweep on one socket's physical cores as speed-ups
    X(n)/X(1) = T(1)/T(n)."""
    sweeps: dict[tuple[str, str, str], dict[int, float]] = defaultdict(dict)
    meta: dict[tuple[str, str, str], tuple[str, str]] = {}
    for line, row in enumerate(rows, start=2):
        missing = GBMPERF_HEADER - set(row)
        if missing:
            raise TableError(path, line, f"missing column(s) {', '.join(sorted(missing))}")
        if row["core_set"] != "physical_1socket":
            continue
        seconds = _number(row["median_train_time_s"])
        try:
            threads = int(row["threads"])
        except ValueError:
            raise TableError(
                path, line, f"threads {row['threads']!r} is not a whole number"
            ) from None
        if seconds is None:
            continue
        sweep_key = (row["tool"], row["instance"], row.get("rows_millions", ""))
        sweeps[sweep_key][threads] = seconds
        meta[sweep_key] = (cpu_key(row["cpu"]).key, row.get("run_date", ""))
    out = []
    for (tool, instance, size), times in sorted(sweeps.items()):
        if 1 not in times:
            continue
        key, date = meta[(tool, instance, size)]
        for threads, seconds in sorted(times.items()):
            out.append({
                "tool": tool, "instance": instance, "cpu_key": key, "rows_millions": size,
                "threads": str(threads), "speedup": _fmt(times[1] / seconds), "date": date,
                "source": GBMPERF_SOURCE, "licence": GBMPERF_LICENCE,
            })  # fmt: skip
    return out


def _fmt(value: float | None) -> str:
    return "" if value is None else f"{value:.6g}"


def render(rows: list[dict[str, str]], columns: Iterable[str]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(columns), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def kind_of(header: Iterable[str]) -> str | None:
    """ "scores" (Spare Cores' columns), "scaling" (GBM-perf's) or None."""
    names = set(header)
    if names >= SPARECORES_HEADER:
        return "scores"
    if names >= GBMPERF_HEADER:
        return "scaling"
    return None


# --- the shipped tables, read ------------------------------------------------------------


@dataclass(frozen=True)
class Score:
    """One row of the table: a server type's or a CPU model's scores."""

    row_kind: str
    vendor: str
    server_id: str
    cpu_key: str
    cpu_exact: bool
    cpu_family: str
    cpu_model: str
    vcpus: int | None
    values: dict[str, float]
    n_servers: int
    date: str
    source: str
    licence: str

    def single_thread(self, metric: str) -> float | None:
        return self.values.get(metric)


@dataclass
class ScoreTable:
    servers: dict[tuple[str, str], Score] = field(default_factory=dict)  # (vendor, id lower)
    cpus: dict[str, Score] = field(default_factory=dict)
    scaling: list[dict[str, str]] = field(default_factory=list)

    def server(self, vendor: str, server_id: str) -> Score | None:
        return self.servers.get((vendor, server_id.lower()))

    def cpu(self, key: str) -> Score | None:
        return self.cpus.get(key)

    def neighbours(self, family: str) -> list[Score]:
        """Model rows of the same family (exact models only), for a model none covers."""
        return [s for s in self.cpus.values() if s.cpu_exact and s.cpu_family == family]

    def series(self, vendor: str, prefix: str) -> list[Score]:
        """Server rows of a vendor whose type starts with `prefix` ("c5." …)."""
        prefix = prefix.lower()
        return [s for (v, sid), s in self.servers.items() if v == vendor and sid.startswith(prefix)]


def _score(row: Mapping[str, str]) -> Score:
    values = {c: float(row[c]) for c in SCORE_COLUMNS if row.get(c)}
    return Score(
        row["row_kind"], row["vendor"], row["server_id"], row["cpu_key"],
        row["cpu_exact"] == "1", row["cpu_family"], row["cpu_model"],
        int(row["vcpus"]) if row["vcpus"] else None, values, int(row["n_servers"] or 1),
        row["date"], row["source"], row["licence"],
    )  # fmt: skip


def read_table(scores_text: str, scaling_text: str = "") -> ScoreTable:
    table = ScoreTable()
    for row in csv.DictReader(io.StringIO(scores_text)):
        score = _score(row)
        if score.row_kind == "server":
            table.servers[(score.vendor, score.server_id.lower())] = score
        else:
            table.cpus[score.cpu_key] = score
    if scaling_text:
        table.scaling = list(csv.DictReader(io.StringIO(scaling_text)))
    return table


@functools.cache
def load() -> ScoreTable:
    """The shipped tables (read once per process)."""
    return read_table(SCORES_FILE.read_text(), SCALING_FILE.read_text())


def about(table: ScoreTable | None = None) -> dict[str, object]:
    """What the sources page says of the shipped speed data: sources, licences, size, date."""
    table = table or load()
    rows = [*table.servers.values(), *table.cpus.values()]
    return {
        "file": "estimates/data/speed_scores.csv",
        "source": SPARECORES_SOURCE,
        "source_url": "https://github.com/SpareCores/sc-inspector-data",
        "licence": SPARECORES_LICENCE,
        "licence_url": "https://creativecommons.org/licenses/by-sa/4.0/",
        "servers": len(table.servers),
        "cpus": len(table.cpus),
        "newest": max((r.date for r in rows), default=""),
        "curves_source": GBMPERF_SOURCE,
        "curves_licence": GBMPERF_LICENCE,
        "band": _percent(json.loads((DATA / "band.json").read_text())),
    }


def _percent(band: dict) -> dict:
    """The bench's fractions as percentages, for the page."""
    keys = ("median_error", "p90_error", "coverage_left_out")
    return {**band, **{f"{k}_pct": round(100 * band[k], 1) for k in keys if k in band}}


# --- a tier's CPU, as the offer names it and as public runs saw it ------------------------

# Catalog provider names → the vendor column of the table.
VENDORS = {
    "aws": "aws", "amazon web services": "aws", "azure": "azure", "microsoft azure": "azure",
    "gcp": "gcp", "google cloud": "gcp", "google cloud platform": "gcp",
    "hetzner cloud": "hcloud", "hcloud": "hcloud", "ovh": "ovh", "ovhcloud": "ovh",
    "vultr": "vultr", "upcloud": "upcloud", "alibaba cloud": "alicloud", "alicloud": "alicloud",
}  # fmt: skip


def vendor_of(provider: str) -> str:
    name = (provider or "").strip().lower()
    return VENDORS.get(name, name)


@dataclass(frozen=True)
class TierCpuLabel:
    shown: str  # the offer's CPU, else the one public runs saw ("" when neither)
    runs_saw: str  # the CPU public runs saw, where it differs from the offer's
    from_runs: bool  # `shown` is what public runs saw (the offer names none)


def tier_cpu_label(provider: str, name: str, cpu_model: str | None,
                   table: ScoreTable | None = None) -> TierCpuLabel:  # fmt: skip
    """What a catalog row shows as the tier's CPU: "offer: Xeon 8124M; runs saw Xeon
    8275CL" where they differ."""
    table = table or load()
    offered = display(cpu_model)
    row = table.server(vendor_of(provider), name or "")
    seen = display(row.cpu_model) if row else ""
    if not offered:
        return TierCpuLabel(seen, "", bool(seen))
    if seen and cpu_key(cpu_model).key != row.cpu_key:
        return TierCpuLabel(offered, seen, False)
    return TierCpuLabel(offered, "", False)


# --- refreshing the shipped tables from newer files ----------------------------------------


def refresh(paths: Iterable[str | Path], out_dir: Path = DATA) -> dict[str, int]:
    """Rebuild the tables from the given files (each recognised by its header: Spare Cores'
    per-server scores, GBM-perf's scaling results); a table no file is given for is kept.
    All files are read and checked before anything is written; each table is written to a
    temporary file and moved into place. Returns the rows written per table."""
    built: dict[Path, str] = {}
    counts: dict[str, int] = {}
    for path in map(Path, paths):
        try:
            with path.open(newline="", encoding="utf-8") as handle:
                reader = csv.DictReader(handle)
                kind = kind_of(reader.fieldnames or [])
                if kind == "scores":
                    rows = build_scores(reader, str(path))
                    built[out_dir / SCORES_FILE.name] = render(rows, COLUMNS)
                elif kind == "scaling":
                    rows = build_scaling(reader, str(path))
                    built[out_dir / SCALING_FILE.name] = render(rows, SCALING_COLUMNS)
                else:
                    raise TableError(
                        str(path), 1,
                        "neither Spare Cores' per-server scores (vendor, server_id, cpu_model, "
                        "vcpus, pm_single_thread…) nor GBM-perf's results (instance, cpu, tool, "
                        "threads, median_train_time_s, core_set)",
                    )  # fmt: skip
        except (OSError, UnicodeDecodeError) as exc:
            raise TableError(str(path), 0, f"cannot read: {exc}") from None
        if not rows:
            raise TableError(str(path), 1, "no usable row")
        counts[kind] = len(rows)
    for target, text in built.items():
        temporary = target.with_suffix(".tmp")
        temporary.write_text(text, encoding="utf-8")
        temporary.replace(target)
    load.cache_clear()
    return counts
