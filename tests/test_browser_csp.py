"""Under the strict Content-Security-Policy every main page works in Chromium, violation-free.

The policy refuses inline script, inline style and eval: an `onclick`, a `style=`
attribute, htmx's injected indicator style or an `hx-on` handler would each show up
here as a `securitypolicyviolation` event or a console error.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from tests.support.browser import TIMEOUT_MS, launched
from tests.support.dashboard import DEDICATED
from tests.support.pages import PASSWORDS, seed_site, site_pages

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("two_tier_catalog"),
]
# Recorded from the first script the page runs, before any of ours.
LISTEN = """window.__violations = [];
document.addEventListener('securitypolicyviolation', e => window.__violations.push(
  `${e.violatedDirective} blocked ${e.blockedURI || 'inline'}
   at ${e.sourceFile}:${e.lineNumber}`));"""
POLICY_WORDS = re.compile(
    r"Content Security Policy|Content-Security-Policy|Permissions-Policy|Refused to"
)


@pytest.fixture(scope="module")
def browser() -> Iterator:
    yield from launched()


class Watched:
    """A page whose policy violations and console errors are collected as it goes."""

    def __init__(self, browser, base: str) -> None:
        self.base = base
        self.context = browser.new_context(viewport={"width": 1400, "height": 1000})
        self.context.set_default_timeout(TIMEOUT_MS)
        self.context.add_init_script(LISTEN)
        self.page = self.context.new_page()
        self.console: list[str] = []
        self.page.on("console", lambda m: m.type == "error" and self.console.append(m.text))
        self.page.on("pageerror", lambda exc: self.console.append(f"page error: {exc}"))
        self.problems: dict[str, list[str]] = {}

    def visit(self, path: str, status: int = 200) -> None:
        response = self.page.goto(self.base + path)
        assert response.status == status, path
        policy = response.headers.get("content-security-policy", "")
        assert "default-src 'self'" in policy and "unsafe" not in policy, path
        self.page.wait_for_load_state("load")
        self.check(path)

    def check(self, where: str) -> None:
        found = self.page.evaluate("window.__violations.splice(0)")
        found += [m for m in self.console if POLICY_WORDS.search(m) or "page error" in m]
        self.console.clear()
        if found:
            self.problems[where] = found

    def log_in(self, username: str, password: str) -> None:
        self.visit("/accounts/login/")
        self.page.fill("#id_username", username)
        self.page.fill("#id_password", password)
        self.page.click("main form button[type=submit]")
        self.page.wait_for_url(self.base + "/")
        self.check("login")


def recompute_by_typing(watched: Watched) -> None:
    page = watched.page
    watched.visit("/plans/new")
    page.fill("#id_baseline__monthly", "480")
    page.fill("#id_cand-0-tier", DEDICATED)
    page.fill("#id_cand-0-count", "1")
    page.wait_for_selector('[data-testid="headline"]:has-text("130.01")')
    page.fill("#id_baseline__monthly", "-5")  # a message beside the field...
    page.wait_for_selector("#id_baseline__monthly_error:has-text('at least 0')")
    page.fill("#id_baseline__monthly", "600")  # ...emptied by the next results (static JS)
    page.wait_for_selector('[data-testid="headline"]:has-text("250.01")')
    assert page.locator("#id_baseline__monthly_error").inner_text() == ""
    watched.check("plan editor, recomputed")


def test_the_main_pages_raise_no_policy_violation(browser, live_server, owner):
    site = seed_site(owner)  # the shared page list's plans, shares, runs and staff member
    watched = {persona: Watched(browser, live_server.url) for persona in ("visitor", "manager")}
    watched["manager"].log_in(*PASSWORDS["manager"])
    staff = watched["staff"] = Watched(browser, live_server.url)
    staff.visit("/admin/login/")
    username, password = PASSWORDS["staff"]
    staff.page.fill("#id_username", username)
    staff.page.fill("#id_password", password)
    staff.page.click("input[type=submit]")
    staff.page.wait_for_url(live_server.url + "/admin/")
    staff.check("admin index")

    for page in site_pages(site):
        if not page.in_browser:
            continue  # the live recompute: typed below instead
        watched[page.persona].visit(page.path, page.status)
        if page.name == "benchmark run, running":
            assert staff.page.locator("progress.progress").count() == 1  # the running run's bar
    manager = watched["manager"]
    recompute_by_typing(manager)
    manager.page.select_option("select[name=language]", "de")  # switches with no button
    manager.page.wait_for_selector("html[lang=de]")
    manager.check("language switch")
    # Django's stock admin pages beside our own import page (which the list holds).
    running = f"/admin/benchmarks_app/run/{site.running.pk}/change/"
    for path in ("/admin/benchmarks_app/run/", running, "/admin/catalog/tier/"):
        staff.visit(path)

    problems = {k: v for w in watched.values() for k, v in w.problems.items()}
    assert problems == {}
