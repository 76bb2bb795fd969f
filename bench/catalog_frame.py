"""Smoke benchmark: catalog_frame on 100, 1,000 and 5,000 tiers.

Builds each catalog in a throwaway SQLite database (two prices per tier, so the
"newest on or before" subquery has history to skip, and a fifth of the tiers priced
in EUR), then times catalog_frame with and without conversion and counts its
queries. Prints a table and writes bench/results/catalog_frame.json.

    .venv/bin/python bench/catalog_frame.py
"""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIZES = (100, 1_000, 5_000)
RUNS = 5
AS_OF = dt.date(2026, 6, 1)


def setup_django(database: Path) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ["SQLITE_PATH"] = str(database)
    os.environ.pop("DATABASE_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", "catalog", verbosity=0)


def grow_to(tiers: int) -> None:
    """Add tiers until the catalog holds `tiers` of them (sizes grow, nothing is deleted)."""
    from catalog.models import ExchangeRate, Price, Provider, Tier

    start = Tier.objects.count()
    provider, _ = Provider.objects.get_or_create(name="Bench")
    Tier.objects.bulk_create(
        [
            Tier(
                slug=f"bench-{i:05d}",
                provider=provider,
                name=f"bench {i}",
                region="r1",
                pricing_model="on_demand",
                kind="cloud_vm",
                vcpus=2 + i % 64,
                ram_gib=Decimal(4 + i % 256),
                gpus=i % 3,
            )
            for i in range(start, tiers)
        ],
        batch_size=1000,
    )
    prices = []
    for tier_id, slug in Tier.objects.filter(slug__gte=f"bench-{start:05d}").values_list(
        "id", "slug"
    ):
        currency = "EUR" if int(slug[-5:]) % 5 == 0 else "USD"
        for day, amount in ((dt.date(2025, 1, 1), "1.1"), (dt.date(2026, 1, 1), "1.0")):
            prices.append(
                Price(
                    tier_id=tier_id,
                    amount=Decimal(amount),
                    unit="hour",
                    currency=currency,
                    effective_from=day,
                    source="bench",
                )
            )
    Price.objects.bulk_create(prices, batch_size=1000)
    ExchangeRate.objects.get_or_create(
        date=dt.date(2026, 1, 19),
        from_currency="EUR",
        to_currency="USD",
        defaults={"rate": Decimal("1.1631"), "source": "bench"},
    )


def measure(currency: str | None) -> tuple[list[float], int, int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from catalog.pricing import catalog_frame

    times = []
    for _ in range(RUNS):
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            frame = catalog_frame(AS_OF, currency)
            times.append(time.perf_counter() - started)
    return times, len(queries.captured_queries), len(frame)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        setup_django(Path(folder) / "bench.sqlite3")
        results = []
        print(
            f"{'tiers':>6} {'rows':>6} {'queries':>7} {'median s':>9} {'min s':>8}"
            f" {'USD: queries':>12} {'median s':>9}"
        )
        for size in SIZES:
            grow_to(size)
            plain, plain_queries, rows = measure(None)
            usd, usd_queries, usd_rows = measure("USD")
            results.append(
                {
                    "tiers": size,
                    "prices": size * 2,
                    "frame_rows": rows,
                    "queries": plain_queries,
                    "median_s": round(statistics.median(plain), 4),
                    "min_s": round(min(plain), 4),
                    "usd_rows": usd_rows,
                    "usd_queries": usd_queries,
                    "usd_median_s": round(statistics.median(usd), 4),
                }
            )
            print(
                f"{size:>6} {rows:>6} {plain_queries:>7} {statistics.median(plain):>9.4f}"
                f" {min(plain):>8.4f} {usd_queries:>12} {statistics.median(usd):>9.4f}"
            )
    report = {
        "benchmark": "catalog_frame",
        "measured_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "database": "SQLite (file, WAL)",
        "python": platform.python_version(),
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, {platform.platform()}",
        "runs_per_size": RUNS,
        "results": results,
    }
    out = ROOT / "bench" / "results" / "catalog_frame.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
