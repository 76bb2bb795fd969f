# ruff: noqa: RUF001, RUF002, RUF003  (the page says ×, the hand calculation writes −)
"""The plan page gives the best option's NPV and says how it discounts: at the end of each
month (the README and docs/openapi.yaml say the same).

The field-notes plan: $480 a month today, one Extreme server at $349.99, 36 months at 7 %
a year. The saving is $130.01 a month; with i = 1.07^(1/12) − 1 the NPV is
Σ 130.01 ÷ (1 + i)^m for m = 1…36 = $4,224.00. Discounting at the start of each month
(m − 1) would give $4,247.88.
"""

import html
from pathlib import Path

import pytest
import yaml

from tests.support.dashboard import edit_url, login, saved_plan

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("two_tier_catalog")]
ROOT = Path(__file__).resolve().parent.parent
NBSP = "\u00a0"


def npv_line(page: str) -> str:
    start = page.index('data-testid="npv">') + len('data-testid="npv">')
    return html.unescape(page[start : page.index("</p>", start)])


def test_the_plan_page_shows_the_npv_discounted_at_each_months_end(owner):
    page = login(owner).get(edit_url(saved_plan(owner))).content.decode()
    assert npv_line(page) == (
        "NPV of switching to 1 × Test Hosting Extreme · monthly: $4,224.00, each month "
        "discounted at the end of that month."
    )


def test_the_german_page_says_it_in_german(owner):
    client = login(owner)
    assert client.post("/i18n/setlang/", {"language": "de", "next": "/"}).status_code == 302
    page = client.get(edit_url(saved_plan(owner))).content.decode()
    assert npv_line(page) == (
        f"Kapitalwert des Wechsels zu 1{NBSP}× Test Hosting Extreme · monatlich: 4.224,00{NBSP}$; "
        "jeder Monat wird an seinem Ende abgezinst."
    )


def test_the_readme_and_the_api_document_state_the_convention():
    assert (
        "discount\neach month's amount at the end of that month" in (ROOT / "README.md").read_text()
    )
    schemas = yaml.safe_load((ROOT / "docs" / "openapi.yaml").read_text())["components"]["schemas"]
    money = schemas["OptionMoney"]["properties"]
    assert "each month is discounted at its end" in money["npv"]["description"]
    assert "each month discounted at its end" in money["present_cost"]["description"]
