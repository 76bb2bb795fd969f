"""Benchmark: importing a month's cost export of millions of rows, CUR- and FOCUS-shaped.

Generates (into a temporary folder, never the repository) a CUR-shaped month (legacy
`lineItem/...` names, hourly EC2/S3/data-transfer lines) and a FOCUS 1.0-shaped month
(the sample's 44 columns), each of `--rows` rows (5,000,000 by default), then, each in its
own child process (its own peak RSS) and on a throwaway SQLite database, times:

- bare: the chosen engine (pyarrow's streaming CSV reader) reading every batch of the
  file, all columns, nothing converted or kept;
- read: the bill reader (`bills.readers.dispatch.read_bill`): every check, the quality
  flags and the aggregates, no database;
- import: `bills.services.importing.import_bill` into an empty database (the whole job);
- query: the aggregates a bill page asks for (totals, by service, by month, compute lines);
- duckdb-bare / duckdb-agg (only with `--duckdb PYTHON`, a Python that has duckdb): DuckDB
  reading the same file (`count(*)` over `read_csv`, all text), and the same aggregation
  as one GROUP BY: the engine comparison the readers' choice rests on.

Targets (issue 25): import <= 2 x bare, peak RSS < 1 GB. Not run in CI. Prints a table
and writes bench/results/bill_import.json. The bill page's load time at the same size
(issue 26: < 300 ms at 5,000,000 rows) is `bench/bill_page.py`, on these generators.

    .venv/bin/python bench/bill_import.py [--rows 5000000] [--duckdb /path/to/python]
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHUNK = 250_000
DAYS = 30


def peak_rss_mb() -> float:
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# --- generating the files ------------------------------------------------------------------


def _resources(rng, count: int) -> dict:
    """A fleet: each resource keeps its account, region, product, instance type and
    pricing for the month, as in a real export (hourly lines of the same resources)."""
    import numpy as np

    product = _pick(rng, ["AmazonEC2", "AmazonEC2", "AmazonS3", "AWSDataTransfer",
                          "AmazonRDS"], count)  # fmt: skip
    return {
        "id": np.array([f"i-{i:012x}" for i in range(count)], dtype=object),
        "account": _pick(rng, ACCOUNTS, count),
        "region": _pick(rng, REGIONS, count),
        "product": product,
        "instance": np.where(product == "AmazonEC2", _pick(rng, INSTANCES, count), ""),
        "kind": rng.choice(
            ["Usage", "DiscountedUsage", "SavingsPlanCoveredUsage"], count, p=[0.8, 0.1, 0.1]
        ).astype(object),
        "rate": np.round(rng.random(count) * 3, 4),
        "team": _pick(rng, ["ml", "data", "web", ""], count),
    }


def _full(n: int, value: str):
    import numpy as np

    return np.full(n, value, dtype=object)


def _hours(rng, n):
    import numpy as np

    hour = rng.integers(0, DAYS * 24, n)
    start = np.datetime64("2026-03-01T00:00:00") + hour.astype("timedelta64[h]")
    return start, start + np.timedelta64(1, "h")


def _iso(values):
    import numpy as np

    return np.datetime_as_string(values, unit="s").astype(object) + "Z"


def _pick(rng, options, n):
    import numpy as np

    return np.array(options, dtype=object)[rng.integers(0, len(options), n)]


INSTANCES = ["c5.2xlarge", "m5.2xlarge", "r5.4xlarge", "c6i.8xlarge", "m6i.xlarge", "t3.medium",
             "c7g.4xlarge", "g5.xlarge", "p4d.24xlarge", "m7i.16xlarge"]  # fmt: skip
REGIONS = ["us-east-1", "us-west-2", "eu-central-1", "eu-west-1", "ap-southeast-1"]
ACCOUNTS = [f"{100000000000 + i * 7919}" for i in range(12)]


def generate_cur(path: Path, rows: int, seed: int = 1) -> None:
    import numpy as np
    import pyarrow as pa
    import pyarrow.csv as pacsv

    rng = np.random.default_rng(seed)
    fleet = _resources(rng, max(1, rows // (DAYS * 24)))
    writer = None
    with path.open("wb") as sink:
        for first in range(0, rows, CHUNK):
            n = min(CHUNK, rows - first)
            start, end = _hours(rng, n)
            which = rng.integers(0, len(fleet["id"]), n)
            r = {key: values[which] for key, values in fleet.items()}
            amount = np.round(rng.random(n), 6)
            cost = np.round(amount * r["rate"], 10)
            instance = r["instance"].astype(str)
            usage_type = np.where(
                instance != "", np.char.add("BoxUsage:", instance), "TimedStorage"
            )
            text = functools.partial(_full, n)
            table = pa.table({
                "identity/LineItemId": np.char.add("li", np.arange(first, first + n).astype(str)),
                "identity/TimeInterval": _iso(start) + "/" + _iso(end),
                "bill/PayerAccountId": text("999999999999"),
                "bill/BillingPeriodStartDate": text("2026-03-01T00:00:00Z"),
                "lineItem/UsageAccountId": r["account"],
                "lineItem/LineItemType": r["kind"],
                "lineItem/UsageStartDate": _iso(start),
                "lineItem/UsageEndDate": _iso(end),
                "lineItem/ProductCode": r["product"],
                "lineItem/UsageType": usage_type.astype(object),
                "lineItem/Operation": text("RunInstances"),
                "lineItem/AvailabilityZone": r["region"] + "a",
                "lineItem/ResourceId": r["id"],
                "lineItem/UsageAmount": amount,
                "lineItem/CurrencyCode": text("USD"),
                "lineItem/UnblendedRate": r["rate"],
                "lineItem/UnblendedCost": cost,
                "lineItem/LineItemDescription": np.char.add(
                    np.char.add("$0.34 per On Demand Linux ", instance), " Instance Hour"
                ).astype(object),
                "product/ProductName": r["product"],
                "product/instanceType": r["instance"],
                "product/regionCode": r["region"],
                "pricing/publicOnDemandCost": np.round(cost * 1.3, 10),
                "pricing/unit": text("Hrs"),
                "reservation/EffectiveCost": np.round(cost * 0.6, 10),
                "savingsPlan/SavingsPlanEffectiveCost": np.round(cost * 0.7, 10),
                "resourceTags/user:team": r["team"],
            })  # fmt: skip
            if writer is None:
                writer = pacsv.CSVWriter(sink, table.schema)
            writer.write_table(table)
        writer.close()


FOCUS_HEADER = (ROOT.parent / "shared" / "reference" / "bills" / "focus"
                / "focus10_sample_multicloud_1000.csv")  # fmt: skip


def generate_focus(path: Path, rows: int, seed: int = 2) -> None:
    import numpy as np
    import pyarrow as pa
    import pyarrow.csv as pacsv

    rng = np.random.default_rng(seed)
    categories = ["Compute", "Storage", "Networking", "Databases", "AI and Machine Learning"]
    count = max(1, rows // (DAYS * 24))
    fleet = _resources(rng, count) | {
        "provider": rng.choice(["AWS", "Microsoft", "Oracle"], count, p=[0.8, 0.15, 0.05]),
        "category": _pick(rng, categories, count),
        "sku": _pick(rng, [f"SKU{i:04d}" for i in range(40)], count),
        "committed": rng.random(count) < 0.1,
        "tags": _pick(rng, ['{"team": "ml"}', '{"team": "web"}', ""], count),
    }
    writer = None
    with path.open("wb") as sink:
        for first in range(0, rows, CHUNK):
            n = min(CHUNK, rows - first)
            start, end = _hours(rng, n)
            which = rng.integers(0, count, n)
            r = {key: values[which] for key, values in fleet.items()}
            provider, category, committed = r["provider"], r["category"], r["committed"]
            instance = np.where(r["instance"] != "", r["instance"], "m5.2xlarge").astype(str)
            billed = np.round(rng.random(n) * 2, 10)
            effective = np.where(provider == "AWS", np.round(billed), billed)  # AWS: rounded
            text = functools.partial(_full, n)
            table = pa.table({
                "AvailabilityZone": r["region"] + "a",
                "BilledCost": np.where(committed, 0.0, billed),
                "BillingAccountId": text("1234567890123"),
                "BillingAccountName": text("SunBird"),
                "BillingCurrency": text("USD"),
                "BillingPeriodEnd": text("2026-04-01 00:00:00"),
                "BillingPeriodStart": text("2026-03-01 00:00:00"),
                "ChargeCategory": text("Usage"),
                "ChargeClass": text(""),
                "ChargeDescription": np.char.add(
                    np.char.add("$0.34 per On Demand Linux ", instance), " Instance Hour"
                ).astype(object),
                "ChargeFrequency": text("Usage-Based"),
                "ChargePeriodEnd": np.datetime_as_string(end, unit="s").astype(object),
                "ChargePeriodStart": np.datetime_as_string(start, unit="s").astype(object),
                "CommitmentDiscountCategory": np.where(committed, "Spend", "").astype(object),
                "CommitmentDiscountId": np.where(committed, "sp-1", "").astype(object),
                "CommitmentDiscountName": text(""),
                "CommitmentDiscountStatus": np.where(committed, "Used", "").astype(object),
                "CommitmentDiscountType": np.where(committed, "Savings Plan", "").astype(object),
                "ConsumedQuantity": np.ones(n),
                "ConsumedUnit": text("Hours"),
                "ContractedCost": np.zeros(n),
                "ContractedUnitPrice": np.zeros(n),
                "EffectiveCost": effective,
                "InvoiceIssuerName": text("Amazon Web Services, Inc."),
                "ListCost": np.round(billed * 1.4, 10),
                "ListUnitPrice": np.round(billed * 1.4, 10),
                "PricingCategory": np.where(committed, "Committed", "Standard").astype(object),
                "PricingQuantity": np.ones(n),
                "PricingUnit": text("Hours"),
                "ProviderName": provider.astype(object),
                "PublisherName": provider.astype(object),
                "RegionId": r["region"],
                "RegionName": text(""),
                "ResourceId": r["id"],
                "ResourceName": text(""),
                "ResourceType": text("instance"),
                "ServiceCategory": category,
                "Id": np.arange(first, first + n),
                "ServiceName": text("Amazon Elastic Compute Cloud"),
                "SkuId": r["sku"],
                "SkuPriceId": text(""),
                "SubAccountId": r["account"],
                "SubAccountName": text("Atlas"),
                "Tags": r["tags"],
            })  # fmt: skip
            if writer is None:
                writer = pacsv.CSVWriter(sink, table.schema)
            writer.write_table(table)
        writer.close()


# --- the measurements (each in its own child process) ----------------------------------------


def setup_django(database: Path) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ["SQLITE_PATH"] = str(database)
    os.environ.pop("DATABASE_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def phase(name: str, path: Path, database: Path) -> dict:
    start = time.perf_counter()
    cpu = time.process_time()
    result: dict = {}
    if name == "bare":
        import pyarrow.csv as pacsv

        rows = 0
        for batch in pacsv.open_csv(path, read_options=pacsv.ReadOptions(block_size=8 << 20)):
            rows += batch.num_rows
        result["rows"] = rows
    elif name == "read":
        sys.path.insert(0, str(ROOT))
        from bills.readers.dispatch import read_bill

        read = read_bill(path)
        result |= {"rows": read.rows, "lines": read.lines.num_rows}
    elif name in ("import", "query"):
        setup_django(database)
        from django.contrib.auth import get_user_model
        from django.core.management import call_command

        from bills import selectors
        from bills.services.importing import import_bill

        if name == "import":
            database.unlink(missing_ok=True)
            call_command("migrate", verbosity=0)
            start, cpu = time.perf_counter(), time.process_time()
            user = get_user_model().objects.create_user("bench")
            imported = import_bill(path, user)
            result |= {"rows": imported.bill.rows, "lines": imported.bill.lines.count()}
        else:
            bill = selectors.bills_of(get_user_model().objects.get(username="bench")).first()
            start, cpu = time.perf_counter(), time.process_time()
            got = (selectors.totals(bill), selectors.by_service(bill), selectors.by_month(bill),
                   selectors.compute_lines(bill))  # fmt: skip
            result |= {"by_service": len(got[1]), "compute_lines": len(got[3])}
    elif name.startswith("duckdb"):
        import duckdb

        con = duckdb.connect()
        con.execute("SET memory_limit='1GB'")
        source = f"read_csv('{path}', all_varchar=true, header=true)"
        if name == "duckdb-bare":
            result["rows"] = con.execute(f"SELECT count(*) FROM {source}").fetchone()[0]
        else:
            cur = "lineItem/UnblendedCost" if "cur" in path.name else "BilledCost"
            day = "lineItem/UsageStartDate" if "cur" in path.name else "ChargePeriodStart"
            keys = (["lineItem/UsageAccountId", "product/regionCode", "lineItem/ProductCode",
                     "product/instanceType", "lineItem/LineItemType"] if "cur" in path.name
                    else ["SubAccountId", "RegionId", "ServiceCategory", "SkuId",
                          "PricingCategory", "ProviderName"])  # fmt: skip
            quoted = ", ".join(f'"{k}"' for k in keys)
            sql = (f'SELECT substr("{day}", 1, 10) AS day, {quoted}, sum(CAST("{cur}" AS DOUBLE)),'
                   f" count(*) FROM {source} GROUP BY ALL")  # fmt: skip
            result["lines"] = len(con.execute(sql).fetchall())
    result["seconds"] = round(time.perf_counter() - start, 2)
    result["cpu_seconds"] = round(time.process_time() - cpu, 2)
    result["peak_rss_mb"] = round(peak_rss_mb(), 1)
    return result


def run_phase(name: str, path: Path, database: Path, python: str = sys.executable) -> dict:
    out = subprocess.run(
        [python, __file__, "--phase", name, "--file", str(path), "--db", str(database)],
        check=True, capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=5_000_000)
    parser.add_argument("--duckdb", default="", help="a Python with duckdb installed")
    parser.add_argument("--keep", default="", help="reuse/keep generated files in this folder")
    parser.add_argument("--only", choices=["cur", "focus"], help="one shape only")
    parser.add_argument("--phase")
    parser.add_argument("--file", type=Path)
    parser.add_argument("--db", type=Path)
    args = parser.parse_args()
    if args.phase:
        print(json.dumps(phase(args.phase, args.file, args.db)))
        return
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bill-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    results: dict = {"rows": args.rows, "machine": platform.platform(),
                     "cpus": os.cpu_count(), "files": {}}  # fmt: skip
    try:
        for shape, make in (("cur", generate_cur), ("focus", generate_focus)):
            if args.only and shape != args.only:
                continue
            path = work / f"{shape}-{args.rows}.csv"
            if not path.exists():
                began = time.perf_counter()
                partial = path.with_suffix(".partial")
                make(partial, args.rows)
                partial.rename(path)
                print(f"generated {path} in {time.perf_counter() - began:.0f} s", flush=True)
            database = work / f"{shape}.sqlite3"
            got: dict = {"file_mb": round(path.stat().st_size / 1e6, 1)}
            names = ["bare", "read", "import", "query"]
            for name in names:
                got[name] = run_phase(name, path, database)
                print(f"  {shape} {name}: {got[name]}", flush=True)
            if args.duckdb:
                for name in ("duckdb-bare", "duckdb-agg"):
                    got[name] = run_phase(name, path, database, args.duckdb)
                    print(f"  {shape} {name}: {got[name]}", flush=True)
            got["import_over_bare"] = round(got["import"]["seconds"] / got["bare"]["seconds"], 2)
            got["import_cpu_over_bare_cpu"] = round(
                got["import"]["cpu_seconds"] / max(got["bare"]["cpu_seconds"], 0.01), 2
            )
            results["files"][shape] = got
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    out = ROOT / "bench" / "results" / f"bill_import{'_' + args.only if args.only else ''}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n")
    print(f"\n{'file':6} {'MB':>7} {'bare s':>7} {'read s':>7} {'import s':>9} {'ratio':>6} "
          f"{'RSS MB':>7} {'query s':>8}")  # fmt: skip
    for shape, got in results["files"].items():
        print(f"{shape:6} {got['file_mb']:>7} {got['bare']['seconds']:>7} "
              f"{got['read']['seconds']:>7} {got['import']['seconds']:>9} "
              f"{got['import_over_bare']:>6} {got['import']['peak_rss_mb']:>7} "
              f"{got['query']['seconds']:>8}")  # fmt: skip
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
