"""The one plan schema: pydantic models with explicit bounds, and a parser that names
every problem.

- `fields`: the field types (`Spec`: wire type, bounds, unit, words), declared once;
- `models`: the plan as frozen pydantic models, the single validator;
- `errors`: refusals as `Message`s keyed by path (`PlanValidationError`);
- `docs`: the field tables the web form reads, `SCHEMA_BOUNDS`, `schema_markdown()` and
  `json_schema()` (docs/openapi.yaml's Plan);
- `parse`: `parse_plan`, `parse_plan_json` (through `common.safejson`), `plan_to_dict`.
"""

from planner.compute.schema.docs import (
    BASELINE_FIELDS,
    CANDIDATE_FIELDS,
    COMMITMENT_FIELDS,
    MONTHLY_FIELDS,
    ONE_TIME_FIELDS,
    PART_FIELDS,
    PLAN_FIELDS,
    SCHEMA_BOUNDS,
    WORKLOAD_COMMON,
    WORKLOAD_FIELDS,
    FieldSpec,
    json_schema,
    schema_markdown,
)
from planner.compute.schema.errors import PlanValidationError
from planner.compute.schema.fields import CURRENCY_RE, DECIMAL_RE, ROOT, TIER_RE
from planner.compute.schema.models import (
    BATCH_KINDS,
    DEEP_LEARNING_TASKS,
    MODES,
    MONEY_MAX,
    WORKLOAD_CLASSES,
    WORKLOAD_KINDS,
    Baseline,
    Candidate,
    Commitment,
    DeepLearningWorkload,
    FeaturesWorkload,
    GbmWorkload,
    HpoWorkload,
    InferenceWorkload,
    InputRange,
    MonthlyExtras,
    NnWorkload,
    OneTime,
    OwnedServer,
    Part,
    Plan,
    SklearnWorkload,
    Workload,
)
from planner.compute.schema.parse import MAX_PLAN_DEPTH, parse_plan, parse_plan_json, plan_to_dict

__all__ = [
    "BASELINE_FIELDS",
    "BATCH_KINDS",
    "CANDIDATE_FIELDS",
    "COMMITMENT_FIELDS",
    "CURRENCY_RE",
    "DECIMAL_RE",
    "DEEP_LEARNING_TASKS",
    "MAX_PLAN_DEPTH",
    "MODES",
    "MONEY_MAX",
    "MONTHLY_FIELDS",
    "ONE_TIME_FIELDS",
    "PART_FIELDS",
    "PLAN_FIELDS",
    "ROOT",
    "SCHEMA_BOUNDS",
    "TIER_RE",
    "WORKLOAD_CLASSES",
    "WORKLOAD_COMMON",
    "WORKLOAD_FIELDS",
    "WORKLOAD_KINDS",
    "Baseline",
    "Candidate",
    "Commitment",
    "DeepLearningWorkload",
    "FeaturesWorkload",
    "FieldSpec",
    "GbmWorkload",
    "HpoWorkload",
    "InferenceWorkload",
    "InputRange",
    "MonthlyExtras",
    "NnWorkload",
    "OneTime",
    "OwnedServer",
    "Part",
    "Plan",
    "PlanValidationError",
    "SklearnWorkload",
    "Workload",
    "json_schema",
    "parse_plan",
    "parse_plan_json",
    "plan_to_dict",
    "schema_markdown",
]
