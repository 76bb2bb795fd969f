# ruff: noqa: RUF002, RUF003  (hand calculations written with ×, − and ÷)
"""Owned servers: bought, run and resold through the same monthly lines, cumulative curve,
payback and NPV as every other option (docs/design.md, "Owned hardware")."""

from decimal import Decimal
from fractions import Fraction

import pytest

from planner.compute import owned
from planner.compute.schema import OwnedServer
from tests.support.api import post_json, token_client
from tests.support.provenance import unresolved

pytestmark = pytest.mark.django_db

WORKED = {
    "purchase_price": "6000",
    "watts": 350,
    "pue": "1.5",
    "kwh_price": "0.15",
    "colocation_monthly": "100",
    "support_share": "0.10",
    "depreciation_years": 4,
    "resale": "book_value",
}


@pytest.fixture
def api(owner, settings):
    settings.API_RATE_LIMIT_PER_MINUTE = 10_000
    return token_client(owner)[0]


def evaluated(api, *servers: dict, **plan) -> dict:
    body = {"currency": "USD", "baseline": {"monthly": "480"}, "horizon_months": 36,
            "annual_discount_rate": "0.07", "owned": list(servers), **plan}  # fmt: skip
    response = post_json(api, "/api/v1/evaluate", body)
    assert response.status_code == 200, response.content[:500]
    return response.json()


def test_the_worked_owned_server_example(api):
    """One server bought for $6,000 in cash at month 0, against a $480/month cloud bill,
    36 months at 7 %/year (i = 1.07^(1/12) − 1, end-of-month discounting).

    Depreciation (not a cash line): 4 years straight line = 6,000 ÷ 48 = $125 a month of
    book value; after 36 months the book value is 6,000 × (1 − 36/48) = $1,500.
    Monthly cash:
      power   350 W × 1.5 × $0.15/kWh × 730 h ÷ 1000 = $57.4875 → $57.49
      colocation (power not included)                 = $100.00
      support 10 % × 6,000 ÷ 12                        =  $50.00
      total                                            = $207.49
    Month 36: 207.49 − 1,500 resale = −$1,292.51.
    Payback: saving 480 − 207.4875 = 272.5125 a month against 6,000 at month 0:
      6,000 ÷ 272.5125 = 22.02 months, so the option is strictly ahead from month 23.
    With v = 1/(1+i), a36 = Σ v^m (m = 1…36) = (1 − 1.07^−3) ÷ i = 32.4898…:
      NPV = −6,000 + 272.5125 × a36 + 1,500 × 1.07^−3 = $4,078.33
      present cost = 6,000 + 207.4875 × a36 − 1,500 × 1.07^−3 = $11,516.78
    (power is metered: the discounted figures use its unrounded 57.4875).
    """
    body = evaluated(api, WORKED)
    [option] = body["options"]
    money = option["money"]
    assert option["key"] == "owned:0" and option["figure"] == "entered"
    assert money["one_time"] == "6000.00"
    assert money["monthly"][0] == "207.49" and money["monthly"][34] == "207.49"
    assert money["monthly"][35] == "-1292.51"
    assert money["payback_month"] == 23 and money["payback_fraction"] == "22.02"
    assert money["npv"] == "4078.33"
    assert money["present_cost"] == "11516.78"
    lines = option["owned"]["lines"]
    assert lines["power"][0] == "57.49" and lines["support"][0] == "50.00"
    assert lines["resale"][35] == "-1500.00"
    assert option["one_time_items"]["purchase"] == "6000.00"
    assert "owned[0].purchase_price" in option["provenance"]["entered"]
    assumed = {a["name"]: a for a in body["assumptions"]}
    assert assumed["owned_pue"]["source"] and assumed["owned_pue"]["date"]
    assert unresolved(body) == []


def test_a_loan_pays_an_annuity_at_month_ends_and_the_balance_at_the_horizon():
    """$6,000 over 48 months at 6 %/year: r = 0.005, A = 6,000 × 0.005 ÷ (1 − 1.005^−48)
    = $140.91; after 36 payments the balance is 6,000 × 1.005^36 − A × (1.005^36 − 1) ÷ r."""
    server = OwnedServer(**WORKED, financing="loan", loan_annual_rate="0.06", loan_months=48)
    money = owned.owned_money(server, 36)
    r = Fraction(5, 1000)
    payment = Fraction(6000) * r / (1 - (1 + r) ** -48)
    left = Fraction(6000) * (1 + r) ** 36 - payment * ((1 + r) ** 36 - 1) / r
    assert money.one_time["purchase"] == 0
    assert money.lines["loan"][0] == 14091 == round(payment * 100)
    assert money.lines["loan_balance"][35] == round(left * 100)
    assert money.lines["loan_balance"][:35].sum() == 0


def test_a_horizon_past_the_service_life_buys_a_replacement_or_says_it_does_not():
    server = OwnedServer(**{**WORKED, "depreciation_years": 2})
    bought = owned.owned_money(server, 36)
    assert bought.purchases == [0, 24]
    assert bought.lines["purchase"][23] == 600_000  # the replacement, in month 24's line
    # the replacement is 12 months old at the horizon: 6,000 × (1 − 12/24)
    assert bought.lines["resale"][35] == -300_000
    kept = owned.owned_money(OwnedServer(**{**WORKED, "depreciation_years": 2,
                                            "replace_at_end_of_life": False}), 36)  # fmt: skip
    assert kept.purchases == [0] and kept.lines["resale"][35] == 0
    assert [n.code for n in kept.notes] == ["owned.runs_past_life"]


def test_a_payback_that_exists_only_through_the_last_months_resale_is_labelled_so(api):
    # 480 − 420 = 60 a month never repays 6,000 in 36 months; the 90 % resale does.
    server = {**WORKED, "colocation_monthly": "312.51", "resale": "percent",
              "resale_percent": "0.9"}  # fmt: skip
    [option] = evaluated(api, server)["options"]
    assert option["money"]["payback_month"] == 36
    codes = [m["code"] for m in option["messages"]]
    assert "owned.payback_by_resale" in codes


def test_owned_field_checks_name_what_is_missing(api):
    response = post_json(api, "/api/v1/evaluate", {
        "currency": "USD", "baseline": {"monthly": "480"},
        "owned": [{"purchase_price": "6000", "financing": "loan", "resale": "percent"}],
    })  # fmt: skip
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert {"owned[0].loan_annual_rate", "owned[0].loan_months", "owned[0].resale_percent"} <= set(
        errors
    )


def test_the_published_defaults_are_the_plan_defaults():
    server = OwnedServer(purchase_price=Decimal(1000))
    assert server.pue == Decimal("1.5") and server.kwh_price == Decimal("0.12")
    assert server.support_share == Decimal("0.10") and server.resale == "book_value"


def test_a_stored_plan_with_an_owned_server_shows_on_its_page_and_in_its_exports(owner, api):
    from django.test import Client

    plan = {"currency": "USD", "baseline": {"monthly": "480"}, "owned": [WORKED]}
    stored = post_json(api, "/api/v1/plans", plan)
    assert stored.status_code == 201, stored.content[:300]
    browser = Client()
    browser.force_login(owner)
    code = stored.json()["id"]
    page = browser.get(f"/plans/{code}/")
    assert page.status_code == 200
    assert "1 owned server" in page.content.decode()
    export = browser.get(f"/plans/{code}/comparison.csv")
    assert export.status_code == 200 and b"1 owned server" in export.content
