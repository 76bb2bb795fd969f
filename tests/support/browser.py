"""Headless Chromium for the browser tests: Debian's /usr/bin/chromium, driven by Playwright
(no tool here downloads a browser of its own)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API in pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update",
        "--disable-sync"]  # fmt: skip
TIMEOUT_MS = 15_000
# The page scrolls nowhere sideways; an element shows all it holds (a pixel of rounding).
NO_SIDEWAYS = "() => document.documentElement.scrollWidth <= window.innerWidth"
FITS = "el => el.scrollWidth <= el.clientWidth + 1"


def launched() -> Iterator:
    """One Chromium for a module's tests, closed after them; a missing Chromium fails."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium is missing at {CHROMIUM} (Debian: apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


def shot(target, **kwargs) -> None:
    """A page's or element's screenshot, written only when asked for (`SCREENSHOTS=1`):
    a person looks at them; no test compares them, so an ordinary run takes none."""
    if os.getenv("SCREENSHOTS") == "1":
        target.screenshot(**kwargs)


@contextmanager
def logged_in_page(
    browser,
    url: str,
    user: str = "owner",
    password: str | None = None,
    *,
    size: tuple[int, int] = (1366, 768),
    language: str | None = None,
    locale: str | None = None,
    timeout_ms: int | None = None,
    landing: str = "/",
) -> Iterator:
    """A page of a fresh browser context at `size` (width, height), signed in as `user`
    through the login form (password: `pw-<user>-1`, the fixtures' users, unless given) and
    landed on `landing`; `language` sets the django_language cookie, `locale` the browser's.
    The context (`page.context`) is closed on leaving the block."""
    width, height = size
    context = browser.new_context(
        viewport={"width": width, "height": height}, **({"locale": locale} if locale else {})
    )
    try:
        if timeout_ms is not None:
            context.set_default_timeout(timeout_ms)
        if language is not None:
            context.add_cookies([{"name": "django_language", "value": language, "url": url}])
        page = context.new_page()
        page.goto(f"{url}/accounts/login/")
        page.fill("#id_username", user)
        page.fill("#id_password", password if password is not None else f"pw-{user}-1")
        page.click("main form button[type=submit]")
        page.wait_for_url(f"{url}{landing}")
        try:
            yield page
        except Exception:
            kept_on_failure(page)
            raise
    finally:
        context.close()


FAILURES = Path("test-artifacts/failures")
_kept = iter(range(1, 1_000_000))  # a test with two pages (two tabs) keeps both


def kept_on_failure(page) -> None:
    """What a page showed when its test failed: a screenshot and its HTML under
    test-artifacts/failures/, named by the test (a timeout says only what it waited for)."""
    test = os.environ.get("PYTEST_CURRENT_TEST", "test").split(" ")[0]
    name = "".join(c if c.isalnum() or c in "-_." else "_" for c in test)[-150:]
    name = f"{name}-{next(_kept)}"
    try:
        FAILURES.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(FAILURES / f"{name}.png"), full_page=True)
        (FAILURES / f"{name}.html").write_text(page.content())
    except Exception as exc:  # a closed page, a full disk: the test's own error stands
        print(f"no failure artifacts for {test}: {exc}")
