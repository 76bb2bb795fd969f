"""The options table's saving of an option dearer than today reads as what it means: a
multiple of today's total above twice it ("costs 17.5 times today's"), a percentage dearer
below ("16.7% dearer"), never "-1,650.0%"; a real saving stays a plain percentage."""

from __future__ import annotations

import re

import pytest

from tests.support.dashboard import edit_url, login, saved_plan

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("two_tier_catalog")]


def saving_cell(html: str) -> str:
    """The text of the first option row's Saving cell (data-label "Saving"/"Ersparnis")."""
    table = html[html.index('id="comparison"') :]
    cells = re.findall(r'<td class="num[^"]*" data-label="(?:Saving|Ersparnis)"[^>]*>(.*?)</td>',
                       table, re.S)  # fmt: skip
    assert cells, table[:3000]
    return cells[0].strip()


@pytest.mark.parametrize(
    ("monthly", "en", "de"),
    [  # Extreme costs 349.99 a month over 36 months; today's bill is `monthly`.
        ("20", "costs 17.5\u00d7 today's", "kostet das 17,5-Fache"),  # 12,599.64 / 720
        ("300", "16.7% dearer", "16,7\u00a0% teurer"),  # 12,599.64 / 10,800 = 1.1666
        ("175", "100.0% dearer", "100,0\u00a0% teurer"),  # 349.99 / 175 = 1.99994: not twice
    ],
)
def test_a_dearer_option_says_how_much_dearer_in_the_readers_language(owner, monthly, en, de):
    plan = saved_plan(owner, monthly=monthly)
    client = login(owner)
    english = client.get(edit_url(plan)).content.decode()
    german = client.get(edit_url(plan), headers={"accept-language": "de"}).content.decode()
    assert saving_cell(english) == en
    assert saving_cell(german) == de
    for html in (english, german):
        assert 'data-testid="dearer"' in html
        assert "\u2212" not in saving_cell(html)


def test_a_real_saving_stays_a_percentage(owner):
    html = login(owner).get(edit_url(saved_plan(owner))).content.decode()
    assert saving_cell(html) == "27.1%"  # 1 - 12,599.64 / 17,280
    assert 'data-testid="dearer"' not in html
