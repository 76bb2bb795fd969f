"""First visit (issue 22, item 3): the login page says how to get an account and offers a
password reset; a reset and a staff invitation each end in a working login. Real views,
real tokens, Django's mail outbox (the locmem backend tests use in place of the console)."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def link_in(text: str) -> str:
    return re.search(r"https?://testserver(/accounts/reset/[^\s]+/)", text).group(1)


def set_password(client: Client, path: str, password: str) -> None:
    """Follow a set-password link: Django redirects to its set-password form, which takes
    the new password twice and then says it is set."""
    response = client.get(path)
    assert response.status_code == 302
    form_url = response["Location"]
    assert form_url.endswith("/set-password/")
    response = client.post(form_url, {"new_password1": password, "new_password2": password})
    assert response.status_code == 302
    assert response["Location"] == "/accounts/reset/done/"
    assert "Your password is set." in client.get("/accounts/reset/done/").content.decode()


def logs_in(username: str, password: str) -> bool:
    response = Client().post("/accounts/login/", {"username": username, "password": password})
    return response.status_code == 302 and response["Location"] == "/"


def test_the_login_page_says_how_to_get_an_account_and_offers_a_reset(client):
    page = client.get("/accounts/login/").content.decode()
    assert "No account yet? Ask your admin for one" in page
    assert 'href="/accounts/password_reset/"' in page
    client.cookies["django_language"] = "de"
    page = client.get("/accounts/login/").content.decode()
    assert "Noch kein Konto?" in page
    assert "Passwort vergessen?" in page


def test_a_password_reset_ends_in_a_working_login(django_user_model):
    django_user_model.objects.create_user("ana", "ana@example.com", "old-pass-4711")
    client = Client()
    response = client.post("/accounts/password_reset/", {"email": "ana@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["ana@example.com"]
    set_password(client, link_in(mail.outbox[0].body), "fresh-pass-0815")
    assert logs_in("ana", "fresh-pass-0815")
    assert not logs_in("ana", "old-pass-4711")


def test_a_reset_for_an_unknown_address_sends_nothing_and_says_the_same(client):
    response = client.post("/accounts/password_reset/", {"email": "nobody@example.com"})
    assert response.status_code == 302
    assert mail.outbox == []


def test_a_staff_invitation_ends_in_a_working_login(staff_user):
    staff = Client()
    staff.force_login(staff_user)
    assert 'href="/account/invite"' in staff.get("/account/").content.decode()
    response = staff.post("/account/invite", {"username": "bea", "email": "bea@example.com"})
    assert response.status_code == 201
    page = response.content.decode()
    assert "Account bea made." in page
    shown = re.search(r'<code class="wrap" id="invite-link">http://testserver([^<]+)</code>',
                      page).group(1)  # fmt: skip
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["bea@example.com"]
    assert link_in(mail.outbox[0].body) == shown
    bea = get_user_model().objects.get(username="bea")
    assert not bea.has_usable_password()
    set_password(Client(), shown, "bea-first-pass-2026")
    assert logs_in("bea", "bea-first-pass-2026")
    # the link works once
    assert "This link does not work" in Client().get(shown, follow=True).content.decode()


def test_an_invitation_without_an_address_shows_the_link_only(staff_user):
    staff = Client()
    staff.force_login(staff_user)
    response = staff.post("/account/invite", {"username": "carl", "email": ""})
    assert response.status_code == 201
    assert mail.outbox == []
    shown = re.search(r'id="invite-link">http://testserver([^<]+)<', response.content.decode())
    set_password(Client(), shown.group(1), "carl-first-pass-2026")
    assert logs_in("carl", "carl-first-pass-2026")


def test_only_staff_invite_and_a_taken_name_changes_nothing(owner, staff_user):
    manager = Client()
    manager.force_login(owner)
    assert manager.get("/account/invite").status_code == 404
    assert manager.post("/account/invite", {"username": "dan"}).status_code == 404
    assert 'href="/account/invite"' not in manager.get("/account/").content.decode()
    staff = Client()
    staff.force_login(staff_user)
    response = staff.post("/account/invite", {"username": "OWNER", "email": "x@example.com"})
    assert response.status_code == 400
    assert "The user name OWNER is taken" in response.content.decode()
    assert get_user_model().objects.count() == 2
    assert mail.outbox == []
