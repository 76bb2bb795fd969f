"""A benchmark run is evidence a plan or share may rest on: staff retire it, never delete it."""

import pytest
from django.urls import reverse

from benchmarks_app.models import Run
from tests.support.bench import finished_run, target, version

pytestmark = pytest.mark.django_db


@pytest.fixture
def runs() -> list[Run]:
    pv, here = version(), target()
    return [finished_run(pv, here, {1: 10.0, 2: 19.0}) for _ in range(2)]


def changelist_action(admin_client, action: str, runs: list[Run]):
    return admin_client.post(
        reverse("admin:benchmarks_app_run_changelist"),
        {"action": action, "_selected_action": [str(run.pk) for run in runs]},
        follow=True,
    )


def test_a_superuser_cannot_delete_a_run_one_at_a_time_or_in_bulk(admin_client, runs):
    run = runs[0]
    delete = reverse("admin:benchmarks_app_run_delete", args=[run.pk])
    assert admin_client.get(delete).status_code == 403
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    changelist = admin_client.get(reverse("admin:benchmarks_app_run_changelist"))
    assert 'value="delete_selected"' not in changelist.content.decode()
    changelist_action(admin_client, "delete_selected", runs)
    assert Run.objects.count() == 2
    change = admin_client.get(reverse("admin:benchmarks_app_run_change", args=[run.pk]))
    assert delete not in change.content.decode()


def test_staff_retire_runs_from_the_admin_and_they_stay(admin_client, runs):
    response = changelist_action(admin_client, "retire", runs[:1])
    assert "1 run retired." in response.content.decode()
    retired, kept = Run.objects.get(pk=runs[0].pk), Run.objects.get(pk=runs[1].pk)
    assert retired.retired_at is not None and kept.retired_at is None
    assert retired.summaries.count() == 2  # its measurements are kept as history


def test_a_retired_run_is_no_evidence_until_restored(admin_client, runs):
    Run.objects.filter(pk=runs[0].pk).retire()
    assert list(Run.objects.evidence()) == [runs[1]]
    assert Run.objects.count() == 2
    changelist_action(admin_client, "restore", runs)
    assert set(Run.objects.evidence()) == set(runs)


def test_retiring_again_keeps_the_first_date(runs):
    Run.objects.all().retire()
    first = Run.objects.get(pk=runs[0].pk).retired_at
    assert Run.objects.all().retire() == 0
    assert Run.objects.get(pk=runs[0].pk).retired_at == first


def test_the_run_pages_say_a_run_is_retired(admin_client, runs):
    Run.objects.filter(pk=runs[0].pk).retire()
    page = admin_client.get(reverse("benchmarks:run", args=[runs[0].pk])).content.decode()
    assert 'id="run-retired"' in page and "never used to size a plan" in page
    other = admin_client.get(reverse("benchmarks:run", args=[runs[1].pk])).content.decode()
    assert 'id="run-retired"' not in other
    listing = admin_client.get(reverse("benchmarks:index")).content.decode()
    assert listing.count('<span class="badge stale">retired</span>') == 1
