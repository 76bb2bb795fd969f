"""docs/openapi.yaml is generated from the code, kept up to date, and true of real answers.

`python manage.py openapi docs/openapi.yaml` writes it from the endpoints, their response
models and the plan schema; this test regenerates it in memory and fails until someone
does (CI's lint stage runs the command with `--check` too). Real answers of every endpoint,
refusals included, are then checked against the document with jsonschema.
"""

import json
import re
from decimal import Decimal
from pathlib import Path

import pytest
import yaml
from django.core.management import CommandError, call_command
from django.test import Client
from jsonschema import Draft202012Validator, FormatChecker
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from benchmarks_app.models import Run
from catalog.defaults import load_default_catalog
from planner.api.openapi import render
from planner.compute.schema import SCHEMA_BOUNDS, json_schema
from tests.support.api import csrf_token, post_json, session_client, token_client
from tests.support.catalog import add_price, make_tier

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "openapi.yaml"
RUN_FILE = ROOT / "tests" / "fixtures" / "runs" / "gbm-xgboost-standard.json"
EXTREME = "inmotion-hosting-extreme-dedicated-fixed-monthly"
MEASURED = "test-measured-box"


def document() -> dict:
    return yaml.safe_load(DOC.read_text())


def test_the_document_is_what_the_code_generates():
    assert DOC.read_text() == render(), (
        "docs/openapi.yaml is out of date: python manage.py openapi docs/openapi.yaml"
    )


def test_the_check_command_fails_on_a_stale_document(tmp_path):
    stale = tmp_path / "openapi.yaml"
    stale.write_text(DOC.read_text().replace("planner JSON API", "an old title"))
    with pytest.raises(CommandError, match="out of date"):
        call_command("openapi", str(stale), "--check")
    call_command("openapi", str(stale))
    call_command("openapi", str(stale), "--check")


def test_the_plan_schema_in_the_document_is_the_codes():
    schema = json_schema()
    schema.pop("$schema", None)
    assert document()["components"]["schemas"]["Plan"] == schema


def _field(node: dict, name: str) -> dict:
    """The property `name` of an object schema, looking through arrays, anyOf and oneOf."""
    while "properties" not in node:
        node = node["items"] if "items" in node else (node.get("anyOf") or node["oneOf"])[0]
    return node["properties"][name]


def test_every_bounded_plan_field_is_documented():
    plan = document()["components"]["schemas"]["Plan"]
    workload_kinds = {
        s["properties"]["kind"]["enum"][0]: s
        for s in plan["properties"]["workloads"]["items"]["oneOf"]
    }
    for path, spec in SCHEMA_BOUNDS.items():
        node = plan
        for part in path.split("."):
            if part.startswith("workloads[kind="):
                node = workload_kinds[part.removeprefix("workloads[kind=").removesuffix("]")]
            else:
                node = _field(node, part.removesuffix("[]"))
        if spec.max is not None and spec.type not in ("str",):
            assert node["maximum"] == spec.max, path
        if spec.min is not None:
            assert node.get("minimum", node.get("exclusiveMinimum")) == spec.min, path


def test_every_api_route_is_documented_with_its_methods():
    from django.urls import URLPattern

    from planner.api import urls as api_urls

    paths = document()["paths"]
    for pattern in api_urls.urlpatterns:
        assert isinstance(pattern, URLPattern)
        route = "/" + re.sub(r"<str:(\w+)>", r"{\1}", str(pattern.pattern))
        assert route in paths, route
    assert {path: sorted(ops) for path, ops in paths.items()} == {
        "/bills": ["get", "post"],
        "/bills/uploads/{id}": ["get"],
        "/bills/{id}": ["delete", "get"],
        "/bills/{id}/baseline": ["get"],
        "/evaluate": ["post"],
        "/plans": ["get", "post"],
        "/plans/{id}": ["get", "patch", "put"],
        "/plans/{id}/shares": ["get", "post"],
        "/plans/{id}/shares/{token}": ["delete"],
        "/plans/{id}/uncertainty": ["get"],
        "/plans/{id}/next-runs": ["get"],
        "/shared/{token}": ["get"],
    }


# --- real answers against the document ------------------------------------------------------


class Answers:
    """Real responses, each checked against the document's schema for its route and status."""

    def __init__(self) -> None:
        doc = document()
        resource = Resource.from_contents(doc, default_specification=DRAFT202012)
        self.registry = Registry().with_resource("urn:openapi", resource)
        self.paths = doc["paths"]
        self.seen: set[tuple[str, str, int]] = set()

    def check(self, route: str, method: str, response) -> dict | None:
        documented = self.paths[route][method]["responses"]
        status = str(response.status_code)
        assert status in documented, (route, method, status, response.content[:300])
        self.seen.add((route, method, response.status_code))
        spec = documented[status]
        for header in spec.get("headers", {}):
            assert header in response, (route, method, status, header)
        if "content" not in spec:
            assert response.content == b""
            return None
        body = json.loads(response.content)
        pointer = "/".join(
            p.replace("~", "~0").replace("/", "~1")
            for p in ("paths", route, method, "responses", status, "content",
                      "application/json", "schema")
        )  # fmt: skip
        validator = Draft202012Validator(
            {"$ref": f"urn:openapi#/{pointer}"},
            registry=self.registry,
            format_checker=FormatChecker(),
        )
        problems = [_problem(e) for e in validator.iter_errors(body)]
        assert problems == [], (route, method, status, problems[:5])
        return body


def _problem(error) -> str:
    """Where and what, down to the deepest reason of an anyOf."""
    while error.context:
        error = min(error.context, key=lambda e: len(e.context))
    return f"{'/'.join(map(str, error.absolute_path))}: {error.message[:200]}"


@pytest.fixture
def measured_tier(settings):
    """The default catalog and a tier with a real imported standard run, so a plan gets
    measured capacity, estimates-free provenance, no_number tiers and FX rows."""
    settings.API_RATE_LIMIT_PER_MINUTE = 10_000
    load_default_catalog()
    call_command("import_run", str(RUN_FILE))
    measured = json.loads(RUN_FILE.read_text())
    run = Run.objects.select_related("target").get(pk=measured["run"]["id"])
    tier = make_tier(MEASURED, provider="Test", kind="dedicated", pricing_model="fixed_monthly",
                     vcpus=max(s["threads"] for s in measured["summaries"]),
                     ram_gib=Decimal(16))  # fmt: skip
    add_price(tier, "40", "2026-01-01", unit="month", source="test price list")
    run.target.tier = tier
    run.target.save()


PLANS = {
    "fixed": {
        "currency": "USD",
        "baseline": {"monthly": "480"},
        "candidates": [{"tier": EXTREME, "count": 1}],
        "one_time": {"migration_hours": 5, "migration_rate": 100},
    },
    "sized": {
        "currency": "EUR",
        "baseline": {"monthly": "480"},
        "candidates": [{"tier": MEASURED}, {"tier": EXTREME}, {"tier": MEASURED, "count": 2}],
        "workloads": [
            {"kind": "gbm", "trainings_per_month": 400, "rows": 2_000_000, "features": 50,
             "trees": 100},
            {"kind": "deep_learning", "task": "llm_finetune", "gpu_hours_per_month": 100},
            {"kind": "inference", "peak_rps": 50, "p99_ms": 100},
        ],
    },
    "every_tier": {
        "currency": "USD",
        "baseline": {"tier": EXTREME, "count": 2},
        "workloads": [{"kind": "gbm", "trainings_per_month": 40, "rows": 200_000,
                       "features": 50, "trees": 100}],
    },
}  # fmt: skip


@pytest.mark.django_db
def test_real_answers_of_every_endpoint_match_the_document(owner, other_user, measured_tier):
    answers = Answers()
    api, _key = token_client(owner)
    for name, plan in PLANS.items():
        body = answers.check("/evaluate", "post", post_json(api, "/api/v1/evaluate", plan))
        assert body["options"] or body["no_number"], name
    created = answers.check("/plans", "post", post_json(api, "/api/v1/plans", PLANS["sized"]))
    plan_id = created["id"]
    answers.check("/plans", "get", api.get("/api/v1/plans"))
    answers.check("/plans/{id}", "get", api.get(f"/api/v1/plans/{plan_id}"))
    odds = answers.check("/plans/{id}/uncertainty", "get",
                         api.get(f"/api/v1/plans/{plan_id}/uncertainty?seed=7"))  # fmt: skip
    assert odds["one_way"] and odds["montecarlo"]["seed"] == 7
    runs = answers.check("/plans/{id}/next-runs", "get",
                         api.get(f"/api/v1/plans/{plan_id}/next-runs"))  # fmt: skip
    assert runs["runs"] == []  # every figure measured: no run to make
    share = answers.check("/plans/{id}/shares", "post", api.post(f"/api/v1/plans/{plan_id}/shares"))
    answers.check("/plans/{id}/shares", "get", api.get(f"/api/v1/plans/{plan_id}/shares"))
    shared_url = f"/api/v1/shared/{share['token']}"
    answers.check("/shared/{token}", "get", Client().get(shared_url))
    revoke = f"/api/v1/plans/{plan_id}/shares/{share['token']}"
    answers.check("/plans/{id}/shares/{token}", "delete", api.delete(revoke))
    answers.check("/shared/{token}", "get", Client().get(shared_url))  # 404 once revoked
    answers.check("/plans/{id}/shares", "get", api.get(f"/api/v1/plans/{plan_id}/shares"))

    # Refusals, in the one shape.
    answers.check("/evaluate", "post", post_json(api, "/api/v1/evaluate", {"currency": "usd"}))
    answers.check("/evaluate", "post", post_json(api, "/api/v1/evaluate", b'{"a": 1, "a": 2}'))
    answers.check("/plans", "post", post_json(Client(), "/api/v1/plans", PLANS["fixed"]))
    answers.check("/plans", "post", post_json(session_client(owner), "/api/v1/plans", {}))
    big = json.dumps({**PLANS["fixed"], "name": "x" * 300_000})
    answers.check("/plans", "post", post_json(api, "/api/v1/plans", big))
    answers.check("/plans", "post", api.post("/api/v1/plans", "x", content_type="text/plain"))
    theirs, _ = token_client(other_user)
    answers.check("/plans/{id}", "get", theirs.get(f"/api/v1/plans/{plan_id}"))
    answers.check("/plans/{id}/uncertainty", "get",
                  theirs.get(f"/api/v1/plans/{plan_id}/uncertainty"))  # fmt: skip
    answers.check("/plans/{id}/uncertainty", "get",
                  api.get(f"/api/v1/plans/{plan_id}/uncertainty?seed=-1"))  # fmt: skip
    answers.check("/plans/{id}/shares", "post", theirs.post(f"/api/v1/plans/{plan_id}/shares"))
    answers.check("/plans/{id}/shares/{token}", "delete", theirs.delete(revoke))
    session = session_client(owner)
    token = csrf_token(session)
    answers.check(
        "/plans/{id}/shares", "post",
        session.post(f"/api/v1/plans/{plan_id}/shares", headers={"X-CSRFToken": token}),
    )  # fmt: skip

    statuses = {status for _route, _method, status in answers.seen}
    assert statuses == {200, 201, 204, 400, 401, 403, 404, 413, 415}


@pytest.mark.django_db
def test_the_rate_limit_answer_matches_the_document(owner, settings):
    settings.API_RATE_LIMIT_PER_MINUTE = 1
    api, _key = token_client(owner)
    answers = Answers()
    for _ in range(5):  # over the limit by the second call (the third across a new minute)
        response = api.get("/api/v1/plans")
        if response.status_code == 429:
            break
    answers.check("/plans", "get", response)
    assert response.status_code == 429
