"""Every shipped profile at smoke scale, end to end through a real worker process:
fingerprints, statuses, measurements per thread count and summaries."""

import importlib.util
import itertools

import pytest

from benchmarks_app import runners
from benchmarks_app.models import Profile, Target
from benchmarks_app.profiles_loader import load_shipped_profiles
from benchmarks_app.services import create_suite
from tests.support.bench import SHIPPED, wait_over

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis, pytest.mark.slow]
STOP_REASONS = {"cv_met", "cap_reached", "time_budget"}
# "~15 s per smoke profile including repetitions" is held by each profile's smoke time
# budget, which bounds the repetitions' own seconds whatever else loads the machine; the
# wall-clock bound only catches a runaway (this box's two cores are shared).
RUNAWAY_SECONDS = 90


def test_the_smoke_suite_runs_every_profile_one_after_another(redis_url, start_worker):
    report = load_shipped_profiles()
    assert not report.invalid and len(report.added) == len(list(SHIPPED.glob("*.json")))
    start_worker("smoke", ["bench.smoke"])
    target = Target.objects.get(name="smoke")
    started = create_suite(target=target, scale="smoke")
    assert started.refused == {}
    assert len(started.runs) == Profile.objects.count()

    runs = [wait_over(run, timeout=120) for run in started.runs]

    too_slow = []
    for run in runs:
        content = run.profile_version.content
        name = content["name"]
        missing = [m for m in content.get("requires", []) if importlib.util.find_spec(m) is None]
        assert run.fingerprint["hostname"] == target.hostname, name
        assert run.fingerprint["usable_cpus"] == target.fingerprint["usable_cpus"], name
        assert run.content_hash == run.profile_version.content_hash, name
        assert run.executed_by.startswith("smoke@"), name
        if missing:
            assert run.status == "failed", name
            assert run.reason.startswith(f"skipped: {', '.join(missing)} not installed"), name
            assert not run.summaries.exists()
            continue
        assert run.status == "succeeded", f"{name}: {run.reason}"
        took = (run.finished_at - run.started_at).total_seconds()
        budget = content["scales"]["smoke"]["time_budget_s"]
        work = [m.seconds for m in run.measurements.all()]
        # Each measurement may overrun its share of the budget by the repetition in flight.
        if sum(work) > budget + len(run.threads) * max(work) or took > RUNAWAY_SECONDS:
            too_slow.append(
                f"{name}: {sum(work):.1f} s of work (budget {budget}), {took:.0f} s wall"
            )
        planned = runners.plan_threads(content["scales"]["smoke"]["threads"],
                                       target.fingerprint["usable_cpus"])  # fmt: skip
        assert run.threads == planned, name
        summaries = list(run.summaries.all())
        assert [s.threads for s in summaries] == planned, name
        repetition = runners.merged_repetition(content, "smoke")
        for summary in summaries:
            reps = run.measurements.filter(threads=summary.threads, warmup=False)
            warmups = run.measurements.filter(threads=summary.threads, warmup=True)
            assert reps.count() == summary.n, name
            assert warmups.count() == repetition.get("warmup", 0), name
            assert summary.stop_reason in STOP_REASONS, name
            if summary.stop_reason != "time_budget":
                assert summary.n >= repetition.get("min_reps", 1), name
            assert summary.min <= summary.median <= summary.max, name
            assert summary.median > 0 and summary.cv >= 0, name
            assert summary.peak_rss_bytes and summary.peak_rss_bytes > 0, name
            assert summary.runtime, name

    assert too_slow == [], "smoke profiles over their time budget"

    # One after another on the target's queue (the worker runs one task at a time).
    ordered = sorted(runs, key=lambda r: r.started_at)
    for before, after in itertools.pairwise(ordered):
        assert after.started_at >= before.finished_at
