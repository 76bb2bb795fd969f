"""Helpers for the bill importer's tests: the genuine exports under ../shared/reference/bills
and fixtures GENERATED from them at test time (never shipped, never in the repository)."""

from __future__ import annotations

import csv
import gzip
import os
from pathlib import Path

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest

ROOT = Path(__file__).resolve().parents[2]
BILLS = ROOT.parent / "shared" / "reference" / "bills"
FOCUS = "focus/focus10_sample_multicloud_1000.csv"
CUR_LEGACY = "aws_cur/cur_legacy_anonymised_focus_converters.csv"

# The workload the plans built from a bill carry (tests of `baseline.bill`).
GBM_WORK = [{"kind": "gbm", "rows": 1_000_000, "features": 50, "trees": 200,
             "trainings_per_month": 10}]  # fmt: skip


def bill_sample(name: str) -> Path:
    """A genuine export from ../shared/reference/bills; skipped where absent, failing in CI."""
    path = BILLS / name
    if not path.is_file():
        message = f"genuine bill sample {name} not found under {BILLS} (no ../shared here)"
        if os.getenv("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path


def focus_bill(owner, *, catalog: bool = False):
    """The FOCUS sample imported for `owner` (after the default catalog, if asked): its Bill."""
    from bills.services.importing import import_bill
    from catalog.defaults import load_default_catalog

    if catalog:
        load_default_catalog()
    return import_bill(bill_sample(FOCUS), owner).bill


def aws_compute_accounts(bill) -> list[str]:
    """The accounts of the bill's AWS compute lines, sorted (a baseline's filter)."""
    from bills.models import BillLine

    lines = BillLine.objects.filter(bill=bill, provider="AWS", service_category="Compute")
    return sorted(set(lines.values_list("account", flat=True)))


def all_samples() -> list[str]:
    if not BILLS.is_dir():
        return []
    return sorted(str(p.relative_to(BILLS)) for p in BILLS.rglob("*.csv"))


def rows_of(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        return list(reader.fieldnames or []), list(reader)


def write_csv(path: Path, header: list[str], rows: list[dict[str, str]]) -> Path:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=header, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    return path


def generated_parquet(source: Path, target: Path) -> Path:
    """GENERATED: the CSV sample written as Parquet (every column as text, as exported)."""
    header, _ = rows_of(source)
    table = pacsv.read_csv(
        source,
        convert_options=pacsv.ConvertOptions(
            column_types={h: pa.string() for h in header},
            null_values=["", "NULL"],
            strings_can_be_null=True,
            quoted_strings_can_be_null=True,
        ),
    )
    pq.write_table(table, target, row_group_size=300)
    return target


def generated_gzip(source: Path, target: Path) -> Path:
    """GENERATED: the CSV sample gzip-compressed."""
    target.write_bytes(gzip.compress(source.read_bytes()))
    return target


def generated_focus_version(source: Path, target: Path, version: str) -> Path:
    """GENERATED: the FOCUS 1.0 sample with the provider column of a later version: 1.3
    adds ServiceProviderName beside ProviderName, 1.4 keeps only ServiceProviderName."""
    header, rows = rows_of(source)
    for row in rows:
        row["ServiceProviderName"] = row["ProviderName"]
    header = [*header, "ServiceProviderName"]
    if version == "1.4":
        header = [h for h in header if h not in ("ProviderName", "PublisherName")]
    return write_csv(target, header, rows)


def bills_state() -> dict[str, list[tuple]]:
    """Every bill and line: a refusal must leave it equal."""
    from bills.models import Bill, BillLine

    return {
        "bills": list(Bill.objects.order_by("id").values_list()),
        "lines": list(BillLine.objects.order_by("id").values_list()),
    }


def ecb_rates(currency: str, start: str, end: str) -> None:
    """The genuine ECB history (../shared/reference/feeds/ecb) between two ISO dates, as
    the catalog's rows: 1 EUR = rate `currency` on each date."""
    from decimal import Decimal

    from catalog.models import ExchangeRate

    source = BILLS.parent / "feeds" / "ecb" / "eurofxref-hist-20260413.csv"
    if not source.is_file():
        pytest.skip("no ECB history under ../shared/reference/feeds/ecb")
    with source.open(newline="") as handle:
        for row in csv.DictReader(handle):
            if start <= row["Date"] <= end and row.get(currency, "N/A") not in ("N/A", ""):
                ExchangeRate.objects.create(
                    date=row["Date"], from_currency="EUR", to_currency=currency,
                    rate=Decimal(row[currency]), source="ECB euro reference rates (history)",
                )  # fmt: skip


def generated_cur2_parquet(source: Path, target: Path) -> Path:
    """GENERATED: a CUR sample as AWS Data Exports writes CUR 2.0 Parquet: snake-case names,
    the product attributes in a `product` map (keyed by the name after `product_`, the
    region among them) and the resource tags in a `resource_tags` map, both
    map<string, string>; empty cells left out of the map, as AWS does."""
    from bills.readers.aws_cur import snake

    header, rows = rows_of(source)
    names = {h: snake(h) for h in header}
    in_product = [h for h in header if names[h].startswith("product_")]
    tags = [h for h in header if names[h].startswith("resource_tags_")]
    plain = [h for h in header if h not in in_product and h not in tags]

    def mapped(row: dict[str, str], given: list[str], prefix: str) -> list[tuple[str, str]]:
        return [(names[h].removeprefix(prefix), row[h]) for h in given if row.get(h)]

    columns = {names[h]: pa.array([r[h] or None for r in rows], pa.string()) for h in plain}
    kind = pa.map_(pa.string(), pa.string())
    columns["product"] = pa.array([mapped(r, in_product, "product_") for r in rows], kind)
    columns["resource_tags"] = pa.array([mapped(r, tags, "resource_tags_") for r in rows], kind)
    pq.write_table(pa.table(columns), target, row_group_size=300)
    return target
