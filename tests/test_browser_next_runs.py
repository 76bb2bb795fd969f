"""The next run worth making in a real Chromium: on a fresh install with estimates the
plan page asks for the section after its answer (htmx, on load) and lists at most five runs,
ranked, each with its cost and command, in English and German at 1366x768 and 390x844,
without making the page scroll sideways. Screenshots (SCREENSHOTS=1) go to test-artifacts/.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from planner.services import plans as services
from tests.support.browser import NO_SIDEWAYS, launched, logged_in_page, shot
from tests.support.next_runs import PLAN, fresh_install_with_estimates

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
SIZES = {"wide": (1366, 768), "phone": (390, 844)}
HEADING = {"en": "The next run worth making", "de": "Der nächste lohnende Lauf"}
SETTLES = {"en": "Decides between", "de": "Entscheidet in"}
COST = {"en": "hours of the profile's time budget at $", "de": "Stunden Zeitbudget des Profils"}


@pytest.fixture(scope="module")
def browser() -> Iterator:
    ARTIFACTS.mkdir(exist_ok=True)
    yield from launched()


@pytest.mark.parametrize("language", ["en", "de"])
def test_ranked_runs_with_cost_and_command_at_both_sizes(browser, live_server, owner, language):
    fresh_install_with_estimates()
    plan = services.plan_create(owner=owner, plan=services.parse(PLAN))
    for size, (width, height) in SIZES.items():
        with logged_in_page(
            browser, live_server.url, size=(width, height), language=language, timeout_ms=60_000
        ) as page:
            page.goto(f"{live_server.url}/plans/{plan.code}/")
            section = page.locator('section[data-testid="next-runs"]')
            section.wait_for()
            text = section.inner_text()
            assert (
                HEADING[language] in text and SETTLES[language] in text and COST[language] in text
            )
            runs = section.locator("li.next-run")
            assert 1 <= runs.count() <= 5
            ranks = [runs.nth(i).get_attribute("data-rank") for i in range(runs.count())]
            assert ranks == [str(i) for i in range(1, runs.count() + 1)]
            assert section.locator("pre.command").count() == 2 * runs.count()  # run, import
            assert page.evaluate(NO_SIDEWAYS), (size, language)
            box = section.locator("pre.command").first.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1, (size, language)
            section.scroll_into_view_if_needed()
            shot(section, path=str(ARTIFACTS / f"next-runs-{size}-{language}.png"))
            shot(
                page, path=str(ARTIFACTS / f"plan-next-runs-{size}-{language}.png"), full_page=True
            )
