# ruff: noqa: RUF003  (× in a note)
"""The plan page's "Which input decides the answer" and "The odds it pays back": asked for
after the results (htmx, on load), never inside the recompute; cached per plan, data
generation and seed; in English and German; frozen with a share; in the CSV exports."""

import csv
import io
import re

import pytest
from django.core.cache import cache
from django.test import Client

from changes.selectors import current_generation
from common.django import clock
from planner.compute import montecarlo
from planner.models import Share
from planner.services import evaluation
from planner.services import plans as services
from tests.support.catalog import add_price
from tests.support.dashboard import (
    DEDICATED,
    days_ago,
    edit_url,
    form_data,
    login,
    saved_plan,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("two_tier_catalog")]
HTMX = {"HX-Request": "true"}
DEFERRED = re.compile(r'hx-get="(/plans/uncertainty/[0-9a-f]+)" hx-trigger="load"')
BILL_EN = (
    "the switch stops paying back within 36 months if the cloud bill falls below $363.88 a month"
)
BILL_DE = (
    "der Wechsel amortisiert sich nicht mehr innerhalb von 36 Monaten, wenn die Cloud-Rechnung "
    "unter 363,88\u00a0$ im Monat fällt"
)


def field_notes(owner, **extra):
    return saved_plan(owner, one_time={"migration_hours": 5, "migration_rate": 100}, **extra)


def deferred_url(html: str) -> str:
    found = DEFERRED.search(html)
    assert found, "no deferred sensitivity section on the page"
    return found.group(1)


def sections(client: Client, plan) -> str:
    page = client.get(edit_url(plan)).content.decode()
    response = client.get(deferred_url(page), headers=HTMX)
    assert response.status_code == 200
    return response.content.decode()


def uncertainty_key(plan, seed: int = montecarlo.SEED) -> str:
    kind = f"uncertainty-v{evaluation.UNCERTAINTY_VERSION}-{seed}"
    return evaluation.cache_key(kind, services.stored_plan(plan), clock.today(),
                                current_generation())  # fmt: skip


def test_the_recompute_and_the_page_only_point_at_the_sections(owner):
    plan = field_notes(owner)
    client = login(owner)
    page = client.get(edit_url(plan)).content.decode()
    assert 'data-testid="uncertainty-loading"' in page
    assert "sensitivity-table" not in page  # not computed with the page
    assert cache.get(uncertainty_key(plan)) is None  # nor on its way
    recomputed = client.post(edit_url(plan), form_data(), headers=HTMX).content.decode()
    assert deferred_url(recomputed).startswith("/plans/uncertainty/")
    assert cache.get(uncertainty_key(plan)) is None


def test_the_sections_show_each_input_its_break_even_and_the_odds_in_english(owner):
    html = sections(login(owner), field_notes(owner))
    assert "Which input decides the answer" in html and "The odds it pays back" in html
    assert BILL_EN in html
    bill = re.search(r'data-input="baseline_monthly">(.*?)</tbody>', html, re.S).group(1)
    for shown in ("$360.00", "$480.00", "$600.00", "\u2212$175", "$7,623", "never", "month 2"):
        assert shown in bill, shown
    assert "no break-even for the one-time costs between $250.00 and $1,000.00" in html
    assert re.search(r'src="/charts/tornado-[0-9a-f]{32}\.svg"', html)
    assert "pays back within 36 months in 99.9% of 10,000 draws" in html
    assert "seed 2024, 10,000 draws, NumPy" in html


def test_the_sections_read_in_german_with_german_numbers(owner):
    client = login(owner)
    client.cookies["django_language"] = "de"
    html = sections(client, field_notes(owner))
    assert "Welche Eingabe die Antwort entscheidet" in html
    assert BILL_DE in html
    assert "360,00\u00a0$" in html and "1.000,00\u00a0$" in html
    assert "in 99,9\u00a0% von 10.000 Ziehungen" in html
    assert "Startwert 2024, 10.000 Ziehungen, NumPy" in html


def test_the_tornado_chart_is_drawn_in_the_readers_language_and_served_from_the_cache(owner):
    client = login(owner)
    english = sections(client, field_notes(owner))
    url = re.search(r'src="(/charts/tornado-[0-9a-f]{32}\.svg)"', english).group(1)
    svg = Client().get(url)
    assert svg.status_code == 200 and svg["Content-Type"] == "image/svg+xml"
    text = svg.content.decode()
    assert "today's monthly bill" in text and "Input at its low value" in text
    assert Client().get(url).content == svg.content  # byte-stable, from the cache
    narrow = re.search(r'srcset="(/charts/tornado-[0-9a-f]{32}\.svg)"', english).group(1)
    assert narrow != url and Client().get(narrow).status_code == 200


def test_the_second_request_is_read_from_the_cache_not_worked_out_again(owner):
    plan = field_notes(owner)
    client = login(owner)
    page = client.get(edit_url(plan)).content.decode()
    url = deferred_url(page)
    assert cache.get(uncertainty_key(plan)) is None
    client.get(url, headers=HTMX)
    found = cache.get(uncertainty_key(plan))
    assert found is not None and found.montecarlo.seed == montecarlo.SEED
    # Mark the cached answer: the next request shows the mark, so it computed nothing.
    found.montecarlo.numpy = "from-the-cache"
    cache.set(uncertainty_key(plan), found)
    assert "NumPy from-the-cache" in client.get(url, headers=HTMX).content.decode()
    # Another seed is another entry, worked out afresh.
    other = client.get(f"{url}?seed=7", headers=HTMX).content.decode()
    assert "seed 7, 10,000 draws" in other and cache.get(uncertainty_key(plan, 7)) is not None


def test_a_new_price_is_a_new_generation_and_the_sections_follow_it(owner):
    plan = field_notes(owner)
    client = login(owner)
    assert BILL_EN in sections(client, plan)
    add_price_for_tier(DEDICATED, "399.99")
    html = sections(client, plan)
    assert "$399.99" in html  # the tier's price line at its base


def add_price_for_tier(slug: str, amount: str) -> None:
    from catalog.models import Tier

    add_price(Tier.objects.get(slug=slug), amount, days_ago(1), unit="month",
              source="test price list")  # fmt: skip


def test_only_the_reader_who_was_shown_the_plan_may_ask_for_its_sections(owner, other_user):
    client = login(owner)
    url = deferred_url(client.get(edit_url(field_notes(owner))).content.decode())
    assert login(other_user).get(url).status_code == 404
    assert Client().get(url).status_code == 302  # to the log-in page
    assert client.get("/plans/uncertainty/" + "0" * 40).status_code == 404
    assert client.get(f"{url}?seed=-3").status_code == 404


def test_the_shared_page_shows_the_frozen_figures_after_a_price_change(owner):
    plan = field_notes(owner)
    share = services.share_create(plan=plan, user=owner)
    visitor = Client()
    before = visitor.get(f"/s/{share.token}/").content.decode()
    assert BILL_EN in before and "The odds it pays back" in before
    add_price_for_tier(DEDICATED, "399.99")
    after = visitor.get(f"/s/{share.token}/").content.decode()
    assert "Today (" in after  # the page says prices changed since
    assert BILL_EN in after and "$384.99" in after  # the frozen price line's high, not today's
    assert "$439.99" not in after  # 399.99 × 1.1: today's figures are not the frozen ones
    today = evaluation.uncertainty(services.stored_plan(plan))
    assert today.model_dump()["one_way"] != share.snapshot["uncertainty"]["one_way"]
    german = Client().get(f"/s/{share.token}/?lang=de").content.decode()
    assert BILL_DE in german


def test_a_share_from_before_the_sensitivity_still_reads_and_says_so(owner):
    plan = field_notes(owner)
    share = services.share_create(plan=plan, user=owner)
    snapshot = dict(share.snapshot)
    del snapshot["uncertainty"]
    Share.objects.filter(pk=share.pk).update(snapshot=snapshot)
    response = Client().get(f"/s/{share.token}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-testid="uncertainty-missing"' in html and "sensitivity-table" not in html
    assert 'data-testid="headline"' in html
    assert Client().get(f"/s/{share.token}/sensitivity.csv").status_code == 404


@pytest.mark.parametrize("lost", ["swing_cents", "one_way"])
def test_a_share_whose_sensitivity_this_version_cannot_read_says_so_not_an_error(owner, lost):
    """A frozen sensitivity in a form this version cannot read (a field it lacks) is said
    to be missing from the snapshot: the page answers 200, its CSV 404, never a 500."""
    plan = field_notes(owner)
    share = services.share_create(plan=plan, user=owner)
    snapshot = dict(share.snapshot)
    kept = dict(snapshot["uncertainty"])
    if lost == "one_way":
        del kept["one_way"]
    else:
        kept["one_way"] = [{k: v for k, v in row.items() if k != lost} for row in kept["one_way"]]
    snapshot["uncertainty"] = kept
    Share.objects.filter(pk=share.pk).update(snapshot=snapshot)
    response = Client().get(f"/s/{share.token}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-testid="uncertainty-missing"' in html and 'data-testid="headline"' in html
    assert Client().get(f"/s/{share.token}/sensitivity.csv").status_code == 404


def rows_of(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_the_csv_exports_hold_every_input_and_each_leading_options_odds(owner):
    plan = field_notes(owner)
    client = login(owner)
    response = client.get(f"/plans/{plan.code}/sensitivity.csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert "sensitivity.csv" in response["Content-Disposition"]
    rows = {r["input"]: r for r in rows_of(response.content.decode())}
    bill = rows["baseline_monthly"]
    assert (bill["low_amount"], bill["break_even_amount"], bill["payback_month_low"]) == (
        "360.00", "363.88", "")  # fmt: skip
    assert bill["break_even_sentence"].endswith("falls below 363.88 USD a month")
    assert [r["rank"] for r in rows.values()] == [str(i) for i in range(1, len(rows) + 1)]
    found = evaluation.uncertainty(services.stored_plan(plan))
    assert set(rows) == {r.input for r in found.one_way}
    odds = rows_of(client.get(f"/plans/{plan.code}/odds.csv").content.decode())
    assert [o["option_key"] for o in odds] == [o.option for o in found.montecarlo.options]
    assert odds[0]["best"] == "true" and odds[0]["draws"] == "10000" and odds[0]["seed"] == "2024"
    share = services.share_create(plan=plan, user=owner)
    shared = Client().get(f"/s/{share.token}/sensitivity.csv").content.decode()
    assert shared == response.content.decode()


def test_a_formula_in_an_option_name_is_neutralised_in_the_odds_export(owner):
    plan = saved_plan(owner, candidates=[{"tier": DEDICATED, "count": 1,
                                          "name": "=HYPERLINK(\"x\")"}])  # fmt: skip
    odds = rows_of(login(owner).get(f"/plans/{plan.code}/odds.csv").content.decode())
    assert odds[0]["option"].startswith("'=HYPERLINK")


GROWTH_NOTE = "Monthly growth tops the chart"


def growth_plan(owner, candidate: dict):
    from catalog.models import Tier
    from tests.support.bench import finished_run, target, version

    host = target("epyc-4545p", hardware_threads=32, usable_cpus=32)
    host.tier = Tier.objects.get(slug=DEDICATED)
    host.save(update_fields=["tier"])
    finished_run(version(), host, {k: 100 * k / (1 + 0.05 * (k - 1)) for k in (1, 2, 4, 8)})
    gbm = {"kind": "gbm", "trainings_per_month": 20, "rows": 2_000_000, "features": 50,
           "trees": 100}  # fmt: skip
    return saved_plan(owner, monthly="1500", monthly_growth="0.05", candidates=[candidate],
                      workloads=[gbm])  # fmt: skip


def test_the_growth_note_shows_where_the_best_option_keeps_a_fixed_count(owner):
    """Issue 21's note says a fixed count stays as entered while the work grows."""
    plan = growth_plan(owner, {"tier": DEDICATED, "count": 1})
    html = sections(login(owner), plan)
    first = re.search(r'<tbody class="input" data-input="([a-z_:]+)"', html)
    assert first and first.group(1) == "monthly_growth", html[:400]
    assert GROWTH_NOTE in html


def test_the_growth_note_is_not_shown_where_every_option_is_sized_to_the_work(owner):
    """Sized to the work, the server count grows with it: the note's reason does not apply,
    even where monthly growth tops the chart."""
    plan = growth_plan(owner, {"tier": DEDICATED})
    html = sections(login(owner), plan)
    first = re.search(r'<tbody class="input" data-input="([a-z_:]+)"', html)
    assert first and first.group(1) == "monthly_growth", html[:400]
    assert GROWTH_NOTE not in html
