"""Exported text cells that a spreadsheet would run as a formula are neutralised."""

import csv
import io as stdio

import pytest

from catalog.io.exporter import export_catalog
from catalog.io.importer import import_catalog
from catalog.models import Price, Tier
from tests.support.catalog import add_price, make_tier

pytestmark = pytest.mark.django_db

DANGEROUS = ['=HYPERLINK("http://evil")', "+1+1", "-2+3", "@SUM(A1)", "'already quoted"]


def exported_cells() -> dict[str, str]:
    rows = list(csv.DictReader(stdio.StringIO(export_catalog("csv").decode())))
    return rows[0]


@pytest.mark.parametrize("text", DANGEROUS)
def test_a_formula_like_cell_is_exported_with_a_leading_quote(text):
    tier = make_tier("t", name=text, cpu_model=text)
    add_price(tier, "1", "2026-01-01", source=text)
    cells = exported_cells()
    for column in ("name", "cpu_model", "source"):
        assert cells[column] == "'" + text
        assert cells[column][0] not in "=+-@"


def test_harmless_text_and_numbers_are_exported_as_they_are():
    add_price(make_tier("t", name="c5.4xlarge"), "0.68", "2026-01-01", source="AWS list")
    cells = exported_cells()
    assert (cells["name"], cells["source"], cells["amount"]) == ("c5.4xlarge", "AWS list", "0.68")


@pytest.mark.parametrize("text", DANGEROUS)
def test_importing_a_neutralised_cell_restores_the_original_text(text):
    add_price(make_tier("t", name=text), "1", "2026-01-01", source=text)
    exported = export_catalog("csv", history=True)
    Price.objects.all().delete()
    Tier.objects.all().delete()
    import_catalog(exported, "csv")
    tier = Tier.objects.get(slug="t")
    assert tier.name == text
    assert tier.prices.get().source == text
