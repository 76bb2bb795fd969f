"""Every dashboard view for each persona: owner, another user, anonymous, staff."""

import pytest
from django.test import Client

from planner.models import Plan, Share
from tests.support.bench import finished_run, target, version
from tests.support.dashboard import (
    CLOUD,
    DEDICATED,
    edit_url,
    form_data,
    login,
    missing_plan_url,
    saved_plan,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("two_tier_catalog")]


@pytest.fixture
def plan(owner):
    return saved_plan(owner)


def test_home_lists_the_owners_plans_and_nobody_elses(owner, other_user, plan):
    saved_plan(other_user, name="their secret plan")
    html = login(owner).get("/").content.decode()
    assert "move to Extreme" in html
    assert "their secret plan" not in html
    assert 'href="/plans/new"' in html


def test_home_shows_the_catalogs_freshness_to_everyone():
    response = Client().get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="freshness"' in html
    assert "2 tiers offered" in html
    assert "0 prices are stale" in html


def test_anonymous_visitors_are_sent_to_log_in_and_nothing_is_saved():
    anonymous = Client()
    for url in ("/plans/new", "/plans/compare?a=x&b=y"):
        response = anonymous.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/")
    response = anonymous.post("/plans/new", form_data(action="save"))
    assert response.status_code == 302
    assert Plan.objects.count() == 0


def test_the_owner_saves_a_plan_from_three_fields(owner):
    response = login(owner).post("/plans/new", form_data(action="save"))
    assert response.status_code == 302
    plan = Plan.objects.get()
    assert response["Location"] == edit_url(plan)
    assert plan.owner == owner
    assert plan.inputs["baseline"]["monthly"] == "480.00"
    assert plan.inputs["candidates"][0]["parts"][0] == {
        **plan.inputs["candidates"][0]["parts"][0],
        "tier": DEDICATED,
        "count": 1,
    }


def test_the_owner_sees_the_saved_plan_with_its_results(owner, plan):
    response = login(owner).get(edit_url(plan))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'value="480.00"' in html
    assert 'data-testid="headline"' in html
    assert "$12,599.64" in html  # 36 x 349.99, the Extreme option's total
    assert "$17,280.00" in html  # 36 x 480, the baseline's


def test_a_recompute_by_htmx_returns_only_the_results_and_saves_nothing(owner, plan):
    before = dict(plan.inputs)
    response = login(owner).post(
        edit_url(plan), form_data(baseline__monthly="600"), headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert '<div id="results"' in html
    assert "<form" not in html and "<input" not in html  # the inputs keep their focus
    assert "$21,600.00" in html  # 36 x 600
    plan.refresh_from_db()
    assert plan.inputs == before


def test_without_javascript_the_form_posts_and_renders_the_whole_page(owner, plan):
    response = login(owner).post(edit_url(plan), form_data(baseline__monthly="600"))
    assert response.status_code == 200
    html = response.content.decode()
    assert '<form method="post" id="plan-form"' in html
    assert "$21,600.00" in html
    plan.refresh_from_db()
    assert plan.inputs["baseline"]["monthly"] == "480.00"


def test_the_owner_saves_changes(owner, plan):
    response = login(owner).post(
        edit_url(plan), form_data(baseline__monthly="600", name="bigger bill", action="save")
    )
    assert response.status_code == 302
    plan.refresh_from_db()
    assert plan.inputs["baseline"]["monthly"] == "600.00"
    assert plan.name == "bigger bill"


def test_a_retired_tier_stays_selected_in_its_plan_and_in_no_other(owner, plan):
    from catalog.models import Tier

    other = saved_plan(owner, name="cloud plan", candidates=[{"tier": CLOUD, "count": 1}])
    Tier.objects.filter(slug=DEDICATED).update(retired=True)
    client = login(owner)
    html = client.get(edit_url(plan)).content.decode()
    assert f'value="{DEDICATED}"' in html
    assert f"{DEDICATED} (no longer offered)" in html
    # The editors share their fields: the first one's extra option must not reach the next.
    for _ in range(2):
        html = client.get(edit_url(other)).content.decode()
        assert "no longer offered" not in html
        assert f'value="{CLOUD}"' in html


@pytest.mark.parametrize("persona", ["other_user", "staff_user"])
def test_nobody_else_sees_or_changes_a_plan(request, persona, plan):
    client = login(request.getfixturevalue(persona))
    url = edit_url(plan)
    assert client.get(url).status_code == 404
    assert client.post(url, form_data(baseline__monthly="1", action="save")).status_code == 404
    assert client.post(f"{url}share").status_code == 404
    assert client.post(f"{url}duplicate").status_code == 404
    assert client.post(f"{url}delete").status_code == 404
    assert client.get(f"{url}comparison.csv").status_code == 404
    assert client.get(f"/plans/compare?a={plan.code}&b={plan.code}").status_code == 404
    plan.refresh_from_db()
    assert plan.inputs["baseline"]["monthly"] == "480.00"
    assert Plan.objects.count() == 1
    assert Share.objects.count() == 0


def test_a_plan_that_does_not_exist_answers_like_someone_elses(owner, other_user, plan):
    client = login(other_user)
    theirs, missing = client.get(edit_url(plan)), client.get(missing_plan_url())
    assert theirs.status_code == missing.status_code == 404
    assert theirs.content == missing.content


def test_the_owner_deletes_a_plan(owner, plan):
    response = login(owner).post(f"{edit_url(plan)}delete")
    assert response.status_code == 302
    assert not Plan.objects.exists()


def test_every_form_needs_its_csrf_token(owner, plan):
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    for url in ("/plans/new", edit_url(plan), f"{edit_url(plan)}share",
                f"{edit_url(plan)}duplicate", f"{edit_url(plan)}delete"):  # fmt: skip
        assert client.post(url, form_data(action="save")).status_code == 403
    assert Plan.objects.count() == 1
    assert Share.objects.count() == 0
    html = client.get(edit_url(plan)).content.decode()
    assert html.count('name="csrfmiddlewaretoken"') >= 5  # language, log out, editor, actions


def test_login_and_logout_pages_work(owner):
    client = Client()
    assert client.get("/accounts/login/").status_code == 200
    response = client.post("/accounts/login/", {"username": "owner", "password": "pw-owner-1"})
    assert response.status_code == 302
    assert client.get("/plans/new").status_code == 200
    assert client.post("/accounts/logout/").status_code == 302
    assert client.get("/plans/new").status_code == 302


def test_home_shows_the_benchmark_targets_with_their_last_run(owner):
    host = target("epyc-4545p")
    finished_run(version(), host, {1: 100.0, 2: 190.0})
    html = login(owner).get("/").content.decode()
    section = html.split('id="targets"')[1]
    assert "epyc-4545p" in section
    assert "toy-gbm" in section and "succeeded" in section


def test_when_staying_is_cheapest_the_headline_says_so(owner):
    response = login(owner).post(
        "/plans/new", form_data(baseline__monthly="200"), headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert "Staying is cheapest over 36 months" in html
    assert "costs $5,399.64 more." in html  # 36 x (349.99 - 200)
