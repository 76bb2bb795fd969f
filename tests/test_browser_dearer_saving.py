"""The options table's Saving column for options dearer than today, in a real Chromium at
1366x768 and 390x844, English and German: the words ("costs 2.5x today's", "75.0% dearer")
fit the table without cutting it off or making the page scroll sideways. Screenshots
(SCREENSHOTS=1) go to test-artifacts/ (ignored by git)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.browser import FITS, NO_SIDEWAYS, launched, logged_in_page, shot
from tests.support.dashboard import CLOUD, DEDICATED, saved_plan

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("two_tier_catalog"),
]
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
SIZES = {"wide": (1366, 768), "phone": (390, 844)}
# Today 200 a month; Extreme 349.99 (1.75 times), the cloud VM about 2.5 times.
SAID = {"en": ("costs 2.5\u00d7 today's", "75.0% dearer"),
        "de": ("kostet das 2,5-Fache", "75,0\u00a0% teurer")}  # fmt: skip


@pytest.fixture(scope="module")
def browser() -> Iterator:
    ARTIFACTS.mkdir(exist_ok=True)
    yield from launched()


@pytest.mark.parametrize("language", ["en", "de"])
def test_dearer_options_read_as_words_at_both_sizes(browser, live_server, owner, language):
    both = [{"tier": DEDICATED, "count": 1}, {"tier": CLOUD, "count": 1}]
    plan = saved_plan(owner, monthly="200", candidates=both)
    for size, (width, height) in SIZES.items():
        with logged_in_page(browser, live_server.url, size=(width, height),
                            language=language) as page:  # fmt: skip
            page.goto(f"{live_server.url}/plans/{plan.code}/")
            cells = page.locator('#comparison [data-testid="dearer"]')
            texts = sorted(cells.all_inner_texts())
            assert texts == sorted(SAID[language]), (size, texts)
            assert page.evaluate(NO_SIDEWAYS), (size, language)
            box = page.locator(".scroll-x:has(#comparison)")
            assert box.evaluate(FITS), (size, language)  # no column cut off at the right
            shot(page.locator("#comparison"),
                 path=str(ARTIFACTS / f"dearer-saving-{size}-{language}.png"))  # fmt: skip
