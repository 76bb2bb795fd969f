"""Headless Chromium for the browser tests: Debian's /usr/bin/chromium, driven by Playwright
(no tool here downloads a browser of its own)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API in pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update",
        "--disable-sync"]  # fmt: skip
TIMEOUT_MS = 15_000


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
