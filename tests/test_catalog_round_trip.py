"""Export → empty database → import → export gives the same bytes, history included."""

import pytest

from catalog.defaults import DEFAULT_CATALOG, load_default_catalog
from catalog.io.exporter import export_catalog
from catalog.io.formats import parse
from catalog.io.importer import import_catalog
from catalog.models import ExchangeRate, Price, Provider, Tier
from tests.support.catalog import add_price, add_rate, make_tier

pytestmark = pytest.mark.django_db


def empty_catalog() -> None:
    Price.objects.all().delete()
    Tier.objects.all().delete()
    Provider.objects.all().delete()
    ExchangeRate.objects.all().delete()


@pytest.fixture
def catalog_with_history(staff_user):
    load_default_catalog()
    tier = make_tier(
        "odd-tier",
        provider='Odd, "Quoted" Provider',
        name="=SUM(A1)",
        region="",
        cpu_model="+1",
        cpu_flags="@flags",
        storage_type="-x",
        network="'quoted",
        managed=False,
        gpus=None,
        min_term_months=12,
    )
    add_price(tier, "1.23456", "2025-01-01", source="line one\nline two, with comma")
    add_price(
        tier,
        "0.000001",
        "2026-01-01",
        unit="month",
        currency="EUR",
        setup_fee="99.5",
        confirmed=False,
        recorded_by=staff_user,
    )
    add_rate("2025-06-30", "USD", "EUR", "0.85")


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_export_then_import_into_an_empty_database_gives_the_same_bytes(fmt, catalog_with_history):
    first = export_catalog(fmt, history=True)
    counts = (Tier.objects.count(), Price.objects.count(), ExchangeRate.objects.count())
    empty_catalog()
    import_catalog(first, fmt)
    assert (Tier.objects.count(), Price.objects.count(), ExchangeRate.objects.count()) == counts
    assert export_catalog(fmt, history=True) == first


def test_a_csv_export_imports_as_json_and_back_to_the_same_csv(catalog_with_history):
    csv_first = export_catalog("csv", history=True)
    json_first = export_catalog("json", history=True)
    empty_catalog()
    import_catalog(json_first, "json")
    assert export_catalog("csv", history=True) == csv_first


def test_the_history_export_holds_every_price_and_the_plain_one_the_current_ones(
    catalog_with_history,
):
    history = parse(export_catalog("csv", history=True), "csv")
    current = parse(export_catalog("csv"), "csv")
    assert len(history.prices) == Price.objects.count()
    assert len(current.prices) == Tier.objects.count()
    p4d = [p.price["amount"] for p in history.prices if p.slug.startswith("aws-p4d")]
    assert [str(a) for a in p4d] == ["32.7726", "21.957642"]


def test_the_shipped_default_catalog_is_already_in_export_form():
    load_default_catalog()
    assert export_catalog("csv", history=True) == DEFAULT_CATALOG.read_bytes()
