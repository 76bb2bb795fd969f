"""The admin's tier list: current price, freshness, and filters including "stale"."""

import datetime as dt
import re

import pytest
from django.contrib.auth.models import Permission

from tests.support.catalog import add_price, make_tier

pytestmark = pytest.mark.django_db
URL = "/admin/catalog/tier/"


@pytest.fixture
def viewer(client, staff_user):
    staff_user.user_permissions.add(*Permission.objects.filter(codename="view_tier"))
    client.force_login(staff_user)
    return client


@pytest.fixture
def tiers():
    today = dt.date.today()
    add_price(make_tier("spot-old", pricing_model="spot"), "1", today - dt.timedelta(days=30))
    add_price(make_tier("spot-new", pricing_model="spot"), "1", today - dt.timedelta(days=1))
    add_price(make_tier("list-recent"), "1", today - dt.timedelta(days=30), confirmed=False)
    make_tier("no-price", provider="Other", region="eu-central-1", kind="dedicated")


def listed(response) -> list[str]:
    page = response.content.decode()
    return sorted(re.findall(r'class="field-slug"><a href="[^"]+">([^<]+)</a>', page))


def test_the_stale_filter_uses_each_pricing_models_age(viewer, tiers):
    assert listed(viewer.get(URL, {"stale": "yes"})) == ["spot-old"]
    assert listed(viewer.get(URL, {"stale": "no"})) == ["list-recent", "spot-new"]
    assert listed(viewer.get(URL, {"stale": "none"})) == ["no-price"]


def test_the_list_filters_by_provider_kind_model_and_region_and_searches_names(viewer, tiers):
    assert listed(viewer.get(URL, {"kind": "dedicated"})) == ["no-price"]
    assert listed(viewer.get(URL, {"pricing_model": "spot"})) == ["spot-new", "spot-old"]
    assert listed(viewer.get(URL, {"region": "eu-central-1"})) == ["no-price"]
    assert listed(viewer.get(URL, {"q": "spot"})) == ["spot-new", "spot-old"]


def test_the_list_shows_the_current_price_and_its_freshness(viewer, tiers):
    page = viewer.get(URL).content.decode()
    assert "1 USD/hour" in page
    assert "fresh, unconfirmed" in page
    assert "stale" in page


def test_the_list_costs_few_queries_however_many_tiers(viewer, django_assert_max_num_queries):
    for index in range(40):
        add_price(make_tier(f"t-{index}"), "1", "2026-01-01")
    with django_assert_max_num_queries(12):
        assert viewer.get(URL).status_code == 200
