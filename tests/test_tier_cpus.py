"""The evidence read's thread counts and CPUs (`inputs.tier_cpus`): taken from the catalog
frame the plan is priced on, the tiers it does not hold read in one query, the same values
as the tiers' rows; and the tier index (`inputs.tier_index`): the offered tiers' keys and
their declared speed factors."""

import datetime as dt
from decimal import Decimal

import pytest
from django.core.management import call_command

from catalog.defaults import load_default_catalog
from catalog.models import Tier
from catalog.pricing import catalog_frame
from changes import memo
from common.messages import plain
from planner.compute.schema import PlanValidationError
from planner.models import SpeedFactor
from planner.services import inputs
from tests.support.catalog import add_price, make_tier
from tests.support.runs import GBM_RUN, RUNS

pytestmark = pytest.mark.django_db
AS_OF = dt.date(2026, 12, 1)


def rows_of(slugs: list[str]) -> tuple[dict, dict]:
    """The oracle: each tier's row as the ORM reads it, retired or not."""
    tiers = Tier.objects.filter(slug__in=slugs).select_related("provider")
    return (
        {t.slug: t.vcpus for t in tiers},
        {t.slug: (t.provider.name, t.name, t.cpu_model) for t in tiers},
    )


@pytest.fixture
def catalog():
    load_default_catalog()
    no_count = make_tier("test-no-count", provider="Test Hosting", vcpus=None, cpu_model="")
    add_price(no_count, "10", "2026-01-01", unit="month")
    make_tier("test-unpriced", provider="Test Hosting", name="unpriced box", cpu_model="EPYC 7543")
    retired = make_tier("test-retired", provider="AWS", vcpus=4, retired=True)
    add_price(retired, "1", "2026-01-01")
    return catalog_frame(AS_OF, "USD")


def test_the_frame_gives_every_tier_it_holds_as_its_row_says(catalog, django_assert_num_queries):
    slugs = catalog["slug"].tolist()
    assert "test-no-count" in slugs and "test-retired" not in slugs
    with django_assert_num_queries(0):
        vcpus, cpus = inputs.tier_cpus(slugs, catalog)
    assert (vcpus, cpus) == rows_of(slugs)
    assert vcpus["test-no-count"] is None  # the frame's missing Int64, as the row's None
    assert all(type(n) is int for n in vcpus.values() if n is not None)
    assert all(type(part) is str for cpu in cpus.values() for part in cpu)


def test_the_tiers_the_frame_lacks_are_read_in_one_query(catalog, django_assert_num_queries):
    asked = ["test-unpriced", "test-retired", "test-gone", "aws-c5.4xlarge-us-east-1-on-demand"]
    with django_assert_num_queries(1):
        vcpus, cpus = inputs.tier_cpus(asked, catalog)
    for slug in ("test-unpriced", "test-retired", "aws-c5.4xlarge-us-east-1-on-demand"):
        assert (vcpus[slug], cpus[slug]) == (rows_of([slug])[0][slug], rows_of([slug])[1][slug])
    assert "test-gone" not in vcpus and "test-gone" not in cpus  # not in the catalog


def test_without_a_frame_the_asked_tiers_are_read(catalog, django_assert_num_queries):
    asked = ["test-no-count", "test-unpriced", "test-retired", "test-gone"]
    with django_assert_num_queries(1):
        found = inputs.tier_cpus(asked)
    assert found == rows_of(asked)


def test_the_index_holds_the_offered_tiers_and_the_factors_theirs(catalog):
    for slug in ("test-unpriced", "test-retired"):
        SpeedFactor.objects.create(
            tier=Tier.objects.get(slug=slug),
            relative_to=Tier.objects.get(slug="aws-c5.4xlarge-us-east-1-on-demand"),
            factor=Decimal("1.5"), unit="throughput_ratio", source="test", author="staff",
            date=dt.date(2026, 1, 1),
        )  # fmt: skip
    offered = inputs._read_index().offered
    assert offered == set(Tier.objects.filter(retired=False).values_list("slug", flat=True))
    assert "test-retired" not in offered and "test-unpriced" in offered
    assert inputs._read_factors() == {
        "test-unpriced": SpeedFactor.objects.get(tier__slug="test-unpriced").to_plain()
    }


def test_validation_reads_the_offered_tiers_only_for_a_plan_that_names_one(
    catalog, django_assert_num_queries
):
    from planner.services import plans as services

    sized = {"currency": "USD", "baseline": {"monthly": "480"},
             "workloads": [{"kind": "gbm", "trainings_per_month": 20, "rows": 2_000_000,
                            "features": 50, "trees": 100}]}  # fmt: skip
    named = {"currency": "USD", "baseline": {"monthly": "480"},
             "candidates": [{"tier": "test-unpriced", "count": 1}]}  # fmt: skip
    services.parse(sized)  # the generation and the currencies, kept
    memo.drop()
    services.known_currencies()
    with django_assert_num_queries(1):  # the generation
        services.parse(sized)
    with django_assert_num_queries(2):  # the generation, the offered tiers
        assert services.parse(named).candidates[0].parts[0].tier == "test-unpriced"
    refused = {**named, "candidates": [{"tier": "test-retired", "count": 1}]}
    with pytest.raises(PlanValidationError) as caught:
        services.parse(refused)
    assert caught.value.errors == {"candidates[0].tier": ["unknown tier 'test-retired'"]}


def test_a_plan_of_priced_tiers_reads_no_tier_index(catalog, django_assert_num_queries):
    SpeedFactor.objects.create(
        tier=Tier.objects.get(slug="test-unpriced"),
        relative_to=Tier.objects.get(slug="aws-c5.4xlarge-us-east-1-on-demand"),
        factor=Decimal("1.5"), unit="throughput_ratio", source="test", author="staff",
        date=dt.date(2026, 1, 1),
    )  # fmt: skip
    prices = inputs.engine.Prices(catalog, "USD")
    generation = inputs.current_generation()
    factors = inputs.factor_index(generation)
    priced = ["aws-c5.4xlarge-us-east-1-on-demand", "test-no-count"]
    with django_assert_num_queries(0):
        assert inputs._factors_of(priced, factors, prices, generation) == []
    with django_assert_num_queries(2):  # the offered tiers; the retired tier's factor
        rows = inputs._factors_of(
            ["test-unpriced", "test-retired", *priced], factors, prices, generation
        )
    assert rows == [factors["test-unpriced"]]


def test_the_evidence_is_the_same_read_from_the_frame_or_the_rows(catalog):
    """A workload-sized plan's evidence (the default catalog with one real run, so the
    estimates' every rung is taken): the same with the frame as with every tier's row."""
    call_command("import_run", str(RUNS / f"{GBM_RUN}.json"))
    slugs = [*catalog["slug"].tolist(), "test-unpriced", "test-retired", "test-gone"]
    found = inputs.best_measurements(slugs, ["gbm", "inference"], frame=catalog)
    memo.drop()  # read again, not handed the kept one
    alone = inputs.best_measurements(slugs, ["gbm", "inference"])
    assert alone is not found
    assert sum(1 for _s, _c, figure in found.figures()) > 10  # estimates among them
    for key in found:
        assert found[key] == alone[key] or plain(found[key].message) == plain(alone[key].message)


def test_a_plan_naming_tiers_reads_them_once_even_where_nothing_is_kept(
    catalog, monkeypatch, django_assert_num_queries
):
    from planner.services import plans as services

    monkeypatch.setattr(inputs, "kept", lambda _g, _n, _k, compute, **_kw: compute())
    tiers = ["test-unpriced", "test-no-count", "aws-c5.4xlarge-us-east-1-on-demand"]
    named = {"currency": "USD", "baseline": {"monthly": "480"},
             "candidates": [{"tier": tier, "count": 1} for tier in tiers]}  # fmt: skip
    with django_assert_num_queries(3):  # the generation, the currencies, the offered tiers
        services.parse(named)
