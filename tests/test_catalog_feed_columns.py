"""A price's feed provenance (source_version, source_key, vat_included) travels through the
catalog format unchanged, and files written before those columns existed still import."""

import json

import pytest

from catalog.io.exporter import export_catalog
from catalog.io.formats import CSV_COLUMNS
from catalog.io.importer import import_catalog
from catalog.models import Price, Tier
from tests.support.catalog import add_price, csv_bytes, make_tier, price_record

pytestmark = pytest.mark.django_db


def test_an_old_csv_without_the_provenance_columns_imports_with_them_empty():
    import_catalog(csv_bytes([price_record()], columns=CSV_COLUMNS), "csv")
    price = Price.objects.get()
    assert (price.source_version, price.source_key, price.vat_included) == ("", "", None)


def test_an_old_json_without_the_provenance_fields_imports():
    record = {k: v for k, v in json.loads(export_json_of_one()).items()
              if k not in ("source_version", "source_key", "vat_included")}  # fmt: skip
    Price.objects.all().delete()
    Tier.objects.all().delete()
    document = {"format": "planner-catalog", "version": 1, "prices": [record]}
    import_catalog(json.dumps(document).encode(), "json")
    assert Price.objects.get().vat_included is None


def export_json_of_one() -> str:
    add_price(make_tier("aws-x"), "0.5", "2026-01-01")
    return json.dumps(json.loads(export_catalog("json"))["prices"][0])


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_provenance_survives_export_and_import(fmt):
    tier = make_tier("aws-m6i.large-us-west-2-on-demand")
    add_price(tier, "0.096", "2026-03-15", source_version="20260315120000",
              source_key="8D49XP354UEYTHGM.JRTCKXETXF", vat_included=False)  # fmt: skip
    add_price(tier, "0.1", "2026-01-01", vat_included=True)
    data = export_catalog(fmt, history=True)
    Price.objects.all().delete()
    Tier.objects.all().delete()
    import_catalog(data, fmt)
    rows = Price.objects.order_by("effective_from")
    assert list(rows.values_list("source_version", "source_key", "vat_included")) == [
        ("", "", True),
        ("20260315120000", "8D49XP354UEYTHGM.JRTCKXETXF", False),
    ]
    assert export_catalog(fmt, history=True) == data


def test_a_bad_vat_flag_is_refused_by_line_and_field():
    from catalog.io.records import CatalogFileError

    with pytest.raises(CatalogFileError, match="line 2, field vat_included: 'maybe'"):
        import_catalog(csv_bytes([price_record(vat_included="maybe")],
                                 columns=(*CSV_COLUMNS, "vat_included")), "csv")  # fmt: skip


def test_a_purchase_option_pricing_model_is_a_known_model():
    record = price_record(slug="aws-c5.large-us-east-1-reserved-3y-convertible-partial-upfront",
                          pricing_model="reserved_3y_convertible_partial_upfront",
                          setup_fee="605", min_term_months="36")  # fmt: skip
    import_catalog(csv_bytes([record]), "csv")
    assert Tier.objects.get().pricing_model == "reserved_3y_convertible_partial_upfront"
