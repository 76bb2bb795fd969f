"""Queued runs are reconciled within BENCH_QUEUED_BOUND_SECONDS: a run whose broker
message was lost while its target is online and idle is re-sent, and failed once its
last send goes unclaimed; a run behind others on a busy target waits, never past
BENCH_QUEUED_MAX_WAIT_SECONDS; a second message for a claimed run is dropped."""

import io
import logging
from datetime import timedelta

import pytest
import redis
from django.conf import settings
from django.core.management import CommandError, call_command
from django.utils import timezone

from benchmarks_app.lifecycle import MAX_SENDS, execute_run, reconcile_runs
from benchmarks_app.models import Run
from benchmarks_app.tasks import reconcile_runs as reconcile_task
from common.django.message_render import render
from config.celery import app as celery_app
from tests.support.bench import finished_run, target, version

pytestmark = pytest.mark.django_db
AGO = timedelta(seconds=200)  # past a quarter of the default 300 s bound


def queued(tgt, pv, *, sent_ago: timedelta = AGO, sends: int = 1) -> Run:
    run = finished_run(pv, tgt, {}, scale="smoke", status="queued")
    Run.objects.filter(pk=run.pk).update(
        started_at=None, finished_at=None, task_id=f"task-{run.pk}",
        created_at=timezone.now() - sent_ago, sent_at=timezone.now() - sent_ago, sends=sends,
    )  # fmt: skip
    run.refresh_from_db()
    return run


def idle_target(name: str = "idle"):
    tgt = target(name)
    tgt.created_at = timezone.now() - timedelta(hours=1)
    tgt.save()
    return tgt


def messages_waiting(queue: str) -> list[bytes]:
    """What the broker holds for a queue (the test session's own key prefix)."""
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    return client.lrange(f"{settings.QUEUE_PREFIX}{queue}", 0, -1)


@pytest.fixture
def empty_queues(redis_url):
    client = redis.Redis.from_url(redis_url)
    yield
    for key in client.scan_iter(f"{settings.QUEUE_PREFIX}bench.*"):
        client.delete(key)


def forget_broker_connections() -> None:
    """The app's pooled connections and producers, built for the broker it had."""
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


@pytest.fixture
def broker_down(monkeypatch):
    """The task broker refuses connections (a closed port) for this test."""
    monkeypatch.setitem(celery_app.conf, "broker_url", "redis://127.0.0.1:1/0")
    monkeypatch.setitem(celery_app.conf, "broker_transport_options", {})
    forget_broker_connections()
    yield
    forget_broker_connections()


@pytest.mark.redis
def test_a_run_left_queued_on_an_online_idle_target_is_sent_again(empty_queues):
    run = queued(idle_target("lost"), version())
    report = reconcile_runs()
    run.refresh_from_db()
    assert report.resent == 1
    assert (run.status, run.sends) == ("queued", 2)
    assert timezone.now() - run.sent_at < timedelta(seconds=30)
    [message] = messages_waiting("bench.lost")
    assert str(run.pk).encode() in message and run.task_id.encode() in message


def test_a_run_sent_recently_or_on_a_target_busy_a_moment_ago_is_left_alone():
    pv = version()
    fresh = queued(idle_target("fresh"), pv, sent_ago=timedelta(seconds=10))
    # A suite: one run ended a moment ago, the next one's message is on its way.
    between = idle_target("between")
    finished_run(pv, between, {1: 1.0}, scale="smoke")
    waiting = queued(between, pv)
    busy = idle_target("busy")
    finished_run(pv, busy, {}, scale="smoke", status="running", age=timedelta(hours=2))
    behind = queued(busy, pv)
    assert reconcile_runs().resent == 0
    for run in (fresh, waiting, behind):
        run.refresh_from_db()
        assert (run.status, run.sends) == ("queued", 1)


def test_a_run_whose_last_send_goes_unclaimed_fails_with_the_reason():
    run = queued(idle_target("deaf"), version(), sends=MAX_SENDS)
    assert reconcile_runs().not_picked_up == 1
    run.refresh_from_db()
    assert run.status == "failed" and run.finished_at is not None
    assert run.reason_shown.code == "benchmarks.run_not_picked_up"
    assert run.reason == (
        "not picked up: sent 3 times to target deaf, online and idle, and no worker took it"
    )
    assert render(run.reason_shown, "de").startswith("nicht übernommen: 3-mal an Ziel deaf")


def test_a_run_waiting_behind_a_busy_target_fails_after_the_maximum_wait(settings):
    settings.BENCH_QUEUED_MAX_WAIT_SECONDS = 3600
    pv = version()
    busy = idle_target("busy")
    finished_run(pv, busy, {}, scale="smoke", status="running")
    patient = queued(busy, pv, sent_ago=timedelta(seconds=3500))
    too_long = queued(busy, pv, sent_ago=timedelta(seconds=3601))
    assert reconcile_task() == {
        "resent": 0, "not_picked_up": 0, "waited_too_long": 1, "swept_folders": 0,
    }  # fmt: skip
    patient.refresh_from_db(), too_long.refresh_from_db()
    assert patient.status == "queued"
    assert too_long.status == "failed"
    assert too_long.reason_shown.code == "benchmarks.run_waited_too_long"
    assert too_long.reason == "waited for target busy longer than 3600 s"


def test_a_run_for_a_target_offline_past_the_bound_expires_by_default(settings):
    from benchmarks_app.lifecycle import check_targets

    assert settings.BENCH_QUEUED_BOUND_SECONDS == 300
    gone = target("gone", online=False)
    gone.offline_since = timezone.now() - timedelta(seconds=301)
    gone.save()
    run = queued(gone, version())
    assert check_targets().expired_runs == 1
    run.refresh_from_db()
    assert run.status == "failed" and run.reason_shown.code == "benchmarks.run_expired"


def test_a_re_send_the_broker_refuses_fails_the_run_saying_so(broker_down):
    run = queued(idle_target("cut-off"), version())
    assert reconcile_runs().not_picked_up == 1
    run.refresh_from_db()
    assert run.status == "failed" and run.reason_shown.code == "benchmarks.run_broker_unreachable"


def test_a_second_message_for_a_claimed_run_is_dropped_and_logged(caplog):
    run = finished_run(version(), target(), {}, scale="smoke", status="running")
    with caplog.at_level(logging.WARNING, logger="benchmarks_app.lifecycle"):
        assert execute_run(str(run.pk), executed_by="other@host") is None
    run.refresh_from_db()
    assert run.status == "running" and run.executed_by == ""
    assert f"run {run.pk} is running, not queued: its message is dropped" in caplog.text


def test_beat_sends_the_reconciler_to_the_default_queue_well_within_the_bound():
    entry = settings.CELERY_BEAT_SCHEDULE["benchmarks-reconcile-runs"]
    assert entry["task"] == reconcile_task.name and entry["task"] in celery_app.tasks
    assert entry["options"]["queue"] == "default"
    assert entry["schedule"] == settings.BENCH_QUEUED_BOUND_SECONDS / 20


@pytest.mark.django_db(transaction=True)
def test_run_profile_prints_the_failure_and_exits_non_zero_when_the_broker_is_down(broker_down):
    version()
    target("cli")
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError, match=r"^run \S+ was not queued$"):
        call_command("run_profile", "toy-gbm", "--target", "cli", stdout=out, stderr=err)
    run = Run.objects.get()
    assert run.status == "failed"
    assert "queued" not in out.getvalue()
    assert f"run {run.pk} failed: could not reach the task broker: " in err.getvalue()


@pytest.mark.django_db(transaction=True)
def test_run_suite_prints_each_failure_and_exits_non_zero_when_the_broker_is_down(broker_down):
    version()
    target("cli")
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError, match=r"1 of 1 runs of suite \S+ were not queued"):
        call_command("run_suite", "--target", "cli", stdout=out, stderr=err)
    run = Run.objects.get()
    assert "queued on" not in out.getvalue()
    assert f"run {run.pk} failed: could not reach the task broker" in err.getvalue()
