"""The sensitivity and the odds of paying back in a real Chromium: the plan page shows its
answer at once and asks for the two sections in a request of their own (htmx, on load),
showing that they are being worked out until they arrive; typing recomputes the answer
and asks again. Screenshots of the sections at 1366x768 and 390x844 in English and German
go to test-artifacts/ (ignored by git), and the sections never make the page scroll
sideways.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.browser import FITS, NO_SIDEWAYS, launched, logged_in_page, shot
from tests.support.dashboard import saved_plan

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("two_tier_catalog"),
]
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
SIZES = {"wide": (1366, 768), "phone": (390, 844)}
DEFERRED = "**/plans/uncertainty/**"
# The field-notes bill break-even in each language's formats.
BREAK_EVEN = {"en": "falls below $363.88 a month", "de": "unter 363,88\u00a0$ im Monat fällt"}
TORNADO_DRAWN = "img => img.complete && img.naturalWidth > 0"


@pytest.fixture(scope="module")
def browser() -> Iterator:
    ARTIFACTS.mkdir(exist_ok=True)
    yield from launched()


def field_notes(owner):
    return saved_plan(owner, name="Field notes", one_time={"migration_hours": 5,
                                                           "migration_rate": 100})  # fmt: skip


def test_the_sections_load_after_the_answer_and_follow_the_recompute(browser, live_server, owner):
    plan = field_notes(owner)
    with logged_in_page(browser, live_server.url, language="en", timeout_ms=30_000) as page:
        held = []
        page.route(DEFERRED, lambda route: held.append(route))  # held: the loading state shows
        page.goto(f"{live_server.url}/plans/{plan.code}/")
        assert "saves $130.01 a month" in page.locator('[data-testid="headline"]').inner_text()
        loading = page.locator('[data-testid="uncertainty-loading"]')
        loading.wait_for()
        assert "Working out which input decides the answer" in loading.inner_text()
        assert page.locator('[data-testid="sensitivity-table"]').count() == 0
        for _ in range(300):  # htmx asks once the page has loaded: wait for the held request
            if held:
                break
            page.wait_for_timeout(100)
        assert len(held) == 1 and "/plans/uncertainty/" in held[0].request.url
        assert held[0].request.headers.get("hx-request") == "true"
        held[0].continue_()
        page.unroute(DEFERRED)

        table = page.locator('[data-testid="sensitivity-table"]')
        table.wait_for()
        assert loading.count() == 0
        assert BREAK_EVEN["en"] in table.inner_text()
        odds = page.locator('[data-testid="odds-answer"]').inner_text()
        assert "pays back within 36 months in" in odds and "of 10,000 draws" in odds
        recorded = page.locator('[data-testid="odds-recorded"]').inner_text()
        assert "seed 2024, 10,000 draws, NumPy" in recorded
        tornado = page.locator('img[data-chart="tornado"]')
        page.wait_for_function(TORNADO_DRAWN, arg=tornado.element_handle())

        # Typing recomputes the answer, and the sections are asked for again for the new plan.
        page.fill("#id_baseline__monthly", "600")
        page.wait_for_selector('[data-testid="headline"]:has-text("250.01")')
        page.wait_for_selector('[data-testid="sensitivity-table"] [data-input="baseline_monthly"] '
                               'td:has-text("$450.00")')  # fmt: skip
        row = page.locator('[data-input="baseline_monthly"]').inner_text()
        assert "$750.00" in row and "no break-even for today's monthly bill" in row


@pytest.mark.parametrize("language", ["en", "de"])
def test_screenshots_of_the_sections_at_both_sizes(browser, live_server, owner, language):
    plan = field_notes(owner)
    for size, (width, height) in SIZES.items():
        with logged_in_page(
            browser, live_server.url, size=(width, height), language=language, timeout_ms=30_000
        ) as page:
            page.goto(f"{live_server.url}/plans/{plan.code}/")
            page.locator('[data-testid="sensitivity-table"]').wait_for()
            tornado = page.locator('img[data-chart="tornado"]')
            page.wait_for_function(TORNADO_DRAWN, arg=tornado.element_handle())
            assert BREAK_EVEN[language] in page.locator('[data-testid="uncertainty"]').inner_text()
            assert page.evaluate(NO_SIDEWAYS), (size, language)
            # The tables fit their boxes: no column cut off at the right, nothing to scroll to.
            for selector in ("#sensitivity .scroll-x", "#odds .scroll-x"):
                box = page.locator(selector)
                assert box.evaluate(FITS), (selector, size, language)
            # The chart lies inside the page (on a phone it keeps a readable size and scrolls
            # sideways in its own box, which the keyboard can reach).
            box = page.locator("figure.tornado").bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1, (size, language)
            shot(
                page.locator("#uncertainty"),
                path=str(ARTIFACTS / f"uncertainty-{size}-{language}.png"),
            )
            shot(page, path=str(ARTIFACTS / f"plan-uncertainty-{size}-{language}.png"),
                            full_page=True)  # fmt: skip


EMPTY_BLOCKS = """() => [...document.querySelectorAll(
    'main section, main div, main figure, main table, main ul, main dl, main p')]
  .filter(el => { const r = el.getBoundingClientRect();
                  return r.width > 0 && r.height > 0 && !el.innerText.trim()
                         && !el.querySelector('img'); })
  .map(el => el.tagName + '.' + el.className + '#' + el.id)"""


def pdf_pages(pdf: bytes) -> int:
    import re

    return len(re.findall(rb"/Type\s*/Page\b", pdf))


def test_print_gives_the_sections_a_page_of_their_own_and_no_empty_box(browser, live_server, owner):
    from planner.services import plans as services

    plan = field_notes(owner)
    share = services.share_create(plan=plan, user=owner)
    with logged_in_page(browser, live_server.url, language="en", timeout_ms=30_000) as page:
        # The shared page: the frozen sections print after the report, on a page of their own.
        page.goto(f"{live_server.url}/s/{share.token}/")
        page.wait_for_function(
            "() => [...document.images].every(i => i.complete && i.naturalWidth)"
        )
        page.emulate_media(media="print")
        assert page.locator("#sensitivity").is_visible() and page.locator("#odds").is_visible()
        assert page.locator('img[data-chart="tornado"]').is_visible()
        assert page.evaluate(EMPTY_BLOCKS) == []
        starts = page.evaluate(
            "() => getComputedStyle(document.querySelector('.uncertainty-sections')).breakBefore"
        )
        assert starts == "page"
        pdf = page.pdf(format="A4", print_background=True)
        (ARTIFACTS / "print-shared-uncertainty.pdf").write_bytes(pdf)
        assert 2 <= pdf_pages(pdf) <= 3
        page.emulate_media(media="screen")

        # The plan page printed before its sections arrive: the loading box is left out.
        page.route(DEFERRED, lambda route: None)  # never answered
        page.goto(f"{live_server.url}/plans/{plan.code}/")
        page.locator('[data-testid="uncertainty-loading"]').wait_for()
        page.emulate_media(media="print")
        assert not page.locator('[data-testid="uncertainty-loading"]').is_visible()
        assert page.evaluate(EMPTY_BLOCKS) == []
        assert pdf_pages(page.pdf(format="A4")) <= 2
