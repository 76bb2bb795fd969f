"""A run never stays "running": a runner that raises, a measurement over its time
limit, a worker killed mid-run and a cancel all end it with the reason."""

import time

import psutil
import pytest

from benchmarks_app.lifecycle import check_targets
from benchmarks_app.models import ProfileVersion, Target
from benchmarks_app.profiles_loader import edit_profile, load_shipped_profiles
from benchmarks_app.services import cancel_run, create_run
from tests.support.bench import wait_for, wait_over

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis, pytest.mark.slow]


@pytest.fixture
def xgboost() -> ProfileVersion:
    load_shipped_profiles()
    return ProfileVersion.objects.get(profile__name="gbm-xgboost", version="1.0.1")


def runner_processes(run) -> list[psutil.Process]:
    """The run's measurement children: their command lines name the run's scratch folder."""
    mark = f"bench-{run.pk.hex[:8]}-"
    found = []
    for proc in psutil.process_iter(["cmdline", "status"]):
        cmdline = " ".join(proc.info["cmdline"] or [])
        if mark in cmdline and proc.info["status"] != psutil.STATUS_ZOMBIE:
            found.append(proc)
    return found


def wait_measuring(run) -> None:
    def measuring():
        run.refresh_from_db()
        assert run.status in ("queued", "running"), run.reason
        return run.status == "running" and runner_processes(run)

    wait_for(measuring, 60, message="the run's measurement child to start")


def test_a_runner_that_raises_fails_the_run_with_its_error(redis_url, start_worker, xgboost,
                                                          staff_user):  # fmt: skip
    start_worker("failing", ["bench.failing"])
    broken = edit_profile(
        xgboost, {**xgboost.content, "params": {**xgboost.content["params"], "max_depth": "deep"}},
        part="patch", user=staff_user,
    )  # fmt: skip
    run = create_run(version=broken, scale="smoke", target=Target.objects.get(), threads=[1])
    wait_over(run)
    assert run.status == "failed"
    assert run.reason.startswith("at 1 threads: ") and "deep" in run.reason
    assert run.finished_at and not run.summaries.exists()


def test_a_measurement_over_its_time_limit_is_killed_and_the_run_fails(
    redis_url, start_worker, xgboost
):
    start_worker("slowpoke", ["bench.slowpoke"])
    run = create_run(
        version=xgboost, scale="smoke", target=Target.objects.get(), threads=[1], time_limit_s=1.5
    )
    wait_over(run)
    assert run.status == "failed"
    assert run.reason == "at 1 threads: over its time limit of 1.5 s (process group killed)"
    assert runner_processes(run) == []


def test_a_worker_killed_mid_run_leaves_a_failed_run_not_a_running_one(
    redis_url, start_worker, xgboost, settings
):
    settings.BENCH_HEARTBEAT_SECONDS = 1
    worker = start_worker("victim", ["bench.victim"], BENCH_HEARTBEAT_SECONDS="1")
    target = Target.objects.get()
    registered = target.last_seen
    run = create_run(version=xgboost, scale="smoke", target=target)
    wait_measuring(run)
    # The heartbeat goes on while the only pool process is busy measuring.
    wait_for(lambda: Target.objects.get().last_seen > registered, 10, message="a heartbeat")
    run.refresh_from_db()
    assert run.status == "running"

    worker.kill()  # SIGKILL to the worker and its pool process, mid-measurement

    wait_for(lambda: not runner_processes(run), 10, message="the orphaned runner to die")
    run.refresh_from_db()
    assert run.status == "running"  # nobody has noticed yet
    time.sleep(3.5)  # three missed heartbeats
    report = check_targets()
    run.refresh_from_db()
    assert report.went_offline == ["victim"] and report.vanished_runs == 1
    assert run.status == "failed" and run.reason.startswith("worker vanished: no heartbeat from")


def test_a_cancelled_queued_run_never_starts(redis_url, start_worker, xgboost):
    start_worker("later", ["bench.later"])
    target = Target.objects.get()
    blocker = create_run(version=xgboost, scale="smoke", target=target)
    queued = create_run(version=xgboost, scale="smoke", target=target, threads=[1])
    wait_measuring(blocker)
    assert cancel_run(queued) == "cancelled"
    wait_over(blocker)
    time.sleep(2)  # the worker takes the cancelled run's message next, and drops it
    queued.refresh_from_db()
    assert queued.status == "cancelled" and queued.reason == "cancelled by a user before it started"
    assert queued.started_at is None and not queued.measurements.exists()


def test_a_running_run_is_cancelled_and_its_measurement_killed(
    redis_url, start_worker, xgboost, staff_user
):
    start_worker("stoppable", ["bench.stoppable"])
    run = create_run(version=xgboost, scale="smoke", target=Target.objects.get())
    wait_measuring(run)
    assert cancel_run(run, staff_user) == "running"
    wait_over(run, timeout=15)
    assert run.status == "cancelled" and run.reason == "cancelled by staff while running"
    assert runner_processes(run) == []
