"""`manage.py run_profile` validates first, queues on the target's queue, and with
--wait follows the run on one refreshing progress line to its end."""

import io

import pytest
from django.core.management import CommandError, call_command

from benchmarks_app.models import Run
from benchmarks_app.profiles_loader import load_shipped_profiles
from tests.support.bench import content, shipped, target, version


@pytest.mark.django_db
def test_it_refuses_bad_parameters_before_anything_starts():
    version(content(params={**content()["params"], "rows": 0}))
    target("small", usable_cpus=2)
    with pytest.raises(CommandError, match=r"refused:\n  - params.rows must be positive"):
        call_command("run_profile", "toy-gbm", "--target", "small")
    with pytest.raises(CommandError, match="exceed this host's 2 usable CPUs"):
        call_command("run_profile", "toy-gbm", "--target", "small", "--threads", "1,4")
    with pytest.raises(CommandError, match="no target 'nowhere': start its worker"):
        call_command("run_profile", "toy-gbm", "--target", "nowhere")
    with pytest.raises(CommandError, match="no profile 'nope'"):
        call_command("run_profile", "nope", "--target", "small")
    assert not Run.objects.exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.redis
@pytest.mark.slow
def test_wait_follows_a_real_run_to_its_end(redis_url, start_worker):
    # The shipped smoke scale is over in well under a second of repetitions: progress is
    # written at most every 0.5 s and the command looks every 0.5 s, so it may see none of
    # them. Repetitions of about half a second each keep the steps on screen long enough.
    body = shipped("gbm-xgboost")
    body["name"], body["version"] = "gbm-xgboost-slower", "1.0.0"
    body["scales"]["smoke"] = {"rows": 400_000, "features": 20, "trees": 20, "threads": [1],
                               "time_budget_s": 60, "repetition": {"max_reps": 4}}  # fmt: skip
    version(body)
    start_worker("cli", ["bench.cli"])
    out = io.StringIO()
    call_command("run_profile", "gbm-xgboost-slower", "--target", "cli", "--scale", "smoke",
                 "--threads", "1", "--wait", stdout=out)  # fmt: skip
    text = out.getvalue()
    run = Run.objects.get()
    assert text.startswith(
        f"run {run.pk} queued on bench.cli: gbm-xgboost-slower {body['version']} smoke, threads 1"
    )
    assert "\r[" in text and "threads=1 rep" in text
    assert f"\r[{'#' * 24}] 100% gbm-xgboost-slower" in text
    assert "gbm-xgboost-slower: succeeded" in text and "  1 threads  median" in text
    assert run.status == "succeeded" and run.summaries.get().threads == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.redis
@pytest.mark.slow
def test_wait_exits_non_zero_when_the_run_fails(redis_url, start_worker):
    load_shipped_profiles()
    start_worker("clifail", ["bench.clifail"])
    with pytest.raises(CommandError, match="failed: at 1 threads: over its time limit"):
        call_command("run_profile", "gbm-xgboost", "--target", "clifail", "--threads", "1",
                     "--time-limit", "0.5", "--wait", stdout=io.StringIO())  # fmt: skip


@pytest.mark.django_db
def test_run_suite_queues_every_profile_on_the_target_and_reports_refusals():
    version(content("toy-a"))
    version(content("toy-huge", params={**content()["params"], "rows": 10**10}))
    target("box", usable_cpus=2, ram_bytes=8 * 2**30)
    out, err = io.StringIO(), io.StringIO()
    call_command("run_suite", "--target", "box", "--scale", "smoke", stdout=out, stderr=err)
    assert "1 runs queued on box" in out.getvalue()
    assert "toy-huge not queued:" in err.getvalue() and "GiB RAM" in err.getvalue()
    run = Run.objects.get()
    assert (run.profile_name, run.status, run.suite.scale) == ("toy-a", "queued", "smoke")
    Run.objects.all().delete()
    with pytest.raises(CommandError, match="no target 'elsewhere'"):
        call_command("run_suite", "--target", "elsewhere")
