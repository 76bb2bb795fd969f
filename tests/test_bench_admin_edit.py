"""A staff edit of a profile in the admin saves a new version; the edited one and
the runs that point at it stay as they were. Staff link a target to a catalog tier."""

import json

import pytest
from django.urls import reverse

from benchmarks_app.models import ProfileVersion
from tests.support.bench import content, finished_run, target, version

pytestmark = pytest.mark.django_db


def test_saving_a_profile_version_in_the_admin_creates_the_next_version(admin_client):
    base = version()
    run = finished_run(base, target(), {1: 1.0})
    edited = {**base.content, "params": {**base.content["params"], "trees": 50}}
    url = reverse("admin:benchmarks_app_profileversion_change", args=[base.pk])
    response = admin_client.post(url, {"content": json.dumps(edited), "bump": "minor"})
    assert response.status_code == 302
    new = ProfileVersion.objects.get(version="1.1.0")
    assert new.source == "staff" and new.content["params"]["trees"] == 50
    assert new.content["version"] == "1.1.0" and new.created_by.username == "admin"
    base.refresh_from_db(), run.refresh_from_db()
    assert base.content["params"]["trees"] == 5 and run.profile_version == base
    assert run.content_hash == base.content_hash


def test_an_invalid_edit_shows_the_problem_and_saves_nothing(admin_client):
    base = version()
    broken = {**base.content, "workload_class": "quantum"}
    url = reverse("admin:benchmarks_app_profileversion_change", args=[base.pk])
    response = admin_client.post(url, {"content": json.dumps(broken), "bump": "patch"})
    assert response.status_code == 200 and "workload_class must be one of" in response.text
    assert ProfileVersion.objects.count() == 1


def test_versions_cannot_be_added_or_deleted_by_hand(admin_client):
    base = version(content())
    assert admin_client.get(reverse("admin:benchmarks_app_profileversion_add")).status_code == 403
    delete = reverse("admin:benchmarks_app_profileversion_delete", args=[base.pk])
    assert admin_client.get(delete).status_code == 403


def test_staff_link_a_target_to_a_catalog_tier(admin_client):
    from catalog.models import Provider, Tier

    tier = Tier.objects.create(
        provider=Provider.objects.create(name="InMotion Hosting"),
        name="Extreme", slug="inmotion-extreme-x-fixed",
    )  # fmt: skip
    tgt = target("epyc")
    url = reverse("admin:benchmarks_app_target_change", args=[tgt.pk])
    assert admin_client.post(url, {"tier": tier.pk}).status_code == 302
    tgt.refresh_from_db()
    assert tgt.tier == tier and tgt.name == "epyc"
