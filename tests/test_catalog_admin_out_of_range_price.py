"""A price row SQLite holds beyond its column's range (written before the feeds' bounds;
see test_catalog_out_of_range_price) must not make the admin a 500 (Django's SQLite
decimal converter raises on reading it): the price list and the tier's page leave the row
out and name it with its stored value, and the row's own page says it cannot be read and
deletes it on request. PostgreSQL cannot hold such a row (it refuses the write)."""

from __future__ import annotations

import pytest
from django.db import connection

from catalog.models import Price
from changes.models import Change
from tests.support.catalog import add_price, make_tier

pytestmark = pytest.mark.django_db
LIST = "/admin/catalog/price/"
# As the warnings and the row's page show it (capitalised: the message starts a sentence).
SAID = "Price row {pk} of aws-m5.large-us-east-1-on-demand holds amount 1.0e+20"


@pytest.fixture(autouse=True)
def _sqlite_only():
    if connection.vendor != "sqlite":
        pytest.skip("only SQLite stores a value beyond the column's range")


@pytest.fixture
def staff(client, admin_user):
    client.force_login(admin_user)
    return client


@pytest.fixture
def rows():
    """A readable row of one tier, and a second tier's row holding 1e20 (written raw)."""
    good = add_price(make_tier("aws-c5.4xlarge-us-east-1-on-demand"), "0.68", "2026-01-19")
    bad_tier = make_tier("aws-m5.large-us-east-1-on-demand")
    add_price(bad_tier, "0.09", "2026-01-01")
    bad = add_price(bad_tier, "0.096", "2026-01-19")
    with connection.cursor() as cursor:
        cursor.execute("UPDATE catalog_price SET amount = 1e20 WHERE id = %s", [bad.pk])
    return good, bad


def test_the_price_list_names_the_row_it_cannot_read_and_shows_the_others(staff, rows):
    good, bad = rows
    for url in (LIST, f"{LIST}?q=m5", f"{LIST}?o=3", f"{LIST}?tier__provider__id__exact=1"):
        assert staff.get(url).status_code == 200, url
    page = staff.get(LIST).content.decode()
    assert SAID.format(pk=bad.pk) in page
    assert f'href="/admin/catalog/price/{bad.pk}/change/"' in page
    assert f"/admin/catalog/price/{good.pk}/change/" in page  # the readable rows are listed
    assert "0.09 USD per hour" in page and "0.68 USD per hour" in page
    german = staff.get(LIST, headers={"accept-language": "de"}).content.decode()
    assert f"Preiszeile {bad.pk}" in german and "Zeile löschen" in german
    # The export would leave the row out (an import would then not restore it): it refuses.
    for query in ("?history=1", "?history=1&format=json", ""):
        response = staff.get(f"{LIST}export/{query}")
        assert response.status_code == 302 and response["Location"] == LIST, query
    page = staff.get(LIST).content.decode()
    assert "The export needs every price row readable" in page
    assert SAID.format(pk=bad.pk) in page


def test_the_tiers_page_shows_its_readable_prices_and_names_the_other(staff, rows):
    good, bad = rows
    response = staff.get(f"/admin/catalog/tier/{bad.tier_id}/change/")
    assert response.status_code == 200
    page = response.content.decode()
    assert SAID.format(pk=bad.pk) in page
    assert "2026-01-01" in page or "Jan. 1, 2026" in page  # the readable row, in the inline
    other = staff.get(f"/admin/catalog/tier/{good.tier_id}/change/").content.decode()
    assert "holds amount" not in other  # the warning is the tier's own
    assert staff.get("/admin/catalog/tier/").status_code == 200


def test_the_rows_page_says_it_cannot_be_read_and_deletes_it(staff, rows):
    _good, bad = rows
    url = f"/admin/catalog/price/{bad.pk}/change/"
    page = staff.get(url).content.decode()
    assert "This price row cannot be read" in page
    assert SAID.format(pk=bad.pk) in page
    assert "Yes, delete this row" in page
    assert staff.get(f"/admin/catalog/price/{bad.pk}/history/").status_code == 302
    german = staff.get(url, headers={"accept-language": "de"}).content.decode()
    assert "Diese Preiszeile kann nicht gelesen werden" in german
    response = staff.post(url)
    assert response.status_code == 302 and response["Location"] == LIST
    assert not Price.objects.filter(pk=bad.pk).exists()
    assert Price.objects.filter(tier_id=bad.tier_id).count() == 1  # only that row
    assert Change.objects.filter(kind="price.deleted", object_id=str(bad.pk)).exists()
    after = staff.get(LIST).content.decode()
    assert f"Deleted the unreadable price row {bad.pk}." in after
    assert "holds amount" not in after


def test_only_someone_who_may_delete_prices_deletes_the_row(client, django_user_model, rows):
    _good, bad = rows
    from django.contrib.auth.models import Permission

    clerk = django_user_model.objects.create_user("clerk", password="pw-clerk-1", is_staff=True)
    clerk.user_permissions.add(*Permission.objects.filter(codename__in=["view_price",
                                                                        "add_price"]))  # fmt: skip
    client.force_login(clerk)
    url = f"/admin/catalog/price/{bad.pk}/change/"
    page = client.get(url).content.decode()
    assert "This price row cannot be read" in page and "Yes, delete this row" not in page
    assert client.post(url).status_code == 403
    assert Price.objects.filter(pk=bad.pk).exists()
