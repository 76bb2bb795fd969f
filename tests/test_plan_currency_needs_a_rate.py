"""A plan is accepted only in a currency it can be shown in: the catalog's prices' own or
one a dated exchange rate names, as the editor's list offers (issue 29, item 8). Before,
`XXX` or `JPY` was stored and then showed no figures."""

import json

import pytest

from planner.models import Plan
from tests.support.api import token_client
from tests.support.catalog import add_rate
from tests.support.dashboard import DEDICATED, form_data, login

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("two_tier_catalog")]


def plan(currency: str) -> str:
    return json.dumps({"currency": currency, "baseline": {"monthly": "480"},
                       "candidates": [{"tier": DEDICATED, "count": 1}]})  # fmt: skip


@pytest.mark.parametrize("currency", ["XXX", "JPY"])
def test_the_api_refuses_a_currency_without_a_rate_naming_those_it_can_show(owner, currency):
    api, _key = token_client(owner)
    for url in ("/api/v1/plans", "/api/v1/evaluate"):
        answer = api.post(url, plan(currency), content_type="application/json")
        assert answer.status_code == 400
        said = answer.json()["errors"]["currency"][0]
        assert said == f"no exchange rate for {currency}: a plan can be shown in USD"
    assert not Plan.objects.exists()


def test_a_currency_with_a_dated_rate_is_accepted(owner):
    add_rate("2026-01-02", "EUR", "USD", "1.08")
    api, _key = token_client(owner)
    answer = api.post("/api/v1/plans", plan("EUR"), content_type="application/json")
    assert answer.status_code == 201
    assert (
        api.post("/api/v1/plans", plan("JPY"), content_type="application/json").status_code == 400
    )


def test_the_editor_refuses_it_beside_the_field(owner):
    response = login(owner).post("/plans/new", form_data(action="save", currency="JPY"))
    assert response.status_code == 400
    assert "There is no exchange rate for JPY: choose one of USD." in response.content.decode()
    assert not Plan.objects.exists()
