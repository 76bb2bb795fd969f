"""Prices are edited in the admin by staff with the catalog permission, and by nobody else."""

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from catalog.models import Price
from tests.support.dashboard import login

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("two_tier_catalog")]
ADD_PRICE = "/admin/catalog/price/add/"


def test_anonymous_visitors_and_managers_are_sent_to_the_admin_login(owner):
    for client in (Client(), login(owner)):
        response = client.get(ADD_PRICE)
        assert response.status_code == 302
        assert "/admin/login/" in response["Location"]


def test_staff_without_the_catalog_permission_are_refused(staff_user):
    assert login(staff_user).get(ADD_PRICE).status_code == 403
    assert login(staff_user).post(ADD_PRICE, {"amount": "1"}).status_code == 403
    assert Price.objects.count() == 2


def test_staff_with_the_catalog_permission_may_add_prices(staff_user):
    staff_user.user_permissions.add(Permission.objects.get(codename="add_price"))
    assert login(staff_user).get(ADD_PRICE).status_code == 200
