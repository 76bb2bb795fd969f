"""What the API returns as a plan's `inputs` (stored or shared) goes back in as it is: every
null in it is one the documented Plan schema allows, and posting it stores the same plan."""

from pathlib import Path
from typing import Any

import pytest
import yaml

from planner.models import Plan
from tests.support.api import TEST_BOX, fixed_plan, post_json

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("one_box_catalog")]
DOC = Path(__file__).resolve().parent.parent / "docs" / "openapi.yaml"
WORKLOADS = [
    {"kind": "gbm", "trainings_per_month": 4, "rows": 10_000, "features": 10, "trees": 10},
    {"kind": "deep_learning", "task": "diffusion"},
]


def documented_plan() -> dict:
    return yaml.safe_load(DOC.read_text())["components"]["schemas"]["Plan"]


def nulls(value: Any, path: tuple = ()) -> list[tuple]:
    if value is None:
        return [path]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in nulls(v, (*path, k))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in nulls(v, (*path, i))]
    return []


def schema_at(schema: dict, inputs: Any, path: tuple) -> dict:
    """The documented schema of the value at `path`, choosing union members as the value does."""
    for step in path:
        schema = schema["properties"][step] if isinstance(step, str) else schema["items"]
        inputs = inputs[step]
        if "oneOf" in schema:  # a workload, by its kind
            schema = next(
                s for s in schema["oneOf"] if inputs["kind"] in s["properties"]["kind"]["enum"]
            )
        elif "anyOf" in schema:  # a candidate, with parts or written inline
            schema = schema["anyOf"][0 if "parts" in inputs else 1]
    return schema


def allows_null(schema: dict) -> bool:
    kinds = schema.get("type")
    return (
        kinds == "null"
        or (isinstance(kinds, list) and "null" in kinds)
        or None in schema.get("enum", ())
    )


def stored_inputs(api) -> tuple[str, dict]:
    code = post_json(api, "/api/v1/plans", fixed_plan(TEST_BOX, workloads=WORKLOADS)).json()["id"]
    return code, api.get(f"/api/v1/plans/{code}").json()["inputs"]


def test_every_null_a_stored_plans_inputs_hold_is_one_the_document_allows(api):
    _code, inputs = stored_inputs(api)
    found = nulls(inputs)
    assert ("baseline", "tier") in found
    assert ("monthly", "ops_rate") in found
    assert ("candidates", 0, "parts", 0, "gpu_hours_per_month") in found
    assert ("workloads", 1, "gpu_hours_per_month") in found
    plan = documented_plan()
    refused = [p for p in found if not allows_null(schema_at(plan, inputs, p))]
    assert refused == []


def test_a_stored_plans_inputs_post_back_as_the_same_plan(api):
    _code, inputs = stored_inputs(api)
    again = post_json(api, "/api/v1/plans", inputs)
    assert again.status_code == 201
    assert Plan.objects.get(code=again.json()["id"]).inputs == inputs


def test_a_shares_inputs_post_back_as_the_same_plan(api):
    code, inputs = stored_inputs(api)
    token = post_json(api, f"/api/v1/plans/{code}/shares", {}).json()["token"]
    shared = api.get(f"/api/v1/shared/{token}").json()["inputs"]
    assert shared == inputs
    again = post_json(api, "/api/v1/evaluate", shared)
    assert again.status_code == 200
