"""Scenario compare: duplicate a plan, change it, see both side by side with the deltas."""

import re

import pytest

from planner.models import Plan
from tests.support.dashboard import edit_url, form_data, login, saved_plan

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("two_tier_catalog")]


def test_a_duplicate_changed_and_compared_shows_changed_inputs_and_deltas(owner):
    original = saved_plan(owner)
    client = login(owner)
    response = client.post(f"{edit_url(original)}duplicate")
    assert response.status_code == 302
    copy = Plan.objects.exclude(pk=original.pk).get()
    assert copy.owner == owner
    assert response["Location"] == f"{edit_url(copy)}?compare={original.code}"
    assert copy.inputs["baseline"] == original.inputs["baseline"]
    saved = client.post(
        edit_url(copy), form_data(baseline__monthly="600", name="bigger bill", action="save")
    )
    assert saved.status_code == 302

    html = client.get(f"/plans/compare?a={original.code}&b={copy.code}").content.decode()
    changed = re.findall(r'<tr class="changed"><th scope="row">([^<]+)</th>', html)
    assert changed == ["Current monthly spend"]  # the input by its label, not baseline.monthly
    totals = re.search(r'data-delta="baseline_total">(.*?)</tr>', html, re.S).group(1)
    assert "$17,280.00" in totals and "$21,600.00" in totals and "+$4,320.00" in totals
    monthly = re.search(r'data-delta="monthly">(.*?)</tr>', html, re.S).group(1)
    assert "$0.00" in monthly  # the same Extreme server on both sides
    saving = re.search(r'data-delta="saving">(.*?)</tr>', html, re.S).group(1)
    assert "+$4,320.00" in saving


def test_nobody_compares_a_plan_that_is_not_theirs(owner, other_user):
    mine = saved_plan(owner)
    theirs = saved_plan(other_user)
    client = login(other_user)
    assert client.get(f"/plans/compare?a={theirs.code}&b={mine.code}").status_code == 404
    assert client.get(f"/plans/compare?a={theirs.code}&b=not-a-uuid").status_code == 404
