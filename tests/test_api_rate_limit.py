"""A per-user fixed-window limit on API calls: the call over the limit gets 429 + Retry-After."""

import time

import pytest
from django.core.cache import cache
from django.test import Client

from planner.api import auth
from tests.support.api import token_client

pytestmark = pytest.mark.django_db


def forget_counts(user) -> None:
    """Drop the user's counter (left by earlier tests in this minute); only our own key."""
    window = int(time.time() // auth.RATE_WINDOW_SECONDS)
    for w in (window - 1, window, window + 1):
        cache.delete(f"api-rate:user:{user.pk}:{w}")


def calls_until_refused(client: Client, limit: int) -> list[int]:
    statuses = [client.get("/api/v1/plans").status_code for _ in range(limit + 1)]
    return statuses


def test_the_call_over_the_limit_is_429_with_retry_after(owner, settings):
    settings.API_RATE_LIMIT_PER_MINUTE = 3
    client, _raw = token_client(owner)
    for _attempt in range(2):  # a minute boundary mid-test resets the window: try once more
        forget_counts(owner)
        start = int(time.time() // auth.RATE_WINDOW_SECONDS)
        statuses = calls_until_refused(client, 3)
        if int(time.time() // auth.RATE_WINDOW_SECONDS) == start:
            break
    assert statuses == [200, 200, 200, 429]
    response = client.get("/api/v1/plans")
    assert response.status_code == 429
    assert 1 <= int(response["Retry-After"]) <= 60
    assert "rate" in response.json()["errors"]


def test_the_limit_is_per_user(owner, other_user, settings):
    settings.API_RATE_LIMIT_PER_MINUTE = 2
    forget_counts(owner)
    forget_counts(other_user)
    mine, _ = token_client(owner)
    theirs, _ = token_client(other_user)
    for _ in range(3):
        mine.get("/api/v1/plans")
    assert mine.get("/api/v1/plans").status_code == 429
    assert theirs.get("/api/v1/plans").status_code == 200


@pytest.mark.redis
def test_the_counter_lives_in_redis_when_configured(owner, settings, redis_url):
    # In CI the cache is Redis, shared by every web process: the limit holds across them.
    assert settings.CACHES["default"]["BACKEND"].endswith("RedisCache")
    settings.API_RATE_LIMIT_PER_MINUTE = 1
    forget_counts(owner)
    client, _ = token_client(owner)
    if auth.seconds_to_next_window() < 5:  # both calls in one fixed window, on a slow machine
        time.sleep(auth.seconds_to_next_window() + 0.1)
    assert client.get("/api/v1/plans").status_code == 200
    assert client.get("/api/v1/plans").status_code == 429
