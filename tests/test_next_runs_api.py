"""GET /api/v1/plans/{id}/next-runs on a fresh install with estimates: the ranked runs, each
with cost, what it settles and the two commands; after the run is imported naming the tier
(`import_run --tier`), that tier's figure is measured and the ranking moves on."""

import pytest
from django.core.management import call_command

from tests.support.api import post_json, token_client
from tests.support.next_runs import PLAN, fresh_install_with_estimates
from tests.support.runs import GBM_RUN, RUNS
from tests.test_api_openapi_document import Answers

pytestmark = pytest.mark.django_db


@pytest.fixture
def fresh(owner, settings, own_cache):
    settings.API_RATE_LIMIT_PER_MINUTE = 10_000
    settings.UNCERTAINTY_RATE_LIMIT_PER_MINUTE = 10_000
    fresh_install_with_estimates()
    api = token_client(owner)[0]
    response = post_json(api, "/api/v1/plans", PLAN)
    assert response.status_code == 201, response.content[:300]
    return api, response.json()["id"]


def kinds(api, plan_id):
    body = api.get(f"/api/v1/plans/{plan_id}").json()["comparison"]
    return {
        o["parts"][0]["tier"]: o["parts"][0]["capacity"]["workloads"][0]["basis"]["kind"]
        for o in body["options"]
    }


def test_ranked_runs_with_cost_and_command_then_the_import_moves_it_on(fresh):
    api, plan_id = fresh
    response = api.get(f"/api/v1/plans/{plan_id}/next-runs")
    found = Answers().check("/plans/{id}/next-runs", "get", response)  # as documented
    runs = found["runs"]
    assert runs and [r["rank"] for r in runs] == list(range(1, len(runs) + 1))
    changes = [r["changes"] for r in runs]
    assert changes == sorted(changes, reverse=True) and all(c > 0 for c in changes)
    first = runs[0]
    assert kinds(api, plan_id)[first["tier"]] == "estimate"
    assert first["profile"] == "gbm-xgboost"
    assert first["cost"]["basis"] == "hourly" and float(first["cost"]["amount"]) > 0
    assert first["command"] == (
        ".venv-runner/bin/python -m benchmarks_app.standalone --scale standard "
        "--only gbm-xgboost --out runs/gbm-xgboost.json"
    )
    assert first["bring_back"].endswith(f"--tier {first['tier']}")
    assert first["settles"].startswith("Decides between ") and "% of the draws" in first["settles"]
    assert {m["field"] for m in first["messages"]} == {
        "settles",
        "cost.said",
        "bring_back_said",
        "tier_title",
    }

    # the run is made on that tier and brought back, as the page says
    call_command("import_run", str(RUNS / f"{GBM_RUN}.json"), "--tier", first["tier"])
    assert kinds(api, plan_id)[first["tier"]] == "measured"
    after = api.get(f"/api/v1/plans/{plan_id}/next-runs").json()
    assert first["tier"] not in [r["tier"] for r in after["runs"]]


def test_another_owners_plan_is_not_found(fresh, django_user_model):
    _api, plan_id = fresh
    other = django_user_model.objects.create_user("other", password="pw-other-123")
    assert token_client(other)[0].get(f"/api/v1/plans/{plan_id}/next-runs").status_code == 404


def test_an_import_naming_an_unknown_tier_is_refused_and_imports_nothing(fresh):
    from django.core.management.base import CommandError

    from benchmarks_app.models import Run

    before = Run.objects.count()
    with pytest.raises(CommandError, match="no offered tier has the key aws-nope"):
        call_command("import_run", str(RUNS / f"{GBM_RUN}.json"), "--tier", "aws-nope")
    assert Run.objects.count() == before
