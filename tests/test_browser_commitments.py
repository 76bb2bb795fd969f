"""The plan page with the cloud's own best deals beside the move (issue 27), in a real
Chromium: a c5.4xlarge baseline shows its 1- and 3-year reservations labelled as cloud
commitments with their break-even month and utilisation beside the EPYC server, the
savings plans the catalog has no price for said so, in English and German. Screenshots at
1366x768 and 390x844 go to test-artifacts/ (only with SCREENSHOTS=1)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from catalog.defaults import load_default_catalog
from tests.support.browser import NO_SIDEWAYS, launched, logged_in_page, shot
from tests.support.dashboard import saved_plan

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
EXTREME = "inmotion-hosting-extreme-dedicated-fixed-monthly"
SAID = {
    "en": ("cloud commitment", "beats on-demand from month 1", "62.94",
           "No 1-year savings plan price for c5.4xlarge"),
    "de": ("Cloud-Bindung", "günstiger als On-Demand ab Monat 1", "62,94",
           "Sparplan von c5.4xlarge"),
}  # fmt: skip


@pytest.fixture(scope="module")
def browser() -> Iterator:
    ARTIFACTS.mkdir(exist_ok=True)
    yield from launched()


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_reservations_stand_beside_the_epyc_with_their_break_even(
    browser, live_server, owner, language
):
    load_default_catalog()
    plan = saved_plan(owner, name="c5.4xlarge or EPYC",
                      baseline={"tier": "aws-c5.4xlarge-us-east-1-on-demand"},
                      candidates=[{"tier": EXTREME, "count": 1}],
                      one_time={"migration_hours": 5, "migration_rate": 100})  # fmt: skip
    badge, break_even, share, missing = SAID[language]
    for size, (width, height) in {"wide": (1366, 768), "phone": (390, 844)}.items():
        with logged_in_page(
            browser, live_server.url, size=(width, height), language=language, timeout_ms=30_000
        ) as page:
            page.goto(f"{live_server.url}/plans/{plan.code}/")
            table = page.locator("#comparison")
            table.wait_for()
            for key in ("commitment:reserved-1y", "commitment:reserved-3y", "candidate:0"):
                assert table.locator(f'tr[data-key="{key}"]').count() == 1
            row = table.locator('tr[data-key="commitment:reserved-1y"]')
            assert badge in row.inner_text()
            terms = row.locator('[data-testid="commitment-terms"]').inner_text()
            assert break_even in terms and share in terms
            three = table.locator('tr[data-key="commitment:reserved-3y"]')
            assert badge in three.inner_text()
            said = three.locator('[data-testid="commitment-terms"]').inner_text()
            assert break_even.rsplit(" ", 1)[0] in said, said  # its own break-even month
            assert missing in page.locator('[data-testid="commitments-missing"]').inner_text()
            assert page.locator('[data-testid="vs-commitment"]').count() == 1
            assert page.evaluate(NO_SIDEWAYS)
            shot(page, path=str(ARTIFACTS / f"commitments-{size}-{language}.png"), full_page=True)
