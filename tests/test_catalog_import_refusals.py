"""Every bad catalog file is refused whole: each problem named by line and field, and every
catalog table left exactly as it was."""

import datetime as dt
from decimal import Decimal

import pytest

from catalog.io.formats import CSV_COLUMNS
from catalog.io.importer import import_catalog
from catalog.io.records import CatalogFileError
from catalog.models import CURRENCIES, Price, Tier
from tests.support.catalog import (
    add_price,
    add_rate,
    csv_bytes,
    make_tier,
    price_record,
    rate_record,
    table_counts,
)

pytestmark = pytest.mark.django_db

# Line 1 is the header; line 2 is always a good new tier, so a refusal must also keep it out.
GOOD = price_record(slug="good-new-tier", name="good")


@pytest.fixture(autouse=True)
def existing_catalog():
    tier = make_tier("aws-c5.4xlarge-us-east-1-on-demand", name="c5.4xlarge")
    add_price(tier, "0.68", "2026-01-19")
    add_rate("2026-01-19", "EUR", "USD", "1.1631")


def refused(data: bytes, fmt: str = "csv") -> str:
    before = table_counts()
    with pytest.raises(CatalogFileError) as caught:
        import_catalog(data, fmt)
    assert table_counts() == before
    assert not Tier.objects.filter(slug="good-new-tier").exists()
    return str(caught.value)


def bad_line(**cells: str) -> bytes:
    return csv_bytes([GOOD, price_record(slug="bad-tier", **cells)])


def test_it_refuses_a_missing_column():
    columns = [c for c in CSV_COLUMNS if c != "unit"]
    message = refused(csv_bytes([GOOD], columns=columns))
    assert "header: missing column(s): unit" in message


def test_it_refuses_a_short_row():
    data = csv_bytes([GOOD]) + b"price,bad-tier,AWS,c5\n"
    message = refused(data)
    assert "line 3: has 4 fields, the header has 33 (no region onwards)" in message


def test_it_refuses_a_non_numeric_price():
    assert "line 3, field amount: 'cheap' is not a number" in refused(bad_line(amount="cheap"))


def test_it_refuses_a_negative_price():
    assert "line 3, field amount: -0.68 is negative" in refused(bad_line(amount="-0.68"))


def test_it_refuses_a_nan_price():
    assert "line 3, field amount: 'NaN' is not a finite number" in refused(bad_line(amount="NaN"))


def test_it_refuses_an_infinite_price():
    message = refused(bad_line(amount="Infinity"))
    assert "line 3, field amount: 'Infinity' is not a finite number" in message
    assert "line 3, field amount: 'inf'" in refused(bad_line(amount="inf"))


def test_it_refuses_an_unknown_unit():
    assert "line 3, field unit: unknown unit 'day'" in refused(bad_line(unit="day"))


def test_it_refuses_an_unknown_currency():
    assert "line 3, field currency: unknown currency 'EUE'" in refused(bad_line(currency="EUE"))


def test_it_refuses_a_duplicate_slug_and_effective_from():
    data = csv_bytes([GOOD, price_record(slug="dup"), price_record(slug="dup")])
    message = refused(data)
    assert "line 4, field effective_from: duplicate of line 3" in message


def test_it_refuses_the_same_key_with_another_amount():
    data = csv_bytes([GOOD, price_record(amount="0.70")])
    message = refused(data)
    assert "line 3, field amount: 0.70 differs from the recorded 0.68 for (" in message
    assert Price.objects.get().amount == Decimal("0.68")


def test_the_same_key_with_the_same_amount_is_a_no_op():
    before = table_counts()
    result = import_catalog(csv_bytes([price_record(amount="0.680")]), "csv")
    assert len(result.unchanged_prices) == 1
    assert result.changes == 0
    assert table_counts() == before


def test_it_refuses_an_impossible_date():
    message = refused(bad_line(effective_from="2026-02-30"))
    assert "line 3, field effective_from: 2026-02-30 is not a real date" in message


def test_it_refuses_a_misformatted_date():
    for text in ("2026/01/19", "19.01.2026", "2026-1-19", ""):
        message = refused(bad_line(effective_from=text))
        assert f"line 3, field effective_from: {text!r} is not a date written YYYY-MM-DD" in message


def test_it_refuses_a_nul_byte():
    message = refused(bad_line(name="c5\x004xlarge"))
    assert "line 3, field name: contains a NUL byte" in message


def test_it_refuses_an_overlong_field():
    message = refused(bad_line(source="s" * 501))
    assert "line 3, field source: 501 characters, at most 500" in message


def test_it_refuses_an_empty_file():
    assert "file: the file is empty" in refused(b"")
    assert "file: the file is empty" in refused(b"\n  \n")


def test_it_refuses_a_header_only_file():
    assert "file: the file has a header but no rows" in refused(csv_bytes([]))


def test_it_refuses_a_file_over_the_size_limit(settings):
    settings.CATALOG_IMPORT_MAX_BYTES = 10 * 1024 * 1024
    data = csv_bytes([GOOD]) + b"#" * (50 * 1024 * 1024)
    message = refused(data)
    assert f"file: {len(data):,} bytes is over the limit of 10,485,760 bytes" in message


def test_it_reports_every_bad_line_and_field_of_a_file_at_once():
    data = csv_bytes(
        [
            GOOD,
            price_record(slug="a", amount="-1", unit="week"),
            price_record(slug="b", currency="XXX"),
            price_record(slug="c", effective_from="2026-13-01"),
            rate_record(rate="NaN"),
        ]
    )
    lines = refused(data).splitlines()
    assert lines == [
        "line 3, field amount: -1 is negative",
        "line 3, field unit: unknown unit 'week' (one of hour, month)",
        "line 4, field currency: unknown currency 'XXX' (one of " + ", ".join(CURRENCIES) + ")",
        "line 5, field effective_from: 2026-13-01 is not a real date",
        "line 6, field rate: 'NaN' is not a finite number",
    ]


def test_a_short_row_does_not_hide_the_other_bad_lines():
    data = csv_bytes([GOOD, price_record(slug="x", amount="abc")]) + b"price,short\n"
    message = refused(data)
    assert "line 3, field amount: 'abc' is not a number" in message
    assert "line 4: has 2 fields" in message


def test_it_refuses_an_exchange_rate_that_contradicts_the_recorded_one():
    message = refused(csv_bytes([GOOD, rate_record(rate="1.2")]))
    assert (
        "line 3, field rate: 1.2 differs from the recorded 1.1631 for EUR→USD on 2026-01-19"
        in message
    )


def test_it_refuses_tier_columns_that_disagree_between_two_prices_of_one_tier():
    data = csv_bytes(
        [
            GOOD,
            price_record(slug="t", vcpus="16"),
            price_record(slug="t", vcpus="8", effective_from="2026-02-01"),
        ]
    )
    assert "line 4, field vcpus: differs from line 3 for the same tier t" in refused(data)


def test_it_refuses_bad_json_with_the_record_and_field_named():
    document = (
        '{"format": "planner-catalog", "version": 1, "prices": [{"slug": "x"}], '
        '"exchange_rates": [{"effective_from": "2026-01-19", "rate_from": "EUR", '
        '"rate_to": "USD", "rate": NaN, "source": "s", "source_url": ""}]}'
    )
    assert "not valid JSON: NaN is not a number this format accepts" in refused(
        document.encode(), "json"
    )
    document = document.replace("NaN", '"-1"')
    message = refused(document.encode(), "json")
    assert "prices[0], field amount: missing" in message
    assert "exchange_rates[0], field rate: -1 is negative" in message


def test_a_refused_import_leaves_the_existing_rows_untouched():
    refused(bad_line(amount="x"))
    price = Price.objects.get()
    assert (price.tier.slug, price.effective_from) == (
        "aws-c5.4xlarge-us-east-1-on-demand",
        dt.date(2026, 1, 19),
    )
