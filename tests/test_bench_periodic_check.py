"""Beat's periodic check: a silent worker's target goes offline and its running
runs fail; queued runs for a target offline too long expire; both say why."""

from datetime import timedelta

import pytest
from django.utils import timezone

from benchmarks_app.lifecycle import check_targets, record_worker_start
from benchmarks_app.models import Run
from benchmarks_app.tasks import check_targets as check_task
from tests.support.bench import finished_run, target, version

pytestmark = pytest.mark.django_db


def run_in(status: str, tgt, pv) -> Run:
    return finished_run(pv, tgt, {}, scale="smoke", status=status)


def test_a_running_run_of_a_worker_silent_for_three_heartbeats_fails(settings):
    settings.BENCH_HEARTBEAT_SECONDS = 10
    pv = version()
    quiet = target("quiet")
    quiet.last_seen = timezone.now() - timedelta(seconds=31)
    quiet.save()
    lively = target("lively")
    lost, fine = run_in("running", quiet, pv), run_in("running", lively, pv)

    report = check_targets()

    assert report.went_offline == ["quiet"] and report.vanished_runs == 1
    lost.refresh_from_db(), fine.refresh_from_db(), quiet.refresh_from_db()
    assert lost.status == "failed" and lost.reason.startswith("worker vanished: no heartbeat")
    assert "quiet" in lost.reason and lost.finished_at is not None
    assert fine.status == "running"
    assert not quiet.online and not quiet.is_alive()


def test_a_worker_heard_within_three_heartbeats_keeps_its_run(settings):
    settings.BENCH_HEARTBEAT_SECONDS = 10
    tgt = target("steady")
    tgt.last_seen = timezone.now() - timedelta(seconds=29)
    tgt.save()
    run = run_in("running", tgt, version())
    assert check_task() == {"went_offline": [], "vanished_runs": 0, "expired_runs": 0}
    run.refresh_from_db()
    assert run.status == "running"


def test_a_queued_run_for_a_target_offline_too_long_expires(settings):
    settings.BENCH_QUEUED_BOUND_SECONDS = 600
    pv = version()
    gone, briefly = target("gone", online=False), target("briefly", online=False)
    gone.offline_since = timezone.now() - timedelta(seconds=601)
    briefly.offline_since = timezone.now() - timedelta(seconds=60)
    gone.save(), briefly.save()
    old, recent = run_in("queued", gone, pv), run_in("queued", briefly, pv)

    assert check_targets().expired_runs == 1

    old.refresh_from_db(), recent.refresh_from_db()
    assert old.status == "failed" and old.reason.startswith("expired: target gone offline since")
    assert recent.status == "queued"


def test_a_restarted_worker_ends_the_runs_its_predecessor_left_running():
    tgt = target("phoenix")
    run = run_in("running", tgt, version())
    record_worker_start("phoenix", "newhost", {"hostname": "newhost", "usable_cpus": 2})
    run.refresh_from_db(), tgt.refresh_from_db()
    assert run.status == "failed" and run.reason == "worker restarted while the run was running"
    assert tgt.online and tgt.hostname == "newhost" and tgt.fingerprint["usable_cpus"] == 2


def test_beat_schedules_the_check_on_the_default_queue(settings):
    from config.celery import app

    entry = settings.CELERY_BEAT_SCHEDULE["benchmarks-check-targets"]
    assert entry["task"] == check_task.name and entry["task"] in app.tasks
    assert entry["options"]["queue"] == "default"
    assert entry["schedule"] == settings.BENCH_HEARTBEAT_SECONDS
