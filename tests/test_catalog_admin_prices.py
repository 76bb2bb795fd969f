"""The admin's price pages: amounts with the decimals they need, a form that says it adds
a row, a stale marker as in the tier list, and an import preview that shows each new
price beside the one it replaces."""

import datetime as dt
import re
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from catalog.models import Price
from tests.support.catalog import add_price, csv_bytes, make_tier, price_record

pytestmark = pytest.mark.django_db
LIST = "/admin/catalog/price/"
IMPORT = "/admin/catalog/price/import/"


@pytest.fixture
def staff(client, admin_user):
    client.force_login(admin_user)
    return client


@pytest.fixture(autouse=True)
def upload_folder(tmp_path, monkeypatch):
    monkeypatch.setattr("catalog.admin.IMPORT_DIR", tmp_path / "imports")


def test_the_price_list_shows_amounts_with_the_decimals_they_need(staff):
    add_price(make_tier("a"), "349.99", dt.date.today(), unit="month")
    add_price(make_tier("b"), "0.0416", dt.date.today())
    add_price(make_tier("c"), "12.5", dt.date.today())
    page = staff.get(LIST).content.decode()
    assert "349.99 USD per month" in page
    assert "0.0416 USD per hour" in page
    assert "12.50 USD per hour" in page
    assert "349.990000" not in page


def test_the_price_list_marks_stale_and_replaced_rows_as_the_tier_list_does(staff):
    today = dt.date.today()
    spot = make_tier("spot-old", pricing_model="spot")
    add_price(spot, "1", today - dt.timedelta(days=60))
    add_price(spot, "2", today - dt.timedelta(days=30))
    add_price(make_tier("spot-new", pricing_model="spot"), "3", today)
    page = staff.get(LIST).content.decode()
    freshness = re.findall(r'class="field-freshness">([^<]+)<', page)
    assert sorted(freshness) == ["fresh", "replaced", "stale"]


def test_the_price_form_says_it_adds_a_new_price_and_saving_adds_a_row(staff):
    old = add_price(make_tier("a"), "349.99", "2026-01-01", unit="month")
    url = f"/admin/catalog/price/{old.pk}/change/"
    page = staff.get(url).content.decode()
    assert "<h1>Add a new price</h1>" in page
    assert 'value="349.99"' in page
    assert "349.990000" not in page
    form = {"tier": old.tier.pk, "amount": "329.99", "unit": "month", "currency": "USD",
            "setup_fee": "0", "effective_from": "2026-02-01", "source": "list",
            "source_url": "", "confirmed": "on"}  # fmt: skip
    assert staff.post(url, form).status_code == 302
    amounts = sorted(Price.objects.values_list("amount", flat=True))
    assert amounts == [Decimal("329.99"), Decimal("349.99")]


def test_the_price_form_in_german_says_it_adds_a_new_price(staff, settings):
    old = add_price(make_tier("a"), "1", "2026-01-01")
    staff.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    page = staff.get(f"/admin/catalog/price/{old.pk}/change/").content.decode()
    assert "<h1>Neuen Preis hinzufügen</h1>" in page


def test_the_import_preview_shows_each_new_price_beside_the_one_it_replaces(staff):
    tier = make_tier("aws-c5.4xlarge-us-east-1-on-demand")
    add_price(tier, "0.68", "2026-01-19")
    data = csv_bytes([
        price_record(),
        price_record(amount="0.612", effective_from="2026-03-01"),
        price_record(slug="aws-c5.9xlarge-us-east-1-on-demand", name="c5.9xlarge",
                     amount="1.53", effective_from="2026-03-01"),
    ])  # fmt: skip
    response = staff.post(IMPORT, {"file": SimpleUploadedFile("c.csv", data, "text/csv")})
    table = response.content.decode().split('class="replaced-prices"')[1]
    rows = re.findall(r"<tr><td>([^<]+)</td><td>([^<]+)</td>\s*<td>(.*?)</td></tr>", table)
    assert rows == [
        ("aws-c5.4xlarge-us-east-1-on-demand", "0.612 USD/hour from 2026-03-01",
         "0.68 USD/hour from 2026-01-19"),
        ("aws-c5.9xlarge-us-east-1-on-demand", "1.53 USD/hour from 2026-03-01",
         '<span class="quiet">no earlier price</span>'),
    ]  # fmt: skip
