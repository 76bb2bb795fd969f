"""The site's own 404 and 500 pages: styled like every page, a share link's 404 saying the
link may have been revoked, and a 500 that needs no database and no request."""

from __future__ import annotations

import pytest
from django.test import Client, RequestFactory
from django.utils import translation
from django.views.defaults import server_error

from planner.services import plans as services
from tests.support.dashboard import login, saved_plan

STYLESHEET = '<link rel="stylesheet" href="/static/css/app.css">'


@pytest.mark.django_db
@pytest.mark.usefixtures("two_tier_catalog")
def test_a_revoked_share_link_says_it_may_have_been_revoked(owner):
    share = services.share_create(plan=saved_plan(owner), user=owner)
    services.share_revoke(share)
    response = Client().get(f"/s/{share.token}/")
    html = response.content.decode()
    assert response.status_code == 404
    assert "The link may have been revoked by the person who shared it" in html
    assert STYLESHEET in html and 'class="topbar"' in html
    german = Client()
    german.cookies["django_language"] = "de"
    html = german.get(f"/s/{share.token}/").content.decode()
    assert "Möglicherweise hat die Person, die ihn geteilt hat, den Link widerrufen" in html


@pytest.mark.django_db
def test_any_other_missing_page_is_the_sites_own_404_without_the_share_sentence(owner):
    response = login(owner).get("/no-such-page/")
    html = response.content.decode()
    assert response.status_code == 404
    assert "There is nothing at this address." in html and "revoked" not in html
    assert STYLESHEET in html and ">owner</a>" in html  # who is logged in, still shown
    assert "csrfmiddlewaretoken" not in html  # no forms: the same bytes for every visitor


def test_the_server_error_page_is_styled_and_needs_no_database():
    # No django_db mark: any query here fails the test. In English: a request before this
    # one may have left German active in this thread (a server's next request sets its own).
    with translation.override("en"):
        response = server_error(RequestFactory().get("/"))
    html = response.content.decode()
    assert response.status_code == 500
    assert "Something went wrong on our side" in html
    assert STYLESHEET in html and 'class="topbar"' in html
