# ruff: noqa: RUF003  (hand calculations written with × and ÷)
"""A plan with workloads is sized from a real standard-scale run of a target linked to a tier.

The run file in tests/fixtures/runs/ was measured on a real machine (its fingerprint is
in the file) with `run_profile`, exported with `export_run` and is imported here with
`import_run`, exactly as runs from another installation are. Its values are never edited.
"""

import datetime as dt
import json
import math
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.management import call_command

from benchmarks_app.models import Run
from planner.models import SpeedFactor
from tests.support.api import post_json, token_client
from tests.support.catalog import add_price, make_tier
from tests.support.provenance import unresolved

pytestmark = pytest.mark.django_db
RUN_FILE = Path(__file__).resolve().parent / "fixtures" / "runs" / "gbm-xgboost-standard.json"
MEASURED, ESTIMATED = "test-measured-box", "test-estimated-box"
# Heavy enough to need several servers: 4,000 trainings a month on 20 M rows.
WORKLOAD = {
    "kind": "gbm",
    "trainings_per_month": 4000,
    "rows": 20_000_000,
    "features": 50,
    "trees": 100,
}


@pytest.fixture
def measured_run() -> dict:
    return json.loads(RUN_FILE.read_text())


@pytest.fixture
def linked(measured_run, settings):
    """Import the run file and link its target to a test tier with as many threads as it ran."""
    settings.API_RATE_LIMIT_PER_MINUTE = 10_000
    call_command("import_run", str(RUN_FILE))
    run = Run.objects.select_related("target").get(pk=measured_run["run"]["id"])
    threads = max(s["threads"] for s in measured_run["summaries"])
    tier = make_tier(MEASURED, provider="Test", kind="dedicated", pricing_model="fixed_monthly",
                     vcpus=threads, ram_gib=Decimal(16))  # fmt: skip
    add_price(tier, "40", "2026-01-01", unit="month", source="test price list")
    run.target.tier = tier
    run.target.save()
    return run, tier


def sized_plan(*slugs: str) -> dict:
    return {
        "currency": "USD",
        "baseline": {"monthly": "480"},
        "candidates": [{"tier": s} for s in slugs],
        "workloads": [WORKLOAD],
    }


def test_the_fixture_is_a_real_standard_run_with_its_fingerprint(measured_run):
    assert measured_run["format"] == "planner-run"
    assert measured_run["run"]["scale"] == "standard"
    assert measured_run["run"]["status"] == "succeeded"
    assert measured_run["profile"]["name"] == "gbm-xgboost"
    fingerprint = measured_run["run"]["fingerprint"]
    assert fingerprint["cpu_model"] and fingerprint.get("usable_cpus")
    assert all(s["n"] >= 3 for s in measured_run["summaries"])


def test_a_gbm_plan_is_sized_from_the_imported_run(owner, linked, measured_run):
    run, tier = linked
    response = post_json(token_client(owner)[0], "/api/v1/evaluate", sized_plan(MEASURED))
    assert response.status_code == 200, response.content[:500]
    body = response.json()
    [option] = body["options"]
    assert option["figure"] == "measured"
    # by hand, from the run file: hours per training = R·F·T ÷ X(k) ÷ 3600 at k threads
    k = tier.vcpus
    x = next(s["median"] for s in measured_run["summaries"] if s["threads"] == k)
    hours = 20_000_000 * 50 * 100 / x / 3600
    threads_needed = 4000 * hours * k / (730 * 0.7)
    servers = math.ceil(threads_needed / k)
    assert servers > 1
    capacity = option["parts"][0]["capacity"]
    assert capacity["threads_needed"] == pytest.approx(threads_needed, rel=1e-9)
    assert option["servers"] == capacity["servers"] == servers
    assert option["money"]["monthly"][0] == f"{Decimal(40) * servers:.2f}"
    [basis] = [w["basis"] for w in capacity["workloads"]]
    assert basis["run_id"] == str(run.pk)
    assert basis["host"] == run.target.name
    assert basis["profile"] == f"gbm-xgboost {measured_run['profile']['version']}"
    assert basis["scale"] == "standard"
    assert option["provenance"]["runs"] == [basis]
    assert unresolved(body) == []


def test_a_tier_with_a_declared_speed_factor_is_an_estimate_with_its_basis(owner, linked):
    _run, tier = linked
    other = make_tier(ESTIMATED, provider="Test", kind="dedicated", pricing_model="fixed_monthly",
                      vcpus=tier.vcpus, ram_gib=Decimal(16))  # fmt: skip
    add_price(other, "30", "2026-01-01", unit="month", source="test price list")
    SpeedFactor.objects.create(
        tier=other, relative_to=tier, factor=Decimal("0.5"),
        unit=SpeedFactor.Unit.THROUGHPUT_RATIO, source="vendor benchmark sheet",
        author="staff", date=dt.date(2026, 5, 1),
    )  # fmt: skip
    body = post_json(
        token_client(owner)[0], "/api/v1/evaluate", sized_plan(MEASURED, ESTIMATED)
    ).json()
    options = {o["parts"][0]["tier"]: o for o in body["options"]}
    estimated = options[ESTIMATED]
    assert estimated["figure"] == "estimate"
    [estimate] = estimated["provenance"]["estimates"]
    assert estimate["speed_factor"]["source"] == "vendor benchmark sheet"
    assert estimate["reference"]["run_id"] == options[MEASURED]["provenance"]["runs"][0]["run_id"]
    # half the throughput: twice the thread-hours of the measured tier
    need = {slug: o["parts"][0]["capacity"]["threads_needed"] for slug, o in options.items()}
    assert need[ESTIMATED] == pytest.approx(2 * need[MEASURED], rel=1e-9)
    assert unresolved(body) == []


def test_an_unlinked_tier_gets_no_number_and_says_why(owner, linked):
    lonely = make_tier("test-lonely-box", provider="Test", kind="dedicated",
                       pricing_model="fixed_monthly", vcpus=2, ram_gib=Decimal(16))  # fmt: skip
    add_price(lonely, "10", "2026-01-01", unit="month")
    body = post_json(
        token_client(owner)[0], "/api/v1/evaluate", sized_plan(MEASURED, "test-lonely-box")
    ).json()
    assert [o["parts"][0]["tier"] for o in body["options"]] == [MEASURED]
    [entry] = [n for n in body["no_number"] if n["tier"] == "test-lonely-box"]
    assert "no succeeded standard or full run" in " ".join(entry["reasons"])


INFERENCE_FILE = RUN_FILE.with_name("inference-tabular-standard.json")


def test_an_inference_plan_is_sized_from_the_measured_service_times(owner, linked):
    _run, tier = linked
    call_command("import_run", str(INFERENCE_FILE))
    measured = json.loads(INFERENCE_FILE.read_text())
    plan = sized_plan(MEASURED)
    plan["workloads"] = [{"kind": "inference", "peak_rps": 500, "p99_ms": 20}]
    body = post_json(token_client(owner)[0], "/api/v1/evaluate", plan).json()
    [option] = body["options"]
    [workload] = option["parts"][0]["capacity"]["workloads"]
    summary = next(s for s in measured["summaries"] if s["threads"] == tier.vcpus)
    assert workload["seconds_per_unit"] == pytest.approx(summary["extra"]["mean_s"])
    # stable at least: c > λ × mean service time; and the simulated p99 meets the bound
    assert workload["workers"] >= math.ceil(500 * summary["extra"]["mean_s"])
    assert workload["simulated"] is True
    assert workload["p99_ms_sim"] <= 20
    assert workload["basis"]["run_id"] == measured["run"]["id"]
    assert workload["basis"]["profile"] == "inference-tabular 1.0.0"
    assert unresolved(body) == []
