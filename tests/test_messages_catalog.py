"""The catalog's refusals and summaries are messages: which line, which field, why, as
parameters. The commands print the English they always printed; the admin and the
catalog page say them in the reader's language."""

import datetime as dt
import io

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.utils import translation

from catalog.defaults import load_default_catalog, load_default_catalog_message
from catalog.io.formats import check_size
from catalog.io.importer import import_catalog
from catalog.io.records import CatalogFileError
from catalog.pricing import catalog_frame
from common.django.message_render import render
from common.messages import plain
from tests.support.catalog import add_price, csv_bytes, make_tier, price_record, table_counts

pytestmark = pytest.mark.django_db
IMPORT_URL = "/admin/catalog/price/import/"
NBSP = "\u00a0"


def refusal(data: bytes, fmt: str = "csv") -> CatalogFileError:
    with pytest.raises(CatalogFileError) as caught:
        import_catalog(data, fmt)
    return caught.value


def test_a_refused_cell_names_its_line_field_and_value_as_parameters():
    error = refusal(csv_bytes([price_record(), price_record(slug="b", amount="cheap")]))
    [issue] = error.issues
    said = issue.as_message()
    assert said.code == "catalog.issue_line_field"
    assert (said.params["line"], said.params["field"]) == ("3", "amount")
    assert said.params["why"].code == "catalog.not_a_number"
    assert said.params["why"].params == {"value": "'cheap'"}
    assert str(issue) == "line 3, field amount: 'cheap' is not a number"
    assert render(said, "de") == "Zeile 3, Feld amount: 'cheap' ist keine Zahl"


def test_a_duplicate_names_the_first_line_in_the_readers_language():
    twice = price_record(slug="b")
    error = refusal(csv_bytes([price_record(), twice, twice]))
    duplicate = next(i for i in error.issues if i.field == "effective_from")
    assert str(duplicate).startswith("line 4, field effective_from: duplicate of line 3: ")
    assert render(duplicate.as_message(), "de").startswith(
        "Zeile 4, Feld effective_from: doppelt zu Zeile 3: ein Preis je (slug, effective_from)"
    )


def test_a_json_record_is_named_by_its_path():
    data = b'{"format": "planner-catalog", "version": 1, "prices": [{"slug": "x"}]}'
    issue = refusal(data, "json").issues[0]
    assert issue.as_message().code == "catalog.issue_record_field"
    assert str(issue).startswith("prices[0], field provider: missing")
    assert render(issue.as_message(), "de").startswith("Eintrag prices[0], Feld provider: fehlt")


def test_a_file_over_the_size_limit_groups_its_figures_in_each_language():
    with pytest.raises(CatalogFileError) as caught:
        check_size(52_428_800)
    [issue] = caught.value.issues
    assert str(issue) == "file: 52,428,800 bytes is over the limit of 10,485,760 bytes"
    assert render(issue.as_message(), "de") == (
        "Datei: 52.428.800 Bytes liegen über der Grenze von 10.485.760 Bytes"
    )


def test_the_import_summary_is_a_message_with_its_counts():
    change_set = import_catalog(csv_bytes([price_record()]), "csv", dry_run=True)
    summary = change_set.summary_message()
    assert summary.code == "catalog.import_summary"
    assert (summary.params["tiers"], summary.params["new_prices"]) == (1, 1)
    assert change_set.summary() == plain(summary)
    assert change_set.summary().startswith("1 tiers, 1 prices, 0 exchange rates: 1 new tiers")
    assert render(summary, "de").startswith("Tarife: 1, Preise: 1, Wechselkurse: 0; neue Tarife: 1")


def test_the_default_catalog_summary_is_the_same_english_and_a_message():
    said = load_default_catalog_message()
    assert (said.code, said.params["new"]) == ("catalog.default_summary", 39)
    assert load_default_catalog() == "18 tiers, 19 prices, 2 exchange rates: 0 new"
    assert render(said, "de") == "Tarife: 18, Preise: 19, Wechselkurse: 2; neu: 39"


def test_a_tier_left_out_for_want_of_a_rate_says_so_with_a_date():
    tier = make_tier("hetzner-ax102", provider="Hetzner", kind="dedicated", region="")
    add_price(tier, "104.00", "2026-01-05", unit="month", currency="EUR")
    frame = catalog_frame(dt.date(2026, 2, 1), "USD")
    [dropped] = frame.attrs["dropped_messages"]
    assert dropped["slug"] == tier.slug
    assert dropped["message"].code == "catalog.no_rate"
    assert dropped["message"].params["date"] == dt.date(2026, 2, 1)
    assert frame.attrs["dropped"][0]["reason"] == "no EUR→USD rate on or before 2026-02-01"
    assert render(dropped["message"], "de") == (
        "kein Wechselkurs EUR→USD zum oder vor dem 1. Feb. 2026"
    )


def test_the_catalog_page_names_the_missing_rate_in_german(client):
    tier = make_tier("hetzner-ax102", provider="Hetzner", kind="dedicated", region="")
    add_price(tier, "104.00", "2026-01-05", unit="month", currency="EUR")
    page = client.get(
        "/catalog/?currency=USD&as_of=2026-02-01", headers={"Accept-Language": "de"}
    ).content.decode()
    assert 'title="kein Wechselkurs EUR→USD zum oder vor dem 1. Feb. 2026"' in page


@pytest.fixture
def german_importer(client, staff_user, tmp_path, monkeypatch):
    monkeypatch.setattr("catalog.admin.IMPORT_DIR", tmp_path / "imports")
    perms = Permission.objects.filter(codename__in=["add_price", "view_price"])
    staff_user.user_permissions.add(*perms)
    client.force_login(staff_user)
    client.post("/i18n/setlang/", {"language": "de", "next": "/"})
    return client


def test_the_german_admin_preview_shows_each_refusal_in_german_with_its_line(german_importer):
    data = csv_bytes([price_record(amount="NaN"), price_record(slug="b", currency="EUE")])
    upload = SimpleUploadedFile("catalog.csv", data, "text/csv")
    page = german_importer.post(IMPORT_URL, {"file": upload}).content.decode()
    assert "Zeile 2, Feld amount: &#x27;NaN&#x27; ist keine endliche Zahl" in page
    assert "Zeile 3, Feld currency: unbekannte Währung &#x27;EUE&#x27;" in page
    assert "is not a finite number" not in page
    assert table_counts()["Price"] == 0


def test_the_german_admin_preview_summarises_in_german(german_importer):
    upload = SimpleUploadedFile("catalog.csv", csv_bytes([price_record()]), "text/csv")
    page = german_importer.post(IMPORT_URL, {"file": upload}).content.decode()
    assert "Tarife: 1, Preise: 1, Wechselkurse: 0; neue Tarife: 1" in page


def test_the_import_command_keeps_its_english_while_german_is_active(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_bytes(csv_bytes([price_record(), price_record(slug="b", amount="x")]))
    with translation.override("de"), pytest.raises(CommandError) as refused:
        call_command("import_catalog", str(path))
    assert "line 3, field amount: 'x' is not a number" in str(refused.value)
    path.write_bytes(csv_bytes([price_record()]))
    out = io.StringIO()
    with translation.override("de"):
        call_command("import_catalog", str(path), stdout=out)
    assert out.getvalue().startswith("1 tiers, 1 prices, 0 exchange rates: 1 new tiers")
