"""Benchmark: reading a large synthetic AWS Savings Plans region file.

Generates a file in the price list's layout (savings-plans/README.md): 12 plans (Compute
and EC2 Instance, 1 and 3 years, three payment options), each with a rate for every
(instance type, variant) — `--types` types (800 by default: AWS offered 829 Linux types in
us-east-1 in 2025) x `--variants` usage type / operation pairs (16: Linux shared, other
operating systems, dedicated, unused reservations), so 800 x 16 x 12 = 153,600 rates. The
prices are made up; only the size and layout matter. Times the reader
(`aws_savings_plans._PlanFile`, streaming with ijson) handing over every kept record,
joined to a synthetic EC2 tier per type (no database write), and its peak RSS. Prints the
figures and writes bench/results/savings_plans_read.json. Not run in CI.

    .venv/bin/python bench/savings_plans_read.py [--types 800] [--variants 16]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLANS = [(family, term, option)
         for family in ("ComputeSavingsPlans", "EC2InstanceSavingsPlans")
         for term in ("1yr", "3yr")
         for option in ("No Upfront", "Partial Upfront", "All Upfront")]  # fmt: skip


def synthesize(path: Path, types: int, variants: int) -> int:
    """Write the file; returns the number of rates."""
    names = [f"x{i // 20}.{['large', 'xlarge'][i % 2]}{i}" for i in range(types)]
    usage = [("BoxUsage", "RunInstances")] + [
        (("BoxUsage", "DedicatedUsage", "UnusedBox")[v % 3], f"RunInstances:{v:04d}")
        for v in range(1, variants)
    ]
    rates = 0
    with path.open("w") as out:
        products = [{"sku": f"SYNTHSKU{i:08d}", "productFamily": family,
                     "serviceCode": "ComputeSavingsPlans", "usageType": f"SP:{term}",
                     "operation": "", "attributes": {"purchaseOption": option,
                     "purchaseTerm": term, "location": "Any"}}
                    for i, (family, term, option) in enumerate(PLANS)]  # fmt: skip
        out.write('{\n  "version" : "20261201000000",\n')
        out.write('  "publicationDate" : "2026-12-01T00:00:00Z",\n  "products" : ')
        out.write(json.dumps(products, indent=2))
        out.write(',\n  "terms" : {\n    "savingsPlan" : [')
        for i, (_, term, _) in enumerate(PLANS):
            sku = f"SYNTHSKU{i:08d}"
            items = []
            for n, name in enumerate(names):
                for k, (kind, operation) in enumerate(usage):
                    items.append({"discountedSku": f"D{n:07d}{k:04d}", "discountedServiceCode":
                                  "AmazonEC2", "discountedUsageType": f"USE2-{kind}:{name}",
                                  "discountedOperation": operation,
                                  "rateCode": f"{sku}.R{n:07d}{k:04d}", "unit": "Hrs",
                                  "discountedRate": {"price": f"0.{n % 97 + 1:04d}",
                                                     "currency": "USD"}})  # fmt: skip
            rates += len(items)
            term_json = {"sku": sku, "description": "synthetic",
                         "leaseContractLength": {"duration": int(term[0]), "unit": "year"},
                         "rates": items}  # fmt: skip
            out.write(("," if i else "") + "\n" + json.dumps(term_json, indent=2))
        out.write("]\n  }\n}\n")
    return rates


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--types", type=int, default=800)
    parser.add_argument("--variants", type=int, default=16)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    # The project configuration moves to config/ (issue 19): whichever exists.
    moved = (ROOT / "config" / "settings.py").exists()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", f"{'config' if moved else 'planner'}.settings")
    import django

    django.setup()  # the reader's module imports the catalog's models (no database is used)
    from catalog.feeds.aws_savings_plans import _PlanFile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "sp-us-east-2.json"
        started = time.perf_counter()
        rates = synthesize(path, args.types, args.variants)
        made = time.perf_counter() - started
        size = path.stat().st_size
        names = [f"x{i // 20}.{['large', 'xlarge'][i % 2]}{i}" for i in range(args.types)]
        tiers = {name: {"name": name, "kind": "cloud_vm", "vcpus": 2, "ram_gib": 8,
                        "cpu_model": None, "cpu_flags": None, "storage_type": None, "gpus": 0,
                        "gpu_mem_gib": None, "network": None} for name in names}  # fmt: skip
        started = time.perf_counter()
        reading = _PlanFile(path, "us-east-2", None, tiers).reading()
        records = sum(1 for _ in reading.records)
        seconds = time.perf_counter() - started
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    result = {
        "types": args.types, "variants": args.variants, "rates": rates, "bytes": size,
        "records": records, "read_seconds": round(seconds, 2),
        "rates_per_second": round(rates / seconds), "peak_rss_mb": round(peak_mb),
        "synthesize_seconds": round(made, 2), "python": platform.python_version(),
        "machine": platform.machine(),
    }  # fmt: skip
    for key, value in result.items():
        print(f"{key:>20}: {value}")
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "savings_plans_read.json").write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
