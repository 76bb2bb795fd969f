"""Declared speed factors are staff-only: they turn "no number" into an estimate on every plan."""

import pytest
from django.test import Client

from planner.models import SpeedFactor
from tests.support.catalog import add_price, make_tier

pytestmark = pytest.mark.django_db
URL = "/admin/planner/speedfactor/"


def test_staff_declare_a_speed_factor_with_its_source(staff_user):
    a, b = make_tier("test-a", provider="Test"), make_tier("test-b", provider="Test")
    add_price(a, "1", "2026-01-01")
    client = Client()
    client.force_login(staff_user)
    assert client.get(URL).status_code == 200
    response = client.post(
        f"{URL}add/",
        {"tier": a.pk, "relative_to": b.pk, "factor": "0.8", "unit": "throughput_ratio",
         "source": "vendor sheet 2026", "author": "staff", "date": "2026-05-01"},
    )  # fmt: skip
    assert response.status_code == 302, response.content[:500]
    factor = SpeedFactor.objects.get()
    assert (factor.tier, factor.relative_to, factor.source) == (a, b, "vendor sheet 2026")


def test_a_tier_cannot_be_its_own_reference(staff_user):
    a = make_tier("test-a", provider="Test")
    client = Client()
    client.force_login(staff_user)
    response = client.post(
        f"{URL}add/",
        {"tier": a.pk, "relative_to": a.pk, "factor": "1", "unit": "throughput_ratio",
         "source": "s", "author": "a", "date": "2026-05-01"},
    )  # fmt: skip
    assert response.status_code == 200
    assert not SpeedFactor.objects.exists()


def test_other_users_cannot_reach_it(owner):
    client = Client()
    client.force_login(owner)
    assert client.get(URL).status_code == 302  # to the admin login
    assert Client().get(URL).status_code == 302
