"""selectors.best_measurement: what sizes a plan, and what never does."""

from datetime import timedelta

import pytest

from benchmarks_app.evidence import NoMeasurement
from benchmarks_app.selectors import best_measurement, measurements_on
from tests.support.bench import content, finished_run, target, version

pytestmark = pytest.mark.django_db

# Amdahl with X1 = 100 and a 5 % serial fraction.
AMDAHL = {k: 100 * k / (1 + 0.05 * (k - 1)) for k in (1, 2, 4, 8)}


def test_a_measured_thread_count_returns_the_median_with_its_provenance():
    pv, tgt = version(), target("epyc", cpu_model="AMD EPYC 4545P")
    run = finished_run(pv, tgt, AMDAHL)
    best = best_measurement("gbm", tgt, 4)
    assert best.measured and best.value == pytest.approx(AMDAHL[4])
    assert (best.run_id, best.host, best.cpu_model) == (str(run.pk), "epyc", "AMD EPYC 4545P")
    assert (best.profile_name, best.profile_version, best.scale) == ("toy-gbm", "1.0.0", "standard")
    assert (best.metric, best.unit) == ("cell_trees_per_s", "cell-trees/s")
    assert best.extra["rows"] == 2000 and best.extra["trusted_range"]["param"] == "rows"
    assert best.provenance["kind"] == "measured"


def test_smoke_results_never_size_a_plan():
    pv, tgt = version(), target()
    finished_run(pv, tgt, AMDAHL, scale="smoke")
    with pytest.raises(NoMeasurement, match="smoke results never size a plan"):
        best_measurement("gbm", tgt, 2)


def test_the_latest_succeeded_standard_or_full_run_wins():
    pv, tgt = version(), target()
    finished_run(pv, tgt, {1: 50.0}, age=timedelta(days=2))
    latest = finished_run(pv, tgt, {1: 60.0}, scale="full", age=timedelta(days=1))
    finished_run(pv, tgt, {1: 70.0}, status="failed")
    finished_run(pv, tgt, {1: 80.0}, scale="smoke")
    best = best_measurement("gbm", tgt, 1)
    assert best.run_id == str(latest.pk) and best.value == 60.0 and best.scale == "full"


def test_results_compare_only_within_the_newest_x_y():
    old, tgt = version(), target()
    finished_run(old, tgt, AMDAHL)
    version(content(version="1.0.1"))  # a patch keeps 1.0 runs comparable
    assert best_measurement("gbm", tgt, 1).profile_version == "1.0.0"
    version(content(version="1.1.0"))
    with pytest.raises(NoMeasurement, match="older profile versions"):
        best_measurement("gbm", tgt, 1)


def test_an_unmeasured_thread_count_is_predicted_by_the_same_hosts_fit_and_labelled():
    pv, tgt = version(), target("epyc")
    finished_run(pv, tgt, AMDAHL)
    best = best_measurement("gbm", tgt, 16)
    assert not best.measured and best.fit in ("amdahl", "usl")
    assert best.value == pytest.approx(100 * 16 / (1 + 0.05 * 15), rel=0.02)
    assert best.extrapolation == "extrapolated 2.0× beyond the largest measured 8 threads"  # noqa: RUF001
    assert best.provenance["kind"] == "predicted"


def test_too_few_points_for_a_fit_and_no_measurement_is_no_number():
    pv, tgt = version(), target()
    finished_run(pv, tgt, {1: 100.0, 2: 190.0})
    with pytest.raises(NoMeasurement, match=r"not measured on here \(measured: 1, 2\) and no fit"):
        best_measurement("gbm", tgt, 4)


def test_a_tier_reads_the_runs_of_the_targets_linked_to_it():
    from catalog.models import Provider, Tier

    provider = Provider.objects.create(name="InMotion Hosting")
    tier = Tier.objects.create(provider=provider, name="Extreme", slug="inmotion-extreme-x-fixed")
    pv, linked, other = version(), target("linked"), target("other")
    linked.tier = tier
    linked.save()
    finished_run(pv, other, {1: 999.0})
    with pytest.raises(NoMeasurement, match="tier"):
        best_measurement("gbm", tier, 1)
    finished_run(pv, linked, {1: 42.0})
    assert best_measurement("gbm", tier, 1).host == "linked"
    assert [m.value for m in measurements_on(tier)] == [42.0]


def test_a_profile_name_pins_one_library_of_a_class():
    tgt = target()
    xgb = version(content("toy-xgb"))
    lgbm = version(content("toy-lgbm", params={"library": "lightgbm"}))
    finished_run(xgb, tgt, {1: 10.0}, age=timedelta(hours=1))
    finished_run(lgbm, tgt, {1: 20.0})
    assert best_measurement("gbm", tgt, 1).profile_name == "toy-lgbm"
    assert best_measurement("toy-xgb", tgt, 1).value == 10.0


def test_it_reads_with_a_fixed_number_of_queries(django_assert_max_num_queries):
    pv, tgt = version(), target()
    finished_run(pv, tgt, AMDAHL)
    with django_assert_max_num_queries(4):
        best_measurement("gbm", tgt, 16)
