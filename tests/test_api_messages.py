# ruff: noqa: RUF001, RUF003  (the engine's × in the labels under test)
"""The API gives each sentence twice: the English string it always gave, and beside it, in
the object's `messages`, the same sentence as {field, code, params, text}."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.support.api import TEST_BOX, fixed_plan, post_json

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("one_box_catalog")]

GBM = {"kind": "gbm", "trainings_per_month": 20, "rows": 2_000_000, "features": 200,
       "trees": 500}  # fmt: skip
DOC = Path(__file__).resolve().parent.parent / "docs" / "openapi.yaml"
STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def evaluate(api, plan: dict) -> dict:
    response = post_json(api, "/api/v1/evaluate", plan)
    assert response.status_code == 200, response.content[:500]
    return response.json()


def at(data: Any, path: str) -> Any:
    """The value at "parts[0].capacity.reasons[1]" inside `data`."""
    for name, index in STEP.findall(path):
        data = data[name] if name else data[int(index)]
    return data


def objects_with_messages(body: dict) -> list[dict]:
    return [
        body["baseline"], body["headline"], *body["options"], *body["no_number"],
        *body["stays_on_gpu"], *body["price_performance"],
    ]  # fmt: skip


def test_an_options_label_notes_and_payback_come_with_their_messages(api):
    body = evaluate(
        api, fixed_plan(TEST_BOX, one_time={"migration_hours": 5, "migration_rate": 100})
    )
    [option] = body["options"]
    said = {m["field"]: m for m in option["messages"]}
    assert option["label"] == "1 × test-box"
    assert said["label"]["code"] == "engine.option_fixed"
    assert said["label"]["params"] == {"count": 1, "tier": {"tier": TEST_BOX, "name": TEST_BOX}}
    assert said["label"]["text"] == option["label"]
    assert option["money"]["payback_label"] == "month 2"
    assert said["money.payback_label"] == {
        "field": "money.payback_label", "code": "engine.payback_month", "params": {"month": 2},
        "text": "month 2",
    }  # fmt: skip


def test_the_headline_sentence_is_its_messages_joined(api):
    body = evaluate(api, fixed_plan(TEST_BOX))
    headline = body["headline"]
    sentences = [m for m in headline["messages"] if m["field"] == "sentence"]
    assert [m["code"] for m in sentences] == [
        "engine.headline_saves_fraction",  # immediately: "(0.00 months)"
        "engine.headline_not_entered",
    ]
    assert " ".join(m["text"] for m in sentences) == headline["sentence"]
    saves = sentences[0]["params"]
    assert saves["monthly"] == {"amount": "380.00", "currency": "USD"}
    assert saves["when"] == {"code": "engine.payback_immediately", "params": {}}
    assert headline["sentence"].startswith("1 × test-box saves 380.00 USD a month (4560.00 a year)")
    payback = [m for m in headline["messages"] if m["field"] == "payback_label"]
    assert [m["text"] for m in payback] == [headline["payback_label"]] == ["immediately"]


def test_a_tier_without_a_figure_says_why_in_both_forms(api):
    body = evaluate(
        api, fixed_plan(TEST_BOX) | {"candidates": [{"tier": TEST_BOX}], "workloads": [GBM]}
    )
    [entry] = body["no_number"]
    assert entry["tier"] == TEST_BOX
    assert all(isinstance(r, str) for r in entry["reasons"])
    [said] = entry["messages"]
    assert said["field"] == "reasons[0]"
    assert said["code"] == "capacity.workload_reason"
    assert said["params"]["workload"] == "gbm #1"
    assert said["text"] == entry["reasons"][0]
    assert said["text"].startswith("gbm #1: ")


def test_the_baseline_says_where_its_figure_comes_from(api):
    baseline = evaluate(api, fixed_plan(TEST_BOX))["baseline"]
    assert baseline["source"] == "quoted by the manager"
    assert baseline["messages"] == [
        {"field": "source", "code": "engine.baseline_quoted", "params": {},
         "text": "quoted by the manager"}
    ]  # fmt: skip


def test_every_message_explains_the_english_field_it_names(api):
    plans = [
        fixed_plan(TEST_BOX, one_time={"migration_hours": 5, "migration_rate": 100}),
        fixed_plan(TEST_BOX) | {"candidates": [{"tier": TEST_BOX}], "workloads": [GBM]},
        fixed_plan(TEST_BOX, monthly="50", count=2),
    ]
    checked = 0
    for plan in plans:
        body = evaluate(api, plan)
        for obj in objects_with_messages(body):
            for entry in obj["messages"]:
                assert set(entry) == {"field", "code", "params", "text"}
                if entry["field"] == "sentence":
                    assert entry["text"] in obj["sentence"]
                else:
                    assert at(obj, entry["field"]) == entry["text"], entry
                checked += 1
    assert checked >= 8


def test_no_sentence_field_changes_type(api):
    body = evaluate(api, fixed_plan(TEST_BOX, monthly="50", count=2))
    [option] = body["options"]
    assert isinstance(option["label"], str)
    assert all(isinstance(n, str) for n in option["notes"])
    assert isinstance(option["money"]["payback_label"], str)
    assert isinstance(body["headline"]["sentence"], str)
    assert isinstance(body["headline"]["label"], str)
    assert body["headline"]["sentence"].startswith("Staying is cheapest over 36 months")


def test_the_api_document_describes_the_messages():
    doc = yaml.safe_load(DOC.read_text())["components"]["schemas"]

    def resolved(node: dict) -> dict:  # the document is generated: objects sit behind $refs
        return doc[node["$ref"].rsplit("/", 1)[-1]] if "$ref" in node else node

    def is_messages(node: dict) -> bool:
        return node["type"] == "array" and node["items"] == {
            "$ref": "#/components/schemas/FieldMessage"
        }

    comparison = doc["Comparison"]["properties"]
    assert "messages" in doc["Option"]["required"]
    assert is_messages(doc["Option"]["properties"]["messages"])
    for name in ("baseline", "headline"):
        assert is_messages(resolved(comparison[name])["properties"]["messages"])
    for name in ("no_number", "stays_on_gpu", "price_performance", "commitments_missing"):
        items = comparison[name]["items"]  # no_number: a dropped tier or one with no number
        for kind in items.get("anyOf", [items]):
            assert is_messages(resolved(kind)["properties"]["messages"]), (name, kind)
    sensitivity = comparison["sensitivity"]["anyOf"][0]
    assert is_messages(resolved(sensitivity)["properties"]["messages"])
    assert doc["FieldMessage"]["required"] == ["field", "code", "params", "text"]
