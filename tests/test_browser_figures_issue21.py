"""Issue 21 on the page, at 1366x768 and 390x844, in English and German: the months of
running both apart from the steady Monthly column (item 1), the payback said one way in
the table and the odds (item 7), a plan past the maximum refused beside its
growth field (item 6), an amount typed in another currency refused naming both (item 4).
Screenshots (SCREENSHOTS=1) go to test-artifacts/issue21/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.browser import launched, logged_in_page, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts" / "issue21"
SIZES = [(1366, 768), (390, 844)]
OPEN = "el => { const d = el.closest('details'); if (d) d.open = true; }"
EXTREME = "inmotion-hosting-extreme-dedicated-fixed-monthly"
ADVANCED = "inmotion-hosting-advanced-dedicated-fixed-monthly"
PLAN = {
    "currency": "USD", "name": "field notes, one month of both",
    "baseline": {"monthly": "480"},
    "candidates": [{"tier": EXTREME, "count": 1}, {"tier": ADVANCED, "count": 1}],
    "one_time": {"migration_hours": "52.35", "migration_rate": "99.99", "running_both_months": 1},
}  # fmt: skip
WORDS = {
    "en": {"beyond": "not within 36 months", "both": "+ $480.00 running both, once",
           "growth": "the largest amount the planner computes",
           "currency": "This amount is in EUR, but the plan is in USD"},
    "de": {"beyond": "nicht innerhalb von 36 Monaten",
           "both": "+ 480,00 $ Parallelbetrieb, einmalig",
           "growth": "den größten Betrag, den der Planer rechnet",
           "currency": "Dieser Betrag ist in EUR, der Plan aber in USD"},
}  # fmt: skip


def save(page) -> None:
    """Save by the keyboard: on a phone the sticky answer bar may lie over the button."""
    page.focus("button[name=action][value=save]")
    page.keyboard.press("Enter")


@pytest.fixture(scope="module")
def browser() -> Iterator:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    yield from launched()


def test_issue_21_on_the_page_at_both_sizes_in_both_languages(browser, live_server, owner):
    from catalog.defaults import load_default_catalog
    from planner.services import plans as services

    load_default_catalog()
    plan = services.plan_create(owner=owner, plan=services.parse(PLAN))
    for language in ("en", "de"):
        words = WORDS[language]
        for width, height in SIZES:
            where = (language, width)
            with logged_in_page(
                browser, live_server.url, size=(width, height), language=language, timeout_ms=20_000
            ) as page:
                # Item 7: the table and the odds say the same words.
                page.goto(f"{live_server.url}/plans/{plan.code}/")
                table = page.locator("#comparison").inner_text().replace("\u00a0", " ")
                assert words["beyond"] in table, where
                # Item 1: the steady month in the Monthly column, running both apart, once.
                assert table.count(words["both"]) == 2, where  # once per option: both run both
                assert "829" not in table and "629" not in table, where  # 349.99 or 149.99 + 480
                overflow = "() => document.documentElement.scrollWidth - window.innerWidth"
                assert page.evaluate(overflow) <= 0, where  # the extra line never widens the page
                shot(page, path=str(ARTIFACTS / f"payback-{width}-{language}.png"))
                odds = page.locator("[data-testid=odds-table]")
                odds.wait_for()
                assert words["beyond"] in odds.inner_text(), where
                odds.scroll_into_view_if_needed()
                shot(page, path=str(ARTIFACTS / f"odds-{width}-{language}.png"))
                # Item 6: growth of 50 % a month over 120 months, refused beside the field.
                for field, value in (("#id_horizon_months", "120"), ("#id_monthly_growth", "50")):
                    page.eval_on_selector(field, OPEN)  # the assumptions fold away
                    page.fill(field, value)
                save(page)
                error = page.locator("#id_monthly_growth_error")
                error.wait_for()
                assert words["growth"] in error.inner_text(), where
                error.scroll_into_view_if_needed()
                shot(page, path=str(ARTIFACTS / f"growth-{width}-{language}.png"))
                # Item 4: a euro amount in a dollar plan, refused naming both.
                page.goto(f"{live_server.url}/plans/{plan.code}/")
                page.fill("#id_baseline__monthly", "1.234,56 €" if language == "de" else "EUR 480")
                save(page)
                error = page.locator("#id_baseline__monthly_error")
                error.wait_for()
                assert words["currency"] in error.inner_text(), where
                error.scroll_into_view_if_needed()
                shot(page, path=str(ARTIFACTS / f"currency-{width}-{language}.png"))


# Items 2 and 5 over the field notes' case: today's $480 runs on c5.4xlarge on demand; the
# options are a 1-year reservation of it (stays), the EPYC 4545P server (moves) and the
# Advanced server (moves; no run or estimate sizes it). The GBM run relinked to the Extreme
# tier is a labelled copy of the repository's real run (tests/support/runs.py); the
# c5.4xlarge is sized by the published speed-score estimate.
RESERVED = "aws-c5.4xlarge-us-east-1-reserved-1y"
CASE = {
    "currency": "USD", "name": "field notes, stay or move",
    "baseline": {"monthly": "480", "runs_on": "aws-c5.4xlarge-us-east-1-on-demand"},
    "monthly_growth": "0.05",
    "workloads": [{"kind": "gbm", "trainings_per_month": 300, "rows": 5_000_000,
                   "features": 100, "trees": 500}],
    "candidates": [{"name": "Stay on AWS, reserve 1y", "tier": RESERVED, "count": 1},
                   {"tier": EXTREME, "count": 1}, {"tier": ADVANCED, "count": 1}],
    "one_time": {"migration_hours": "52.35", "migration_rate": "99.99",
                 "running_both_months": 1, "retraining": "0"},
}  # fmt: skip
CASE_WORDS = {
    "en": {"stays": "no migration, running both or re-validation: it stays",
           "moves": "carries migration, running both, re-validation",
           "cannot": "cannot carry the work from month 30",
           "carries": "carries the work every month",
           "unchecked": "capacity not checked",
           "growth": "a fixed count does not, so the plan says from which month",
           "charged": "carries migration", "once": "running both, once"},
    "de": {"stays": "keine Migration, kein Parallelbetrieb, keine Re-Validierung: bleibt",
           "moves": "trägt Migration, Parallelbetrieb, Re-Validierung",
           "cannot": "kann die Arbeit ab Monat 30 nicht tragen",
           "carries": "trägt die Arbeit in jedem Monat",
           "unchecked": "Kapazität nicht geprüft",
           "growth": "eine feste Anzahl nicht, daher sagt der Plan",
           "charged": "trägt Migration", "once": "Parallelbetrieb, einmalig"},
}  # fmt: skip


def test_one_time_costs_and_capacity_per_option_at_both_sizes_in_both_languages(
    browser, live_server, owner
):
    from catalog.defaults import load_default_catalog
    from catalog.models import Tier
    from planner.services import plans as services
    from tests.support.runs import GBM_RUN, import_copy

    load_default_catalog()
    import_copy(GBM_RUN, "field-notes-extreme-copy", tier=Tier.objects.get(slug=EXTREME))
    plan = services.plan_create(owner=owner, plan=services.parse(CASE))
    for language in ("en", "de"):
        words = CASE_WORDS[language]
        for width, height in SIZES:
            where = (language, width)
            with logged_in_page(
                browser, live_server.url, size=(width, height), language=language, timeout_ms=20_000
            ) as page:
                page.goto(f"{live_server.url}/plans/{plan.code}/")

                def row(key: str, page=page) -> str:
                    text = page.locator(f"#comparison tr.option[data-key='{key}']").inner_text()
                    return text.replace("\u00a0", " ")

                stay, move, unknown = row("candidate:0"), row("candidate:1"), row("candidate:2")
                # Item 2: the reservation carries no migration and no month of running both.
                assert words["stays"] in stay, where
                assert words["once"] not in stay and words["once"] in move, where
                assert words["moves"] in move and words["moves"] in unknown, where
                # Item 5: each fixed count against the work; the one that cannot is not best.
                assert words["cannot"] in stay, where
                assert words["carries"] in move, where
                assert words["unchecked"] in unknown, where
                best = page.locator("#comparison tr.option.best")
                assert best.get_attribute("data-key") == "candidate:2", where
                keys = page.eval_on_selector_all(
                    "#comparison tr.option", "rows => rows.map(r => r.dataset.key)"
                )
                assert keys[-1] == "candidate:0", where  # cheapest total, ranked last
                overflow = "() => document.documentElement.scrollWidth - window.innerWidth"
                assert page.evaluate(overflow) <= 0, where
                page.locator("#comparison").scroll_into_view_if_needed()
                shot(page, path=str(ARTIFACTS / f"options-{width}-{language}.png"))
                chart = page.locator("img[data-chart=monthly]")
                chart.scroll_into_view_if_needed()
                shot(page, path=str(ARTIFACTS / f"monthly-chart-{width}-{language}.png"))
                # Growth explained where it is entered.
                page.eval_on_selector("#id_monthly_growth", OPEN)
                assert words["growth"] in page.inner_text("#id_monthly_growth_helptext"), where
                # The override in the editor: migration charged to the reservation.
                page.eval_on_selector("#id_cand-0-migration", OPEN)
                page.select_option("#id_cand-0-migration", "charged")
                page.locator("#id_cand-0-migration").scroll_into_view_if_needed()
                shot(page, path=str(ARTIFACTS / f"override-{width}-{language}.png"))
                save(page)
                page.wait_for_function(
                    "w => document.querySelector(\"#comparison tr.option[data-key='candidate:0']\")"
                    ".innerText.includes(w)", arg=words["charged"])  # fmt: skip
                assert words["charged"] in row("candidate:0"), where
                page.select_option("#id_cand-0-migration", "")
                save(page)
                page.wait_for_function(
                    "w => document.querySelector(\"#comparison tr.option[data-key='candidate:0']\")"
                    ".innerText.includes(w)", arg=words["stays"])  # fmt: skip


# Item 3 on the page: an EPYC server bought for $6,300 against the same $480 bill.
OWNED_CASE = {
    "currency": "USD", "name": "field notes, buy one",
    "baseline": {"monthly": "480"},
    "owned": [{"name": "EPYC 4545P, bought", "count": 1, "purchase_price": "6300",
               "depreciation_years": 4, "watts": 200, "colocation_monthly": "100",
               "resale": "percent", "resale_percent": "0.15"}],
    "one_time": {"running_both_months": 0, "retraining": "0"},
}  # fmt: skip
OWNED_WORDS = {
    "en": {"power": "the electricity price", "life": "the service life",
           "once": "the one-time costs", "source": "Owned servers:",
           "purchase": "purchase (entered)"},
    "de": {"power": "der Strompreis", "life": "die Nutzungsdauer",
           "once": "die einmaligen Kosten", "source": "Eigene Server:",
           "purchase": "Kauf (eingegeben)"},
}  # fmt: skip


def test_owned_hardware_in_the_sensitivity_at_both_sizes_in_both_languages(
    browser, live_server, owner
):
    from catalog.defaults import load_default_catalog
    from planner.services import plans as services

    load_default_catalog()
    plan = services.plan_create(owner=owner, plan=services.parse(OWNED_CASE))
    for language in ("en", "de"):
        words = OWNED_WORDS[language]
        for width, height in SIZES:
            where = (language, width)
            with logged_in_page(
                browser, live_server.url, size=(width, height), language=language, timeout_ms=30_000
            ) as page:
                page.goto(f"{live_server.url}/plans/{plan.code}/")
                row = page.locator("#comparison tr.option[data-key='owned:0']")
                cells = row.locator("td").all_inner_texts()
                assert cells[1].strip().startswith("1"), (where, cells[1])  # the count bought
                html = row.inner_html()
                assert words["source"] in html and words["purchase"] in html, where
                table = page.locator('[data-testid="sensitivity-table"]')
                table.wait_for()
                text = table.inner_text()
                assert words["power"] in text and words["life"] in text, where
                assert words["once"] not in text, where  # nothing entered: no "$0-$0" row
                table.scroll_into_view_if_needed()
                shot(page, path=str(ARTIFACTS / f"owned-sensitivity-{width}-{language}.png"))
                page.locator("#comparison").scroll_into_view_if_needed()
                shot(page, path=str(ARTIFACTS / f"owned-table-{width}-{language}.png"))
