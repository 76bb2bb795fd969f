"""Bad plan input names every field's problem, by its path, in one answer."""

import json

import pytest

from planner.compute.schema import PlanValidationError, parse_plan, parse_plan_json

KNOWN = {"inmotion-extreme", "aws-c5.4xlarge-us-east-1-on-demand"}


def valid() -> dict:
    return {
        "currency": "USD",
        "baseline": {"monthly": "480"},
        "workloads": [
            {"kind": "gbm", "trainings_per_month": 30, "rows": 1_000_000, "features": 100,
             "trees": 500}
        ],
    }  # fmt: skip


def errors_of(data, **kw) -> dict[str, list[str]]:
    with pytest.raises(PlanValidationError) as caught:
        parse_plan(data, **kw)
    return caught.value.errors


def test_a_valid_plan_parses_with_published_defaults():
    plan = parse_plan(valid(), known_tiers=KNOWN)
    assert plan.horizon_months == 36
    assert str(plan.annual_discount_rate) == "0.07"
    assert str(plan.utilisation_target) == "0.7"
    assert str(plan.baseline.monthly) == "480.00"


def test_it_names_an_unknown_tier_slug_wherever_it_appears():
    data = valid() | {"candidates": [{"tier": "nope", "count": 2}]}
    data["baseline"] = {"tier": "also-nope"}
    errors = errors_of(data, known_tiers=KNOWN)
    assert errors["candidates[0].tier"] == ["unknown tier 'nope'"]
    assert errors["baseline.tier"] == ["unknown tier 'also-nope'"]


@pytest.mark.parametrize("months,message", [(0, "must be at least 1 months"),
                                            (10_000, "must be at most 120 months")])  # fmt: skip
def test_it_refuses_a_horizon_of_zero_or_ten_thousand_months(months, message):
    assert errors_of(valid() | {"horizon_months": months}) == {"horizon_months": [message]}


def test_it_refuses_negative_and_absurd_numbers():
    data = valid()
    data["baseline"]["monthly"] = -1
    data["workloads"][0]["rows"] = 10**15
    data["utilisation_target"] = 7
    errors = errors_of(data)
    assert errors["baseline.monthly"] == ["must be at least 0 currency/month"]
    assert errors["workloads[0].rows"] == ["must be at most 1,000,000,000,000 rows"]
    assert errors["utilisation_target"] == ["must be at most 1 share of threads"]


def test_it_names_every_missing_field():
    errors = errors_of({"workloads": [{"kind": "gbm", "rows": 10}]})
    assert errors["currency"] == ["required"]
    assert errors["baseline"] == ["required"]
    for name in ("trainings_per_month", "features", "trees"):
        assert errors[f"workloads[0].{name}"] == ["required"]


def test_it_refuses_wrong_types_including_bools_and_strings_as_numbers():
    data = valid() | {"horizon_months": "36", "candidates": {"tier": "x"}}
    data["workloads"][0] |= {"rows": True, "trees": 1.5, "name": 7}
    errors = errors_of(data)
    assert errors["horizon_months"] == ["expected an integer, got a string"]
    assert errors["candidates"] == ["expected a list, got an object"]
    assert errors["workloads[0].rows"] == ["expected an integer, got a boolean"]
    assert errors["workloads[0].trees"] == ["expected an integer, got a fraction"]
    assert errors["workloads[0].name"] == ["expected a string, got a number"]


def test_it_refuses_nan_and_infinity():
    body = json.dumps(valid()).replace('"trainings_per_month": 30', '"trainings_per_month": NaN')
    body = body.replace('"480"', "Infinity")
    with pytest.raises(PlanValidationError) as caught:
        parse_plan_json(body)
    assert caught.value.errors["workloads[0].trainings_per_month"] == ["must be a finite number"]
    assert caught.value.errors["baseline.monthly"] == ["must be a finite number"]


def test_it_refuses_unknown_fields_and_enum_values():
    data = valid() | {"colour": "blue"}
    data["workloads"].append({"kind": "quantum"})
    data["candidates"] = [{"tier": "inmotion-extreme", "mode": "rented", "cheese": 1}]
    errors = errors_of(data)
    assert errors["colour"] == ["unknown field"]
    assert errors["workloads[1].kind"][0].startswith("unknown value 'quantum'; one of gbm")
    assert errors["candidates[0].mode"][0].startswith("unknown value 'rented'")
    assert errors["candidates[0].cheese"] == ["unknown field"]


def test_money_takes_at_most_two_decimal_places_and_rates_more():
    data = valid() | {"annual_discount_rate": "0.0725"}
    data["baseline"]["monthly"] = "349.999"
    errors = errors_of(data)
    assert errors == {"baseline.monthly": ["at most 2 decimal places"]}


def test_it_collects_every_problem_at_once():
    data = {
        "currency": "usd",
        "baseline": {"monthly": 1, "tier": "inmotion-extreme"},
        "horizon_months": 0,
        "one_time": {"migration_hours": 10},
        "monthly": {"ops_hours_per_server": 4},
        "workloads": [{"kind": "inference", "peak_rps": 0, "p99_ms": 0}],
    }
    assert set(errors_of(data)) == {
        "currency", "baseline", "horizon_months", "one_time.migration_rate",
        "monthly.ops_rate", "workloads[0].peak_rps", "workloads[0].p99_ms",
    }  # fmt: skip


def test_a_candidate_is_a_fixed_count_or_usage_hours_not_both():
    data = valid() | {
        "candidates": [
            {"tier": "inmotion-extreme", "mode": "usage", "count": 2},
            {"tier": "inmotion-extreme", "mode": "fixed"},
            {"parts": []},
            {"tier": "p4d", "mode": "usage"},
        ]
    }
    errors = errors_of(data)
    assert errors["candidates[0].count"] == ["only for a fixed count, not mode 'usage'"]
    assert errors["candidates[1].count"] == ["required for a fixed count"]
    assert errors["candidates[2].parts"] == ["at least one part"]
    assert errors["candidates"] == [
        "a usage part with no hours takes the deep-learning workloads' GPU hours: none given"
    ]


def test_sizing_needs_a_cpu_workload():
    data = valid() | {"workloads": [{"kind": "deep_learning", "task": "diffusion"}]}
    assert errors_of(data) == {
        "workloads": ["at least one CPU workload is needed to size candidates"]
    }
    fixed = data | {"candidates": [{"tier": "inmotion-extreme", "count": 1}]}
    assert parse_plan(fixed).candidates[0].parts[0].count == 1


def test_a_refused_only_candidate_is_named_alone():
    data = valid() | {"workloads": [], "candidates": [{"tier": "nope", "count": 1}]}
    assert errors_of(data, known_tiers=KNOWN) == {"candidates[0].tier": ["unknown tier 'nope'"]}


def test_a_body_over_the_limit_is_refused_before_parsing():
    body = b'{"currency": "USD", "name": "' + b"x" * (10 * 1024 * 1024) + b'"}'
    with pytest.raises(PlanValidationError) as caught:
        parse_plan_json(body)
    assert list(caught.value.errors) == ["body"]
    assert caught.value.errors["body"][0].startswith("at most 262144 bytes, got 10485")


def test_malformed_json_is_named_as_such():
    with pytest.raises(PlanValidationError) as caught:
        parse_plan_json('{"currency": "USD",')
    assert caught.value.errors["body"][0].startswith("malformed JSON")


def test_a_body_that_is_not_an_object_is_refused_as_a_whole():
    with pytest.raises(PlanValidationError) as caught:
        parse_plan_json("[1, 2]")
    assert caught.value.errors == {"__all__": ["expected an object, got a list"]}
