"""The home page: each plan's saving and payback, and for a plan whose data changed since
its owner last viewed it, a cell loaded afterwards that says so and names the price row
or run that changed. The home page never evaluates plans itself, and builds the catalog
frame once per data generation."""

import re

import pytest

from catalog.models import Tier
from planner.models import Plan
from tests.support.catalog import add_price
from tests.support.dashboard import CLOUD, DEDICATED, days_ago, edit_url, login, saved_plan

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("two_tier_catalog")]


def figures_cell(page: str, plan: Plan) -> str:
    row = re.search(rf'<tr data-plan="{plan.code}">(.*?)</tr>', page, re.S).group(1)
    return re.search(r'<td class="figures"[^>]*>(.*?)</td>', row, re.S).group(0)


def test_viewing_a_plan_stores_its_figures_and_the_home_page_shows_them(owner):
    plan = saved_plan(owner)
    client = login(owner)
    client.get(edit_url(plan))
    plan.refresh_from_db()
    assert plan.seen_figures["saving_per_month"] == "130.01"
    assert plan.seen_generation is not None
    cell = figures_cell(client.get("/").content.decode(), plan)
    assert "saves <strong>$130.01</strong> a month, pays back: immediately" in cell
    assert "hx-get" not in cell


def test_a_plan_never_viewed_is_evaluated_lazily_by_its_own_cell(owner):
    plan = saved_plan(owner)
    client = login(owner)
    cell = figures_cell(client.get("/").content.decode(), plan)
    assert f'hx-get="/plans/{plan.code}/figures"' in cell
    lazy = client.get(f"/plans/{plan.code}/figures").content.decode()
    assert "saves <strong>$130.01</strong> a month" in lazy
    assert "changed since" not in lazy


def test_a_plan_whose_price_changed_says_so_and_names_the_price_row(owner):
    plan = saved_plan(owner)
    client = login(owner)
    client.get(edit_url(plan))
    add_price(Tier.objects.get(slug=DEDICATED), "399.99", days_ago(1), unit="month")
    cell = figures_cell(client.get("/").content.decode(), plan)
    assert "hx-get" in cell  # changed: not shown from the stored figures
    lazy = client.get(f"/plans/{plan.code}/figures").content.decode()
    assert "saves <strong>$80.01</strong> a month" in lazy
    assert "changed since you last viewed it" in lazy
    assert "was: saves <strong>$130.01</strong> a month" in lazy
    assert f"price row: {DEDICATED} from {days_ago(1).isoformat()}" in lazy


def test_the_changed_cell_reads_in_german(owner, settings):
    plan = saved_plan(owner)
    client = login(owner)
    client.get(edit_url(plan))
    add_price(Tier.objects.get(slug=DEDICATED), "399.99", days_ago(1), unit="month")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    lazy = client.get(f"/plans/{plan.code}/figures").content.decode()
    assert "seit Ihrem letzten Besuch geändert" in lazy
    assert "Preiszeile" in lazy
    assert "spart <strong>80,01\xa0$</strong> im Monat" in lazy


def test_the_home_page_evaluates_no_plan_and_its_queries_do_not_grow_with_plans(
    owner, monkeypatch, django_assert_max_num_queries
):
    client = login(owner)
    for index in range(12):
        client.get(edit_url(saved_plan(owner, name=f"plan {index}")))

    def no_evaluation(*args, **kwargs):
        raise AssertionError("the home page evaluated a plan")

    monkeypatch.setattr("planner.services.evaluation.answer", no_evaluation)
    client.get("/")  # the catalog panel cached once
    with django_assert_max_num_queries(8):
        page = client.get("/").content.decode()
    assert page.count("a month, pays back") == 12


def test_the_catalog_frame_is_built_once_per_data_generation(owner, monkeypatch):
    from planner.web import data

    built = []
    real = data.catalog_frame
    monkeypatch.setattr(data, "catalog_frame", lambda day: built.append(day) or real(day))
    client = login(owner)
    client.get("/")
    client.get("/")
    assert len(built) == 1
    add_price(Tier.objects.get(slug=DEDICATED), "399.99", days_ago(1), unit="month")
    client.get("/")
    assert len(built) == 2


def test_a_price_edit_that_leaves_the_shown_figures_identical_adds_no_note(owner):
    """Issue 22: after one price edit every plan said "changed since you last viewed it"
    with identical before and after figures. A new price of a tier the plan does not use
    changes the data generation, not the plan's figures: no note, no "was"."""
    plan = saved_plan(owner)
    client = login(owner)
    client.get(edit_url(plan))
    add_price(Tier.objects.get(slug=CLOUD), "0.71", days_ago(1))
    cell = figures_cell(client.get("/").content.decode(), plan)
    assert "hx-get" in cell  # the data changed: the cell is worked out again
    lazy = client.get(f"/plans/{plan.code}/figures").content.decode()
    assert "saves <strong>$130.01</strong> a month" in lazy
    assert "changed since" not in lazy
    assert "was:" not in lazy
