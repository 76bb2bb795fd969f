"""The benchmarks pages: profiles and targets, starting runs (with permission), the
live run page that stops polling when the run ends, the results and the chart."""

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from benchmarks_app.models import Run, Suite
from tests.support.bench import content, finished_run, target, version

pytestmark = pytest.mark.django_db
AMDAHL = {k: 100 * k / (1 + 0.05 * (k - 1)) for k in (1, 2, 4, 8)}


@pytest.fixture
def staff_client(client, staff_user):
    client.force_login(staff_user)
    return client


def test_the_index_lists_profiles_with_versions_and_targets_with_their_hardware(staff_client):
    version(content("toy-gbm", title="Toy GBM"))
    target("epyc", cpu_model="AMD EPYC 4545P", usable_cpus=32, ram_bytes=192 * 2**30)
    target("gone", online=False)
    response = staff_client.get(reverse("benchmarks:index"))
    page = response.content.decode()
    assert response.status_code == 200
    assert "toy-gbm" in page and "1.0.0" in page
    assert "Results compare only within the same X.Y version of a profile." in page
    assert "AMD EPYC 4545P" in page and "192.0 GiB" in page and "avx2 fma" in page
    assert page.count("online") >= 1 and "offline" in page


def test_the_pages_need_a_login(client):
    response = client.get(reverse("benchmarks:index"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_user_without_permission_cannot_start_a_run(client, other_user):
    pv, tgt = version(), target()
    client.force_login(other_user)
    form = {"profile": pv.profile.pk, "scale": "smoke", "target": tgt.pk}
    assert client.post(reverse("benchmarks:start_run"), form).status_code == 403
    assert "Starting runs needs the permission" in client.get(reverse("benchmarks:index")).text
    assert not Run.objects.exists()


def test_a_user_with_the_add_run_permission_starts_a_run_and_lands_on_its_page(
    client, owner, django_capture_on_commit_callbacks
):
    owner.user_permissions.add(Permission.objects.get(codename="add_run"))
    pv, tgt = version(), target()
    client.force_login(owner)
    form = {"profile": pv.profile.pk, "scale": "smoke", "target": tgt.pk, "threads": "1, 2"}
    with django_capture_on_commit_callbacks() as enqueued:
        response = client.post(reverse("benchmarks:start_run"), form)
    run = Run.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/benchmarks/runs/{run.pk}/"
    assert (run.status, run.threads, run.created_by, run.scale) == (
        "queued",
        [1, 2],
        owner,
        "smoke",
    )
    assert run.fingerprint == tgt.fingerprint and run.content_hash == pv.content_hash
    assert len(enqueued) == 1 and run.task_id


def test_bad_parameters_are_refused_with_a_clear_message_and_nothing_starts(staff_client):
    big = version(content("toy-big", scales={
        **content()["scales"], "smoke": {"rows": 10**9, "features": 100, "threads": [1],
                                         "time_budget_s": 10}}))  # fmt: skip
    negative = version(content("toy-neg", params={**content()["params"], "trees": -5}))
    tgt = target(usable_cpus=2, ram_bytes=8 * 2**30)
    url = reverse("benchmarks:start_run")
    cases = [
        ({"profile": big.profile.pk, "scale": "smoke", "target": tgt.pk}, "GiB RAM"),
        ({"profile": negative.profile.pk, "scale": "smoke", "target": tgt.pk}, "must be positive"),
        ({"profile": big.profile.pk, "scale": "smoke", "target": tgt.pk, "threads": "1,64"},
         "64 threads exceed this host&#x27;s 2 usable CPUs"),
        ({"profile": big.profile.pk, "scale": "smoke", "target": tgt.pk, "threads": "one"},
         "Whole numbers separated by commas."),
    ]  # fmt: skip
    for form, message in cases:
        response = staff_client.post(url, form)
        assert response.status_code == 400, form
        assert message in response.content.decode(), message
    assert not Run.objects.exists()


def test_the_run_page_polls_while_the_run_is_active_and_stops_with_286(staff_client):
    pv, tgt = version(), target()
    run = finished_run(pv, tgt, {1: 100.0}, scale="smoke", status="running")
    Run.objects.filter(pk=run.pk).update(progress=0.45, step="threads=2 rep 3/10")
    url = reverse("benchmarks:run", args=[run.pk])

    page = staff_client.get(url).content.decode()
    assert 'hx-trigger="every 1s"' in page and "<html" in page
    live = staff_client.get(url, headers={"HX-Request": "true"})
    assert live.status_code == 200 and "<html" not in live.text
    assert 'aria-valuenow="45"' in live.text and "threads=2 rep 3/10" in live.text
    assert 'hx-trigger="every 1s"' in live.text

    Run.objects.filter(pk=run.pk).update(status="succeeded", progress=1.0)
    over = staff_client.get(url, headers={"HX-Request": "true"})
    assert over.status_code == 286 and "hx-trigger" not in over.text
    assert "Succeeded" in over.text or "succeeded" in over.text


def test_a_finished_run_shows_its_results_fits_chart_and_fingerprint(staff_client):
    pv, tgt = version(), target("epyc", cpu_model="AMD EPYC 4545P")
    run = finished_run(pv, tgt, AMDAHL)
    page = staff_client.get(reverse("benchmarks:run", args=[run.pk])).content.decode()
    assert page.count("cv_met") == 4 and "100 MiB" in page and "1.0 %" in page
    assert "AMD EPYC 4545P" in page and "Results compare only within the same X.Y (1.0)" in page
    assert reverse("benchmarks:run_chart", args=[run.pk]) in page
    assert "amdahl" in page and "usl" in page

    chart = staff_client.get(reverse("benchmarks:run_chart", args=[run.pk]))
    assert chart["Content-Type"] == "image/svg+xml"
    svg = chart.content.decode()
    assert "Amdahl fit (extrapolated beyond 8 threads)" in svg
    assert "measured median" in svg and "cell-trees/s" in svg
    assert staff_client.get(reverse("benchmarks:run_chart", args=[run.pk])).content == chart.content


def test_a_smoke_run_page_says_it_never_sizes_a_plan(staff_client):
    run = finished_run(version(), target(), {1: 5.0}, scale="smoke")
    page = staff_client.get(reverse("benchmarks:run", args=[run.pk])).content.decode()
    assert "smoke: never used to size a plan" in page


def test_a_running_run_is_cancelled_from_its_page(staff_client, staff_user):
    run = finished_run(version(), target(), {}, scale="smoke", status="queued")
    response = staff_client.post(reverse("benchmarks:run_cancel", args=[run.pk]))
    run.refresh_from_db()
    assert response.status_code == 302
    assert run.status == "cancelled" and run.reason == "cancelled by staff before it started"


def test_the_smoke_suite_is_started_from_the_page(staff_client, django_capture_on_commit_callbacks):
    version(content("toy-a")), version(content("toy-b"))
    tgt = target()
    with django_capture_on_commit_callbacks() as enqueued:
        response = staff_client.post(reverse("benchmarks:start_suite"),
                                     {"target": tgt.pk, "scale": "smoke"})  # fmt: skip
    suite = Suite.objects.get()
    assert response.status_code == 302 and str(suite.pk) in response["Location"]
    assert sorted(r.profile_version.profile.name for r in suite.runs.all()) == ["toy-a", "toy-b"]
    assert len(enqueued) == 2
    page = staff_client.get(response["Location"]).content.decode()
    assert 'hx-trigger="every 2s"' in page and "toy-a" in page
    suite.runs.update(status="succeeded")
    done = staff_client.get(response["Location"], headers={"HX-Request": "true"})
    assert done.status_code == 286 and "hx-trigger" not in done.text
