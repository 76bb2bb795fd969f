"""Share links from the plan page: a read-only snapshot for anyone with the link."""

import re

import pytest
from django.test import Client

from catalog.models import Tier
from planner.models import Share
from tests.support.catalog import add_price
from tests.support.dashboard import (
    DEDICATED,
    days_ago,
    edit_url,
    login,
    saved_plan,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("two_tier_catalog")]


@pytest.fixture
def plan(owner):
    return saved_plan(owner)


def share_link(owner, plan) -> str:
    client = login(owner)
    response = client.post(f"{edit_url(plan)}share")
    assert response.status_code == 302
    page = client.get(edit_url(plan)).content.decode()
    return re.search(r'href="(/s/[^"/]+/)" class="share-link"', page).group(1)


def test_the_owner_shares_and_anyone_with_the_link_reads_the_same_figures(owner, plan):
    link = share_link(owner, plan)
    share = Share.objects.get()
    assert share.plan == plan and share.created_by == owner
    assert link == f"/s/{share.token}/"
    response = Client().get(link)
    assert response.status_code == 200
    html = response.content.decode()
    assert "move to Extreme" in html
    assert "$12,599.64" in html and "$17,280.00" in html
    assert "<form" not in html  # read-only: no editor, no share button, no language form
    assert "csrfmiddlewaretoken" not in html  # no one's CSRF token in a page cached for all
    assert not re.search(r'"X-CSRFToken": "[^"]+"', html)
    assert "owner" not in html  # the reader learns nothing about who shared it


def test_the_shared_page_is_cached_whole_and_the_same_for_every_visitor(owner, plan):
    link = share_link(owner, plan)
    first = Client().get(link).content
    assert login(owner).get(link).content == first  # logged in or not: the same page
    assert "/accounts/logout/" not in first.decode()


def test_the_shared_page_switches_language_by_link(owner, plan):
    link = share_link(owner, plan)
    visitor = Client()
    response = visitor.get(f"{link}?lang=de")
    html = response.content.decode()
    assert '<html lang="de">' in html
    assert "12.599,64\u00a0$" in html
    assert response.cookies["django_language"].value == "de"
    assert '<html lang="de">' in visitor.get(link).content.decode()  # remembered
    assert 'href="?lang=en"' in html


def test_the_owner_revokes_a_link_and_it_answers_like_an_unknown_one(owner, plan):
    link = share_link(owner, plan)
    share = Share.objects.get()
    response = login(owner).post(f"{edit_url(plan)}shares/{share.pk}/revoke")
    assert response.status_code == 302
    share.refresh_from_db()
    assert share.revoked_at is not None
    revoked = Client().get(link)
    unknown = Client().get("/s/" + "x" * len(share.token) + "/")
    assert revoked.status_code == unknown.status_code == 404
    assert revoked.content == unknown.content
    assert Client().get(f"{link}comparison.csv").status_code == 404


@pytest.mark.parametrize("persona", ["other_user", "staff_user"])
def test_nobody_else_revokes_a_link(request, persona, owner, plan):
    link = share_link(owner, plan)
    share = Share.objects.get()
    client = login(request.getfixturevalue(persona))
    assert client.post(f"{edit_url(plan)}shares/{share.pk}/revoke").status_code == 404
    share.refresh_from_db()
    assert share.revoked_at is None
    assert Client().get(link).status_code == 200


def test_the_owner_lists_live_and_revoked_links(owner, plan):
    share_link(owner, plan)
    share_link(owner, plan)
    first = Share.objects.order_by("created_at").first()
    client = login(owner)
    client.post(f"{edit_url(plan)}shares/{first.pk}/revoke")
    page = client.get(edit_url(plan)).content.decode()
    assert page.count('class="share-link"') == 1
    assert page.count("revoked</td>") == 1


def test_after_a_price_change_the_frozen_figures_stay_and_todays_are_shown_beside(owner, plan):
    link = share_link(owner, plan)
    unchanged = Client().get(link).content.decode()
    assert 'id="today"' not in unchanged
    add_price(Tier.objects.get(slug=DEDICATED), "299.99", days_ago(0), unit="month")
    html = Client().get(link).content.decode()
    frozen, today = html.split('id="today"')
    assert "$12,599.64" in frozen  # as shared: 36 x 349.99
    assert "$10,799.64" in today  # today: 36 x 299.99
    assert "Prices changed" in today
    assert 'class="changed"' in today
    change = re.search(r'<ul class="changed-prices">(.*?)</ul>', today, re.S).group(1)
    said = " ".join(re.sub(r"<[^>]+>", " ", change).split())
    assert said.startswith("Test Hosting Extreme"), said  # the tier by its title, not its key
    assert DEDICATED not in today
    assert "$349.99" in said and "$299.99" in said, said


def test_a_retired_tier_is_marked_as_no_longer_offered(owner, plan):
    link = share_link(owner, plan)
    Tier.objects.filter(slug=DEDICATED).update(retired=True)
    html = Client().get(link).content.decode()
    assert "No longer offered" in html
    retired = re.search(r'<p class="warn retired">(.*?)</p>', html, re.S).group(1)
    assert "Test Hosting Extreme" in retired  # by its title, never its key
    assert DEDICATED not in html.split('id="today"')[1]
    assert "$12,599.64" in html  # the frozen figures are still there
