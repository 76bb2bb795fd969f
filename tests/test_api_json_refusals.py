"""Bodies the standard JSON reader took silently or crashed on answer 400 naming the value's
path (and its line and column), on both plan endpoints, and store nothing."""

import json

import pytest

from planner.models import Plan
from tests.support.api import TEST_BOX, fixed_plan, post_json

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("one_box_catalog")]
ENDPOINTS = ("/api/v1/evaluate", "/api/v1/plans")
GBM = {"kind": "gbm", "trainings_per_month": 4, "rows": 1000, "features": 10, "trees": 10}


def refused(api, body) -> dict:
    """POST to both endpoints: both answer the same 400 in JSON and nothing is stored."""
    answers = []
    for url in ENDPOINTS:
        response = post_json(api, url, body)
        assert response.status_code == 400, (url, response.content[:300])
        assert response["Content-Type"] == "application/json"
        answers.append(response.json())
    assert answers[0] == answers[1]
    assert Plan.objects.count() == 0
    return answers[0]


@pytest.mark.parametrize(("kind", "got"), [({"a": 1}, "an object"), (["gbm"], "a list")])
def test_a_workload_kind_that_is_an_object_or_a_list_is_named(api, kind, got):
    errors = refused(api, fixed_plan(TEST_BOX, workloads=[{**GBM, "kind": kind}]))["errors"]
    assert errors == {"workloads[0].kind": [f"expected a string, got {got}"]}


def test_an_integer_of_400_digits_is_refused_at_its_field(api):
    body = json.dumps(fixed_plan(TEST_BOX, workloads=[GBM])).replace(
        '"rows": 1000', '"rows": 1' + "0" * 400
    )
    errors = refused(api, body)["errors"]
    assert list(errors) == ["workloads[0].rows"]
    assert errors["workloads[0].rows"][0].startswith(
        "a number of more than 40 digits at $.workloads[0].rows (line 1, column "
    )


def test_json_nested_100000_levels_deep_is_refused_at_the_field_it_is_in(api):
    body = json.dumps(fixed_plan(TEST_BOX)).replace('"USD"', "[" * 100_000 + "]" * 100_000)
    errors = refused(api, body)["errors"]
    (path,) = errors
    assert path.startswith("currency[0][0]")
    assert errors[path][0].startswith("nested deeper than 32 levels at $.currency[0]")


@pytest.mark.parametrize("name", ["Q3\u0000move", "Q3\ud800move"])
def test_a_nul_or_a_lone_surrogate_in_a_string_is_refused_at_its_field(api, name):
    body = json.dumps(fixed_plan(TEST_BOX, name=name))  # written as \\u0000 and \\ud800
    errors = refused(api, body)["errors"]
    assert list(errors) == ["name"]
    assert "in the string at $.name (line 1, column " in errors["name"][0]


def test_a_duplicate_key_is_refused_not_taken_last_one_wins(api):
    body = json.dumps(fixed_plan(TEST_BOX)).replace('"480"', '"480", "monthly": "1"')
    errors = refused(api, body)["errors"]
    assert errors == {"baseline.monthly": ["$.baseline.monthly is given twice (line 1, column 52)"]}


def test_an_empty_string_for_an_amount_is_refused_as_the_document_says(api):
    errors = refused(api, fixed_plan(TEST_BOX, monthly=""))["errors"]
    assert errors == {"baseline.monthly": ["expected a decimal number, got ''"]}


def test_every_refusal_also_comes_as_a_code_with_parameters_beside_its_text(api):
    body = refused(api, fixed_plan(TEST_BOX, horizon_months=121, currency="usd"))
    assert body["errors"] == {
        "horizon_months": ["must be at most 120 months"],
        "currency": ["expected a 3-letter ISO 4217 code such as USD"],
    }
    assert body["error_details"]["horizon_months"] == [
        {
            "code": "schema.at_most",
            "params": {
                "value": {"number": "120", "places": None},
                "unit": {"code": "schema.unit.months", "params": {}},
            },
            "text": "must be at most 120 months",
        }
    ]
    assert body["error_details"]["currency"][0]["code"] == "schema.currency_code"
    for path, texts in body["errors"].items():
        assert [d["text"] for d in body["error_details"][path]] == texts


def test_malformed_json_keeps_its_error_under_body_with_the_line(api):
    body = refused(api, b'{"currency": "USD",\n}')
    assert body["errors"] == {
        "body": ["malformed JSON: Illegal trailing comma before end of object (line 1, column 19)"]
    }
    assert body["error_details"]["body"][0]["code"] == "schema.malformed_json"
