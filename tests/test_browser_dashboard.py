"""The manager's journey in a real headless Chromium against a live server.

Log in, build a plan by typing and watch the results and charts change without a
page reload; save and share it; open the link logged out and see the same
figures; revoke it and get 404; switch to German; print to PDF (at most two
pages, headline and table shown, inputs hidden). Screenshots go to
test-artifacts/ (ignored by git).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.browser import TIMEOUT_MS, launched, shot
from tests.support.dashboard import DEDICATED

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("two_tier_catalog"),
]
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"


@pytest.fixture(scope="module")
def browser() -> Iterator:
    yield from launched()


@pytest.fixture(autouse=True)
def _artifacts():
    ARTIFACTS.mkdir(exist_ok=True)


def headline(page) -> str:
    return page.locator('[data-testid="headline"]').inner_text()


def chart_src(page, kind: str) -> str:
    return page.locator(f'img[data-chart="{kind}"]').get_attribute("src")


def wait_for_headline(page, text: str) -> None:
    page.wait_for_function(
        """text => { const h = document.querySelector('[data-testid=headline]');
                     return h !== null && h.innerText.includes(text); }""",
        arg=text,
    )


def wait_for_chart(page, kind: str) -> None:
    page.wait_for_function(
        f"""() => {{ const i = document.querySelector('img[data-chart="{kind}"]');
                    return i && i.complete && i.naturalWidth > 0; }}""",
        timeout=TIMEOUT_MS,
    )


def test_a_manager_builds_shares_and_prints_a_plan(browser, live_server, owner):
    url = live_server.url
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="en-US")
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()

    page.goto(f"{url}/accounts/login/")
    page.fill("#id_username", "owner")
    page.fill("#id_password", "pw-owner-1")
    page.click("main form button[type=submit]")
    page.wait_for_url(f"{url}/")

    # Three fields, typed: the results arrive by htmx, the page itself never reloads.
    page.goto(f"{url}/plans/new")
    page.evaluate("window.__same_page = true")
    page.fill("#id_baseline__monthly", "480")
    page.fill("#id_cand-0-tier", DEDICATED)
    page.fill("#id_cand-0-count", "1")
    page.wait_for_selector('[data-testid="headline"]')
    wait_for_headline(page, "130.01")
    wait_for_chart(page, "cumulative")
    first_chart = chart_src(page, "cumulative")
    assert "1 \u00d7 Test Hosting Extreme · monthly saves $130.01 a month" in headline(page)

    # A bad value: its message appears beside the field as typed; the last good results
    # stay, dimmed as stale, and the field says it is invalid.
    page.fill("#id_baseline__monthly", "-5")
    page.wait_for_selector("#id_baseline__monthly_error:has-text('at least 0')")
    page.wait_for_selector("#results.stale")
    assert "130.01" in headline(page)
    assert page.get_attribute("#id_baseline__monthly", "aria-invalid") == "true"
    assert page.evaluate("document.activeElement.id") == "id_baseline__monthly"

    page.fill("#id_baseline__monthly", "600")
    wait_for_headline(page, "250.01")
    assert page.locator("#id_baseline__monthly_error").inner_text() == ""  # fixed: gone
    wait_for_chart(page, "cumulative")
    assert chart_src(page, "cumulative") != first_chart
    assert page.evaluate("window.__same_page") is True
    assert page.locator("#comparison").inner_text().count("$21,600.00") == 1

    # Save, then share.
    page.fill("#id_name", "Move to Extreme")
    page.click("button[value=save]")
    page.wait_for_url(re.compile(r".*/plans/[0-9a-f-]{36}/$"))
    wait_for_chart(page, "cumulative")
    wait_for_chart(page, "monthly")
    shot(page, path=str(ARTIFACTS / "dashboard.png"), full_page=True)
    owner_headline = headline(page)
    owner_table = page.locator("#comparison tbody").inner_text()
    page.click("#share-button")
    link = page.locator("a.share-link").first.get_attribute("href")
    assert link.startswith("/s/")

    # A fresh, logged-out browser sees the same figures, read-only.
    stranger = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="en-US")
    stranger.set_default_timeout(TIMEOUT_MS)
    shared = stranger.new_page()
    response = shared.goto(f"{url}{link}")
    assert response.status == 200
    assert headline(shared) == owner_headline
    assert shared.locator("#comparison tbody").inner_text() == owner_table
    assert shared.locator("#plan-form").count() == 0
    wait_for_chart(shared, "cumulative")
    wait_for_chart(shared, "monthly")
    shot(shared, path=str(ARTIFACTS / "shared.png"), full_page=True)

    # Print: at most two pages, the headline and the table shown, the inputs not.
    shared.emulate_media(media="print")
    assert shared.locator('[data-testid="headline"]').is_visible()
    assert shared.locator("#comparison").is_visible()
    assert shared.locator('img[data-chart="cumulative"]').is_visible()
    assert not shared.locator(".topbar").is_visible()
    pdf = shared.pdf(format="A4", print_background=True)
    (ARTIFACTS / "shared.pdf").write_bytes(pdf)
    pages = len(re.findall(rb"/Type\s*/Page\b", pdf))
    assert 1 <= pages <= 2, pages

    # The owner's own page prints the same way, the editor left out.
    page.emulate_media(media="print")
    assert page.locator('[data-testid="headline"]').is_visible()
    assert not page.locator("#plan-form").is_visible()
    pdf = page.pdf(format="A4")
    (ARTIFACTS / "dashboard.pdf").write_bytes(pdf)
    assert 1 <= len(re.findall(rb"/Type\s*/Page\b", pdf)) <= 2
    page.emulate_media(media="screen")

    # Revoked (after saying yes to the question): the link now answers 404.
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("tr[data-share] form.revoke button")
    page.wait_for_selector("text=revoked")
    assert shared.goto(f"{url}{link}").status == 404

    # German: labels, and numbers with decimal commas and the currency after.
    page.select_option("select[name=language]", "de")
    page.wait_for_selector("text=Aktuelle monatliche Ausgaben")
    assert page.locator("html").get_attribute("lang") == "de"
    assert "21.600,00\u00a0$" in page.locator("#comparison").inner_text()
    assert "spart" in headline(page)
    wait_for_chart(page, "cumulative")
    wait_for_chart(page, "monthly")
    shot(page, path=str(ARTIFACTS / "dashboard-de.png"), full_page=True)
    stranger.close()
    context.close()
