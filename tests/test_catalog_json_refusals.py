"""A catalog JSON file the standard reader took silently or crashed on is refused, from the
command and from the admin's preview alike, naming the line and the JSON path; nothing is
written."""

import json
import re

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command

from catalog.io.records import PRICE_RECORD_FIELDS
from tests.support.catalog import price_record, table_counts

pytestmark = pytest.mark.django_db
EMPTY = {"Provider": 0, "Tier": 0, "Price": 0, "ExchangeRate": 0}


def document() -> str:
    """A valid catalog file of one price, one member a line (the name is on line 8)."""
    record = {name: price_record()[name] for name in PRICE_RECORD_FIELDS}
    body = {"format": "planner-catalog", "version": 1, "prices": [record], "exchange_rates": []}
    return json.dumps(body, indent=0)


def with_name(escaped: str) -> str:
    return document().replace('"name": "c5.4xlarge"', f'"name": "{escaped}"')


CASES = [
    # (the file, words of the refusal)
    (
        document().replace(
            '"exchange_rates": []', '"exchange_rates": ' + "[" * 100_000 + "]" * 100_000
        ),
        "line 37: not valid JSON: nested deeper than 64 levels at $.exchange_rates[0][0]",
    ),
    (
        document().replace('"exchange_rates": []', '"prices": []'),
        "line 37: not valid JSON: $.prices is given twice (line 37, column 1)",
    ),
    (
        with_name("c5\\ud800"),
        "line 8: not valid JSON: a lone UTF-16 surrogate in the string at $.prices[0].name",
    ),
    (
        with_name("c5\\u00004xlarge"),
        "line 8: not valid JSON: a NUL character in the string at $.prices[0].name (line 8,",
    ),
    (
        document().replace('"vcpus": "16"', '"vcpus": 1' + "0" * 400),
        "not valid JSON: a number of more than 40 digits at $.prices[0].vcpus",
    ),
]
IDS = ["100000-levels", "prices-twice", "lone-surrogate", "nul", "10^400"]


def test_the_document_is_valid_as_written(tmp_path):
    path = tmp_path / "good.json"
    path.write_text(document())
    call_command("import_catalog", str(path))
    assert table_counts()["Price"] == 1


@pytest.mark.parametrize(("text", "words"), CASES, ids=IDS)
def test_the_import_command_refuses_it_naming_where(tmp_path, text, words):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(CommandError) as caught:
        call_command("import_catalog", str(path))
    assert words in str(caught.value)
    assert table_counts() == EMPTY


@pytest.fixture
def importer(client, staff_user, tmp_path, monkeypatch):
    monkeypatch.setattr("catalog.admin.IMPORT_DIR", tmp_path / "imports")
    perms = Permission.objects.filter(codename__in=["add_price", "view_price"])
    staff_user.user_permissions.add(*perms)
    client.force_login(staff_user)
    return client


@pytest.mark.parametrize(("text", "words"), CASES, ids=IDS)
def test_the_admin_preview_refuses_it_naming_where_with_nothing_to_confirm(importer, text, words):
    upload = SimpleUploadedFile("catalog.json", text.encode(), "application/json")
    page = importer.post("/admin/catalog/price/import/", {"file": upload}).content.decode()
    assert "nothing was imported" in page
    assert re.sub(r"&#x27;", "'", page).count(words) == 1
    assert 'name="token"' not in page
    assert table_counts() == EMPTY
