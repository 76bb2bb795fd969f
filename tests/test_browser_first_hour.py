"""A manager's first hour in Chromium: share links copied and revoked with a question
first, the site's own 404 for a revoked link, the printed report (inputs, price notes,
both charts, at most two A4 pages, no empty blocks), and screenshots of the pages this
work changed at 1366x768 and 390x844 in English and German, kept in test-artifacts/.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from catalog.models import Price
from planner.services import plans as services
from tests.support.browser import TIMEOUT_MS, launched, logged_in_page, shot
from tests.support.dashboard import DEDICATED, saved_plan
from tests.support.pages import PASSWORDS, seed_site, site_pages

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("two_tier_catalog"),
]
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts" / "first-hour"
SIZES = {"wide": (1366, 768), "phone": (390, 844)}
# The pages this work changed, by their names in the shared page list.
SHOWN = ("plan editor, with results", "compare", "shared page", "shared page, revoked",
         "benchmarks", "benchmark run", "benchmark run, running", "not found",
         "plan editor, no figure yet", "plan editor, no figure yet (staff)",
         "shared page, no figure yet")  # fmt: skip
# Visible blocks with neither text nor an image inside: what "no empty blocks" forbids.
EMPTY_BLOCKS = """() => [...document.querySelectorAll(
    'main section, main div, main figure, main table, main ul, main dl, main p')]
  .filter(el => { const r = el.getBoundingClientRect();
                  return r.width > 0 && r.height > 0 && !el.innerText.trim()
                         && !el.querySelector('img'); })
  .map(el => el.tagName + '.' + el.className + '#' + el.id)"""


@pytest.fixture(scope="module")
def browser() -> Iterator:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    yield from launched()


def new_page(browser, width: int = 1366, height: int = 768, language: str = "en",
             signed_in: dict | None = None):  # fmt: skip
    """A fresh context and page; `signed_in`: the cookies of a context signed in before."""
    context = browser.new_context(viewport={"width": width, "height": height},
                                  locale="de-DE" if language == "de" else "en-US",
                                  storage_state=signed_in)  # fmt: skip
    context.set_default_timeout(TIMEOUT_MS)
    return context, context.new_page()


def log_in(page, base: str, persona: str) -> None:
    if persona not in PASSWORDS:
        return
    username, password = PASSWORDS[persona]
    if persona == "staff":
        page.goto(f"{base}/admin/login/")
        page.fill("#id_username", username)
        page.fill("#id_password", password)
        page.click("input[type=submit]")
        page.wait_for_url(f"{base}/admin/")
        return
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("main form button[type=submit]")
    page.wait_for_url(f"{base}/")


def wait_for_images(page) -> None:
    page.wait_for_function(
        "() => [...document.images].every(i => i.complete && i.naturalWidth > 0)"
    )


def pdf_pages(pdf: bytes, path: Path) -> int:
    """Pages in a PDF: pdfinfo's count where poppler is installed, else the page objects."""
    path.write_bytes(pdf)
    if shutil.which("pdfinfo"):
        info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True).stdout
        return int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))
    return len(re.findall(rb"/Type\s*/Page\b", pdf))


# Inside an element, nothing wider than it, and its right edge within the window.
FITS = """el => el.scrollWidth <= el.clientWidth + 1
                 && el.getBoundingClientRect().right <= window.innerWidth + 1"""


def assert_missing_block_fits(page, name: str) -> None:
    """What is missing and the ways forward (issue 14 item 6): shown, none of it cut off;
    the staff action beside the suite, the visitor's page without any action."""
    missing = page.locator('[data-testid="missing"]')
    assert missing.is_visible(), name
    assert missing.evaluate(FITS), name
    for way in missing.locator("li, form, button").all():
        assert way.evaluate(FITS), (name, way.inner_text()[:60])
    assert page.locator("form.link-target button").is_visible() == name.endswith("(staff)")
    if name.startswith("shared page"):
        assert missing.locator("a, form").count() == 0, name
    # each tier once, with its reasons and the cheapest way to a figure (issue 23)
    assert page.locator("details.no-number").count() == 0, name
    assert missing.locator("li.missing-tier .reasons").first.is_visible(), name


def test_a_share_link_is_copied_and_revoking_it_asks_first(browser, live_server, owner):
    plan = saved_plan(owner)
    share = services.share_create(plan=plan, user=owner)
    with logged_in_page(browser, live_server.url, locale="en-US", timeout_ms=TIMEOUT_MS) as page:
        page.context.grant_permissions(
            ["clipboard-read", "clipboard-write"], origin=live_server.url
        )
        page.goto(f"{live_server.url}/plans/{plan.code}/")
        link = f"{live_server.url}/s/{share.token}/"

        page.click("button.copy-link")
        page.wait_for_selector("button.copy-link:has-text('Copied')")
        assert page.evaluate("navigator.clipboard.readText()") == link

        asked = []
        page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
        page.click("form.revoke button")
        assert asked and "Revoke this link?" in asked[0]
        share.refresh_from_db()
        assert share.revoked_at is None  # "Cancel" keeps it live

        page.once("dialog", lambda dialog: dialog.accept())
        page.click("form.revoke button")
        page.wait_for_selector("text=revoked")
        share.refresh_from_db()
        assert share.revoked_at is not None

        _stranger, gone = new_page(browser)
        response = gone.goto(link)
        assert response.status == 404
        said = gone.locator('[data-testid="not-found"]').inner_text()
        assert "The link may have been revoked" in said
        topbar = gone.evaluate(
            "getComputedStyle(document.querySelector('.topbar')).backgroundColor"
        )
        assert topbar == "rgb(23, 32, 47)"  # the site's stylesheet, not a bare page
        shot(gone, path=str(ARTIFACTS / "revoked-link-404.png"), full_page=True)


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_printed_report_fits_two_pages_with_inputs_notes_and_both_charts(
    browser, live_server, owner, language
):
    Price.objects.filter(tier__slug=DEDICATED).update(confirmed=False)  # a quoted price: a note
    plan = saved_plan(owner, name="Field notes", one_time={"migration_hours": 5,
                                                           "migration_rate": 100})  # fmt: skip
    share = services.share_create(plan=plan, user=owner)
    with logged_in_page(
        browser,
        live_server.url,
        locale="de-DE" if language == "de" else "en-US",
        timeout_ms=TIMEOUT_MS,
    ) as page:
        if language == "de":
            page.goto(f"{live_server.url}/")
            page.select_option("select[name=language]", "de")
            page.wait_for_selector("html[lang=de]")
        for where, url in (("plan", f"/plans/{plan.code}/"), ("shared", f"/s/{share.token}/")):
            page.goto(live_server.url + url)
            wait_for_images(page)
            page.emulate_media(media="print")
            inputs = page.locator("#plan-inputs")
            assert inputs.is_visible()
            spend = "Current monthly spend" if language == "en" else "Aktuelle monatliche Ausgaben"
            assert spend in inputs.inner_text() and "Test Hosting Extreme" in inputs.inner_text()
            assert page.locator("#comparison ul.notes").first.is_visible()
            unconfirmed = "price unconfirmed" if language == "en" else "Preis unbestätigt"
            assert unconfirmed in page.locator("#comparison").inner_text()
            assert page.locator('img[data-chart="cumulative"]').is_visible()
            assert page.locator('img[data-chart="monthly"]').is_visible()
            assert not page.locator("#plan-form").is_visible()
            assert page.evaluate(EMPTY_BLOCKS) == []
            stem = f"print-{where}-{language}"
            shot(page, path=str(ARTIFACTS / f"{stem}.png"), full_page=True)
            pages = pdf_pages(
                page.pdf(format="A4", print_background=True), ARTIFACTS / f"{stem}.pdf"
            )
            assert 1 <= pages <= 2, (where, pages)
            page.emulate_media(media="screen")


def test_screenshots_of_the_changed_pages_in_both_languages_at_both_sizes(
    browser, live_server, owner
):
    site = seed_site(owner)
    pages = [p for p in site_pages(site) if p.name in SHOWN and p.in_browser]
    assert {p.name for p in pages} == set(SHOWN)
    # Each persona signs in once; every language and size then opens a fresh context with
    # that session's cookies (signing in through the form again each time, eight times,
    # showed nothing new: the sign-in has tests of its own).
    sessions = {}
    for persona in ("visitor", "manager", "staff"):
        context, page = new_page(browser)
        log_in(page, live_server.url, persona)
        sessions[persona] = context.storage_state()
        context.close()
    for language in ("en", "de"):
        for size, (width, height) in SIZES.items():
            for persona in ("visitor", "manager", "staff"):
                mine = [p for p in pages if p.persona == persona]
                if not mine:
                    continue
                context, page = new_page(browser, width, height, language, sessions[persona])
                context.add_cookies([{"name": "django_language", "value": language,
                                      "url": live_server.url}])  # fmt: skip
                for shown in mine:
                    response = page.goto(live_server.url + shown.path)
                    assert response.status == shown.status, shown.name
                    assert page.locator("html").get_attribute("lang") == language, shown.name
                    wait_for_images(page)
                    if "no figure yet" in shown.name:
                        assert_missing_block_fits(page, shown.name)
                    name = re.sub(r"[^a-z0-9]+", "-", shown.name).strip("-")
                    shot(page, path=str(ARTIFACTS / f"{name}-{size}-{language}.png"),
                                    full_page=True)  # fmt: skip
                context.close()
