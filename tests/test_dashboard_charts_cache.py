"""Charts are their own requests, cached by what they draw and the language."""

import pytest
from django.test import Client

from planner.web import charts
from tests.support.dashboard import (
    charts_in,
    edit_url,
    form_data,
    login,
    saved_plan,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("two_tier_catalog")]
HTMX = {"HX-Request": "true"}


def recompute(client: Client, url: str, **changes) -> dict[str, str]:
    response = client.post(url, form_data(**changes), headers=HTMX)
    assert response.status_code == 200
    return charts_in(response.content.decode())


def test_a_chart_is_drawn_once_then_served_from_the_cache(owner):
    client = login(owner)
    urls = recompute(client, "/plans/new")
    assert set(urls) == {"cumulative", "monthly"}  # fixed counts: no capacity to show
    before = charts.render_count()
    first = client.get(urls["cumulative"])
    assert first.status_code == 200
    assert first["Content-Type"] == "image/svg+xml"
    assert "immutable" in first["Cache-Control"]
    assert charts.render_count() == before + 1
    second = Client().get(urls["cumulative"])  # anyone holding the URL, e.g. a shared page
    assert second.content == first.content
    assert charts.render_count() == before + 1


def test_typing_redraws_only_the_charts_whose_data_changed(owner):
    client = login(owner)
    first = recompute(client, "/plans/new")
    same = recompute(client, "/plans/new")
    assert same == first
    other_costs = recompute(client, "/plans/new", one_time__other="1200")
    assert other_costs["cumulative"] != first["cumulative"]
    assert other_costs["monthly"] != first["monthly"]  # one-time spread over the horizon
    name_only = recompute(client, "/plans/new", name="a new name")
    assert name_only == first


def test_each_language_has_its_own_chart(owner):
    client = login(owner)
    english = recompute(client, "/plans/new")
    client.post("/i18n/setlang/", {"language": "de", "next": "/"})
    german = recompute(client, "/plans/new")
    assert german["cumulative"] != english["cumulative"]
    assert "Monat" in client.get(german["cumulative"]).content.decode()


def test_the_saved_plan_page_shows_the_same_charts_as_the_recompute(owner):
    plan = saved_plan(owner)
    client = login(owner)
    page = charts_in(client.get(edit_url(plan)).content.decode())
    assert page == recompute(client, edit_url(plan), name="move to Extreme")


def test_an_unknown_chart_answers_404():
    client = Client()
    assert client.get("/charts/cumulative-" + "0" * 32 + ".svg").status_code == 404
    assert client.get("/charts/pie-" + "0" * 32 + ".svg").status_code == 404
