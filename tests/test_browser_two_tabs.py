"""No lost update, in a real browser (issue 29, item 2): two tabs open the same plan; the
first saves a rename; the second saves another field and is refused, told that someone
else changed the plan, with what it typed still in the form and nothing stored; it then
chooses to overwrite, and only then is its figure saved."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from planner.models import Plan
from tests.support.browser import TIMEOUT_MS, launched, logged_in_page, shot
from tests.support.dashboard import edit_url, saved_plan

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("two_tier_catalog"),
]


@pytest.fixture(scope="module")
def browser() -> Iterator:
    yield from launched()


@pytest.mark.parametrize("size", [(1366, 768), (390, 844)], ids=["desktop", "phone"])
def test_the_second_tab_is_refused_and_nothing_is_lost(browser, live_server, owner, size):
    plan = saved_plan(owner, name="first name")
    url = live_server.url
    opened = {"size": size, "locale": "en-US", "timeout_ms": TIMEOUT_MS}
    with (
        logged_in_page(browser, url, **opened) as one,
        logged_in_page(browser, url, **opened) as two,
    ):
        for page in (one, two):
            page.goto(f"{url}{edit_url(plan)}")
            page.wait_for_selector("#id_name")

        one.fill("#id_name", "renamed in tab one")
        one.click("button[value=save]")
        one.wait_for_selector("text=Changes saved")

        two.fill("#id_baseline__monthly", "777")
        two.click("button[value=save]")
        conflict = two.locator('[data-testid="save-conflict"]')
        conflict.wait_for()
        assert "someone else changed this plan since you opened it" in conflict.inner_text()
        assert "Changes saved" not in two.content()
        assert two.input_value("#id_baseline__monthly") == "777"  # what was typed, kept
        shot(two, path=f"test-artifacts/two-tabs-conflict-{size[0]}.png", full_page=True)
        stored = Plan.objects.get(pk=plan.pk)
        assert (stored.name, stored.inputs["baseline"]["monthly"]) == (
            "renamed in tab one",
            "480.00",
        )

        two.click("button[name=action][value=overwrite]")
        two.wait_for_selector("text=Changes saved")
        stored.refresh_from_db()
        assert (stored.name, stored.inputs["baseline"]["monthly"]) == ("first name", "777.00")
