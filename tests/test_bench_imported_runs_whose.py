"""Whose imported runs count (issue 23 item 6): a run file imported by a user who is not
staff sizes that user's plans at once, and other users' plans only once a staff member
confirms its host's tier link; nobody changes another user's figures.

Real HTTP throughout: the import through the benchmarks page, the plans through the API
with each user's token, the confirmation through the admin's action. The run is the real
standard-scale gbm-xgboost run in tests/fixtures/runs/."""

import json
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from benchmarks_app.models import Run, Target
from tests.support.api import post_json, token_client
from tests.support.catalog import add_price, make_tier

pytestmark = pytest.mark.django_db
RUN_FILE = Path(__file__).resolve().parent / "fixtures" / "runs" / "gbm-xgboost-standard.json"
BOX, OTHER_BOX = "test-measured-box", "test-other-box"


@pytest.fixture
def catalog(settings, own_cache):
    settings.API_RATE_LIMIT_PER_MINUTE = 10_000
    threads = max(s["threads"] for s in json.loads(RUN_FILE.read_text())["summaries"])
    for slug in (BOX, OTHER_BOX):
        tier = make_tier(slug, provider="Test", kind="dedicated", pricing_model="fixed_monthly",
                         vcpus=threads, ram_gib=Decimal(16))  # fmt: skip
        add_price(tier, "40", "2026-01-01", unit="month", source="test price list")


def import_as(client, user, tier: str):
    client.force_login(user)
    upload = SimpleUploadedFile("run.json", RUN_FILE.read_bytes(), "application/json")
    return client.post(reverse("benchmarks:import_run"), {"file": upload, "tier": tier},
                       follow=True)  # fmt: skip


def figure(user, tier: str = BOX) -> str:
    plan = {"currency": "USD", "baseline": {"monthly": "480"}, "candidates": [{"tier": tier}],
            "workloads": [{"kind": "gbm", "trainings_per_month": 200, "rows": 20_000_000,
                           "features": 50, "trees": 100}]}  # fmt: skip
    response = post_json(token_client(user)[0], "/api/v1/evaluate", plan)
    assert response.status_code == 200, response.content[:300]
    options = response.json()["options"]
    return options[0]["figure"] if options else "none"


def confirm_in_admin(client, staff_user) -> None:
    from django.contrib.auth.models import Permission

    staff_user.user_permissions.add(Permission.objects.get(codename="change_target"))
    client.force_login(staff_user)
    target = Target.objects.get()
    response = client.post(
        reverse("admin:benchmarks_app_target_changelist"),
        {"action": "confirm_tier_links", "_selected_action": [target.pk]},
        follow=True,
    )
    assert response.status_code == 200
    assert "Confirmed 1 tier links (1 runs)." in response.text


def test_a_managers_import_sizes_their_own_plans_at_once_and_others_after_staff_confirm(
    client, catalog, owner, other_user, staff_user
):
    assert figure(owner) != "measured" and figure(other_user) != "measured"
    response = import_as(client, owner, BOX)
    assert response.status_code == 200
    assert "Linked the host to tier test-measured-box." in response.text
    assert "sizes your own plans now, and other users&#x27; plans once staff confirm" in (
        response.text
    )
    run = Run.objects.get()
    assert (run.created_by, run.confirmed) == (owner, False)
    assert not Target.objects.get().tier_confirmed

    assert figure(owner) == "measured"  # the importer's plan uses the run at once
    assert figure(other_user) != "measured"  # nobody else's figures changed

    confirm_in_admin(client, staff_user)
    target = Target.objects.get()
    assert target.tier_confirmed and target.tier_confirmed_by == staff_user
    assert Run.objects.get().confirmed
    assert figure(other_user) == "measured"  # after confirmation it counts for everyone
    assert figure(owner) == "measured"


def test_a_staff_import_counts_for_everyone_at_once(client, catalog, staff_user, other_user):
    import_as(client, staff_user, BOX)
    assert Run.objects.get().confirmed and Target.objects.get().tier_confirmed
    assert figure(other_user) == "measured"


def test_a_manager_cannot_move_a_link_staff_confirmed(client, catalog, owner, staff_user):
    import_as(client, staff_user, BOX)
    Run.objects.all().delete()  # the host stays, linked and confirmed by staff
    response = import_as(client, owner, OTHER_BOX)
    assert "the host stays linked to tier test-measured-box, as staff confirmed" in response.text
    target = Target.objects.get()
    assert target.tier.slug == BOX and target.tier_confirmed
    assert figure(owner, OTHER_BOX) != "measured"
    assert figure(owner, BOX) == "measured"  # the manager's own run, on the confirmed link


def test_the_import_form_tells_a_manager_whose_plans_the_run_sizes(client, owner):
    client.force_login(owner)
    page = client.get(reverse("benchmarks:index"))
    assert 'id="import-run"' in page.text and 'id="import-own"' in page.text
