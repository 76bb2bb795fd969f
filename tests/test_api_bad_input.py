"""Bad input answers 400 (413 when too large) naming every field's problem, and stores nothing."""

import io
import json

import pytest

from planner.models import Plan
from tests.support.api import TEST_BOX, fixed_plan, post_json

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("one_box_catalog")]
TIER = TEST_BOX
ENDPOINTS = ("/api/v1/evaluate", "/api/v1/plans")
# When the only candidate is refused the schema also says no workload could size the
# (now empty) candidate list; that follow-on message may accompany the real one.
CANDIDATE_LOST = "workloads"


def refused(api, body, status=400) -> dict[str, list[str]]:
    """POST to both endpoints; both refuse alike and nothing is stored. Returns the errors."""
    answers = []
    for url in ENDPOINTS:
        response = post_json(api, url, body)
        assert response.status_code == status, (url, response.content[:300])
        assert response["Content-Type"] == "application/json"
        answers.append(response.json()["errors"])
    assert answers[0] == answers[1]
    assert Plan.objects.count() == 0
    return answers[0]


def test_an_unknown_tier_is_named(api):
    errors = refused(api, fixed_plan("no-such-tier"))
    assert errors["candidates[0].tier"] == ["unknown tier 'no-such-tier'"]
    assert set(errors) <= {"candidates[0].tier", CANDIDATE_LOST}


def test_a_negative_amount_is_refused(api):
    errors = refused(api, fixed_plan(TIER, monthly="-5"))
    assert list(errors) == ["baseline.monthly"]
    assert "at least 0" in errors["baseline.monthly"][0]


def test_absurd_numbers_are_refused(api):
    plan = fixed_plan(TIER, monthly="1e12")
    plan["workloads"] = [
        {"kind": "gbm", "trainings_per_month": 1e9, "rows": 10**15, "features": 10, "trees": 10}
    ]
    errors = refused(api, plan)
    assert set(errors) == {
        "baseline.monthly",
        "workloads[0].trainings_per_month",
        "workloads[0].rows",
    }


@pytest.mark.parametrize("months", [0, 10_000, -1])
def test_a_horizon_out_of_bounds_is_refused(api, months):
    errors = refused(api, fixed_plan(TIER, horizon_months=months))
    assert list(errors) == ["horizon_months"]


def test_missing_fields_are_all_named(api):
    errors = refused(api, {"candidates": [{"count": 1}]})
    assert errors["currency"] == ["required"]
    assert errors["baseline"] == ["required"]
    assert errors["candidates[0].tier"] == ["required"]


def test_wrong_types_are_all_named(api):
    plan = fixed_plan(TIER, horizon_months="36", currency=840)
    plan["baseline"]["monthly"] = True
    plan["candidates"][0]["count"] = 1.5
    errors = refused(api, plan)
    assert set(errors) - {CANDIDATE_LOST} == {
        "horizon_months",
        "currency",
        "baseline.monthly",
        "candidates[0].count",
    }
    assert "expected an integer" in errors["horizon_months"][0]


def test_a_body_that_is_not_an_object_is_refused(api):
    errors = refused(api, [1, 2, 3])
    assert "expected an object" in errors["__all__"][0]


@pytest.mark.parametrize("body", [b"{not json", b"", b'{"currency": "USD",}', b"\xff\xfe\x00"])
def test_malformed_json_is_refused(api, body):
    errors = refused(api, body)
    assert list(errors) == ["body"]
    assert "JSON" in errors["body"][0]


def test_nan_and_infinity_are_refused(api):
    body = json.dumps(fixed_plan(TIER)).replace('"480"', "NaN")
    errors = refused(api, body)
    assert list(errors) == ["baseline.monthly"]


def test_a_10_mb_body_is_413(api):
    plan = fixed_plan(TIER, name="x" * (10 * 1024 * 1024))
    errors = refused(api, plan, status=413)
    assert list(errors) == ["body"]


class CountingStream(io.BytesIO):
    def __init__(self, size: int) -> None:
        super().__init__(b" " * size)
        self.bytes_read = 0

    def read(self, size=-1, /):
        data = super().read(size)
        self.bytes_read += len(data)
        return data


def test_a_body_declared_too_large_is_not_read(api):
    size = 10 * 1024 * 1024
    stream = CountingStream(size)
    response = api.generic(
        "POST",
        "/api/v1/plans",
        content_type="application/json",
        **{"wsgi.input": stream, "CONTENT_LENGTH": str(size)},
    )
    assert response.status_code == 413
    assert stream.bytes_read == 0
    assert Plan.objects.count() == 0


def test_a_good_plan_after_all_that_is_stored(api):
    assert post_json(api, "/api/v1/plans", fixed_plan(TIER)).status_code == 201
    assert Plan.objects.count() == 1
