"""axe-core over the shared page list (tests/support/pages.py), one browser per worker:
every page at 1366x768 and 390x844, in English and German (a test each, so xdist spreads
them), as the persona who sees it. Zero serious or critical violations on our pages;
Django's stock admin pages are checked and reported
(test-artifacts/axe/report-LANGUAGE-SIZE.json) but not gated. Also: the skip link and
/favicon.ico. axe.min.js comes inside axe-playwright-python: nothing is fetched.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.browser import launched
from tests.support.pages import PASSWORDS, seed_site, site_pages

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("two_tier_catalog"),
]
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts" / "axe"
SIZES = {"wide": (1366, 768), "phone": (390, 844)}
GATED = {"serious", "critical"}
# Django's own admin pages: reported, not gated (their markup is Django's, not ours).
STOCK_ADMIN = ["/admin/", "/admin/catalog/price/", "/admin/catalog/tier/",
               "/admin/catalog/price/add/"]  # fmt: skip
# Violations inside the plan editor's form fields, which the form work (issue 14 item 4:
# labels, aria-describedby, aria-invalid) fixes in its own branch: rule id -> the start
# of the offending selectors. Remove an entry once that work has landed.
EXPECTED_FROM_FORM_WORK: dict[str, tuple[str, ...]] = {}  # the form labels every field now


@pytest.fixture(scope="module")
def browser() -> Iterator:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    yield from launched()


def log_in(page, base: str, persona: str) -> None:
    username, password = PASSWORDS[persona]
    page.goto(f"{base}/admin/login/" if persona == "staff" else f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("input[type=submit]" if persona == "staff" else "main form button[type=submit]")
    page.wait_for_load_state()


def violations(axe, page) -> list[dict]:
    """Each violation node as {rule, impact, target}."""
    found = axe.run(page).response["violations"]
    return [{"rule": v["id"], "impact": v["impact"], "target": " ".join(map(str, node["target"])),
             "help": v["help"]} for v in found for node in v["nodes"]]  # fmt: skip


def expected_from_form_work(found: dict) -> bool:
    starts = EXPECTED_FROM_FORM_WORK.get(found["rule"], ())
    return any(found["target"].startswith(start) for start in starts)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", ["en", "de"])
def test_no_page_has_a_serious_or_critical_accessibility_violation(
    browser, live_server, owner, language, size
):
    """One language at one width per test, so that xdist spreads the crawl."""
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    site = seed_site(owner)
    pages = [p for p in site_pages(site) if p.in_browser]
    report: list[dict] = []
    width, height = SIZES[size]
    for persona in ("visitor", "manager", "staff"):
        context = browser.new_context(viewport={"width": width, "height": height},
                                      bypass_csp=True)  # fmt: skip
        context.set_default_timeout(15_000)
        context.add_cookies([{"name": "django_language", "value": language,
                              "url": live_server.url}])  # fmt: skip
        page = context.new_page()
        if persona != "visitor":
            log_in(page, live_server.url, persona)
        urls = [(p.name, p.path, True) for p in pages if p.persona == persona]
        if persona == "staff":
            urls += [(f"stock admin {u}", u, False) for u in STOCK_ADMIN]
        for name, path, gated in urls:
            page.goto(live_server.url + path)
            # Sections that arrive after the page (the plan's sensitivity and odds, htmx
            # on load) are checked too, once there.
            if page.locator('[data-testid="uncertainty-loading"]').count():
                page.locator('[data-testid="uncertainty"]').wait_for()
            for found in violations(axe, page):
                found.update(page=name, size=size, language=language,
                             gated=gated and found["impact"] in GATED
                             and not expected_from_form_work(found))  # fmt: skip
                report.append(found)
        context.close()
    report_file = ARTIFACTS / f"report-{language}-{size}.json"
    report_file.write_text(json.dumps(report, indent=1, ensure_ascii=False))
    failing = sorted({(f["page"], f["rule"], f["target"]) for f in report if f["gated"]})
    assert failing == []


def test_a_skip_link_leads_past_the_top_bar_to_the_content(browser, live_server):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{live_server.url}/catalog/")
    page.keyboard.press("Tab")
    skip = page.locator("a.skip-link")
    assert skip.evaluate("el => el === document.activeElement")
    assert skip.is_visible() and skip.bounding_box()["y"] >= 0
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"
    context.close()


def test_the_favicon_is_served_not_a_404(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/x-icon"
    assert b"".join(response.streaming_content)[:4] == b"\x00\x00\x01\x00"  # an ICO header
