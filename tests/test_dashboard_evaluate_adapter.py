"""The editor's evaluate (on a cached catalog frame) gives exactly what the services give."""

import pytest

from catalog.models import Tier
from planner.services import plans as services
from planner.web import data as web_data
from tests.support.catalog import add_price
from tests.support.dashboard import CLOUD, DEDICATED, days_ago

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("two_tier_catalog")]


def plan():
    return services.parse(
        {
            "currency": "USD",
            "baseline": {"monthly": "1200"},
            "one_time": {"migration_hours": "40", "migration_rate": "90"},
            "candidates": [{"tier": DEDICATED, "count": 2}, {"tier": CLOUD, "count": 3}],
        }
    )


def test_the_adapter_matches_services_evaluate():
    assert web_data.cached_comparison(plan()) == services.evaluate(plan()).to_dict()


def test_a_new_price_reaches_the_adapter_at_once():
    before = web_data.cached_comparison(plan())
    add_price(Tier.objects.get(slug=DEDICATED), "299.99", days_ago(0), unit="month")
    after = web_data.cached_comparison(plan())
    assert after == services.evaluate(plan()).to_dict()
    assert after != before
