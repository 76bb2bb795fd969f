"""An amount typed in another currency than the plan's is refused beside its field, naming
both currencies, and nothing is saved (issue 21, item 4; docs/design.md, "Money
conventions"); a new plan starts in the reader's own currency (German: EUR)."""

import re

import pytest

from planner.models import Plan
from tests.support.catalog import add_rate
from tests.support.dashboard import field_error, form_data, login

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("two_tier_catalog", "own_cache")]


def posted(owner, language: str, **changes):
    client = login(owner)
    client.cookies["django_language"] = language
    return client.post("/plans/new", form_data(action="save", **changes),
                       headers={"Accept-Language": language})  # fmt: skip


@pytest.mark.parametrize(
    ("language", "typed", "words"),
    [
        ("de", "1.234,56 €", "Dieser Betrag ist in EUR, der Plan aber in USD"),
        ("en", "EUR 480", "This amount is in EUR, but the plan is in USD"),
        ("en", "£480", "This amount is in GBP, but the plan is in USD"),
    ],
)
def test_an_amount_in_another_currency_is_refused_naming_both(owner, language, typed, words):
    response = posted(owner, language, baseline__monthly=typed)
    assert response.status_code == 400
    assert words in field_error(response.content.decode(), "baseline__monthly")
    assert Plan.objects.count() == 0


def test_the_refusal_reaches_a_rows_amount_too(owner):
    response = posted(owner, "en", one_time__other="EUR 100", monthly__egress="€5")
    html = response.content.decode()
    assert response.status_code == 400
    assert "is in EUR, but the plan is in USD" in field_error(html, "one_time__other")
    assert "is in EUR, but the plan is in USD" in field_error(html, "monthly__egress")


@pytest.mark.parametrize(("currency", "typed", "stored"),
                         [("USD", "$480", "480.00"), ("EUR", "480 €", "480.00"),
                          ("USD", "USD 1,234.56", "1234.56")])  # fmt: skip
def test_an_amount_in_the_plans_own_currency_is_taken(owner, currency, typed, stored):
    add_rate("2026-01-19", "EUR", "USD", "1.1631")  # the editor offers EUR: a rate exists
    response = posted(owner, "en", currency=currency, baseline__monthly=typed)
    assert response.status_code == 302, field_error(response.content.decode(), "baseline__monthly")
    plan = Plan.objects.get()
    assert plan.inputs["currency"] == currency
    assert str(plan.inputs["baseline"]["monthly"]) in (stored, stored.rstrip("0").rstrip("."))


@pytest.mark.parametrize(
    ("language", "with_rate", "currency"),
    [("de", True, "EUR"), ("en", True, "USD"), ("de", False, "USD")],
)
def test_a_new_plan_starts_in_the_readers_currency_where_a_rate_exists(
    owner, language, with_rate, currency
):
    if with_rate:  # the ECB's reference rate of 2026-01-19 (catalog/data/default_catalog.csv)
        add_rate("2026-01-19", "EUR", "USD", "1.1631")
    client = login(owner)
    client.cookies["django_language"] = language
    html = client.get("/plans/new", headers={"Accept-Language": language}).content.decode()
    selected = re.search(r'<select name="currency"[^>]*>.*?<option value="(\w+)" selected',
                         html, re.S)  # fmt: skip
    assert selected and selected.group(1) == currency
