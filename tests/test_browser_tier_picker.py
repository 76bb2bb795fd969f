"""The plan editor's searchable tier picker in a real headless Chromium, on a catalog too
large for a full list: several hundred AWS tiers imported through the price feed (an EC2
offer file in AWS's CSV form, written by bench/aws_offer_synth.py). Typing part of a
tier's name fills the datalist with matching tiers fetched from GET /plans/tiers, and
narrows them as one types on; choosing one recomputes the plan with that tier."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest

from catalog.feeds.sync import sync_source
from catalog.models import Price, Tier
from planner.web import tier_search
from tests.support.browser import TIMEOUT_MS, launched

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("own_cache"),
]
BENCH = Path(__file__).resolve().parent.parent / "bench"
TYPES = 48  # instance types in the offer file: 13 tiers each (on demand, 12 reservations)
CHOSEN = "aws-z3x.2xlarge-us-east-1-on-demand"


@pytest.fixture(scope="module")
def browser() -> Iterator:
    yield from launched()


@pytest.fixture
def large_catalog(tmp_path: Path) -> int:
    """Several hundred tiers, imported as a sync would import AWS's own file."""
    sys.path.insert(0, str(BENCH))
    try:
        import aws_offer_synth
    finally:
        sys.path.remove(str(BENCH))
    offer = tmp_path / "offer.csv"
    aws_offer_synth.write_csv(offer, TYPES)
    record = sync_source("aws", ["us-east-1"], file=offer)[0]
    assert record.status == "imported", record.messages
    return Tier.objects.count()


def options(page) -> list[str]:
    return page.eval_on_selector_all("#tier-options option", "os => os.map(o => o.value)")


def wait_for_options(page, typed: str) -> list[str]:
    """The datalist once it holds the answer to `typed`: some options, each matching it."""
    page.wait_for_function(
        """typed => { const os = [...document.querySelectorAll('#tier-options option')];
                      return os.length > 0 && os.every(o => o.value.includes(typed)); }""",
        arg=typed,
    )
    return options(page)


def test_typing_a_name_fills_the_picker_from_the_search_and_choosing_recomputes(
    browser, live_server, owner, large_catalog
):
    assert large_catalog == TYPES * 13 > tier_search.FULL_LIST_MAX  # searched, not listed
    url = live_server.url
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="en-US")
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    asked: list[str] = []
    page.on("request", lambda r: "/plans/tiers" in r.url and asked.append(r.url))

    page.goto(f"{url}/accounts/login/")
    page.fill("#id_username", "owner")
    page.fill("#id_password", "pw-owner-1")
    page.click("main form button[type=submit]")
    page.wait_for_url(f"{url}/")
    page.goto(f"{url}/plans/new")
    assert page.get_attribute("#tier-options", "data-complete") is None
    assert options(page) == []  # nothing sent ahead: the list is filled as one types
    page.fill("#id_baseline__monthly", "480")
    page.fill("#id_cand-0-count", "1")

    # Part of a name: every instance type of the "z3x" family, in its 13 purchase options,
    # more than the search returns at once.
    picker = page.locator("#id_cand-0-tier")
    picker.press_sequentially("z3x", delay=60)
    found = wait_for_options(page, "z3x")
    assert len(found) == tier_search.LIMIT
    assert all(slug.startswith("aws-z3x.") for slug in found)
    assert any("q=z3x" in request for request in asked)

    # Typing on narrows the suggestions to the one instance type, in each purchase option.
    picker.press_sequentially(".2xl", delay=60)
    found = wait_for_options(page, "z3x.2xl")
    assert sorted(found) == sorted(
        Tier.objects.filter(name="z3x.2xlarge").values_list("slug", flat=True)
    )
    assert len(found) == 13 and CHOSEN in found
    # The list may already hold the answer to "z3x.2x" (the same 13 tiers) while the search
    # for the whole text is still waiting out its debounce: wait for that request too.
    for _ in range(100):
        if any("q=z3x.2xl" in request for request in asked):
            break
        page.wait_for_timeout(100)
    assert any("q=z3x.2xl" in request for request in asked)
    label = page.text_content(f'#tier-options option[value="{CHOSEN}"]') or ""
    assert "z3x.2xlarge" in label  # the reader sees the tier's name beside its key

    # Choosing a suggestion puts its key in the field, as the browser's list does; the
    # plan is recomputed with that tier, at its imported price.
    picker.fill(CHOSEN)
    hourly = Price.objects.get(tier__slug=CHOSEN).amount
    monthly = (hourly * 730).quantize(Decimal("0.01"))
    saving = Decimal(480) - monthly
    page.wait_for_function(
        """text => { const h = document.querySelector('[data-testid=headline]');
                     return h !== null && h.innerText.includes(text); }""",
        arg=f"{saving:,.2f}",
    )
    headline = page.locator('[data-testid="headline"]').inner_text()
    assert "z3x.2xlarge" in headline and f"saves ${saving:,.2f} a month" in headline
    assert f"${monthly:,.2f}" in page.locator("#comparison").inner_text()
    context.close()
