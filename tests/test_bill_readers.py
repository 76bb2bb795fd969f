"""The pure bill readers on every genuine export under ../shared/reference/bills and on
fixtures GENERATED from them at test time (Parquet, gzip, FOCUS 1.3/1.4 names, Azure MCA
and pay-as-you-go rows on the header sets)."""

from __future__ import annotations

import math
from collections import defaultdict
from decimal import Decimal
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from bills.readers.dispatch import read_bill
from bills.readers.errors import BillRefused
from tests.support.bills import (
    CUR_LEGACY,
    FOCUS,
    all_samples,
    bill_sample,
    generated_cur2_parquet,
    generated_focus_version,
    generated_gzip,
    generated_parquet,
    rows_of,
    write_csv,
)

# Every genuine file: (kind, version, view) it imports as, or the code it is refused with.
EXPECTED = {
    "aws_cur/cur_legacy_anonymised_focus_converters.csv": ("aws_cur", "legacy", "amortized"),
    "aws_cur/koku_cur_athena_snakecase_fixture.csv": ("aws_cur", "2.0", "amortized"),
    "azure/azure_ea_actualcost_small_finops_toolkit.csv": ("azure", "ea", "actual"),
    "azure/azure_ea_amortizedcost_small_finops_toolkit.csv": ("azure", "ea", "amortized"),
    "azure/koku_azure_camelcase_fixture.csv": ("azure", "payg", "actual"),
    "azure/koku_azure_v2_fixture.csv": "bills.value.bad_currency",  # "MC": not ISO 4217
    "azure/opencost_headersets/BOM.csv": "bills.value.missing",  # its one row is empty
    "azure/opencost_headersets/Enterprise.csv": ("azure", "mca", "actual"),
    "azure/opencost_headersets/EnterpriseCamel.csv": ("azure", "ea", "actual"),
    "azure/opencost_headersets/German.csv": ("azure", "payg", "actual"),
    "azure/opencost_headersets/PayAsYouGo.csv": ("azure", "payg", "actual"),
    "azure/opencost_headersets/YA.csv": ("azure", "ea", "actual"),
    # no currency column: a value-only subset, not an export
    "azure/opencost_headersets/values_VirtualMachine.csv": "bills.header.unknown_version",
    "focus/focus10_sample_multicloud_1000.csv": ("focus", "1.0", "focus"),
    "gcp/koku_gcp_billing_export_fixture.csv": ("gcp", "standard", "actual"),
}
# The spec's worked examples carry only the columns each example needs (no currency).
SPEC_EXAMPLE = "bills.header.unknown_version"


@pytest.mark.parametrize("name", all_samples() or ["(no ../shared)"])
def test_every_genuine_file_imports_or_is_refused_with_a_reason(name: str) -> None:
    path = bill_sample(name)
    expected = EXPECTED.get(name, SPEC_EXAMPLE if name.startswith("focus/spec_examples/") else None)
    assert expected is not None, f"{name}: a new sample with no expectation"
    if isinstance(expected, str):
        with pytest.raises(BillRefused) as refused:
            read_bill(path)
        assert refused.value.message.code == expected
        assert refused.value.message.params["file"] == path.name
        return
    bill = read_bill(path)
    assert (bill.kind, bill.version, bill.view) == expected
    assert bill.rows == len(rows_of(path)[1])
    assert int(pc.sum(bill.lines.column("rows")).as_py()) == bill.rows


def _plain_sums(path: Path) -> dict[tuple[str, str], list[Decimal]]:
    sums: dict[tuple[str, str], list[Decimal]] = defaultdict(lambda: [Decimal(0)] * 3)
    for row in rows_of(path)[1]:
        key = (row["ProviderName"], row["ServiceCategory"])
        for i, column in enumerate(("BilledCost", "EffectiveCost", "ListCost")):
            value = row[column]
            sums[key][i] += Decimal(value) if value not in ("", "NULL") else Decimal(0)
    return sums


def _read_sums(bill) -> dict[tuple[str, str], list[float]]:
    sums: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0] * 3)
    for row in bill.lines.to_pylist():
        key = (row["provider"], row["service_category"])
        for i, column in enumerate(("billed", "effective", "list")):
            sums[key][i] += row[column]
    return sums


def _same(read: dict, plain: dict) -> None:
    assert set(read) == set(plain)
    for key, values in plain.items():
        for got, want in zip(read[key], values, strict=True):
            assert math.isclose(got, float(want), rel_tol=1e-9, abs_tol=1e-9), (key, got, want)


def test_focus_sample_sums_by_provider_and_category_equal_the_files_columns() -> None:
    path = bill_sample(FOCUS)
    plain = _plain_sums(path)
    assert len(plain) > 10  # three providers, ten categories: not a trivial grouping
    _same(_read_sums(read_bill(path)), plain)


def test_focus_sample_aws_effective_cost_flagged_with_the_billed_fallback() -> None:
    bill = read_bill(bill_sample(FOCUS))
    zero = bill.flags["effective_zero"]
    assert zero["fallback"] == "billed" and zero["rows"] > 500
    assert bill.flags["effective_rounded"]["fallback"] == "billed"
    aws = [r for r in bill.lines.to_pylist() if r["provider"] == "AWS"]
    # the figure a plan takes (`cost`) is the billed cost wherever AWS gave 0 or a rounding
    assert sum(r["cost"] for r in aws) > sum(r["effective"] for r in aws) * 0 + 1
    billed = sum(r["billed"] for r in aws if r["pricing_category"] == "Standard")
    cost = sum(r["cost"] for r in aws if r["pricing_category"] == "Standard")
    assert math.isclose(billed, cost, rel_tol=1e-6)
    instance_types = {r["instance_type"] for r in aws if r["instance_type"]}
    assert {"c5.2xlarge", "t2.medium", "m5.2xlarge"} <= instance_types


def test_generated_parquet_and_gzip_of_the_focus_sample_read_the_same(tmp_path: Path) -> None:
    path = bill_sample(FOCUS)
    plain = _plain_sums(path)
    parquet = read_bill(generated_parquet(path, tmp_path / "focus.parquet"))
    gzipped = read_bill(generated_gzip(path, tmp_path / "focus.csv.gz"))
    assert parquet.container == "parquet" and gzipped.container == "csv.gz"
    _same(_read_sums(parquet), plain)
    _same(_read_sums(gzipped), plain)


@pytest.mark.parametrize("version", ["1.3", "1.4"])
def test_generated_focus_later_versions_read_service_provider_name(
    tmp_path: Path, version: str
) -> None:
    path = generated_focus_version(bill_sample(FOCUS), tmp_path / f"focus{version}.csv", version)
    bill = read_bill(path)
    assert bill.version == version
    _same(_read_sums(bill), _plain_sums(bill_sample(FOCUS)))


def test_generated_parquet_of_the_legacy_cur_reads_as_the_csv(tmp_path: Path) -> None:
    path = bill_sample(CUR_LEGACY)
    csv_bill = read_bill(path)
    parquet = read_bill(generated_parquet(path, tmp_path / "cur.parquet"))
    total = lambda b, c: sum(b.lines.column(c).to_pylist())  # noqa: E731
    plain = sum(Decimal(r["lineItem/UnblendedCost"] or 0) for r in rows_of(path)[1])
    assert math.isclose(total(csv_bill, "billed"), float(plain), rel_tol=1e-9)
    for column in ("billed", "effective", "list", "quantity"):
        assert math.isclose(total(csv_bill, column), total(parquet, column), rel_tol=1e-12)


def _vm_row() -> dict[str, str]:
    _, rows = rows_of(bill_sample("azure/opencost_headersets/values_VirtualMachine.csv"))
    return rows[0]


def test_generated_mca_rows_on_the_mca_header_set(tmp_path: Path) -> None:
    """GENERATED: an MCA export (billing profile and invoice section columns, camelCase)
    holding the header sets' one VM row."""
    vm = _vm_row()
    header, _ = rows_of(bill_sample("azure/opencost_headersets/EnterpriseCamel.csv"))
    header = [*header, "billingProfileId", "invoiceSectionId", "paygCostInBillingCurrency"]
    row = {h: "" for h in header} | {
        "SubscriptionId": vm["subscriptionid"], "date": "2021-02-01",
        "meterCategory": vm["MeterCategory"], "costInBillingCurrency": vm["costinbillingcurrency"],
        "paygCostInBillingCurrency": vm["paygcostinbillingcurrency"],
        "additionalInfo": vm["AdditionalInfo"], "billingCurrency": "EUR", "quantity": "24",
        "chargeType": "Usage", "pricingModel": "OnDemand", "billingProfileId": "bp1",
        "invoiceSectionId": "is1", "resourceLocation": vm["resourcelocation"] or "westeurope",
    }  # fmt: skip
    bill = read_bill(write_csv(tmp_path / "mca_actual.csv", header, [row]))
    assert (bill.kind, bill.version, bill.view) == ("azure", "mca", "actual")
    line = bill.lines.to_pylist()[0]
    assert line["instance_type"] == "Standard_DS2_v2"
    assert (line["billed"], line["list"], line["currency"]) == (4.0, 5.0, "EUR")
    assert line["service_category"] == "Compute"
    assert bill.flags["effective_missing"]["fallback"] == "billed"


def test_generated_payg_and_german_header_sets_read_alike(tmp_path: Path) -> None:
    """GENERATED: the pay-as-you-go row under the German header's names reads the same."""
    english = read_bill(bill_sample("azure/opencost_headersets/PayAsYouGo.csv"))
    german = read_bill(bill_sample("azure/opencost_headersets/German.csv"))
    assert english.lines.to_pylist() == german.lines.to_pylist()
    line = english.lines.to_pylist()[0]
    assert (line["billed"], line["quantity"], line["unit"]) == (0.075, 3.0, "100 Hours")


def test_amortized_and_actual_azure_exports_of_one_month_say_their_view() -> None:
    actual = read_bill(bill_sample("azure/azure_ea_actualcost_small_finops_toolkit.csv"))
    amortized = read_bill(bill_sample("azure/azure_ea_amortizedcost_small_finops_toolkit.csv"))
    assert (actual.view, amortized.view) == ("actual", "amortized")
    purchase = [r for r in actual.lines.to_pylist() if r["charge_category"] == "Purchase"]
    assert purchase and purchase[0]["billed"] == 3.25
    covered = [r for r in amortized.lines.to_pylist() if r["pricing_category"] == "Committed"]
    assert covered and all(r["billed"] == 0 and r["effective"] > 0 for r in covered)


def test_view_read_from_the_rows_when_the_name_says_nothing(tmp_path: Path) -> None:
    source = bill_sample("azure/azure_ea_amortizedcost_small_finops_toolkit.csv")
    renamed = tmp_path / "export.csv"
    renamed.write_bytes(source.read_bytes())
    assert read_bill(renamed).view == "amortized"


def test_generated_cur2_parquet_with_map_columns_reads_as_the_csv(tmp_path: Path) -> None:
    """AWS CUR 2.0 Parquet keeps product attributes and resource tags in map columns
    (`product`, `resource_tags`): the region is read from the map, and the file reads as
    the legacy CSV it was GENERATED from."""
    path = bill_sample(CUR_LEGACY)
    parquet_path = generated_cur2_parquet(path, tmp_path / "cur2.parquet")
    schema = pq.read_schema(parquet_path)
    assert pa.types.is_map(schema.field("product").type)
    assert pa.types.is_map(schema.field("resource_tags").type)
    assert "product_region_code" not in schema.names  # only in the map
    csv_bill, parquet = read_bill(path), read_bill(parquet_path)
    assert (parquet.kind, parquet.version, parquet.container) == ("aws_cur", "2.0", "parquet")
    for column in ("billed", "effective", "list", "quantity"):
        sums = [sum(b.lines.column(column).to_pylist()) for b in (csv_bill, parquet)]
        assert math.isclose(*sums, rel_tol=1e-12), column
    keys = ("day", "account", "region", "service_name", "sku", "instance_type")
    lines = [sorted(zip(*(b.lines.column(k).to_pylist() for k in keys), strict=True), key=str)
             for b in (csv_bill, parquet)]  # fmt: skip
    assert lines[0] == lines[1]
    assert {r for r in parquet.lines.column("region").to_pylist() if r}  # read from the map


def test_cur_user_tags_from_columns_and_from_the_cur2_map_alike(tmp_path: Path) -> None:
    """GENERATED: the Athena-named CUR fixture with values in its user-tag columns (the
    genuine rows leave them empty), and the CUR 2.0 Parquet written from it (the tags in
    a `resource_tags` map): both read the user tags as "k=v;k=v"; `aws:` tags are not read."""
    header, rows = rows_of(bill_sample("aws_cur/koku_cur_athena_snakecase_fixture.csv"))
    rows[0] |= {"resource_tags_user_insights_project": "atlas", "resource_tags_user_c25_key": "b"}
    path = write_csv(tmp_path / "cur-tagged.csv", header, rows)
    parquet = generated_cur2_parquet(path, tmp_path / "cur2.parquet")
    for read in (read_bill(path), read_bill(parquet)):
        tags = set(read.lines.column("tags").to_pylist())
        assert tags == {"c25_key=b;insights_project=atlas", None}, read.container


def test_azure_tags_without_braces_are_read(tmp_path: Path) -> None:
    read = read_bill(bill_sample("azure/azure_ea_amortizedcost_small_finops_toolkit.csv"))
    tags = {t for t in read.lines.column("tags").to_pylist() if t}
    assert any("env=prod" in t.split(";") and "org=trey" in t.split(";") for t in tags)
    assert all(t.split(";") == sorted(t.split(";")) for t in tags)
