"""The answer is never cut off: at 360x740, 390x844 and 1366x768, in English and German,
the headline (option, saving, payback) lies within the viewport's width and on the first
screen, no page scrolls sideways, every column of the comparison shows, and a source
pop-up opens whole. Screenshots are kept in test-artifacts/answer/.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.browser import launched, logged_in_page, shot
from tests.support.pages import seed_site

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("two_tier_catalog"),
]
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts" / "answer"
SIZES = [(360, 740), (390, 844), (1366, 768)]
# Boxes that stick out of the viewport's width: what makes a page scroll sideways.
OVERFLOW = """() => document.documentElement.scrollWidth - window.innerWidth"""
BOX = """sel => { const r = document.querySelector(sel).getBoundingClientRect();
                  return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; }"""
# Every cell of the first option row, visible: not clipped by a scrolling container.
HIDDEN_CELLS = """() => [...document.querySelectorAll('#comparison tr.option:first-of-type > td')]
  .filter(td => { const r = td.getBoundingClientRect();
                  return r.width === 0 || r.right > window.innerWidth + 0.5 || r.left < -0.5
                         || td.closest('.scroll-x') && td.closest('.scroll-x').scrollWidth
                            > td.closest('.scroll-x').clientWidth + 1; })
  .map(td => td.innerText.slice(0, 30))"""
# The point at the middle of an open pop-up belongs to the pop-up: nothing clips or covers it.
POPUP_WHOLE = """el => { const r = el.getBoundingClientRect();
  const corners = [[r.left + 2, r.top + 2], [r.right - 2, r.bottom - 2], [(r.left + r.right) / 2,
                   (r.top + r.bottom) / 2]];
  return r.left >= 0 && r.right <= window.innerWidth
         && corners.every(([x, y]) => el.contains(document.elementFromPoint(x, y))); }"""


@pytest.fixture(scope="module")
def browser() -> Iterator:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    yield from launched()


def test_the_answer_is_visible_without_scrolling_sideways_at_every_size_in_both_languages(
    browser, live_server, owner
):
    site = seed_site(owner)
    for language in ("en", "de"):
        for width, height in SIZES:
            with logged_in_page(
                browser, live_server.url, size=(width, height), language=language, timeout_ms=15_000
            ) as page:
                assert page.evaluate(OVERFLOW) <= 0, ("home", language, width)
                page.goto(f"{live_server.url}/plans/{site.plan.code}/")
                where = (language, width)
                headline = page.evaluate(BOX, "#headline")
                assert headline["left"] >= 0 and headline["right"] <= width, where
                assert headline["top"] < height, where  # on the first screen: above the form
                assert page.locator('[data-testid="headline"]').is_visible(), where
                assert page.evaluate(OVERFLOW) <= 0, where
                assert page.evaluate(HIDDEN_CELLS) == [], where
                table, column = (
                    page.evaluate(BOX, "#comparison"),
                    page.evaluate(BOX, ".results-column"),
                )
                assert table["right"] <= column["right"] + 1, where  # within its column
                shot(page, path=str(ARTIFACTS / f"plan-{width}-{language}.png"))
                marker = page.locator("#comparison tr.option details.prov > summary").nth(1)
                marker.scroll_into_view_if_needed()
                marker.click()
                popup = page.locator("#comparison tr.option details.prov[open] .prov-body")
                assert popup.evaluate(POPUP_WHOLE), where
                shot(page, path=str(ARTIFACTS / f"plan-{width}-{language}-source.png"))
