"""The signed-in user is read with one plain query (`planner.backends.ModelBackend`): the
same user Django's own backend gives, and nobody who may no longer sign in."""

import pytest
from django.contrib.auth import backends, get_user_model
from django.test import Client

from planner.backends import ModelBackend

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_hashing(settings) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def signed_in(owner) -> Client:
    client = Client()
    answer = client.post("/accounts/login/", {"username": "owner", "password": "pw-owner-1"})
    assert answer.status_code == 302
    return client


def test_a_login_signs_in_with_this_backend_and_the_pages_know_the_user(owner):
    client = signed_in(owner)
    assert client.session["_auth_user_backend"] == "planner.backends.ModelBackend"
    assert ">owner</a>" in client.get("/").content.decode()


def test_the_user_read_is_the_one_djangos_backend_reads(owner):
    get_user_model().objects.filter(pk=owner.pk).update(first_name="Ada")
    signed_in(owner)  # sets last_login, a time-zone-aware date
    ours, django = ModelBackend().get_user(owner.pk), backends.ModelBackend().get_user(owner.pk)
    fields = [f.attname for f in get_user_model()._meta.concrete_fields]
    assert [getattr(ours, f) for f in fields] == [getattr(django, f) for f in fields]
    assert ours.last_login.tzinfo is not None and ours.first_name == "Ada"
    assert ModelBackend().get_user(owner.pk + 1000) is None


def test_a_deactivated_user_is_signed_out_on_the_next_request(owner):
    client = signed_in(owner)
    get_user_model().objects.filter(pk=owner.pk).update(is_active=False)
    page = client.get("/").content.decode()
    assert ">owner</a>" not in page and "Log in to build a plan" in page


def test_a_deleted_user_is_signed_out_on_the_next_request(owner):
    client = signed_in(owner)
    get_user_model().objects.filter(pk=owner.pk).delete()
    assert "Log in to build a plan" in client.get("/").content.decode()


def test_a_changed_password_ends_the_other_sessions(owner):
    client = signed_in(owner)
    owner.set_password("a-new-one-2")
    owner.save()
    assert "Log in to build a plan" in client.get("/").content.decode()
