"""Every tier whose CPU the public data covers gets a figure, labelled as an estimate with
its band, through the engine's input gathering; a measured run on a tier replaces its
estimate at the next recompute; tiers it cannot estimate say why.

The run is the real standard-scale gbm-xgboost run in tests/fixtures/runs/ (a 2-core VM
reporting only "AMD EPYC"), imported unlinked, as a manager's first run file would be.
"""

import datetime as dt
from decimal import Decimal

import pytest
from django.core.management import call_command

from benchmarks_app.evidence import BestMeasurement, NoMeasurement
from benchmarks_app.models import Target
from catalog.defaults import load_default_catalog
from catalog.models import Tier
from common.messages import plain
from planner.models import SpeedFactor
from planner.services import inputs
from tests.support.catalog import make_tier
from tests.support.runs import GBM_RUN, RUNS, run_file

pytestmark = pytest.mark.django_db
C5 = "aws-c5.4xlarge-us-east-1-on-demand"
C7A = "aws-c7a.4xlarge-us-east-1-on-demand"
EXTREME = "inmotion-hosting-extreme-dedicated-fixed-monthly"
HETZNER = "hetzner-auction-sb-191830-fsn1-fixed-monthly"
ADVANCED = "inmotion-hosting-advanced-dedicated-fixed-monthly"


@pytest.fixture
def fresh_install_with_one_run():
    load_default_catalog()
    call_command("import_run", str(RUNS / f"{GBM_RUN}.json"))
    return run_file(GBM_RUN)


def gbm(*slugs):
    return inputs.best_measurements(slugs, ["gbm"])


def test_a_c5_tier_gets_an_estimate_with_cpus_ratio_and_band(fresh_install_with_one_run):
    data = fresh_install_with_one_run
    found = gbm(C5)[C5, "gbm"]
    assert isinstance(found, BestMeasurement)
    assert not found.measured and found.fit is None and found.threads == 16
    said = found.extra["estimate"]
    assert said["rung"] == "published_scores"
    assert said["tier_cpu"]["cpu_key"] == "xeon-8275cl"  # the CPU public runs saw on c5
    assert said["reference_cpu"]["how"] == "family"  # the VM names only "AMD EPYC"
    assert said["reference"]["run_id"] == data["run"]["id"]
    low, high = said["band"]
    assert low < 0.5 and high > 2  # model band widened by the family label
    # the figure is the reference's measured median x ratio x curve, nothing else
    k = said["reference"]["threads"]
    median = next(s["median"] for s in data["summaries"] if s["threads"] == k)
    assert found.value == pytest.approx(median * said["ratio"] * said["scaling"], rel=1e-3)
    assert found.provenance["kind"] == "estimate"
    labels = [plain(m) for m in found.estimate_labels()]
    assert labels[0].startswith("estimate from published scores (Spare Cores")
    assert any("only a family label" in label for label in labels)


def test_the_tiers_it_cannot_estimate_say_why(fresh_install_with_one_run):
    found = gbm(EXTREME, HETZNER, ADVANCED)
    extreme = found[EXTREME, "gbm"]
    assert isinstance(extreme, BestMeasurement)  # EPYC 4545P: by its neighbour, said so
    assert extreme.extra["estimate"]["tier_cpu"]["how"] == "neighbour"
    assert extreme.provenance["published_estimate"]["no_public_row"] == [
        {"side": "tier", "cpu": "AMD EPYC 4545P", "nearest_neighbour": "AMD EPYC 4345P",
         "row": "cpu epyc-4345p"}
    ]  # fmt: skip
    assert ("no public row covers AMD EPYC 4545P: a nearest-neighbour estimate, AMD EPYC "
            "4345P standing in for it (band widened)") in [
        plain(m) for m in extreme.estimate_labels()
    ]  # fmt: skip
    hetzner = found[HETZNER, "gbm"]
    assert isinstance(hetzner, NoMeasurement)
    assert hetzner.message.code == "estimates.not_covered"
    assert "no public score covers Intel Core i7-6700" in str(hetzner)
    assert found[ADVANCED, "gbm"].message.code == "benchmarks.tier_without_vcpus"


def test_without_any_run_there_is_nothing_to_scale_from():
    load_default_catalog()
    call_command("load_profiles")
    found = gbm(C5)[C5, "gbm"]
    assert isinstance(found, NoMeasurement)
    assert found.message.code == "estimates.no_reference_run"


def test_a_measured_run_on_the_tier_replaces_its_estimate(fresh_install_with_one_run):
    tier = make_tier("aws-c7a.large", provider="AWS", name="c7a.large", vcpus=2)
    before = gbm(tier.slug)[tier.slug, "gbm"]
    assert not before.measured and before.extra["estimate"]["tier_cpu"]["cpu_key"] == "epyc-9r14"
    target = Target.objects.get()
    target.tier = tier
    target.save()  # staff link the host to the tier: a recorded change, a new generation
    found = gbm(tier.slug)[tier.slug, "gbm"]
    assert "estimate" not in found.extra
    assert found.measured and found.provenance["kind"] == "measured"
    assert found.run_id == fresh_install_with_one_run["run"]["id"]
    assert found.value == next(
        s["median"] for s in fresh_install_with_one_run["summaries"] if s["threads"] == 2
    )


def test_a_declared_speed_factor_is_never_overruled_by_an_estimate(fresh_install_with_one_run):
    assert isinstance(gbm(C5)[C5, "gbm"], BestMeasurement)  # an estimate until staff declare
    SpeedFactor.objects.create(
        tier=Tier.objects.get(slug=C5), relative_to=Tier.objects.get(slug=C7A),
        factor=Decimal("0.8"), unit="throughput_ratio", source="staff test", author="staff",
        date=dt.date(2026, 12, 1),
    )  # fmt: skip
    found = gbm(C5)[C5, "gbm"]
    assert isinstance(found, NoMeasurement)  # the engine applies the declared factor instead
    assert found.message.code == "benchmarks.no_sizing_run"


def test_the_estimates_band_is_the_throughput_range_the_tornado_and_odds_draw(
    fresh_install_with_one_run,
):
    from planner.compute import montecarlo, uncertainty
    from planner.compute.schema import parse_plan

    plan = parse_plan({
        "currency": "USD", "baseline": {"monthly": "2000"}, "candidates": [{"tier": C5}],
        "workloads": [{"kind": "gbm", "trainings_per_month": 200, "rows": 10_000_000,
                       "features": 50, "trees": 100}],
    })  # fmt: skip
    found = gbm(C5)
    low, high = found[C5, "gbm"].extra["estimate"]["band"]
    catalog = inputs.priced_catalog(dt.date(2026, 12, 1), "USD", inputs.current_generation())
    items = uncertainty.inputs(plan, catalog.frame, found, [C5])
    [item] = [i for i in items if i.name == "throughput:gbm"]
    assert (item.source, float(item.low), float(item.high)) == pytest.approx(
        ("estimate", low, high), abs=1e-3
    )
    drawn = montecarlo.draw([item], 2000, seed=1)["throughput:gbm"] / montecarlo.SCALE_DEN
    assert drawn.min() >= low - 1e-3 and drawn.max() <= high + 1e-3
    assert drawn.max() / drawn.min() > 2  # the odds see the whole band, not a bootstrap


def test_the_api_sizes_the_plan_from_the_estimate_and_says_so(owner, settings):
    from tests.support.api import post_json, token_client

    settings.API_RATE_LIMIT_PER_MINUTE = 10_000
    load_default_catalog()
    call_command("import_run", str(RUNS / f"{GBM_RUN}.json"))
    plan = {
        "currency": "USD", "baseline": {"monthly": "3000"},
        "candidates": [{"tier": C5}, {"tier": C7A}, {"tier": HETZNER}],
        "workloads": [{"kind": "gbm", "trainings_per_month": 200, "rows": 2_000_000,
                       "features": 50, "trees": 100}],
    }  # fmt: skip
    body = post_json(token_client(owner)[0], "/api/v1/evaluate", plan).json()
    sized = {o["parts"][0]["tier"]: o for o in body["options"]}
    assert {C5, C7A} <= set(sized)
    basis = sized[C5]["parts"][0]["capacity"]["workloads"][0]["basis"]
    assert basis["kind"] == "estimate" and basis["published_estimate"]["band"]
    assert basis["run_id"]  # the measured run it scales from
    [missing] = [n for n in body["no_number"] if n["tier"] == HETZNER]
    assert "no public score covers Intel Core i7-6700" in " ".join(missing["reasons"])


def test_a_run_on_the_same_cpu_model_is_the_reference_before_any_other_host(
    fresh_install_with_one_run,
):
    """The ladder's second rung: a host whose CPU model is the tier's (c5.4xlarge: the Xeon
    8275CL public runs saw) is scaled from before the nearer-scored one, and said so."""
    from benchmarks_app.run_files import import_run
    from tests.support.runs import relinked

    same = relinked(fresh_install_with_one_run, "xeon-8275cl-box")
    for fingerprint in (same["run"]["fingerprint"], same["target"]["fingerprint"]):
        fingerprint["cpu_model"] = "Intel(R) Xeon(R) Platinum 8275CL CPU @ 3.00GHz"
    import_run(same)
    found = gbm(C5)[C5, "gbm"]
    said = found.extra["estimate"]
    assert not found.measured and said["rung"] == "same_cpu_model"
    assert said["reference"]["host"] == "xeon-8275cl-box"
    assert said["reference_cpu"]["cpu_key"] == said["tier_cpu"]["cpu_key"] == "xeon-8275cl"
    [label, *_] = [plain(m) for m in found.estimate_labels()]
    assert label.startswith("estimate: measured on the same CPU model (Intel Xeon Platinum")
    assert "on xeon-8275cl-box, scaled to the tier's threads" in label
    # a tier of another CPU still scales from published scores, never from this rung
    other = gbm(C7A)[C7A, "gbm"].extra["estimate"]
    assert other["rung"] == "published_scores"


def test_the_batch_reads_the_references_with_its_winners_once(
    fresh_install_with_one_run, django_assert_num_queries
):
    """The measured tier's winning run and the estimates' references come from one read of
    the hosts' runs: the same figures and reasons as the references read on their own."""
    from benchmarks_app.estimate_selectors import estimate_into
    from benchmarks_app.selectors import best_measurements, measured_batch

    tier = make_tier("aws-c7a.large", provider="AWS", name="c7a.large", vcpus=2)
    target = Target.objects.get()
    target.tier = tier
    target.save()
    slugs = [tier.slug, C5, EXTREME, HETZNER]
    factors = inputs.factor_index()
    vcpus, cpus = inputs.tier_cpus(slugs)
    # the profiles' versions, the linked runs, the hosts' runs, the winner's repetitions
    with django_assert_num_queries(4):
        found, hosts = measured_batch(slugs, ["gbm"], vcpus=vcpus)
        estimate_into(found, factors, cpus, vcpus, hosts)
    alone = best_measurements(slugs, ["gbm"], vcpus=vcpus)
    estimate_into(alone, factors, cpus, vcpus)  # its own reference read
    assert found[tier.slug, "gbm"].measured
    assert (
        found[C5, "gbm"].extra["estimate"]["reference"]["run_id"] == found[tier.slug, "gbm"].run_id
    )
    for slug in slugs:
        assert found[slug, "gbm"] == alone[slug, "gbm"] or (
            plain(found[slug, "gbm"].message) == plain(alone[slug, "gbm"].message)
        )
