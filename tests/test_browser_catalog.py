"""The catalog pages in a real headless Chromium at 1366 x 768 and 390 x 844, in English
and German: the table fits 1366 px with one-line names (the key is not on a line of its
own), the column chooser is remembered by the static script, and the sources, compare
and admin "Sync now" pages render under the strict CSP. Screenshots go to
test-artifacts/ (ignored by git)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth.models import Permission

from catalog.defaults import load_default_catalog
from catalog.feeds.registry import SOURCES
from tests.support.browser import launched, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
COMPARE = (
    "/catalog/compare/?t=aws-c5.2xlarge-us-east-1-on-demand"
    "&t=hetzner-auction-sb-191830-fsn1-fixed-monthly&t=aws-p4d.24xlarge-us-east-1-on-demand"
)
SIZES = {"wide": (1366, 768), "phone": (390, 844)}


@pytest.fixture(scope="module")
def browser() -> Iterator:
    ARTIFACTS.mkdir(exist_ok=True)
    yield from launched()


def open_page(browser, size: str, language: str, errors: list[str]):
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height},
                                  locale="de-DE" if language == "de" else "en-US",
                                  extra_http_headers={"Accept-Language": language})  # fmt: skip
    page = context.new_page()
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    return context, page


def test_the_catalog_pages_fit_and_read_in_both_languages(browser, live_server, staff_user):
    load_default_catalog()
    staff_user.user_permissions.add(*Permission.objects.filter(codename="add_price"))
    for language in ("en", "de"):
        for size in SIZES:
            errors: list[str] = []
            context, page = open_page(browser, size, language, errors)
            page.goto(f"{live_server.url}/catalog/?as_of=2026-11-30")
            assert page.locator("tr.tier").count() == 18
            overflow = page.evaluate("document.querySelector('main').scrollWidth - innerWidth")
            assert overflow <= 0, f"{language} {size}: the page is {overflow}px too wide"
            if size == "wide":
                hidden = page.evaluate(
                    "(() => { const t = document.querySelector('.table-scroll');"
                    " return t.scrollWidth - t.clientWidth; })()"
                )
                assert hidden <= 0, f"{language}: {hidden}px of the table scroll out of view"
                names = page.eval_on_selector_all(
                    "tr.tier td.tier-name strong", "names => names.map(n => n.offsetHeight)"
                )
                assert max(names) <= 24, names  # each name on one line, no key below it
            shot(page, path=str(ARTIFACTS / f"catalog-{size}-{language}.png"), full_page=True)
            for path, name in (("/catalog/sources/", "sources"), (COMPARE, "compare")):
                page.goto(live_server.url + path)
                shot(page, path=str(ARTIFACTS / f"catalog-{name}-{size}-{language}.png"),
                                full_page=True)  # fmt: skip
            assert not [e for e in errors if "Content Security Policy" in e], errors
            context.close()
    errors = []
    context, page = open_page(browser, "wide", "de", errors)
    context.add_cookies([_session_cookie(staff_user, live_server.url)])
    page.goto(f"{live_server.url}/admin/catalog/feedimport/sync/")
    assert page.locator("button", has_text="Jetzt aktualisieren").count() == len(SOURCES)
    shot(page, path=str(ARTIFACTS / "catalog-admin-sync-wide-de.png"), full_page=True)
    assert not [e for e in errors if "Content Security Policy" in e], errors
    context.close()


def test_the_column_choice_is_remembered_in_this_browser(browser, live_server):
    load_default_catalog()
    errors: list[str] = []
    context, page = open_page(browser, "wide", "en", errors)
    page.goto(f"{live_server.url}/catalog/")
    assert page.locator("th:text-is('CPU')").count() == 0
    page.click("details.columns > summary")
    with page.expect_response(lambda r: "/catalog/" in r.url):
        page.check("input[name=cols][value=cpu]")
    page.wait_for_selector("th:text-is('CPU')")
    page.goto(f"{live_server.url}/catalog/")  # no cols in the address
    page.wait_for_selector("th:text-is('CPU')")
    assert "cols=cpu" in page.url
    context.close()


def _session_cookie(user, url: str) -> dict:
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    return {"name": cookie.key, "value": cookie.value, "url": url}
