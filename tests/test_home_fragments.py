"""The home page's panels are cached HTML fragments (issue 15 item 11): a second visit
renders no plan row and reads no benchmark target, yet every change a reader should see
(a price, a rename, a finished run, another language, another user) shows on the next
request, and each page carries its own CSRF token."""

import re

import pytest

from benchmarks_app import selectors as bench_selectors
from catalog.models import Tier
from changes.selectors import current_generation
from planner.models import Plan
from planner.web import home
from tests.support.catalog import add_price
from tests.support.dashboard import DEDICATED, days_ago, edit_url, login, saved_plan

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("two_tier_catalog")]


def counting(monkeypatch, module, name: str) -> list:
    calls: list = []
    real = getattr(module, name)
    monkeypatch.setattr(module, name, lambda *a, **k: calls.append(a) or real(*a, **k))
    return calls


def test_a_second_visit_reads_no_target_and_renders_no_plan_row(owner, monkeypatch):
    client = login(owner)
    client.get(edit_url(saved_plan(owner)))
    targets = counting(monkeypatch, bench_selectors, "targets_with_last_run")
    rows = counting(monkeypatch, home, "shown_figures")
    first = client.get("/").content.decode()
    second = client.get("/").content.decode()
    assert len(targets) == 1 and len(rows) == 1
    assert "a month, pays back" in first and "a month, pays back" in second


def test_a_price_change_shows_on_the_next_request(owner):
    plan = saved_plan(owner)
    client = login(owner)
    client.get(edit_url(plan))
    assert "hx-get" not in client.get("/").content.decode()
    add_price(Tier.objects.get(slug=DEDICATED), "399.99", days_ago(1), unit="month")
    assert f'hx-get="/plans/{plan.code}/figures"' in client.get("/").content.decode()


def test_a_renamed_plan_shows_its_new_name_on_the_next_request(owner):
    plan = saved_plan(owner, name="before")
    client = login(owner)
    assert ">before</a>" in client.get("/").content.decode()
    Plan.objects.filter(pk=plan.pk).update(name="after")
    assert ">after</a>" in client.get("/").content.decode()


def test_a_new_plan_shows_on_the_next_request(owner):
    client = login(owner)
    assert "No plans yet" in client.get("/").content.decode()
    saved_plan(owner, name="fresh one")
    assert ">fresh one</a>" in client.get("/").content.decode()


def test_another_user_never_gets_the_owners_cached_list(owner, other_user):
    saved_plan(owner, name="owner's secret")
    assert "owner&#x27;s secret" in login(owner).get("/").content.decode()
    assert "secret" not in login(other_user).get("/").content.decode()


def test_the_panels_follow_the_readers_language(owner, settings):
    saved_plan(owner)
    client = login(owner)
    assert "Catalog freshness" in client.get("/").content.decode()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    german = client.get("/").content.decode()
    assert "Catalog freshness" not in german and "Your plans" not in german


def test_each_page_carries_its_own_csrf_token(owner, other_user):
    def token(html: str) -> str:
        return re.search(r'"X-CSRFToken": "([^"]+)"', html).group(1)

    first = login(owner).get("/").content.decode()
    second = login(other_user).get("/").content.decode()
    assert token(first) != token(second)
    for fragment in home.fragments(owner, current_generation()).values():
        assert "csrf" not in fragment.lower()
