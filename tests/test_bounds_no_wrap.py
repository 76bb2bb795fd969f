# ruff: noqa: RUF002, RUF003  (money notation: ×, −)
"""Sums that never wrap (issue 21, item 6; docs/design.md, "Bounds").

Money was int64 cents and wrapped silently: at 120 months a $480 bill growing 0.31 a
month came back about −9.2 × 10¹⁶, "never pays back" beside "saving 100.00 %", and
an NPV that was a NaN cast to an integer. Now every figure is computed exactly and a
plan whose figures pass the documented maximum (10¹² currency units a month or in
total, 10⁹ servers of one tier in a month) is refused with a 400 that names the field
driving it. Every reproducer of the issue through the real API, then 500 seeded
examples anywhere inside the schema's bounds (the uncertainty endpoint and ranges
included): no 500, no wrong sign.
"""

import os
import random
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planner.compute import bounds, tco
from planner.compute.engine import PlanTooLarge, compare
from planner.compute.schema import parse_plan
from tests.support import bounds as prop
from tests.support.api import EXTREME, FIELD_NOTES, post_json
from tests.support.capacity import measured_in_sweep
from tests.support.engine import AS_OF, frame, tier

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(default_catalog_api, own_cache, settings):
    # The property examples ask for many odds a minute: a limit no test here reaches.
    settings.UNCERTAINTY_RATE_LIMIT_PER_MINUTE = 100_000
    return default_catalog_api


def grown(growth: str, **extra) -> dict:
    return {"currency": "USD", "horizon_months": 120, "monthly_growth": growth,
            "baseline": {"monthly": "480"}, "candidates": [{"tier": EXTREME, "count": 1}],
            **extra}  # fmt: skip


def refused_at(response, field: str, code: str = "engine.too_large") -> None:
    assert response.status_code == 400, response.content[:300]
    details = response.json()["error_details"]
    assert list(details) == [field], details
    assert [d["code"] for d in details[field]] == [code]


# --- the reproducers -----------------------------------------------------------


@pytest.mark.parametrize("growth", ["0.302268", "0.31", "0.315880", "0.315881", "0.5"])
def test_a_bill_growing_past_the_maximum_is_refused_at_monthly_growth(api, growth):
    """480 × 1.302268¹¹⁹ ≈ 2.0 × 10¹⁶ dollars in month 120: past 10¹², refused (it
    wrapped to −9.2 × 10¹⁶ from 0.302268 and raised OverflowError from 0.315881)."""
    response = post_json(api, "/api/v1/evaluate", grown(growth))
    refused_at(response, "monthly_growth")
    text = response.json()["errors"]["monthly_growth"][0]
    assert "1,000,000,000,000" in text


def test_the_largest_growth_within_the_maximum_is_answered_exactly(api):
    """At 0.17, 480 × 1.17¹¹⁹ ≈ 6.6 × 10¹⁰ a month: within bounds, every sum exact."""
    plan = grown("0.17")
    response = post_json(api, "/api/v1/evaluate", plan)
    assert response.status_code == 200, response.content[:300]
    body = response.json()
    assert prop.check_comparison(plan, body) == []
    expected = [tco.to_cents(Decimal(480) * Decimal("1.17") ** m) for m in range(120)]
    assert [tco.to_cents(Decimal(c)) for c in body["baseline"]["monthly"]] == expected
    [option] = body["options"]
    assert option["money"]["payback_month"] is not None and Decimal(option["money"]["npv"]) > 0


def test_a_tier_baseline_of_ten_thousand_servers_growing_half_a_month_is_refused(api):
    plan = grown("0.5", baseline={"tier": EXTREME, "count": 10_000})
    refused_at(post_json(api, "/api/v1/evaluate", plan), "monthly_growth",
               "engine.too_many_servers")  # fmt: skip


def test_ten_thousand_servers_without_growth_are_priced(api):
    plan = grown("0", baseline={"tier": EXTREME, "count": 10_000})
    response = post_json(api, "/api/v1/evaluate", plan)
    assert response.status_code == 200
    assert response.json()["baseline"]["total"] == str(Decimal("349.99") * 10_000 * 120)


def test_the_odds_at_120_months_keep_growth_within_the_schemas_bound(api):
    """The growth range ran to 2 × 0.1584 (and beyond 0.5 from 0.25): a 500. It is now
    within 0…0.5 and narrowed to the last growth whose figures stay within the maximum."""
    plan = {**FIELD_NOTES, "horizon_months": 120, "monthly_growth": "0.1584"}
    created = post_json(api, "/api/v1/plans", plan)
    response = api.get(f"/api/v1/plans/{created.json()['id']}/uncertainty")
    assert response.status_code == 200, response.content[:300]
    body = response.json()
    assert prop.check_uncertainty(body) == []
    [growth] = [i for i in body["montecarlo"]["inputs"] if i["input"] == "monthly_growth"]
    high = Decimal(growth["high"])
    assert Decimal("0.1584") < high < Decimal("0.3168")
    # The narrowed high is priced; one step (10⁻⁶) above it passes the maximum.
    above = post_json(api, "/api/v1/evaluate", {**plan, "monthly_growth": str(high + RATE)})
    within = post_json(api, "/api/v1/evaluate", {**plan, "monthly_growth": str(high)})
    assert within.status_code == 200 and above.status_code == 400


RATE = Decimal("0.000001")


@pytest.mark.parametrize("url", ["/api/v1/evaluate", "/api/v1/plans"])
def test_a_growth_range_of_100_is_refused_by_the_schema(api, url):
    plan = {**FIELD_NOTES, "ranges": [{"input": "monthly_growth", "low": "0", "high": "100"}]}
    response = post_json(api, url, plan)
    assert response.status_code == 400
    assert response.json()["errors"] == {"ranges[0].high": ["must be at most 0.5 per month"]}


def test_an_entered_range_whose_high_passes_the_maximum_is_refused_naming_it(api):
    plan = {**FIELD_NOTES, "horizon_months": 120, "monthly_growth": "0.1584",
            "ranges": [{"input": "baseline_monthly", "low": "0.5", "high": "100"}]}  # fmt: skip
    created = post_json(api, "/api/v1/plans", plan)
    assert created.status_code == 201
    response = api.get(f"/api/v1/plans/{created.json()['id']}/uncertainty")
    refused_at(response, "ranges[0].high")


def test_a_sized_hpo_plan_at_the_schemas_maximum_is_refused_not_negative():
    """100,000 searches × 10⁶ trials × 1,000 h a trial, growth 0.06: about 10¹⁷
    thread-hours a month; it returned a negative total. Now refused at `workloads`."""
    box = tier("epyc-box", "349.99", vcpus=32, ram=192)
    data = {"currency": "USD", "baseline": {"monthly": "480"}, "monthly_growth": "0.06",
            "horizon_months": 120, "candidates": [{"tier": "epyc-box"}],
            "workloads": [{"kind": "hpo", "searches_per_month": 100_000, "trials": 1_000_000,
                           "trial_hours_single_thread": 1000}]}  # fmt: skip
    found = {
        ("epyc-box", "hpo"): measured_in_sweep(
            "hpo", {1: 36.0, 16: 384.0}, 16, concurrency=16, t0_seconds=150.0
        )
    }
    with pytest.raises(PlanTooLarge) as refused:
        compare(parse_plan(data), frame(box), found, as_of=AS_OF)
    assert list(refused.value.details) == ["workloads"]
    # A thousandth of the trials at no growth is within bounds: priced, positive.
    small = {**data, "monthly_growth": "0", "horizon_months": 12}
    small["workloads"] = [{**data["workloads"][0], "searches_per_month": 1, "trials": 1000}]
    result = compare(parse_plan(small), frame(box), found, as_of=AS_OF)
    assert result.options[0].money.total > 0


def test_money_past_the_maximum_is_never_cast_to_int64():
    with pytest.raises(bounds.TooLarge) as raised:
        tco.growth_cents(Decimal(480), Decimal("0.5"), 120)
    assert raised.value.month > 1
    import numpy as np

    with pytest.raises(bounds.TooLarge):
        tco.line_cents([Decimal("349.99")], np.array([[10**12]]))
    with pytest.raises(bounds.TooLarge):  # a NaN or an infinity is refused, never cast
        tco._cents_round(np.array([float("nan")]))


# --- 500 seeded examples over the schema's bounds -----------------------------------------

EXAMPLES = int(os.environ.get("BOUNDS_EXAMPLES", "500"))
UNCERTAINTY_EVERY = 10  # one plan in ten also asks for its odds (10,000 draws each)


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_any_plan_inside_the_bounds_is_answered_or_refused_by_name_never_wrapped(api, seed):
    rng = random.Random(seed)
    plan = prop.random_plan(rng)
    response = post_json(api, "/api/v1/evaluate", plan)
    assert response.status_code in (200, 400), (seed, response.content[:300])
    if response.status_code == 400:
        assert prop.check_refusal(response.json(), prop.REFUSED_FIELDS) == [], plan
        return
    assert prop.check_comparison(plan, response.json()) == [], plan
    if seed % UNCERTAINTY_EVERY == 0:
        created = post_json(api, "/api/v1/plans", plan)
        assert created.status_code == 201
        odds = api.get(f"/api/v1/plans/{created.json()['id']}/uncertainty")
        assert odds.status_code in (200, 400), (seed, odds.content[:300])
        if odds.status_code == 400:
            assert prop.check_refusal(odds.json(), {"ranges"}) == [], plan
        else:
            assert prop.check_uncertainty(odds.json()) == [], plan


# --- the editor: the same refusal beside the field, nothing saved ------------------------


@pytest.mark.usefixtures("two_tier_catalog")
@pytest.mark.parametrize("language", ["en", "de"])
def test_the_editor_refuses_a_plan_past_the_maximum_beside_growth_and_saves_nothing(
    owner, own_cache, language
):
    from planner.models import Plan
    from tests.support.dashboard import field_error, form_data, login

    client = login(owner)
    client.cookies["django_language"] = language
    data = form_data(action="save", monthly_growth="50", horizon_months="120")
    response = client.post("/plans/new", data, headers={"Accept-Language": language})
    assert response.status_code == 400
    said = field_error(response.content.decode(), "monthly_growth")
    words = {"en": "the largest amount the planner computes",
             "de": "den größten Betrag, den der Planer rechnet"}[language]  # fmt: skip
    assert words in said, said
    assert {"en": "1,000,000,000,000", "de": "1.000.000.000.000"}[language] in said
    assert Plan.objects.count() == 0
