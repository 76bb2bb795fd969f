"""The uncertainty endpoint's bytes over more plan forms (tests/golden/uncertainty-*.json):
owned hardware (its own inputs), a EUR plan (the exchange rate moves a price), sized
workloads (a measured throughput's bootstrap range) and a plan with no figure (no option:
the empty answer). The fixed plan's is in tests/test_api_golden.py."""

from __future__ import annotations

import pytest

from planner.models import Plan
from tests.support.api import post_json
from tests.test_api_golden import PLANS, _fixed_ids, api, check  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db

UNCERTAIN = ("owned", "eur", "sized_workloads", "no_figure")


@pytest.mark.parametrize("name", UNCERTAIN)
def test_a_plans_uncertainty_answers_the_same_bytes(api, name):  # noqa: F811
    created = post_json(api, "/api/v1/plans", PLANS[name])
    assert created.status_code == 201, created.content[:500]
    plan = _fixed_ids(Plan.objects.get(code=created.json()["id"]), 100 + UNCERTAIN.index(name))
    response = api.get(f"/api/v1/plans/{plan.code}/uncertainty")
    assert response.status_code == 200, response.content[:500]
    check(f"uncertainty-{name}", response.content)
    # Asked again (now from the cache), the same bytes.
    assert api.get(f"/api/v1/plans/{plan.code}/uncertainty").content == response.content
