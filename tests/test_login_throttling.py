"""Password guessing is slowed: after N failures one username from one address is refused.

Both the site's login and the admin's; the refusal holds even with the right password,
and nobody else's success or failure moves a user's count.
"""

import pytest
from django.conf import settings
from django.test import Client

from tests.support.api import token_client

pytestmark = pytest.mark.django_db

LOGINS = {
    "site": ("/accounts/login/", "owner", "pw-owner-1"),
    "admin": ("/admin/login/", "staff", "pw-staff-1"),
}


@pytest.fixture(autouse=True)
def fast_hashing(settings) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def attempt(client: Client, url: str, username: str, password: str) -> int:
    return client.post(url, {"username": username, "password": password}).status_code


def logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


@pytest.mark.parametrize("which", sorted(LOGINS))
def test_after_the_limit_even_the_right_password_is_refused(which, owner, staff_user):
    url, username, password = LOGINS[which]
    client = Client()
    limit = settings.AXES_FAILURE_LIMIT
    statuses = [attempt(client, url, username, "wrong") for _ in range(limit)]
    assert 429 not in statuses[:-1]  # the usual "wrong password" page until the limit
    response = client.post(url, {"username": username, "password": password})
    assert response.status_code == 429
    assert "too many login attempts" in response.content.decode()
    assert not logged_in(client)


def test_below_the_limit_the_right_password_logs_in_and_starts_the_count_afresh(owner):
    url, username, password = LOGINS["site"]
    client = Client()
    limit = settings.AXES_FAILURE_LIMIT
    for _round in range(2):  # 2 x (limit - 1) failures in all: more than the limit
        for _ in range(limit - 1):
            assert attempt(client, url, username, "wrong") == 200
        assert attempt(client, url, username, password) == 302
        assert logged_in(client)
        client.logout()


def test_another_accounts_success_does_not_reset_a_users_count(owner, other_user):
    url, username, _password = LOGINS["site"]
    client = Client()  # one address: the guesser also holds an account of their own
    limit = settings.AXES_FAILURE_LIMIT
    for _ in range(limit - 1):
        attempt(client, url, username, "wrong")
    assert attempt(client, url, "other", "pw-other-1") == 302
    client.logout()
    attempt(client, url, username, "wrong")
    assert attempt(client, url, username, "pw-owner-1") == 429


def test_one_users_lockout_leaves_others_at_the_same_address_alone(owner, other_user):
    url, username, _password = LOGINS["site"]
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        attempt(client, url, username, "wrong")
    assert attempt(client, url, "other", "pw-other-1") == 302
    assert logged_in(client)


def test_api_tokens_still_authenticate(owner):
    assert token_client(owner)[0].get("/api/v1/plans").status_code == 200
