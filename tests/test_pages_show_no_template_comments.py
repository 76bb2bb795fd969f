"""No page prints a template comment: a `{# #}` spanning two lines is text to Django.

Every page of the shared page list (tests/support/pages.py), in English and German,
with its persona; the live recompute's partial too, where the printed comment piled up
one copy per keystroke.
"""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string

from tests.support.pages import client_for, fetch, seed_site, site_pages

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("two_tier_catalog")]
MARKS = ("{#", "#}", "{% comment", "{%comment")


@pytest.mark.parametrize("language", ["en", "de"])
def test_no_page_shows_a_template_comment(owner, language):
    site = seed_site(owner)
    printed = {}
    for page in site_pages(site):
        response = fetch(client_for(page.persona, language), page)
        assert response.status_code == page.status, page.name
        html = response.content.decode()
        found = [mark for mark in MARKS if mark in html]
        if found:
            printed[page.name] = found
    assert printed == {}


def test_the_server_error_page_shows_no_template_comment():
    html = render_to_string("500.html")
    assert not any(mark in html for mark in MARKS)
