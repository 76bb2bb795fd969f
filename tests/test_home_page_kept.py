"""The whole home page is kept in the process (issue 15 item 11), around its cached panels:
a repeat visit renders no template, yet no reader ever gets another reader's page, a
stale plan list, or a CSRF token that is not their own (real requests, test client)."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from planner.models import Plan
from planner.web import home
from tests.support.dashboard import edit_url, login, saved_plan

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("two_tier_catalog")]


def renders(monkeypatch) -> list:
    """Each time the page is rendered rather than served from the memo."""
    calls: list = []
    real = home._render
    monkeypatch.setattr(home, "_render", lambda *a: calls.append(a) or real(*a))
    return calls


def csrf_of(html: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)


def test_a_repeat_visit_is_served_from_the_kept_page(owner, monkeypatch):
    saved_plan(owner, name="kept one")
    client = login(owner)
    rendered = renders(monkeypatch)
    pages = [client.get("/").content.decode() for _ in range(3)]
    assert len(rendered) == 1
    assert all(">kept one</a>" in page for page in pages)


def test_the_kept_page_carries_each_requests_own_working_csrf_token(owner):
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    first = client.get("/").content.decode()
    assert home.CSRF_PLACEHOLDER not in first
    client.logout()  # a new session: a new CSRF secret, the same page kept
    client.force_login(owner)
    second = client.get("/").content.decode()
    assert home.CSRF_PLACEHOLDER not in second and csrf_of(first) != csrf_of(second)
    # The token the page shows is accepted for the page's own forms (the language menu).
    answer = client.post("/i18n/setlang/", {"language": "de", "next": "/",
                                            "csrfmiddlewaretoken": csrf_of(second)})  # fmt: skip
    assert answer.status_code == 302


def test_another_reader_never_gets_the_kept_page(owner, other_user):
    saved_plan(owner, name="owner's secret")
    assert "owner&#x27;s secret" in login(owner).get("/").content.decode()
    page = login(other_user).get("/").content.decode()
    assert "secret" not in page and ">other</a>" in page and ">owner</a>" not in page


def test_two_readers_with_the_same_empty_list_each_get_their_own_page(owner, other_user):
    assert ">owner</a>" in login(owner).get("/").content.decode()
    page = login(other_user).get("/").content.decode()
    assert ">other</a>" in page and ">owner</a>" not in page


def test_figures_stored_by_a_later_view_show_on_the_next_request(owner):
    plan = saved_plan(owner)
    client = login(owner)
    client.get(edit_url(plan))
    assert "130.01" in client.get("/").content.decode()
    # Viewed again on the same data generation (a later day's figures): no `updated`.
    figures = {**plan.__class__.objects.get(pk=plan.pk).seen_figures, "saving_per_month": "7.5"}
    Plan.objects.filter(pk=plan.pk).update(seen_figures=figures)
    page = client.get("/").content.decode()
    assert "7.50" in page and "130.01" not in page


def test_a_deleted_plan_leaves_the_list_and_its_message_shows_once(owner, other_user):
    keep, gone = saved_plan(owner, name="keep me"), saved_plan(owner, name="delete me")
    client = login(owner)
    assert ">delete me</a>" in client.get("/").content.decode()
    after = client.post(f"{edit_url(gone)}delete", follow=True).content.decode()
    assert "Plan deleted." in after and ">delete me</a>" not in after
    again = client.get("/").content.decode()
    assert "Plan deleted." not in again and ">keep me</a>" in again
    assert keep.pk in Plan.objects.values_list("pk", flat=True)


def test_a_renamed_user_shows_on_the_next_request(owner):
    client = login(owner)
    assert ">owner</a>" in client.get("/").content.decode()
    get_user_model().objects.filter(pk=owner.pk).update(username="renamed")
    assert ">renamed</a>" in client.get("/").content.decode()


def test_a_new_staff_member_gets_the_admin_link_on_the_next_request(owner):
    client = login(owner)
    assert 'href="/admin/"' not in client.get("/").content.decode()
    get_user_model().objects.filter(pk=owner.pk).update(is_staff=True)
    assert 'href="/admin/"' in client.get("/").content.decode()


def test_the_kept_page_follows_the_readers_language(owner, settings):
    client = login(owner)
    assert "Your plans" in client.get("/").content.decode()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    assert "Your plans" not in client.get("/").content.decode()


def test_an_anonymous_visitor_gets_the_welcome_and_a_token_of_their_own(owner):
    saved_plan(owner, name="owner's secret")
    login(owner).get("/")
    first, second = Client().get("/").content.decode(), Client().get("/").content.decode()
    assert "Log in to build a plan" in first and "secret" not in first
    assert csrf_of(first) != csrf_of(second)
