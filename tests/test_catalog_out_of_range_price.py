"""A price row SQLite stored before the feeds' amount bounds existed, beyond its column's
range (Price.amount: 14 digits, 6 places), must not break /catalog/ (Django's SQLite
decimal converter raises on it): the page answers 200 naming the row, its tier left out,
the other tiers shown. PostgreSQL cannot hold such a row (it refuses the write)."""

from __future__ import annotations

import pytest
from django.db import connection

from tests.support.catalog import add_price, make_tier

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _sqlite_only():
    if connection.vendor != "sqlite":
        pytest.skip("only SQLite stores a value beyond the column's range")


@pytest.mark.parametrize(
    ("column", "stored", "shown"),
    [("amount", "100000000000000000000", "amount 1.0e+20"),
     ("amount", "1e308", "amount 1.0e+308"),
     ("setup_fee", "1e15", "setup_fee 1000000000000000")],
)  # fmt: skip
def test_a_stored_price_beyond_its_column_is_named_not_a_500(client, own_cache, column, stored,
                                                            shown):  # fmt: skip
    good = make_tier("aws-c5.4xlarge-us-east-1-on-demand", name="c5.4xlarge")
    add_price(good, "0.68", "2026-01-19")
    bad = make_tier("aws-m5.large-us-east-1-on-demand", name="m5.large")
    price = add_price(bad, "0.096", "2026-01-19")
    with connection.cursor() as cursor:  # as a row from before the bounds, written raw
        cursor.execute(f"UPDATE catalog_price SET {column} = {stored} WHERE id = %s", [price.pk])
    for url in ("/catalog/", "/catalog/?currency=EUR", "/catalog/export.csv"):
        assert client.get(url).status_code == 200, url
    page = client.get("/catalog/").content.decode()
    assert 'data-testid="unreadable-prices"' in page
    said = f"price row {price.pk} of aws-m5.large-us-east-1-on-demand holds {shown}"
    assert said in page, page[page.find("unreadable-prices") :][:800]
    assert 'data-slug="aws-c5.4xlarge-us-east-1-on-demand"' in page
    assert 'data-slug="aws-m5.large-us-east-1-on-demand"' not in page
    german = client.get("/catalog/", headers={"accept-language": "de"}).content.decode()
    assert f"Preiszeile {price.pk}" in german
