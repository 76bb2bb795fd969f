"""The plan page of a baseline taken from a bill (issue 27) in a real Chromium: the
cloud's reservations and spot of the bill's c5.4xlarge weighed against what the bill
pays, labelled "from your bill", the share already under a savings plan said, and today's
commitment figures from the bill, in English and German, nothing sideways on a phone.
Screenshots at 1366x768 and 390x844 go to test-artifacts/ (only with SCREENSHOTS=1).

The bill is the GENERATED one of tests/test_api_bill_commitments.py; today's figures are
its own, as the bill page computes them (`bills.commitments.bill_commitment_summary`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bills.services.importing import import_bill
from catalog.defaults import load_default_catalog
from tests.support.browser import NO_SIDEWAYS, launched, shot
from tests.test_api_bill_commitments import bill_plan, generated_bill

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
SAID = {
    "en": ("from your bill: beats what you pay now from month 1", "79.26",
           "already ran under a reservation or savings plan", "unused commitment spend"),
    "de": ("nach Ihrer Rechnung: günstiger als heute ab Monat 1", "79,26",
           "liefen schon über eine Reservierung oder einen Sparplan",
           "ungenutzte Bindungsausgaben"),
}  # fmt: skip


@pytest.fixture(scope="module")
def browser() -> Iterator:
    ARTIFACTS.mkdir(exist_ok=True)
    yield from launched()


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_bills_instances_stand_with_their_commitments_from_the_bill(
    browser, live_server, owner, tmp_path, language
):
    load_default_catalog()
    bill = import_bill(generated_bill(tmp_path), owner).bill
    plan = bill_plan(owner, bill.pk)
    terms, share, note, today = SAID[language]
    for size, (width, height) in {"wide": (1366, 768), "phone": (390, 844)}.items():
        context = browser.new_context(viewport={"width": width, "height": height})
        context.set_default_timeout(30_000)
        context.add_cookies([{"name": "django_language", "value": language,
                              "url": live_server.url}])  # fmt: skip
        page = context.new_page()
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("#id_username", "owner")
        page.fill("#id_password", "pw-owner-1")
        page.click("main form button[type=submit]")
        page.wait_for_url(f"{live_server.url}/")
        page.goto(f"{live_server.url}/plans/{plan.code}/")
        card = page.locator('[data-testid="bill-commitments"]')
        card.wait_for()
        row = card.locator('tr[data-key="reserved-1"]')
        said = row.locator('[data-testid="bill-commitment-terms"]').inner_text()
        assert terms in said and share in said
        assert note in card.locator('[data-testid="bill-commitments-note"]').first.inner_text()
        today_said = card.locator('[data-testid="bill-commitments-today"]').inner_text()
        assert today in today_said  # and its coverage, 496.40 of 1,241.00 list
        assert ("40.0" if language == "en" else "40,0") in today_said, today_said
        vs_move = page.locator('[data-testid="vs-bill-commitments"]').inner_text()
        assert ("372.30" if language == "en" else "372,30") in vs_move
        assert page.evaluate(NO_SIDEWAYS)
        card.scroll_into_view_if_needed()
        shot(page, path=str(ARTIFACTS / f"bill-commitments-{size}-{language}.png"), full_page=True)
        shot(card, path=str(ARTIFACTS / f"bill-commitments-card-{size}-{language}.png"))
        context.close()
