"""The Bills pages in a real headless Chromium against a live server and a real control
worker (Celery on the `default` queue): every file under ../shared/reference/bills goes
up through the page (in pieces, with the progress bar) and is imported or refused with
its message naming the file; one goes up by drag and drop; the bill page in English and
German at 1366 and 390 px, its plan link; another user gets 404."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bills.models import Bill
from tests.support.bills import BILLS, FOCUS, all_samples, bill_sample
from tests.support.browser import TIMEOUT_MS, launched, logged_in_page, shot
from tests.test_bill_import import REFUSED

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
IMPORT_MS = 90_000


@pytest.fixture(scope="module")
def browser() -> Iterator:
    yield from launched()


def _final_state(page) -> tuple[str, str]:
    state = page.locator('[data-testid="upload-state"][data-status="done"], '
                         '[data-testid="upload-state"][data-status="refused"]')  # fmt: skip
    state.wait_for(timeout=IMPORT_MS)
    return state.get_attribute("data-status"), state.inner_text()


def test_every_reference_bill_is_imported_or_refused_through_the_page(
    browser, live_server, owner, start_worker, tmp_path
):
    start_worker("control", ["default"])
    # Every file of the folder, its README too (refused: not a cost export).
    samples = sorted(str(p.relative_to(BILLS)) for p in BILLS.rglob("*") if p.is_file())
    assert len(samples) >= 20 and set(all_samples()) < set(samples), samples
    with logged_in_page(
        browser, live_server.url, "owner", locale="en-US", timeout_ms=TIMEOUT_MS
    ) as page:
        page.goto(f"{live_server.url}/bills/")
        outcomes = {}
        for name in samples:
            page.goto(f"{live_server.url}/bills/")
            page.set_input_files("#id_file", str(BILLS / name))
            status, text = _final_state(page)
            assert Path(name).name in text, (name, text)  # the message names the file
            outcomes[name] = status
        refused = {n for n, s in outcomes.items() if s == "refused"}
        # The spec's worked examples carry no currency or provider; the README and the
        # three header sets the readers refuse (tests/test_bill_import.py): refused, each
        # with its message; every other file imported.
        spec = {n for n in samples if n.startswith("focus/spec_examples/")}
        assert refused == spec | REFUSED | {"README.md"}, sorted(refused)
        assert outcomes[FOCUS] == "done"
        assert Bill.objects.filter(owner=owner).exists()
        # A file of several pieces (the page sends 4 MiB at a time): the sample's rows repeated
        # to some 10 MB, generated here; it replaces the sample's bill (the same period).
        original = bill_sample(FOCUS).read_bytes()
        header, _, body = original.partition(b"\n")
        big = tmp_path / "focus-repeated.csv"
        copies = 10 * 1024 * 1024 // len(body) + 1
        big.write_bytes(
            header
            + b"\n"
            + body.rstrip(b"\n")
            + (b"\n" + body.rstrip(b"\n")) * (copies - 1)
            + b"\n"
        )
        assert big.stat().st_size > 2 * 4 * 1024 * 1024
        page.goto(f"{live_server.url}/bills/")
        seen = []
        page.expose_function("noteProgress", lambda shown: seen.append(shown))
        page.evaluate(
            """() => { const shown = document.querySelector("[data-upload-percent]");
                       new MutationObserver(() => window.noteProgress(shown.textContent))
                         .observe(shown,
                                  {childList: true, characterData: true, subtree: true}); }"""
        )
        page.set_input_files("#id_file", str(big))
        status, text = _final_state(page)
        assert status == "done" and "focus-repeated.csv" in text, text
        assert Bill.objects.get(owner=owner, name="focus-repeated.csv").rows == 1000 * copies
        # The bar followed the pieces: some share between none and all, then all.
        assert any(p not in ("0 %", "100 %") for p in seen) and "100 %" in seen, seen
        ARTIFACTS.mkdir(exist_ok=True)
        shot(page, path=str(ARTIFACTS / "bills-list-en-1366.png"), full_page=True)


def test_drag_and_drop_then_the_bill_page_in_both_languages(
    browser, live_server, owner, other_user, start_worker
):
    start_worker("control", ["default"])
    with logged_in_page(
        browser, live_server.url, "owner", locale="en-US", timeout_ms=TIMEOUT_MS
    ) as page:
        page.goto(f"{live_server.url}/bills/")
        data = list(bill_sample(FOCUS).read_bytes())
        page.evaluate(
            """([bytes, name]) => {
                 const file = new File([new Uint8Array(bytes)], name, {type: "text/csv"});
                 const dt = new DataTransfer(); dt.items.add(file);
                 const zone = document.getElementById("drop-zone");
                 zone.dispatchEvent(new DragEvent("dragover", {dataTransfer: dt, bubbles: true}));
                 zone.dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true}));
               }""",
            [data, "dropped-focus.csv"],
        )
        status, text = _final_state(page)
        assert status == "done" and "dropped-focus.csv" in text
        page.click("text=Open the bill")
        bill = Bill.objects.get(owner=owner)
        assert (
            page.get_attribute('[data-testid="plan-from-bill"]', "href")
            == f"/plans/new?bill={bill.pk}"
        )
        ARTIFACTS.mkdir(exist_ok=True)
        for locale, language in (("en-US", "en"), ("de-DE", "de")):
            for width, height in ((1366, 768), (390, 844)):
                with logged_in_page(
                    browser,
                    live_server.url,
                    size=(width, height),
                    locale=locale,
                    timeout_ms=TIMEOUT_MS,
                ) as view:
                    if language == "de":
                        view.goto(f"{live_server.url}/bills/")
                        with view.expect_navigation():
                            view.select_option("select[name=language]", "de")
                    view.goto(f"{live_server.url}/bills/{bill.pk}/")
                    view.wait_for_function(
                        "() => [...document.querySelectorAll('img[data-chart]')]"
                        ".every(i => i.complete && i.naturalWidth > 0)"
                    )
                    heading = "Datenqualität" if language == "de" else "Data quality"
                    assert view.locator(f"h2:has-text('{heading}')").is_visible()
                    shot(view, path=str(ARTIFACTS / f"bill-{language}-{width}.png"), full_page=True)
                    if width == 390:
                        view.goto(f"{live_server.url}/bills/")
                        shot(view, path=str(ARTIFACTS / f"bills-list-{language}-{width}.png"),
                             full_page=True)  # fmt: skip
        with logged_in_page(
            browser, live_server.url, "other", locale="en-US", timeout_ms=TIMEOUT_MS
        ) as stranger:
            answer = stranger.goto(f"{live_server.url}/bills/{bill.pk}/")
            assert answer.status == 404
