"""Many hosts, one broker: each worker records its own target and consumes only its
own queue, so a run lands on its target's worker only."""

import pytest

from benchmarks_app.models import ProfileVersion, Target
from benchmarks_app.profiles_loader import load_shipped_profiles
from benchmarks_app.services import create_run
from tests.support.bench import wait_over

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis, pytest.mark.slow]


def test_a_run_lands_on_its_targets_worker_only(redis_url, start_worker):
    load_shipped_profiles()
    alpha = start_worker("alpha", ["bench.alpha"])
    beta = start_worker("beta", ["bench.beta"])

    targets = {t.name: t for t in Target.objects.all()}
    assert set(targets) == {"alpha", "beta"}
    for target in targets.values():
        assert target.online and target.last_seen is not None
        assert target.fingerprint["usable_cpus"] >= 1 and target.fingerprint["cpu_model"]
        assert target.fingerprint["hostname"] == target.hostname

    version = ProfileVersion.objects.get(profile__name="gbm-xgboost", version="1.0.1")
    run = create_run(version=version, scale="smoke", target=targets["beta"], threads=[1])
    wait_over(run)

    assert run.status == "succeeded", run.reason
    assert run.executed_by.startswith("beta@")
    assert run.task_id in beta.log()
    assert run.task_id not in alpha.log()
    assert run.fingerprint["hostname"] == targets["beta"].hostname

    alpha.stop()  # a warm shutdown says goodbye
    gone = Target.objects.get(name="alpha")
    assert not gone.online and gone.offline_since is not None
    assert Target.objects.get(name="beta").online
