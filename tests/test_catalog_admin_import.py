"""Import in the admin: upload → preview of what would change → confirm."""

import re

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile

from catalog.defaults import DEFAULT_CATALOG
from tests.support.catalog import add_price, csv_bytes, make_tier, price_record, table_counts

pytestmark = pytest.mark.django_db
URL = "/admin/catalog/price/import/"


@pytest.fixture(autouse=True)
def upload_folder(tmp_path, monkeypatch):
    # Previews wait on disk until confirmed; keep this test's out of var/.
    monkeypatch.setattr("catalog.admin.IMPORT_DIR", tmp_path / "imports")
    return tmp_path / "imports"


@pytest.fixture
def importer(client, staff_user):
    perms = Permission.objects.filter(codename__in=["add_price", "view_price"])
    staff_user.user_permissions.add(*perms)
    client.force_login(staff_user)
    return client


def upload(client, data: bytes, name: str = "catalog.csv"):
    return client.post(URL, {"file": SimpleUploadedFile(name, data, "text/csv")})


def token_of(response) -> str:
    return re.search(r'name="token" value="([^"]+)"', response.content.decode()).group(1)


def test_an_upload_shows_a_preview_and_writes_nothing(importer):
    response = upload(importer, DEFAULT_CATALOG.read_bytes())
    page = response.content.decode()
    assert response.status_code == 200
    assert "18 tiers, 19 prices, 2 exchange rates: 18 new tiers" in page
    assert "aws-p4d.24xlarge-us-east-1-on-demand" in page
    assert "Confirm import" in page
    assert table_counts() == {"Provider": 0, "Tier": 0, "Price": 0, "ExchangeRate": 0}


def test_confirming_the_preview_imports_the_file(importer, upload_folder):
    token = token_of(upload(importer, DEFAULT_CATALOG.read_bytes()))
    response = importer.post(URL, {"token": token})
    assert response.status_code == 302
    assert table_counts() == {"Provider": 3, "Tier": 18, "Price": 19, "ExchangeRate": 2}
    assert not list(upload_folder.iterdir())
    # The token is spent: a second confirm imports nothing more.
    importer.post(URL, {"token": token})
    assert table_counts()["Price"] == 19


def test_the_preview_names_changes_and_no_ops(importer):
    tier = make_tier("aws-c5.4xlarge-us-east-1-on-demand", name="c5.4xlarge", vcpus=8)
    add_price(tier, "0.68", "2026-01-19")
    data = csv_bytes([price_record(), price_record(amount="0.70", effective_from="2026-06-01")])
    page = upload(importer, data).content.decode()
    assert "aws-c5.4xlarge-us-east-1-on-demand: vcpus" in page
    assert "1 new prices" in page
    assert "0.70 USD/hour from 2026-06-01" in page


def test_a_bad_upload_is_refused_with_every_problem_and_nothing_to_confirm(importer):
    data = csv_bytes([price_record(amount="NaN"), price_record(slug="b", currency="EUE")])
    page = upload(importer, data).content.decode()
    assert "nothing was imported: 2 problems" in page
    assert "line 2, field amount: &#x27;NaN&#x27; is not a finite number" in page
    assert "line 3, field currency: unknown currency &#x27;EUE&#x27;" in page
    assert 'name="token"' not in page
    assert table_counts()["Tier"] == 0


def test_another_users_token_does_not_confirm(importer, client, django_user_model):
    token = token_of(upload(importer, DEFAULT_CATALOG.read_bytes()))
    other = django_user_model.objects.create_user("other-staff", password="x", is_staff=True)
    other.user_permissions.add(Permission.objects.get(codename="add_price"))
    client.force_login(other)
    client.post(URL, {"token": token})
    assert table_counts()["Tier"] == 0


def test_staff_without_the_permission_cannot_import(client, staff_user):
    client.force_login(staff_user)
    assert upload(client, DEFAULT_CATALOG.read_bytes()).status_code == 403
    assert table_counts()["Tier"] == 0


def test_the_admin_exports_the_catalog(importer):
    importer.post(URL, {"token": token_of(upload(importer, DEFAULT_CATALOG.read_bytes()))})
    response = importer.get("/admin/catalog/price/export/?history=1")
    assert response.status_code == 200
    assert response.content == DEFAULT_CATALOG.read_bytes()
