"""`manage.py import_catalog` and `export_catalog`."""

import pytest
from django.core.management import CommandError, call_command

from catalog.defaults import DEFAULT_CATALOG
from tests.support.catalog import csv_bytes, price_record, table_counts

pytestmark = pytest.mark.django_db


def test_import_catalog_loads_a_file_and_says_what_changed(tmp_path, capsys):
    path = tmp_path / "prices.csv"
    path.write_bytes(DEFAULT_CATALOG.read_bytes())
    call_command("import_catalog", str(path))
    assert "18 tiers, 19 prices, 2 exchange rates: 18 new tiers" in capsys.readouterr().out
    assert table_counts() == {"Provider": 3, "Tier": 18, "Price": 19, "ExchangeRate": 2}


def test_import_catalog_dry_run_writes_nothing(tmp_path, capsys):
    path = tmp_path / "prices.csv"
    path.write_bytes(DEFAULT_CATALOG.read_bytes())
    call_command("import_catalog", str(path), "--dry-run")
    assert capsys.readouterr().out.startswith("dry run, nothing written: 18 tiers")
    assert table_counts() == {"Provider": 0, "Tier": 0, "Price": 0, "ExchangeRate": 0}


def test_import_catalog_refuses_a_bad_file_naming_each_problem(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_bytes(csv_bytes([price_record(), price_record(slug="b", amount="x", unit="day")]))
    with pytest.raises(CommandError) as caught:
        call_command("import_catalog", str(path))
    message = str(caught.value)
    assert "bad.csv refused, nothing imported (2 problems)" in message
    assert "line 3, field amount: 'x' is not a number" in message
    assert "line 3, field unit: unknown unit 'day'" in message
    assert table_counts()["Tier"] == 0


def test_import_catalog_refuses_a_50_mb_file_before_reading_it(tmp_path, settings):
    settings.CATALOG_IMPORT_MAX_BYTES = 10 * 1024 * 1024
    path = tmp_path / "huge.csv"
    with path.open("wb") as handle:
        handle.truncate(50 * 1024 * 1024)  # sparse: 50 MB long, no disk or memory spent
    with pytest.raises(CommandError) as caught:
        call_command("import_catalog", str(path))
    assert "file: 52,428,800 bytes is over the limit of 10,485,760 bytes" in str(caught.value)
    assert table_counts()["Tier"] == 0


def test_export_catalog_writes_csv_or_json_by_the_name(tmp_path):
    call_command("import_catalog", str(DEFAULT_CATALOG))
    call_command("export_catalog", "--history", str(tmp_path / "all.csv"))
    call_command("export_catalog", "--history", str(tmp_path / "all.json"))
    assert (tmp_path / "all.csv").read_bytes() == DEFAULT_CATALOG.read_bytes()
    assert (tmp_path / "all.json").read_text().startswith('{\n  "format": "planner-catalog"')


def test_export_catalog_without_history_keeps_only_current_prices(tmp_path):
    call_command("import_catalog", str(DEFAULT_CATALOG))
    call_command("export_catalog", "--as-of", "2026-11-30", str(tmp_path / "now.csv"))
    text = (tmp_path / "now.csv").read_text()
    assert "21.957642" in text
    assert "32.7726" not in text
