"""Importing a bill into the database: all or nothing, the same file twice, a newer export
of the same period, actual and amortized apart, currencies at ECB rates; and the command."""

from __future__ import annotations

import io
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.management import call_command

from bills import selectors
from bills.models import Bill, BillLine
from bills.readers.errors import BillRefused
from bills.services.importing import import_bill
from tests.support.bills import (
    FOCUS,
    all_samples,
    bill_sample,
    bills_state,
    ecb_rates,
    rows_of,
    write_csv,
)

pytestmark = pytest.mark.django_db
# The genuine files the readers refuse (tests/test_bill_readers.py says why).
REFUSED = {
    "azure/koku_azure_v2_fixture.csv", "azure/opencost_headersets/BOM.csv",
    "azure/opencost_headersets/values_VirtualMachine.csv",
}  # fmt: skip


def _is_spec_example(name: str) -> bool:
    return name.startswith("focus/spec_examples/")


def _plain_total(path: Path, column: str) -> Decimal:
    return sum(
        (Decimal(r[column]) for r in rows_of(path)[1] if r[column] not in ("", "NULL")), Decimal(0)
    )


def test_the_focus_sample_imports_with_totals_equal_to_the_files(owner) -> None:
    path = bill_sample(FOCUS)
    result = import_bill(path, owner)
    bill = result.bill
    assert result.outcome == "imported"
    assert (bill.kind, bill.version, bill.view, bill.currency) == ("focus", "1.0", "focus", "USD")
    assert (str(bill.period_start), str(bill.period_end)) == ("2024-09-01", "2024-10-01")
    totals = selectors.totals(bill)
    for field, column in (("billed", "BilledCost"), ("effective", "EffectiveCost"),
                          ("list_cost", "ListCost")):  # fmt: skip
        assert abs(totals[field] - _plain_total(path, column)) < Decimal("1e-6"), field
    assert totals["rows"] == 1000
    codes = {f["code"] for f in bill.flags}
    assert "bills.flag.effective_zero" in codes
    zero = next(f for f in bill.flags if f["code"] == "bills.flag.effective_zero")
    assert zero["params"]["fallback"] == "billed"
    assert len(bill.sha256) == 64


def test_the_same_file_again_changes_nothing(owner) -> None:
    path = bill_sample(FOCUS)
    first = import_bill(path, owner)
    before = bills_state()
    again = import_bill(path, owner)
    assert again.outcome == "same" and again.bill.pk == first.bill.pk
    assert bills_state() == before


def test_a_newer_export_of_the_same_period_replaces_its_rows(owner, tmp_path: Path) -> None:
    path = bill_sample(FOCUS)
    old = import_bill(path, owner).bill
    header, rows = rows_of(path)
    rows[0]["BilledCost"] = "1000.5"  # a late correction in the newer export
    newer = import_bill(write_csv(tmp_path / "focus-newer.csv", header, rows), owner)
    assert newer.outcome == "replaced"
    assert not Bill.objects.filter(pk=old.pk).exists()
    assert not BillLine.objects.filter(bill_id=old.pk).exists()
    assert Bill.objects.filter(owner=owner).count() == 1
    total = selectors.totals(newer.bill)["billed"]
    assert abs(
        total
        - (
            _plain_total(path, "BilledCost")
            + Decimal("1000.5")
            - Decimal(rows_of(path)[1][0]["BilledCost"])
        )
    ) < Decimal("1e-6")


def test_actual_and_amortized_of_one_month_are_never_added(owner) -> None:
    actual = import_bill(bill_sample("azure/azure_ea_actualcost_small_finops_toolkit.csv"), owner)
    amortized = import_bill(
        bill_sample("azure/azure_ea_amortizedcost_small_finops_toolkit.csv"), owner
    )
    assert (actual.bill.view, amortized.bill.view) == ("actual", "amortized")
    assert Bill.objects.filter(owner=owner).count() == 2  # kept apart, neither replaced
    said = [f for f in amortized.bill.flags if f["code"] == "bills.flag.views_apart"]
    assert said and said[0]["params"]["bill"] == actual.bill.pk
    # each bill's totals are its own file's: nothing of one is in the other
    assert selectors.totals(actual.bill)["rows"] == 11
    assert selectors.totals(amortized.bill)["rows"] == 28


def _mixed(tmp_path: Path) -> Path:
    header, rows = rows_of(bill_sample(FOCUS))
    for row in rows[:50]:
        row["BillingCurrency"] = "EUR"
    return write_csv(tmp_path / "focus-mixed.csv", header, rows)


def test_mixed_currencies_without_rates_are_refused_naming_the_line(owner, tmp_path) -> None:
    path = _mixed(tmp_path)
    before = bills_state()
    with pytest.raises(BillRefused) as refused:
        import_bill(path, owner)
    message = refused.value.message
    assert message.code == "bills.currency.no_rate"
    assert (message.params["file"], message.params["line"]) == (path.name, 2)
    assert (message.params["currency"], message.params["target"]) == ("EUR", "USD")
    assert bills_state() == before


def test_mixed_currencies_convert_at_ecb_rates_of_the_charge_date(owner, tmp_path) -> None:
    ecb_rates("USD", "2024-08-20", "2024-09-30")  # genuine ECB rows
    path = _mixed(tmp_path)
    bill = import_bill(path, owner).bill
    assert bill.currency == "USD"
    converted = [f for f in bill.flags if f["code"] == "bills.flag.converted"]
    assert converted and converted[0]["params"]["currency"] == "EUR"
    assert converted[0]["params"]["rates"]  # the rate rows named
    eur = BillLine.objects.filter(bill=bill, source_currency="EUR")
    assert eur.exists()
    # 1 EUR is more than 1 USD in September 2024 (ECB: 1.10-1.12): converted up, not as is
    rows = rows_of(path)[1]
    raw = sum(Decimal(r["BilledCost"]) for r in rows[:50])
    got = sum(line.billed for line in eur)
    assert raw != 0 and Decimal("1.09") < got / raw < Decimal("1.13")


# The refusals: each names the file and its line or column, and changes nothing.


def _focus_text() -> str:
    return bill_sample(FOCUS).read_text(encoding="utf-8")


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def _refused(path: Path, owner) -> dict:
    import_bill(bill_sample("aws_cur/koku_cur_athena_snakecase_fixture.csv"), owner)
    before = bills_state()
    with pytest.raises(BillRefused) as refused:
        import_bill(path, owner)
    assert bills_state() == before
    message = refused.value.message
    assert message.params["file"] == path.name
    return {"code": message.code, **message.params}


def test_a_truncated_file(owner, tmp_path) -> None:
    text = _focus_text()
    cut = text[: text.index("\n", len(text) // 2) + 40]  # part-way through a line
    said = _refused(_write(tmp_path, "cut.csv", cut.encode()), owner)
    assert said["code"] == "bills.file.truncated"
    assert said["line"] == cut.count("\n") + 1


def test_a_truncated_gzip(owner, tmp_path) -> None:
    import gzip

    data = gzip.compress(_focus_text().encode())
    said = _refused(_write(tmp_path, "cut.csv.gz", data[: len(data) // 2]), owner)
    assert said["code"] == "bills.file.truncated"


def test_an_html_page(owner, tmp_path) -> None:
    page = b"<!DOCTYPE html><html><body>Sign in to the console</body></html>\n"
    said = _refused(_write(tmp_path, "export.csv", page), owner)
    assert said["code"] == "bills.file.wrong_kind" and "FOCUS" in said["kinds"]


def test_a_price_list(owner, tmp_path) -> None:
    """An AWS price-list CSV (the offer file's columns), not a bill."""
    price_list = (
        '"SKU","OfferTermCode","RateCode","TermType","PriceDescription","EffectiveDate",'
        '"StartingRange","EndingRange","Unit","PricePerUnit","Currency"\n'
        '"ABC","JRTCKXETXF","ABC.JRTCKXETXF.6YS6EN2CT7","OnDemand","$0.34 per hour",'
        '"2024-09-01","0","Inf","Hrs","0.34","USD"\n'
    )
    said = _refused(_write(tmp_path, "offer.csv", price_list.encode()), owner)
    assert said["code"] == "bills.file.wrong_kind" and said["what"] == "a price list"


def test_overlapping_periods(owner, tmp_path) -> None:
    path = bill_sample(FOCUS)
    held = import_bill(path, owner).bill
    header, rows = rows_of(path)
    part = [r for r in rows if r["ProviderName"] == "AWS"]  # the same month, fewer accounts
    part[0]["BilledCost"] = "1.5"
    partial = write_csv(tmp_path / "focus-aws-only.csv", header, part)
    before = bills_state()
    with pytest.raises(BillRefused) as refused:
        import_bill(partial, owner)
    message = refused.value.message
    assert message.code == "bills.period.overlap"
    assert message.params["bill"] == held.pk and message.params["month"] == "2024-09"
    assert bills_state() == before


def test_a_header_of_an_unknown_version(owner, tmp_path) -> None:
    header, rows = rows_of(bill_sample(FOCUS))
    header = [h for h in header if h != "ProviderName"]  # neither 1.0-1.2 nor 1.3-1.4
    said = _refused(write_csv(tmp_path / "focus-odd.csv", header, rows), owner)
    assert said["code"] == "bills.header.unknown_version"
    assert "ServiceProviderName" in said["columns"]


def test_a_million_character_cell(owner, tmp_path) -> None:
    header, rows = rows_of(bill_sample(FOCUS))
    rows[9]["Tags"] = "x" * 1_000_000
    said = _refused(write_csv(tmp_path / "focus-long.csv", header, rows), owner)
    assert said["code"] == "bills.file.long_line" and said["line"] == 11


def test_a_million_character_cell_in_parquet(owner, tmp_path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    header, rows = rows_of(bill_sample(FOCUS))
    rows[9]["ServiceName"] = "x" * 1_000_000
    table = pa.table({h: [r[h] for r in rows] for h in header})
    pq.write_table(table, tmp_path / "focus-long.parquet")
    said = _refused(tmp_path / "focus-long.parquet", owner)
    assert said["code"] == "bills.cell.too_long"
    assert (said["line"], said["column"]) == (10, "ServiceName")


def test_nul_bytes(owner, tmp_path) -> None:
    lines = _focus_text().split("\n")
    lines[4] = lines[4].replace("SunBird", "Sun\x00Bird", 1)
    said = _refused(_write(tmp_path, "nul.csv", "\n".join(lines).encode()), owner)
    assert (said["code"], said["line"]) == ("bills.file.nul", 5)


def test_negative_quantities(owner, tmp_path) -> None:
    header, rows = rows_of(bill_sample(FOCUS))
    index = next(i for i, r in enumerate(rows) if float(r["BilledCost"]) > 0)
    rows[index]["ConsumedQuantity"] = "-3"
    said = _refused(write_csv(tmp_path / "focus-negative.csv", header, rows), owner)
    assert said["code"] == "bills.value.negative_quantity"
    assert (said["line"], said["column"]) == (index + 2, "ConsumedQuantity")


def test_a_value_that_is_not_a_number(owner, tmp_path) -> None:
    header, rows = rows_of(bill_sample(FOCUS))
    rows[2]["BilledCost"] = "12,50"
    said = _refused(write_csv(tmp_path / "focus-comma.csv", header, rows), owner)
    assert said["code"] == "bills.value.not_number"
    assert (said["line"], said["column"]) == (4, "BilledCost")


def test_the_command_imports_with_a_progress_line_and_refuses_another(owner, tmp_path) -> None:
    out, err = io.StringIO(), io.StringIO()
    bad = _write(tmp_path, "page.csv", b"<html></html>\n")
    with pytest.raises(SystemExit) as exit_:
        call_command("import_bill", str(bill_sample(FOCUS)), str(bad), owner="owner",
                     stdout=out, stderr=err)  # fmt: skip
    assert exit_.value.code == 1
    assert "1,000 rows read" in out.getvalue()
    assert "imported as bill" in out.getvalue()
    assert "page.csv is not a cost export" in err.getvalue()
    assert Bill.objects.filter(owner=owner).count() == 1


def test_deleting_a_bill_deletes_its_lines(owner) -> None:
    from bills.services.importing import delete_bill

    bill = import_bill(bill_sample(FOCUS), owner).bill
    assert BillLine.objects.filter(bill=bill).exists()
    pk = bill.pk
    delete_bill(bill)
    assert not BillLine.objects.filter(bill_id=pk).exists()


@pytest.mark.parametrize(
    "name", [n for n in all_samples() if n not in REFUSED and not _is_spec_example(n)] or ["(none)"]
)
def test_every_readable_genuine_file_imports_into_the_database(name, django_user_model) -> None:
    path = bill_sample(name)
    user = django_user_model.objects.create_user("importer")
    bill = import_bill(path, user).bill
    assert selectors.totals(bill)["rows"] == bill.rows == len(rows_of(path)[1])
    assert len(bill.currency) == 3 and bill.scope
