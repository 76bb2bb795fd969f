"""The uncertainty endpoints (sensitivity and odds: seconds each for a new seed) are
limited per user, web pages, CSV exports and the API together (issue 29, item 7)."""

import time

import pytest

from planner.services.rate_limits import WINDOW_SECONDS, seconds_to_next_window
from tests.support.api import token_client
from tests.support.dashboard import login, saved_plan

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("two_tier_catalog")]


def statuses_until_refused(get, limit: int) -> list:
    """The answers of limit + 1 calls inside one counting window. Where a minute boundary
    fell inside (a computed answer takes seconds on a loaded machine), again from the
    start of the window after next: the calls after the boundary already count in the
    next one, so retrying at once would be refused from its first call."""
    for _attempt in range(2):
        window = int(time.time() // WINDOW_SECONDS)
        answers = [get() for _ in range(limit + 1)]
        if int(time.time() // WINDOW_SECONDS) == window:
            break
        time.sleep(seconds_to_next_window())
    return answers


def test_the_csv_export_is_refused_past_the_limit_and_others_are_not(owner, other_user,
                                                                     settings):  # fmt: skip
    settings.UNCERTAINTY_RATE_LIMIT_PER_MINUTE = 2
    plan = saved_plan(owner)
    client = login(owner)
    url = f"/plans/{plan.code}/sensitivity.csv?seed=7"
    answers = statuses_until_refused(lambda: client.get(url), 2)
    assert [a.status_code for a in answers[:-1]] == [200, 200]
    refused = answers[-1]
    assert refused.status_code == 429 and 1 <= int(refused["Retry-After"]) <= 60
    assert "Too many sensitivity and odds requests this minute" in refused.content.decode()
    # The comparison export costs no draws: not limited.
    assert client.get(f"/plans/{plan.code}/comparison.csv").status_code == 200
    theirs = saved_plan(other_user)
    assert login(other_user).get(f"/plans/{theirs.code}/odds.csv?seed=7").status_code == 200


def test_the_api_shares_the_budget(owner, settings):
    settings.UNCERTAINTY_RATE_LIMIT_PER_MINUTE = 1
    plan = saved_plan(owner)
    api, _key = token_client(owner)
    answers = statuses_until_refused(
        lambda: api.get(f"/api/v1/plans/{plan.code}/uncertainty?seed=3"), 1
    )
    assert answers[0].status_code == 200
    assert answers[-1].status_code == 429
    assert "uncertainty requests" in answers[-1].json()["errors"]["rate"][0]
    assert answers[-1]["Retry-After"]
