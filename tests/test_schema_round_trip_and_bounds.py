"""plan_to_dict round-trips through JSON; the bounds table documents every field."""

import json
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from planner.compute.schema import (
    SCHEMA_BOUNDS,
    json_schema,
    parse_plan,
    parse_plan_json,
    plan_to_dict,
    schema_markdown,
)

FULL = {
    "name": "team ML",
    "currency": "EUR",
    "baseline": {
        "tier": "aws-c5.4xlarge-us-east-1-on-demand",
        "count": 2,
        "commitments": [{"months_remaining": 5, "monthly": "120.50", "description": "RI"}],
    },
    "horizon_months": 24,
    "annual_discount_rate": "0.08",
    "utilisation_target": 0.6,
    "monthly_growth": "0.02",
    "spot_interruption_allowance": 0.15,
    "one_time": {"migration_hours": 40, "migration_rate": "95.00", "running_both_months": 1,
                 "retraining": 0, "other": "10.10"},
    "monthly": {"ops_hours_per_server": 2, "ops_rate": 80, "egress": "12.34", "other": 0},
    "candidates": [
        {"tier": "inmotion-extreme", "count": 2},
        {"name": "hybrid", "parts": [{"tier": "inmotion-extreme"},
                                     {"tier": "aws-p4d.24xlarge-us-east-1-spot",
                                      "gpu_hours_per_month": "120"}]},
    ],
    "workloads": [
        {"kind": "gbm", "trainings_per_month": 30, "rows": 50_000_000, "features": 200,
         "trees": 1000, "deadline_hours": 4, "name": "nightly retrain"},
        {"kind": "sklearn", "searches_per_month": 4, "grid_size": 24, "folds": 5,
         "rows": 100_000, "features": 40},
        {"kind": "features", "runs_per_month": 20, "dataset_gb": 40},
        {"kind": "hpo", "searches_per_month": 2, "trials": 256, "trial_hours_single_thread": 0.03},
        {"kind": "inference", "peak_rps": 800, "p99_ms": 25, "n_plus_one": True},
        {"kind": "nn", "trainings_per_month": 4, "samples": 2_000_000, "epochs": 30},
        {"kind": "deep_learning", "task": "llm_finetune", "gpu_hours_per_month": "120.5"},
    ],
}  # fmt: skip


def test_a_full_plan_survives_plan_to_dict_and_json():
    plan = parse_plan(FULL)
    again = parse_plan_json(json.dumps(plan_to_dict(plan)))
    assert again == plan
    assert plan.candidates[1].parts[1].mode == "usage"
    assert plan.deep_learning_gpu_hours == Decimal("120.5")


def test_json_numbers_keep_their_cents_exact():
    plan = parse_plan_json('{"currency": "USD", "baseline": {"monthly": 0.1},'
                           ' "candidates": [{"tier": "a", "count": 1}]}')  # fmt: skip
    assert plan.baseline.monthly == Decimal("0.10")


@settings(max_examples=100, deadline=None)
@given(
    monthly=st.decimals(min_value=0, max_value=10**7, places=2, allow_nan=False),
    horizon=st.integers(min_value=1, max_value=120),
    rows=st.integers(min_value=1, max_value=10**12),
    rate=st.decimals(min_value=0, max_value=1, places=6, allow_nan=False),
)
def test_any_plan_within_bounds_round_trips(monthly, horizon, rows, rate):
    data = {
        "currency": "USD",
        "baseline": {"monthly": str(monthly)},
        "horizon_months": horizon,
        "annual_discount_rate": str(rate),
        "workloads": [{"kind": "gbm", "trainings_per_month": 1, "rows": rows, "features": 1,
                       "trees": 1}],
    }  # fmt: skip
    plan = parse_plan(data)
    assert parse_plan_json(json.dumps(plan_to_dict(plan))) == plan


def test_every_field_is_documented_with_its_type_and_bounds():
    assert SCHEMA_BOUNDS["horizon_months"].min == 1
    assert SCHEMA_BOUNDS["horizon_months"].max == 120
    assert SCHEMA_BOUNDS["workloads[kind=gbm].rows"].unit == "rows"
    assert "Azure Migrate" in SCHEMA_BOUNDS["annual_discount_rate"].doc
    numeric = [s for s in SCHEMA_BOUNDS.values() if s.type in ("int", "number", "decimal", "money")]
    assert all(s.min is not None and s.max is not None for s in numeric)
    table = schema_markdown()
    assert "| `horizon_months` | int |  | 36 | 1 | 120 | months |" in table
    assert table.count("\n") == len(SCHEMA_BOUNDS) + 1


def test_the_json_schema_carries_the_same_bounds():
    schema = json.loads(json.dumps(json_schema()))
    assert schema["properties"]["horizon_months"] == {
        "type": ["integer", "null"],  # null: not given (the default), as the API reads it
        "minimum": 1,
        "maximum": 120,
        "description": "months how far the comparison runs",
    }
    assert schema["required"] == ["currency", "baseline"]
    kinds = [
        w["properties"]["kind"]["enum"][0]
        for w in schema["properties"]["workloads"]["items"]["oneOf"]
    ]
    assert kinds == ["gbm", "sklearn", "features", "hpo", "inference", "nn", "deep_learning"]
