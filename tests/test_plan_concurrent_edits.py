"""No lost update (issue 29, item 2): two tabs open the same plan; the first saves a
rename, the second's save (another field) is refused, saying someone else changed the plan,
offering to overwrite or load theirs, with what was typed still in the form. The API's
PUT and PATCH take the ETag of a GET as If-Match and answer 412 when it is stale."""

import json
import re

import pytest

from planner.models import Plan
from tests.support.dashboard import DEDICATED, edit_url, form_data, login, saved_plan

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("two_tier_catalog")]


def opened_version(html: str) -> str:
    return re.search(r'<input type="hidden" name="version" value="(\d+)">', html).group(1)


def test_the_second_tab_is_refused_and_keeps_what_was_typed_and_nothing_is_lost(owner):
    plan = saved_plan(owner, name="first name")
    tab1, tab2 = login(owner), login(owner)
    v1 = opened_version(tab1.get(edit_url(plan)).content.decode())
    v2 = opened_version(tab2.get(edit_url(plan)).content.decode())
    assert v1 == v2 == "1"

    renamed = tab1.post(edit_url(plan), form_data(action="save", name="renamed", version=v1))
    assert renamed.status_code == 302

    typed = form_data(action="save", name="first name", baseline__monthly="777", version=v2)
    refused = tab2.post(edit_url(plan), typed)
    assert refused.status_code == 409
    page = refused.content.decode()
    assert 'data-testid="save-conflict"' in page
    assert "someone else changed this plan since you opened it" in page
    assert 'name="action" value="overwrite"' in page  # overwrite
    assert f'href="{edit_url(plan)}"' in page  # load theirs
    assert 'value="777"' in page  # what tab 2 typed, still in the form
    assert "Changes saved" not in page
    stored = Plan.objects.get(pk=plan.pk)
    assert (stored.name, stored.inputs["baseline"]["monthly"], stored.version) == (
        "renamed", "480.00", 2)  # fmt: skip

    # Tab 2 chooses to overwrite: its version is the one the refusal showed.
    assert 'name="overwrite_version" value="2"' in page
    overwrite = {**typed, "action": "overwrite", "overwrite_version": "2"}
    assert tab2.post(edit_url(plan), overwrite).status_code == 302
    stored.refresh_from_db()
    assert (stored.name, stored.inputs["baseline"]["monthly"], stored.version) == (
        "first name", "777.00", 3)  # fmt: skip


def test_a_second_overwrite_from_the_same_refusal_is_refused_again(owner):
    plan = saved_plan(owner)
    tab = login(owner)
    tab.post(edit_url(plan), form_data(action="save", name="a", version="1"))
    tab.post(edit_url(plan), form_data(action="save", name="b", version="2"))
    stale = form_data(action="overwrite", name="c", version="1", overwrite_version="2")
    assert tab.post(edit_url(plan), stale).status_code == 409
    assert Plan.objects.get(pk=plan.pk).name == "b"


def test_a_version_that_is_no_number_is_refused_not_a_500(owner):
    plan = saved_plan(owner)
    response = login(owner).post(edit_url(plan), form_data(action="save", version="1; drop"))
    assert response.status_code == 409
    assert Plan.objects.get(pk=plan.pk).version == 1


# --- the API --------------------------------------------------------------------------


def api_url(plan) -> str:
    return f"/api/v1/plans/{plan.code}"


def body(**changes) -> str:
    plan = {"currency": "USD", "name": "api", "baseline": {"monthly": "480"},
            "candidates": [{"tier": DEDICATED, "count": 1}], **changes}  # fmt: skip
    return json.dumps(plan)


def test_put_with_the_etag_saves_and_a_stale_etag_is_412_with_nothing_lost(owner):
    plan = saved_plan(owner)
    client = login(owner)  # session: unsafe methods need no CSRF under the test client
    etag = client.get(api_url(plan)).headers["ETag"]
    assert etag == '"1"'
    first = client.put(api_url(plan), body(name="one"), content_type="application/json",
                       headers={"If-Match": etag})  # fmt: skip
    assert first.status_code == 200 and first.headers["ETag"] == '"2"'
    second = client.put(api_url(plan), body(name="two"), content_type="application/json",
                        headers={"If-Match": etag})  # fmt: skip
    assert second.status_code == 412
    assert second.headers["ETag"] == '"2"'
    assert "changed since" in second.json()["errors"]["If-Match"][0]
    assert Plan.objects.get(pk=plan.pk).name == "one"


def test_put_without_if_match_is_428_and_star_overwrites(owner):
    plan = saved_plan(owner)
    client = login(owner)
    missing = client.put(api_url(plan), body(name="x"), content_type="application/json")
    assert missing.status_code == 428 and "If-Match" in missing.json()["errors"]
    star = client.put(api_url(plan), body(name="x"), content_type="application/json",
                      headers={"If-Match": "*"})  # fmt: skip
    assert star.status_code == 200 and Plan.objects.get(pk=plan.pk).name == "x"


def test_patch_merges_into_the_stored_plan_and_checks_the_version(owner):
    plan = saved_plan(owner, name="kept")
    client = login(owner)
    patch = json.dumps({"baseline": {"monthly": "520"}})
    ok = client.patch(api_url(plan), patch, content_type="application/json",
                      headers={"If-Match": '"1"'})  # fmt: skip
    assert ok.status_code == 200
    stored = Plan.objects.get(pk=plan.pk)
    assert (stored.name, stored.inputs["baseline"]["monthly"]) == ("kept", "520.00")
    stale = client.patch(api_url(plan), json.dumps({"name": "lost?"}),
                         content_type="application/json", headers={"If-Match": '"1"'})  # fmt: skip
    assert stale.status_code == 412 and Plan.objects.get(pk=plan.pk).name == "kept"
    bad = client.patch(api_url(plan), json.dumps({"baseline": {"monthly": "-1"}}),
                       content_type="application/json", headers={"If-Match": '"2"'})  # fmt: skip
    assert bad.status_code == 400 and "baseline.monthly" in bad.json()["errors"]
    assert Plan.objects.get(pk=plan.pk).version == 2


def test_another_users_plan_is_404_whatever_the_if_match(owner, django_user_model):
    plan = saved_plan(owner)
    other = login(django_user_model.objects.create_user("other", password="pw-other-123"))
    response = other.put(api_url(plan), body(), content_type="application/json",
                         headers={"If-Match": "*"})  # fmt: skip
    assert response.status_code == 404
