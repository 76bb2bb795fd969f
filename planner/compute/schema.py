"""The one plan schema: dataclasses, explicit bounds, and a parser that names every problem.

The same field tables drive parsing, `SCHEMA_BOUNDS` (the documentation table the
README/OpenAPI and the web form reuse: `schema_markdown()`, `json_schema()`) and
`plan_to_dict` (which `parse_plan` reads back to an equal plan).

Types on the wire (JSON):
- money: a JSON number or a decimal string ("349.99"), at most 2 decimal places,
  kept as `Decimal`; strings carry exact cents through any JSON library.
- decimal (rates, hours): number or decimal string, more places allowed.
- integer: a JSON number with no fraction (36 or 36.0); never a string or a bool.
- number: a finite JSON number (never a string, a bool, NaN or Infinity).
- `null` counts as "not given" for optional fields.

`parse_plan` collects every problem before raising `PlanValidationError`, whose
`errors` maps field paths ("workloads[0].rows", "horizon_months") to messages.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields
from decimal import Decimal, InvalidOperation
from typing import Any

from common.limits import MAX_JSON_BODY_BYTES
from planner.compute import defaults

ROOT = "__all__"
TIER_RE = re.compile(r"^[a-z0-9][a-z0-9.-]{0,199}$")
CURRENCY_RE = re.compile(r"^[A-Z]{3}$")

MODES = ("sized", "fixed", "usage")
BATCH_KINDS = ("gbm", "sklearn", "features", "hpo", "nn")
WORKLOAD_KINDS = (*BATCH_KINDS, "inference", "deep_learning")
DEEP_LEARNING_TASKS = ("llm_finetune", "vit_from_scratch", "diffusion", "other_deep_learning")


class PlanValidationError(ValueError):
    def __init__(self, errors: dict[str, list[str]]) -> None:
        self.errors = errors
        super().__init__("; ".join(f"{k}: {', '.join(v)}" for k, v in sorted(errors.items())))


# --- the field tables ----------------------------------------------------------------


@dataclass(frozen=True)
class FieldSpec:
    name: str
    type: (
        str  # int | number | decimal | money | bool | str | enum | tier | currency | object | list
    )
    required: bool = False
    default: Any = None
    min: float | None = None
    max: float | None = None
    min_exclusive: bool = False
    places: int | None = None
    unit: str = ""
    doc: str = ""
    choices: tuple[str, ...] = ()
    max_items: int | None = None


def F(name: str, type_: str, **kw: Any) -> FieldSpec:  # a short name: the tables read as tables
    return FieldSpec(name, type_, **kw)


MONEY_MAX = 100_000_000
PLAN_FIELDS = (
    F("name", "str", default="", max=200, doc="a label for the plan"),
    F("currency", "currency", required=True, doc="ISO 4217 code; every amount is in it"),
    F("baseline", "object", required=True, doc="what the team pays today"),
    F("horizon_months", "int", default=defaults.HORIZON_MONTHS.value, min=1, max=120,
      unit="months", doc="how far the comparison runs"),
    F("annual_discount_rate", "decimal", default=defaults.ANNUAL_DISCOUNT_RATE.value, min=0,
      max=1, places=6, unit="per year", doc=defaults.ANNUAL_DISCOUNT_RATE.source),
    F("utilisation_target", "decimal", default=defaults.UTILISATION_TARGET.value, min=0.05,
      max=1, places=6, unit="share of threads", doc="how busy a server may be kept"),
    F("monthly_growth", "decimal", default=defaults.MONTHLY_GROWTH.value, min=0, max=0.5,
      places=6, unit="per month",
      doc="workload volume grows by (1+g)^(m-1) in month m; servers are added when needed"),
    F("spot_interruption_allowance", "decimal",
      default=defaults.SPOT_INTERRUPTION_ALLOWANCE.value, min=0, max=1, places=6,
      unit="share of work re-run", doc=defaults.SPOT_INTERRUPTION_ALLOWANCE.source),
    F("one_time", "object", default=None, doc="costs of the switch, at month 0"),
    F("monthly", "object", default=None, doc="monthly costs besides the servers"),
    F("candidates", "list", default=(), max_items=100,
      doc="options to compare; empty: every tier with the specs the model needs, sized"),
    F("workloads", "list", default=(), max_items=50, doc="the team's work, in DESIGN's units"),
)  # fmt: skip
BASELINE_FIELDS = (
    F("monthly", "money", min=0, max=MONEY_MAX, unit="currency/month",
      doc="the current monthly spend as quoted (give this or tier)"),
    F("tier", "tier", doc="a catalog tier whose price is the baseline (give this or monthly)"),
    F("count", "int", default=1, min=1, max=10_000, unit="servers", doc="with tier"),
    F("commitments", "list", default=(), max_items=20,
      doc="reserved terms still running: they keep costing after a switch"),
)  # fmt: skip
COMMITMENT_FIELDS = (
    F("months_remaining", "int", required=True, min=1, max=120, unit="months"),
    F("monthly", "money", min=0, max=MONEY_MAX, unit="currency/month",
      doc="what the commitment costs a month (give this or tier)"),
    F("tier", "tier", doc="a catalog tier whose price the commitment costs"),
    F("count", "int", default=1, min=1, max=10_000, unit="servers"),
    F("description", "str", default="", max=200),
)  # fmt: skip
ONE_TIME_FIELDS = (
    F("migration_hours", "decimal", min=0, max=100_000, places=2, unit="engineer hours",
      doc="null = not entered yet (the headline says so)"),
    F("migration_rate", "money", min=0, max=10_000, unit="currency/hour"),
    F("running_both_months", "int", min=0, max=24, unit="months",
      doc="months the baseline keeps running beside the new option; null = not entered"),
    F("retraining", "money", min=0, max=MONEY_MAX, unit="currency",
      doc="re-validating models on the new hardware; null = not entered"),
    F("other", "money", default=Decimal("0.00"), min=0, max=MONEY_MAX, unit="currency"),
)  # fmt: skip
MONTHLY_FIELDS = (
    F("ops_hours_per_server", "decimal", min=0, max=730, places=2, unit="hours/server/month",
      doc="self-managed servers only; null = the published default "
          f"({defaults.SELF_MANAGED_OPS.value} a server a year); managed tiers and cloud: 0"),
    F("ops_rate", "money", min=0, max=10_000, unit="currency/hour"),
    F("egress", "money", default=Decimal("0.00"), min=0, max=MONEY_MAX, unit="currency/month"),
    F("other", "money", default=Decimal("0.00"), min=0, max=MONEY_MAX, unit="currency/month"),
)  # fmt: skip
CANDIDATE_FIELDS = (
    F("name", "str", default="", max=200),
    F("parts", "list", required=True, max_items=5, doc="one option may mix CPU and GPU parts"),
)
PART_FIELDS = (
    F("tier", "tier", required=True),
    F("mode", "enum", choices=MODES,
      doc="sized by the model, a fixed count, or usage-based GPU hours (inferred when absent)"),
    F("count", "int", min=1, max=10_000, unit="servers", doc="fixed mode"),
    F("gpu_hours_per_month", "decimal", min=0, max=1_000_000, places=2, unit="GPU-hours/month",
      doc="usage mode; null: the plan's deep-learning GPU hours"),
    F("instance_hours_per_month", "decimal", min=0, max=1_000_000, places=2,
      unit="instance-hours/month", doc="usage mode, billed per instance-hour"),
    F("min_term_months", "int", min=0, max=120, unit="months",
      doc="contract minimum term; null: the catalog's"),
)  # fmt: skip
DEADLINE = F("deadline_hours", "number", min=0, min_exclusive=True, max=744, unit="hours",
             doc="one job must finish within this")  # fmt: skip
PER_MONTH = {"min": 0, "max": 100_000, "unit": "per month"}
ROWS = F("rows", "int", required=True, min=1, max=1e12, unit="rows")
FEATURES = F("features", "int", required=True, min=1, max=1e7, unit="features")
WORKLOAD_COMMON = (
    F("kind", "enum", required=True, choices=WORKLOAD_KINDS),
    F("name", "str", default="", max=200),
)
WORKLOAD_FIELDS: dict[str, tuple[FieldSpec, ...]] = {
    "gbm": (
        F("trainings_per_month", "number", required=True, **PER_MONTH),
        ROWS, FEATURES, F("trees", "int", required=True, min=1, max=1e6, unit="trees"), DEADLINE,
    ),
    "sklearn": (
        F("searches_per_month", "number", required=True, **PER_MONTH),
        F("grid_size", "int", required=True, min=1, max=1e6, unit="combinations"),
        F("folds", "int", required=True, min=2, max=100, unit="folds"), ROWS, FEATURES, DEADLINE,
    ),
    "features": (
        F("runs_per_month", "number", required=True, **PER_MONTH),
        F("dataset_gb", "number", required=True, min=0, min_exclusive=True, max=1e6,
          unit="GB (decimal)"),
        F("must_fit_one_box", "bool", default=True,
          doc="pandas loads it whole; false when processed in chunks or spread over boxes"),
        DEADLINE,
    ),
    "hpo": (
        F("searches_per_month", "number", required=True, **PER_MONTH),
        F("trials", "int", required=True, min=1, max=1e6, unit="trials"),
        F("trial_hours_single_thread", "number", min=0, min_exclusive=True, max=1000,
          unit="hours", doc="the team's own trial length on one thread; null: the profile's"),
        DEADLINE,
    ),
    "inference": (
        F("peak_rps", "number", required=True, min=0, min_exclusive=True, max=1e6,
          unit="requests/s"),
        F("p99_ms", "number", required=True, min=0.1, max=60_000, unit="ms"),
        F("n_plus_one", "bool", default=False, doc="one spare server beyond the need"),
    ),
    "nn": (
        F("trainings_per_month", "number", required=True, **PER_MONTH),
        F("samples", "int", required=True, min=1, max=1e12, unit="samples"),
        F("epochs", "int", required=True, min=1, max=1e5, unit="epochs"), DEADLINE,
    ),
    "deep_learning": (
        F("task", "enum", required=True, choices=DEEP_LEARNING_TASKS),
        F("gpu_hours_per_month", "decimal", min=0, max=1_000_000, places=2,
          unit="GPU-hours/month"),
    ),
}  # fmt: skip


def _bounds_table() -> dict[str, FieldSpec]:
    table: dict[str, FieldSpec] = {}
    sections: list[tuple[str, Iterable[FieldSpec]]] = [
        ("", PLAN_FIELDS),
        ("baseline.", BASELINE_FIELDS),
        ("baseline.commitments[].", COMMITMENT_FIELDS),
        ("one_time.", ONE_TIME_FIELDS),
        ("monthly.", MONTHLY_FIELDS),
        ("candidates[].", CANDIDATE_FIELDS),
        ("candidates[].parts[].", PART_FIELDS),
        ("workloads[].", WORKLOAD_COMMON),
    ]
    sections += [(f"workloads[kind={kind}].", specs) for kind, specs in WORKLOAD_FIELDS.items()]
    for prefix, specs in sections:
        for spec in specs:
            table[prefix + spec.name] = spec
    return table


SCHEMA_BOUNDS: dict[str, FieldSpec] = _bounds_table()


def schema_markdown() -> str:
    """SCHEMA_BOUNDS as a Markdown table (README, API docs, form help)."""
    lines = [
        "| field | type | required | default | min | max | unit | notes |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for path, spec in SCHEMA_BOUNDS.items():
        low = "" if spec.min is None else (">" if spec.min_exclusive else "") + _num(spec.min)
        extra = f"one of {', '.join(spec.choices)}. " if spec.choices else ""
        if spec.max_items:
            extra += f"at most {spec.max_items} items. "
        cells = [
            f"`{path}`", spec.type, "yes" if spec.required else "",
            "" if spec.default in (None, ()) else str(spec.default), low,
            "" if spec.max is None else _num(spec.max), spec.unit, (extra + spec.doc).strip(),
        ]  # fmt: skip
        lines.append("| " + " | ".join(c.replace("|", "/") for c in cells) + " |")
    return "\n".join(lines)


def _num(value: float) -> str:
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:g}"


# --- the plan dataclasses ---------------------------------------------------------------


@dataclass(frozen=True)
class Commitment:
    months_remaining: int
    monthly: Decimal | None = None
    tier: str | None = None
    count: int = 1
    description: str = ""


@dataclass(frozen=True)
class Baseline:
    monthly: Decimal | None = None
    tier: str | None = None
    count: int = 1
    commitments: tuple[Commitment, ...] = ()


@dataclass(frozen=True)
class OneTime:
    migration_hours: Decimal | None = None
    migration_rate: Decimal | None = None
    running_both_months: int | None = None
    retraining: Decimal | None = None
    other: Decimal = Decimal("0.00")

    @property
    def migration(self) -> Decimal | None:
        if self.migration_hours is None or self.migration_rate is None:
            return None
        return self.migration_hours * self.migration_rate

    def not_entered(self) -> list[str]:
        """The items vendor TCO tools tend to leave out, when the manager has not given them."""
        missing = []
        if self.migration is None:
            missing.append("migration")
        if self.running_both_months is None:
            missing.append("running both")
        if self.retraining is None:
            missing.append("retraining")
        return missing


@dataclass(frozen=True)
class MonthlyExtras:
    ops_hours_per_server: Decimal | None = None
    ops_rate: Decimal | None = None
    egress: Decimal = Decimal("0.00")
    other: Decimal = Decimal("0.00")


@dataclass(frozen=True)
class Part:
    tier: str
    mode: str = "sized"
    count: int | None = None
    gpu_hours_per_month: Decimal | None = None
    instance_hours_per_month: Decimal | None = None
    min_term_months: int | None = None


@dataclass(frozen=True)
class Candidate:
    parts: tuple[Part, ...]
    name: str = ""


@dataclass(frozen=True)
class Workload:
    kind: str
    name: str = ""

    @property
    def per_month(self) -> float:
        return 0.0


@dataclass(frozen=True)
class GbmWorkload(Workload):
    trainings_per_month: float = 0.0
    rows: int = 0
    features: int = 0
    trees: int = 0
    deadline_hours: float | None = None

    @property
    def per_month(self) -> float:
        return self.trainings_per_month


@dataclass(frozen=True)
class SklearnWorkload(Workload):
    searches_per_month: float = 0.0
    grid_size: int = 0
    folds: int = 0
    rows: int = 0
    features: int = 0
    deadline_hours: float | None = None

    @property
    def per_month(self) -> float:
        return self.searches_per_month


@dataclass(frozen=True)
class FeaturesWorkload(Workload):
    runs_per_month: float = 0.0
    dataset_gb: float = 0.0
    must_fit_one_box: bool = True
    deadline_hours: float | None = None

    @property
    def per_month(self) -> float:
        return self.runs_per_month


@dataclass(frozen=True)
class HpoWorkload(Workload):
    searches_per_month: float = 0.0
    trials: int = 0
    trial_hours_single_thread: float | None = None
    deadline_hours: float | None = None

    @property
    def per_month(self) -> float:
        return self.searches_per_month


@dataclass(frozen=True)
class InferenceWorkload(Workload):
    peak_rps: float = 0.0
    p99_ms: float = 0.0
    n_plus_one: bool = False


@dataclass(frozen=True)
class NnWorkload(Workload):
    trainings_per_month: float = 0.0
    samples: int = 0
    epochs: int = 0
    deadline_hours: float | None = None

    @property
    def per_month(self) -> float:
        return self.trainings_per_month


@dataclass(frozen=True)
class DeepLearningWorkload(Workload):
    task: str = ""
    gpu_hours_per_month: Decimal | None = None


WORKLOAD_CLASSES: dict[str, type[Workload]] = {
    "gbm": GbmWorkload,
    "sklearn": SklearnWorkload,
    "features": FeaturesWorkload,
    "hpo": HpoWorkload,
    "inference": InferenceWorkload,
    "nn": NnWorkload,
    "deep_learning": DeepLearningWorkload,
}


@dataclass(frozen=True)
class Plan:
    currency: str
    baseline: Baseline
    horizon_months: int = int(defaults.HORIZON_MONTHS.value)
    annual_discount_rate: Decimal = Decimal(defaults.ANNUAL_DISCOUNT_RATE.value)
    utilisation_target: Decimal = Decimal(defaults.UTILISATION_TARGET.value)
    monthly_growth: Decimal = Decimal(defaults.MONTHLY_GROWTH.value)
    spot_interruption_allowance: Decimal = Decimal(defaults.SPOT_INTERRUPTION_ALLOWANCE.value)
    one_time: OneTime = field(default_factory=OneTime)
    monthly: MonthlyExtras = field(default_factory=MonthlyExtras)
    candidates: tuple[Candidate, ...] = ()
    workloads: tuple[Workload, ...] = ()
    name: str = ""

    @property
    def deep_learning_gpu_hours(self) -> Decimal:
        return sum(
            (w.gpu_hours_per_month or Decimal(0))
            for w in self.workloads
            if isinstance(w, DeepLearningWorkload)
        ) or Decimal(0)


# --- parsing ------------------------------------------------------------------------------


class _Errors:
    def __init__(self) -> None:
        self.by_path: dict[str, list[str]] = {}

    def add(self, path: str, message: str) -> None:
        self.by_path.setdefault(path or ROOT, []).append(message)


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return "a number" if isinstance(value, int | float | Decimal) else type(value).__name__


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float | Decimal) and not isinstance(value, bool)


def _finite(value: Any) -> bool:
    return not isinstance(value, float | Decimal) or math.isfinite(value)


def _check_bounds(spec: FieldSpec, value: float | Decimal, path: str, errs: _Errors) -> bool:
    unit = f" {spec.unit}" if spec.unit else ""
    if spec.min is not None:
        low = Decimal(str(spec.min))
        if value < low or (spec.min_exclusive and value == low):
            word = "above" if spec.min_exclusive else "at least"
            errs.add(path, f"must be {word} {_num(spec.min)}{unit}")
            return False
    if spec.max is not None and value > Decimal(str(spec.max)):
        errs.add(path, f"must be at most {_num(spec.max)}{unit}")
        return False
    return True


def _to_decimal(spec: FieldSpec, value: Any, path: str, errs: _Errors) -> Decimal | None:
    if isinstance(value, str):
        try:
            number = Decimal(value.strip())
        except InvalidOperation:
            errs.add(path, f"expected a decimal number, got {value[:40]!r}")
            return None
    elif _is_number(value):
        number = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    else:
        errs.add(path, f"expected a number, got {_type_name(value)}")
        return None
    if not number.is_finite():
        errs.add(path, "must be a finite number")
        return None
    if not _check_bounds(spec, number, path, errs):
        return None
    places = 2 if spec.type == "money" else spec.places
    if places is not None:
        step = Decimal(1).scaleb(-places)
        if number != number.quantize(step):
            errs.add(path, f"at most {places} decimal places")
            return None
        if spec.type == "money":
            number = number.quantize(step)
    return number


def _to_int(spec: FieldSpec, value: Any, path: str, errs: _Errors) -> int | None:
    if not _is_number(value):
        errs.add(path, f"expected an integer, got {_type_name(value)}")
        return None
    if not _finite(value):
        errs.add(path, "must be a finite number")
        return None
    if value != int(value):
        errs.add(path, "expected an integer, got a fraction")
        return None
    return int(value) if _check_bounds(spec, Decimal(int(value)), path, errs) else None


def _to_number(spec: FieldSpec, value: Any, path: str, errs: _Errors) -> float | None:
    if not _is_number(value):
        errs.add(path, f"expected a number, got {_type_name(value)}")
        return None
    if not _finite(value):
        errs.add(path, "must be a finite number")
        return None
    number = float(value)
    return number if _check_bounds(spec, Decimal(repr(number)), path, errs) else None


def _to_text(spec: FieldSpec, value: Any, path: str, errs: _Errors, ctx: _Context) -> Any:
    if not isinstance(value, str):
        errs.add(path, f"expected a string, got {_type_name(value)}")
        return None
    if spec.type == "enum" and value not in spec.choices:
        errs.add(path, f"unknown value {value[:40]!r}; one of {', '.join(spec.choices)}")
        return None
    if spec.type == "currency" and not CURRENCY_RE.match(value):
        errs.add(path, "expected a 3-letter ISO 4217 code such as USD")
        return None
    if spec.type == "tier":
        if not TIER_RE.match(value):
            errs.add(path, "a tier key: lowercase letters, digits, '.' and '-'")
            return None
        if ctx.known_tiers is not None and value not in ctx.known_tiers:
            errs.add(path, f"unknown tier {value!r}")
            return None
    if spec.type == "str" and spec.max is not None and len(value) > spec.max:
        errs.add(path, f"at most {int(spec.max)} characters")
        return None
    return value


@dataclass
class _Context:
    known_tiers: set[str] | None


def _scalar(spec: FieldSpec, value: Any, path: str, errs: _Errors, ctx: _Context) -> Any:
    if spec.type in ("money", "decimal"):
        return _to_decimal(spec, value, path, errs)
    if spec.type == "int":
        return _to_int(spec, value, path, errs)
    if spec.type == "number":
        return _to_number(spec, value, path, errs)
    if spec.type == "bool":
        if isinstance(value, bool):
            return value
        errs.add(path, f"expected true or false, got {_type_name(value)}")
        return None
    return _to_text(spec, value, path, errs, ctx)


_MISSING = object()


def _object(
    data: Any, path: str, specs: Iterable[FieldSpec], errs: _Errors, ctx: _Context
) -> dict[str, Any] | None:
    """Clean one JSON object by its field table; values that fail are left out."""
    if not isinstance(data, Mapping):
        errs.add(path, f"expected an object, got {_type_name(data)}")
        return None
    specs = tuple(specs)
    names = {spec.name for spec in specs}
    prefix = f"{path}." if path else ""
    for key in data:
        if key not in names:
            errs.add(f"{prefix}{key}", "unknown field")
    cleaned: dict[str, Any] = {}
    for spec in specs:
        value = data.get(spec.name, _MISSING)
        where = prefix + spec.name
        if value is _MISSING or value is None:
            if spec.required:
                errs.add(where, "required")
            cleaned[spec.name] = spec.default
        elif spec.type == "object":
            cleaned[spec.name] = value  # parsed by its own section
        elif spec.type == "list":
            if not isinstance(value, list | tuple):
                errs.add(where, f"expected a list, got {_type_name(value)}")
            elif spec.max_items is not None and len(value) > spec.max_items:
                errs.add(where, f"at most {spec.max_items} items")
            else:
                cleaned[spec.name] = value
        else:
            parsed = _scalar(spec, value, where, errs, ctx)
            if parsed is not None:
                cleaned[spec.name] = parsed
    return cleaned


def _items(values: Any, path: str, parse: Callable[[Any, str], Any]) -> tuple[Any, ...]:
    out = []
    for i, item in enumerate(values or ()):
        parsed = parse(item, f"{path}[{i}]")
        if parsed is not None:
            out.append(parsed)
    return tuple(out)


def _one_of(data: Mapping, path: str, a: str, b: str, errs: _Errors) -> None:
    given = [name for name in (a, b) if data.get(name) is not None]
    if len(given) != 1:
        errs.add(path, f"give exactly one of {a} or {b}")


def _commitment(data: Any, path: str, errs: _Errors, ctx: _Context) -> Commitment | None:
    cleaned = _object(data, path, COMMITMENT_FIELDS, errs, ctx)
    if cleaned is None:
        return None
    _one_of(data, path, "monthly", "tier", errs)
    try:
        return Commitment(**cleaned)
    except TypeError:
        return None


def _baseline(data: Any, errs: _Errors, ctx: _Context) -> Baseline | None:
    cleaned = _object(data, "baseline", BASELINE_FIELDS, errs, ctx)
    if cleaned is None:
        return None
    _one_of(data, "baseline", "monthly", "tier", errs)
    commitments = _items(
        cleaned.get("commitments"),
        "baseline.commitments",
        lambda item, where: _commitment(item, where, errs, ctx),
    )
    return Baseline(
        monthly=cleaned.get("monthly"),
        tier=cleaned.get("tier"),
        count=cleaned.get("count", 1),
        commitments=commitments,
    )


def _one_time(data: Any, errs: _Errors, ctx: _Context) -> OneTime | None:
    cleaned = _object(data if data is not None else {}, "one_time", ONE_TIME_FIELDS, errs, ctx)
    if cleaned is None:
        return None
    hours, rate = cleaned.get("migration_hours"), cleaned.get("migration_rate")
    if (hours is None) != (rate is None) and isinstance(data, Mapping):
        missing = "migration_rate" if rate is None else "migration_hours"
        if data.get(missing) is None:
            errs.add(f"one_time.{missing}", "needed with the other migration field")
    return OneTime(**cleaned)


def _monthly(data: Any, errs: _Errors, ctx: _Context) -> MonthlyExtras | None:
    cleaned = _object(data if data is not None else {}, "monthly", MONTHLY_FIELDS, errs, ctx)
    if cleaned is None:
        return None
    hours_only = cleaned.get("ops_hours_per_server") is not None and not cleaned.get("ops_rate")
    if hours_only and isinstance(data, Mapping) and data.get("ops_rate") is None:
        errs.add("monthly.ops_rate", "needed with ops_hours_per_server")
    return MonthlyExtras(**cleaned)


def _part(data: Any, path: str, errs: _Errors, ctx: _Context) -> Part | None:
    cleaned = _object(data, path, PART_FIELDS, errs, ctx)
    if cleaned is None or "tier" not in cleaned:
        return None
    usage = any(cleaned.get(k) is not None for k in ("gpu_hours_per_month",
                                                    "instance_hours_per_month"))  # fmt: skip
    inferred = "fixed" if cleaned.get("count") is not None else "usage" if usage else "sized"
    mode = cleaned.get("mode") or inferred
    if mode == "fixed" and cleaned.get("count") is None:
        errs.add(f"{path}.count", "required for a fixed count")
    if mode != "fixed" and cleaned.get("count") is not None:
        errs.add(f"{path}.count", f"only for a fixed count, not mode {mode!r}")
    if mode != "usage" and usage:
        errs.add(path, f"usage hours only for mode 'usage', not {mode!r}")
    both = ("gpu_hours_per_month", "instance_hours_per_month")
    if mode == "usage" and all(cleaned.get(k) is not None for k in both):
        errs.add(path, "give gpu_hours_per_month or instance_hours_per_month, not both")
    cleaned["mode"] = mode
    return Part(**cleaned)


def _candidate(data: Any, path: str, errs: _Errors, ctx: _Context) -> Candidate | None:
    if isinstance(data, Mapping) and "parts" not in data:
        # Shorthand: one part written inline ({"tier": ..., "count": 2}).
        name = data.get("name", "")
        part = _part({k: v for k, v in data.items() if k != "name"}, path, errs, ctx)
        if not isinstance(name, str):
            errs.add(f"{path}.name", f"expected a string, got {_type_name(name)}")
            return None
        return Candidate(parts=(part,), name=name) if part else None
    cleaned = _object(data, path, CANDIDATE_FIELDS, errs, ctx)
    if cleaned is None or cleaned.get("parts") is None:
        return None
    if not cleaned["parts"]:
        errs.add(f"{path}.parts", "at least one part")
        return None
    parts = _items(cleaned["parts"], f"{path}.parts", lambda i, w: _part(i, w, errs, ctx))
    return Candidate(parts=parts, name=cleaned.get("name", ""))


def _workload(data: Any, path: str, errs: _Errors, ctx: _Context) -> Workload | None:
    if not isinstance(data, Mapping):
        errs.add(path, f"expected an object, got {_type_name(data)}")
        return None
    kind = data.get("kind")
    if kind not in WORKLOAD_FIELDS:
        _object({"kind": kind}, path, WORKLOAD_COMMON[:1], errs, ctx)
        return None
    cleaned = _object(data, path, WORKLOAD_COMMON + WORKLOAD_FIELDS[kind], errs, ctx)
    if cleaned is None:
        return None
    specs = {s.name: s for s in WORKLOAD_FIELDS[kind]}
    if any(spec.required and cleaned.get(name) is None for name, spec in specs.items()):
        return None
    return WORKLOAD_CLASSES[kind](**cleaned)


def _cross_checks(plan_fields: dict[str, Any], errs: _Errors) -> None:
    workloads: tuple[Workload, ...] = plan_fields.get("workloads", ())
    # No candidates means every tier is sized, unless they are missing because they were
    # refused: then their own messages say what is wrong, and sizing is not in question.
    refused = any(path.startswith("candidates") for path in errs.by_path)
    sized = (not plan_fields.get("candidates") and not refused) or any(
        part.mode == "sized" for c in plan_fields.get("candidates", ()) for part in c.parts
    )
    cpu_work = [w for w in workloads if w.kind != "deep_learning"]
    workload_errors = any(path.startswith("workloads") for path in errs.by_path)
    if sized and not cpu_work and not workload_errors:
        errs.add("workloads", "at least one CPU workload is needed to size candidates")
    needs_hours = any(
        part.mode == "usage"
        and part.gpu_hours_per_month is None
        and part.instance_hours_per_month is None
        for c in plan_fields.get("candidates", ())
        for part in c.parts
    )
    dl_hours = sum(
        (w.gpu_hours_per_month or 0) for w in workloads if isinstance(w, DeepLearningWorkload)
    )
    if needs_hours and not dl_hours:
        errs.add(
            "candidates",
            "a usage part with no hours takes the deep-learning workloads' GPU hours: none given",
        )


def parse_plan(data: Any, *, known_tiers: set[str] | None = None) -> Plan:
    """Validate plain data (a decoded JSON object) into a `Plan`, or raise with every problem."""
    errs = _Errors()
    ctx = _Context(set(known_tiers) if known_tiers is not None else None)
    cleaned = _object(data, "", PLAN_FIELDS, errs, ctx)
    if cleaned is None:
        raise PlanValidationError(errs.by_path)
    given = cleaned["baseline"]
    baseline = _baseline(given, errs, ctx) if given is not None else None
    cleaned["one_time"] = _one_time(cleaned["one_time"], errs, ctx)
    cleaned["monthly"] = _monthly(cleaned["monthly"], errs, ctx)
    cleaned["candidates"] = _items(
        cleaned.get("candidates"), "candidates", lambda i, w: _candidate(i, w, errs, ctx)
    )
    cleaned["workloads"] = _items(
        cleaned.get("workloads"), "workloads", lambda i, w: _workload(i, w, errs, ctx)
    )
    _cross_checks(cleaned, errs)
    if errs.by_path or baseline is None:
        raise PlanValidationError(errs.by_path)
    cleaned["baseline"] = baseline
    return Plan(**cleaned)


def parse_plan_json(
    body: bytes | str, *, known_tiers: set[str] | None = None, max_bytes: int = MAX_JSON_BODY_BYTES
) -> Plan:
    """A request body → `Plan`. Too large or malformed JSON is an error under "body"."""
    size = len(body.encode() if isinstance(body, str) else body)
    if size > max_bytes:
        raise PlanValidationError({"body": [f"at most {max_bytes} bytes, got {size}"]})
    try:
        # Decimal keeps cents exact; NaN/Infinity become floats the field checks refuse.
        data = json.loads(body, parse_float=Decimal, parse_constant=float)
    except (ValueError, UnicodeDecodeError) as exc:
        raise PlanValidationError({"body": [f"malformed JSON: {exc}"]}) from None
    return parse_plan(data, known_tiers=known_tiers)


# --- back to plain data ----------------------------------------------------------------


def _plain(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if hasattr(value, "__dataclass_fields__"):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    return value


def plan_to_dict(plan: Plan) -> dict[str, Any]:
    """JSON-able plain data that `parse_plan` reads back to an equal `Plan`."""
    return _plain(plan)


def json_schema() -> dict[str, Any]:
    """A JSON Schema (draft 2020-12) of the plan, from the same tables, for OpenAPI."""

    def prop(spec: FieldSpec) -> dict[str, Any]:
        kinds = {
            "int": {"type": "integer"},
            "number": {"type": "number"},
            "decimal": {"type": ["number", "string"]},
            "money": {"type": ["number", "string"]},
            "bool": {"type": "boolean"},
            "str": {"type": "string"},
            "tier": {"type": "string", "pattern": TIER_RE.pattern},
            "currency": {"type": "string", "pattern": CURRENCY_RE.pattern},
            "enum": {"enum": list(spec.choices)},
            "object": {"type": "object"},
            "list": {"type": "array"},
        }
        out: dict[str, Any] = dict(kinds[spec.type])
        if spec.min is not None:
            out["exclusiveMinimum" if spec.min_exclusive else "minimum"] = spec.min
        if spec.max is not None:
            out["maxLength" if spec.type == "str" else "maximum"] = spec.max
        if spec.max_items is not None:
            out["maxItems"] = spec.max_items
        description = " ".join(x for x in (spec.unit, spec.doc) if x)
        if description:
            out["description"] = description
        return out

    def obj(specs: Iterable[FieldSpec]) -> dict[str, Any]:
        specs = tuple(specs)
        return {
            "type": "object",
            "additionalProperties": False,
            "properties": {s.name: prop(s) for s in specs},
            "required": [s.name for s in specs if s.required],
        }

    schema = obj(PLAN_FIELDS)
    props = schema["properties"]
    props["baseline"] = obj(BASELINE_FIELDS)
    props["baseline"]["properties"]["commitments"]["items"] = obj(COMMITMENT_FIELDS)
    props["one_time"] = obj(ONE_TIME_FIELDS)
    props["monthly"] = obj(MONTHLY_FIELDS)
    candidate = obj(CANDIDATE_FIELDS)
    candidate["properties"]["parts"]["items"] = obj(PART_FIELDS)
    props["candidates"]["items"] = {"anyOf": [candidate, obj(PART_FIELDS)]}
    props["workloads"]["items"] = {
        "oneOf": [
            obj((F("kind", "enum", required=True, choices=(kind,)), *WORKLOAD_COMMON[1:], *s))
            for kind, s in WORKLOAD_FIELDS.items()
        ]
    }
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema
