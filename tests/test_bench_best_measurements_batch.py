"""selectors.best_measurements: every (tier, class) a plan needs in one batch, by the same
rules as best_measurement, with each run's repetitions and fit beside the figure."""

from datetime import timedelta

import pytest

from benchmarks_app.evidence import BestMeasurement
from benchmarks_app.models import Measurement
from benchmarks_app.selectors import best_measurement, best_measurements
from common.messages import Message, plain
from tests.support.bench import content, finished_run, target, version
from tests.support.catalog import make_tier

pytestmark = pytest.mark.django_db
AMDAHL = {k: 100 * k / (1 + 0.05 * (k - 1)) for k in (1, 2, 4, 8)}


def linked(name: str, slug: str, vcpus: int | None = 8):
    tier = make_tier(slug, provider="Test", vcpus=vcpus)
    host = target(name)
    host.tier = tier
    host.save()
    return tier, host


def test_each_tier_gets_what_best_measurement_gives_it():
    pv = version()
    measured, host = linked("epyc", "test-measured", vcpus=4)
    run = finished_run(pv, host, AMDAHL)
    predicted, other = linked("xeon", "test-predicted", vcpus=16)
    finished_run(pv, other, AMDAHL)
    make_tier("test-unlinked", provider="Test")
    found = best_measurements(["test-measured", "test-predicted", "test-unlinked"], ["gbm"])
    assert found["test-measured", "gbm"] == best_measurement("gbm", measured, 4)
    assert found["test-measured", "gbm"].run_id == str(run.pk)
    assert found["test-predicted", "gbm"] == best_measurement("gbm", predicted, 16)
    assert not found["test-predicted", "gbm"].measured
    reason = found["test-unlinked", "gbm"]
    assert (
        str(reason)
        == "no succeeded standard or full run of gbm (toy-gbm 1.0) on tier test-unlinked"
    )


def test_the_reasons_are_messages_whose_english_the_api_keeps():
    make_tier("test-no-specs", provider="Test", vcpus=None)
    version()
    found = best_measurements(["test-gone", "test-no-specs"], ["gbm", "nn"])
    gone, no_specs = found["test-gone", "gbm"], found["test-no-specs", "gbm"]
    assert (
        isinstance(gone.message, Message) and gone.message.code == "benchmarks.tier_not_in_catalog"
    )
    assert str(gone) == plain(gone.message) == "tier test-gone is not in the catalog"
    assert no_specs.message.code == "benchmarks.tier_without_vcpus"
    assert str(found["test-no-specs", "nn"]) == (
        "specs unknown: tier test-no-specs lists no vCPU count to measure at"
    )


def test_each_tier_reads_only_its_own_targets_and_says_why_none_qualify():
    old_version = version()
    _tier, old_host = linked("old-host", "test-old")
    finished_run(old_version, old_host, AMDAHL)
    current = version(content(version="1.1.0"))
    _tier, smoke_host = linked("smoke-host", "test-smoke")
    finished_run(current, smoke_host, AMDAHL, scale="smoke")
    found = best_measurements(["test-smoke", "test-old"], ["gbm"])
    smoke, old = found["test-smoke", "gbm"], found["test-old", "gbm"]
    assert smoke.message.code == "benchmarks.only_smoke_runs"
    assert "only smoke runs of toy-gbm 1.1 on tier test-smoke" in str(smoke)
    assert old.message.code == "benchmarks.only_older_versions"


def test_the_latest_run_on_any_linked_target_wins():
    pv = version()
    tier, first = linked("first", "test-two-hosts", vcpus=1)
    second = target("second")
    second.tier = tier
    second.save()
    finished_run(pv, first, {1: 50.0}, age=timedelta(days=2))
    latest = finished_run(pv, second, {1: 60.0}, age=timedelta(days=1))
    finished_run(pv, first, {1: 70.0}, scale="smoke")
    best = best_measurements(["test-two-hosts"], ["gbm"])["test-two-hosts", "gbm"]
    assert (best.run_id, best.host, best.value) == (str(latest.pk), "second", 60.0)


def test_the_sweep_beside_a_figure_has_the_repetitions_and_the_fit_with_its_quality():
    pv = version()
    _tier, host = linked("epyc", "test-swept", vcpus=8)
    run = finished_run(pv, host, AMDAHL)
    for threads, median in AMDAHL.items():
        for repetition, share in enumerate((0.98, 1.0, 1.02)):
            Measurement.objects.create(run=run, threads=threads, repetition=repetition,
                                       value=median * share, seconds=1.0)  # fmt: skip
        Measurement.objects.create(run=run, threads=threads, repetition=0, warmup=True,
                                   value=1.0, seconds=1.0)  # fmt: skip
    best = best_measurements(["test-swept"], ["gbm"])["test-swept", "gbm"]
    assert isinstance(best, BestMeasurement) and best.measured
    sweep = best.sweep
    assert sweep.medians == AMDAHL
    assert sweep.repetitions[4] == pytest.approx([AMDAHL[4] * s for s in (0.98, 1.0, 1.02)])
    quality = sweep.fit_quality()
    assert quality["model"] == "amdahl"
    assert quality["r2"] == pytest.approx(1.0)
    assert quality["params"]["serial_fraction"] == pytest.approx(0.05, abs=1e-3)


def test_a_tier_between_measured_counts_is_predicted_from_the_shared_fit():
    pv = version()
    _tier, host = linked("epyc", "test-between", vcpus=6)
    finished_run(pv, host, AMDAHL)
    best = best_measurements(["test-between"], ["gbm"])["test-between", "gbm"]
    assert not best.measured and best.fit == best.sweep.fit.model
    assert best.value == pytest.approx(100 * 6 / (1 + 0.05 * 5), rel=0.02)
    assert best.extra["fit_r2"] == best.sweep.fit.r2


def test_many_tiers_cost_the_same_few_queries(django_assert_max_num_queries):
    pv = version()
    for i in range(5):
        _tier, host = linked(f"host-{i}", f"test-tier-{i}", vcpus=2 ** (i % 4))
        finished_run(pv, host, AMDAHL)
    slugs = [f"test-tier-{i}" for i in range(5)]
    for i in range(5, 60):
        make_tier(f"test-tier-{i}", provider="Test")
        slugs.append(f"test-tier-{i}")
    with django_assert_max_num_queries(5):
        found = best_measurements(slugs, ["gbm", "inference"])
    assert sum(isinstance(f, BestMeasurement) for f in found.values()) == 5
    assert len(found) == 120


def test_tiers_without_a_thread_count_read_no_runs(django_assert_num_queries):
    pv = version()
    _tier, host = linked("epyc", "test-no-count", vcpus=None)
    finished_run(pv, host, AMDAHL)
    # the tiers' thread counts and the profiles' versions: no runs, as none can size them
    with django_assert_num_queries(2):
        found = best_measurements(["test-no-count", "test-gone"], ["gbm"])
    assert found["test-no-count", "gbm"].message.code == "benchmarks.tier_without_vcpus"
    assert found["test-gone", "gbm"].message.code == "benchmarks.tier_not_in_catalog"
    # one tier with a count among them: its runs are read (and only its)
    make_tier("test-counted", provider="Test", vcpus=8)
    found = best_measurements(["test-no-count", "test-counted"], ["gbm"], vcpus={"test-counted": 8})
    assert found["test-no-count", "gbm"].message.code == "benchmarks.tier_without_vcpus"
    assert found["test-counted", "gbm"].message.code == "benchmarks.no_sizing_run"


def test_a_winner_the_hosts_read_lacks_is_read_on_its_own():
    """A run confirmed or retired between the batch's reads: its summaries read by id."""
    from benchmarks_app.selectors import HostRuns, _load

    pv = version()
    _tier, host = linked("epyc", "test-late")
    run = finished_run(pv, host, AMDAHL)
    hosts = HostRuns({})  # no versions: nothing read there
    loaded = _load({run.pk}, hosts)[run.pk]
    assert hosts.rows() == {}
    assert loaded.sweep.medians == pytest.approx(AMDAHL)
    assert [s.threads for s in loaded.summaries] == [1, 2, 4, 8]
    assert loaded.run.host == "epyc" and loaded.run.pk == run.pk
