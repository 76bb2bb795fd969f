"""An evaluation reads its evidence in a bounded number of queries, whatever the catalog's size.

The runs are the real ones of tests/fixtures/runs/, copied onto several targets (their
profile versions come with them, as from another installation).

With every process memo and the cache cleared, `evaluation.evaluate(plan)` and the cached
`evaluation.answer(plan)` make at most 10 queries (9 today, the generation read
included) on the default catalog and on one of 2,000+ tiers with runs on several targets;
the whole `POST /api/v1/evaluate` with an API key at most 12: those 10 plus the 2 of the
key (find it, note its use); 11 today.
"""

import pytest
from django.core.cache import cache

from catalog.defaults import load_default_catalog
from catalog.io.importer import import_catalog
from catalog.models import Tier
from changes.services import record
from planner.compute.answer import Answer
from planner.services import evaluation
from planner.services import plans as services
from tests.support.api import post_json, token_client
from tests.support.catalog import csv_bytes, price_record, rate_record
from tests.support.runs import GBM_RUN, INFERENCE_RUN, import_copy

pytestmark = pytest.mark.django_db
# +1 since issue 23: the reference runs estimates scale from (every host's winners, one query)
EVALUATE_QUERIES = 11
AUTH_QUERIES = 2  # the key looked up, its last use noted
VALIDATE_QUERIES = 1  # the currencies a plan may be in, once per data generation and day
GBM = {"kind": "gbm", "trainings_per_month": 20, "rows": 2_000_000, "features": 50, "trees": 100}
INFERENCE = {"kind": "inference", "peak_rps": 50, "p99_ms": 200}
SIZED = {"currency": "USD", "baseline": {"monthly": "480"}, "workloads": [GBM, INFERENCE]}
GENERATED_TIERS = 2_000
VCPUS = (2, 4, 8, 16, 32, 64)


def link_runs(slugs: list[str]) -> None:
    """Copies of the real runs, each on its own target linked to one of `slugs`."""
    for i, slug in enumerate(slugs):
        tier = Tier.objects.get(slug=slug)
        import_copy(GBM_RUN, f"gbm-host-{i}", tier)
        import_copy(INFERENCE_RUN, f"inference-host-{i}", tier)


@pytest.fixture
def default_catalog(own_cache):
    load_default_catalog()
    link_runs(["aws-c5.2xlarge-us-east-1-on-demand", "aws-g5.xlarge-us-east-1-on-demand",
               "hetzner-auction-sb-191830-fsn1-fixed-monthly"])  # fmt: skip


def generated_catalog() -> bytes:
    """2,000 tiers of several sizes, a fifth priced in EUR, and the rate that converts them."""
    records = [rate_record(effective_from="2026-01-02")]
    for i in range(GENERATED_TIERS):
        vcpus = VCPUS[i % len(VCPUS)]
        records.append(
            price_record(
                slug=f"gen-{i:04d}-fixed-monthly", provider="Generated Hosting",
                name=f"box {i}", region="", pricing_model="fixed_monthly", kind="dedicated",
                vcpus=str(vcpus), cores=str(vcpus // 2), ram_gib=str(4 * vcpus),
                amount=str(20 + i % 300), unit="month", currency="EUR" if i % 5 == 0 else "USD",
                effective_from="2026-01-05", source="generated for the query-count test",
            )
        )  # fmt: skip
    return csv_bytes(records)


@pytest.fixture
def large_catalog(own_cache):
    import_catalog(generated_catalog(), "csv")
    # Six targets: four on 2-vCPU tiers (the runs' own thread counts), two on bigger ones.
    link_runs([f"gen-{i:04d}-fixed-monthly" for i in (0, 6, 12, 18, 1, 5)])


def cleared() -> None:
    record("test.new_generation")  # nothing kept in this process for the new generation
    cache.clear()


def sized_numbers(answer: Answer) -> list[str]:
    return [o.parts[0].tier for o in answer.options]


@pytest.mark.usefixtures("default_catalog")
def test_a_sized_plan_on_the_default_catalog_costs_at_most_ten_queries(
    django_assert_max_num_queries,
):
    plan = services.parse(SIZED)
    cleared()
    with django_assert_max_num_queries(EVALUATE_QUERIES):
        answer = evaluation.answer(plan)
    assert answer.options_total + len(answer.no_number) >= 15


@pytest.mark.usefixtures("large_catalog")
def test_a_sized_plan_on_two_thousand_tiers_costs_at_most_ten_queries(
    django_assert_max_num_queries,
):
    assert Tier.objects.count() == GENERATED_TIERS
    plan = services.parse(SIZED)
    cleared()
    with django_assert_max_num_queries(EVALUATE_QUERIES):
        answer = evaluation.answer(plan)
    # The four 2-vCPU tiers with linked runs are sized from them; every other tier says why not.
    assert sorted(sized_numbers(answer)) == [f"gen-{i:04d}-fixed-monthly" for i in (0, 6, 12, 18)]
    assert len(answer.no_number) == GENERATED_TIERS - 4


@pytest.mark.usefixtures("large_catalog")
def test_the_services_evaluate_itself_costs_at_most_ten_queries(django_assert_max_num_queries):
    plan = services.parse(SIZED)
    cleared()
    with django_assert_max_num_queries(EVALUATE_QUERIES):
        comparison = evaluation.evaluate(plan).to_dict()
    assert comparison["options_total"] == 4


@pytest.mark.usefixtures("large_catalog")
def test_the_whole_api_answer_costs_at_most_ten_queries_and_the_keys(
    owner, settings, django_assert_max_num_queries
):
    settings.API_RATE_LIMIT_PER_MINUTE = 10_000
    api = token_client(owner)[0]
    cleared()
    with django_assert_max_num_queries(EVALUATE_QUERIES + AUTH_QUERIES + VALIDATE_QUERIES):
        answer = post_json(api, "/api/v1/evaluate", SIZED)
    assert answer.status_code == 200
    assert answer.json()["options_total"] == 4
