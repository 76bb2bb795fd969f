"""A price change in the admin adds a row and keeps the old one; the frame reads history."""

import datetime as dt
from decimal import Decimal

import pytest
from django.contrib.auth.models import Permission

from catalog.models import Price
from catalog.pricing import catalog_frame
from tests.support.catalog import add_price, make_tier

pytestmark = pytest.mark.django_db


@pytest.fixture
def price():
    return add_price(make_tier(), "0.68", "2026-01-19", source="AWS list 2026-01-19")


@pytest.fixture
def catalog_staff(staff_user):
    codenames = ["add_price", "view_price", "view_tier", "change_tier", "add_tier"]
    staff_user.user_permissions.add(*Permission.objects.filter(codename__in=codenames))
    return staff_user


def change(client, price: Price, **fields):
    data = {
        "tier": price.tier_id,
        "amount": "0.70",
        "unit": "hour",
        "currency": "USD",
        "setup_fee": "0",
        "effective_from": "2026-06-01",
        "source": "AWS list 2026-06-01",
        "source_url": "https://aws.amazon.com/ec2/pricing/on-demand/",
        "confirmed": "on",
    }
    data.update(fields)
    return client.post(f"/admin/catalog/price/{price.pk}/change/", data)


def test_a_price_change_in_the_admin_adds_a_row_and_keeps_the_old_one(client, catalog_staff, price):
    client.force_login(catalog_staff)
    response = change(client, price)
    assert response.status_code == 302
    rows = list(Price.objects.order_by("effective_from"))
    assert [(r.amount, r.effective_from) for r in rows] == [
        (Decimal("0.68"), dt.date(2026, 1, 19)),
        (Decimal("0.70"), dt.date(2026, 6, 1)),
    ]
    assert rows[0].pk == price.pk and rows[0].source == "AWS list 2026-01-19"
    assert rows[1].recorded_by == catalog_staff


def test_a_change_that_keeps_the_date_is_refused_rather_than_overwriting(
    client, catalog_staff, price
):
    client.force_login(catalog_staff)
    response = change(client, price, effective_from="2026-01-19")
    assert response.status_code == 200
    assert "Prices are never overwritten" in response.content.decode()
    assert list(Price.objects.values_list("amount", flat=True)) == [Decimal("0.68")]


def test_staff_without_the_catalog_permission_cannot_change_prices(client, staff_user, price):
    client.force_login(staff_user)
    assert change(client, price).status_code == 403
    assert client.get("/admin/catalog/price/add/").status_code == 403
    assert Price.objects.count() == 1


def test_a_logged_out_visitor_is_sent_to_the_login(client, price):
    response = change(client, price)
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]
    assert Price.objects.count() == 1


def test_no_one_deletes_a_price_row_in_the_admin(admin_client, price):
    response = admin_client.post(f"/admin/catalog/price/{price.pk}/delete/", {"post": "yes"})
    assert response.status_code == 403
    assert Price.objects.count() == 1


def test_the_tier_page_shows_the_history_newest_first_with_who_recorded_it(
    client, catalog_staff, price
):
    client.force_login(catalog_staff)
    change(client, price)
    page = client.get(f"/admin/catalog/tier/{price.tier_id}/change/").content.decode()
    newest, oldest = page.index("2026-06-01"), page.index("2026-01-19")
    assert newest < oldest
    assert catalog_staff.username in page


def test_a_price_added_on_the_tier_page_is_recorded_by_the_user(client, catalog_staff, price):
    client.force_login(catalog_staff)
    tier = price.tier
    data = {
        "slug": tier.slug,
        "provider": tier.provider_id,
        "name": tier.name,
        "region": tier.region,
        "pricing_model": tier.pricing_model,
        "kind": tier.kind,
        "vcpus": "16",
        "cores": "8",
        "ram_gib": "32",
        "gpus": "0",
        "managed": "unknown",
        "operating_system": "linux",
        "ecc": "unknown",
        "fixed_price": "unknown",
        "prices-TOTAL_FORMS": "2",
        "prices-INITIAL_FORMS": "1",
        "prices-MIN_NUM_FORMS": "0",
        "prices-MAX_NUM_FORMS": "1000",
        "prices-0-id": str(price.pk),
        "prices-0-tier": str(tier.pk),
        "prices-1-tier": str(tier.pk),
        "prices-1-effective_from": "2026-07-01",
        "prices-1-amount": "0.66",
        "prices-1-unit": "hour",
        "prices-1-currency": "USD",
        "prices-1-setup_fee": "0",
        "prices-1-source": "AWS list 2026-07-01",
    }
    response = client.post(f"/admin/catalog/tier/{tier.pk}/change/", data)
    assert response.status_code == 302, response.content.decode()[:3000]
    new = Price.objects.get(effective_from=dt.date(2026, 7, 1))
    assert new.recorded_by == catalog_staff
    assert Price.objects.get(pk=price.pk).amount == Decimal("0.68")


def test_the_frame_for_an_old_date_returns_the_old_price(client, catalog_staff, price):
    client.force_login(catalog_staff)
    change(client, price)
    assert catalog_frame(dt.date(2026, 3, 1)).iloc[0]["amount"] == Decimal("0.68")
    assert catalog_frame(dt.date(2026, 6, 1)).iloc[0]["amount"] == Decimal("0.70")
