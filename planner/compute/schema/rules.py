"""The rules between a plan's fields, as JSON Schema, for the API document.

Each object's `_checks` (models.py) refuses what these rules exclude; here the same rules
are written for clients and for generated tests (schemathesis's "rejected valid request"
check runs in CI): every rule carries its English description, and its schema says it so
that a request the document allows is one the parser takes. A member given as null is
"not given" (the parser drops nulls), hence `_absent` and `_given`. Rules that depend on
data (a tier the catalog offers, a currency with a rate) are not in the document: they
are stated in the operation's description. Pure: no Django.
"""

from __future__ import annotations

from typing import Any

from planner.compute.schema.models import WORKLOAD_KINDS

Schema = dict[str, Any]
CPU_KINDS = [kind for kind in WORKLOAD_KINDS if kind != "deep_learning"]
USAGE_HOURS = ("gpu_hours_per_month", "instance_hours_per_month")


def _absent(*names: str) -> Schema:
    """Each of `names` left out or null."""
    return {"properties": {name: {"type": "null"} for name in names}}


def _given(name: str, schema: Schema | None = None) -> Schema:
    """`name` given, not null (and matching `schema`)."""
    return {"required": [name], "properties": {name: schema or {"not": {"type": "null"}}}}


def _all(*schemas: Schema) -> Schema:
    return {"allOf": list(schemas)}


def _rule(description: str, schema: Schema) -> Schema:
    return {"description": description, **schema}


def exactly_one(a: str, b: str) -> Schema:
    return _rule(
        f"exactly one of {a} and {b} is given",
        {"oneOf": [_all(_given(a), _absent(b)), _all(_given(b), _absent(a))]},
    )


def _mode_is(*modes: str) -> Schema:
    return _given("mode", {"enum": list(modes)})


# A part's mode, given or inferred: a count means fixed, usage hours mean usage, else sized.
_FIXED = {"anyOf": [_mode_is("fixed"), _all(_absent("mode"), _given("count"))]}
_USAGE = {
    "anyOf": [
        _mode_is("usage"),
        _all(_absent("mode", "count"), {"anyOf": [_given(h) for h in USAGE_HOURS]}),
    ]
}
_NOT_SIZED = {"anyOf": [_FIXED, _USAGE]}

PART: list[Schema] = [
    _rule(
        "mode fixed (given, or inferred from a count) takes a count; the other modes none",
        {
            "anyOf": [
                _all(_FIXED, _given("count")),
                _all(_absent("count"), {"not": _mode_is("fixed")}),
            ]
        },
    ),
    _rule(
        "gpu_hours_per_month and instance_hours_per_month only in usage mode, and not both",
        {
            "anyOf": [
                _absent(*USAGE_HOURS),
                _all(_USAGE, {"not": _all(_given(USAGE_HOURS[0]), _given(USAGE_HOURS[1]))}),
            ]
        },
    ),
]

_CPU_WORK = _given(
    "workloads",
    {"type": "array", "contains": {"type": "object", "required": ["kind"],
                                   "properties": {"kind": {"enum": CPU_KINDS}}}},
)  # fmt: skip
_NO_SIZED_CANDIDATE = {
    "type": "array",
    "minItems": 1,
    "items": {
        "anyOf": [
            _given("parts", {"type": "array", "items": _NOT_SIZED}),
            _all({"not": {"required": ["parts"]}}, _NOT_SIZED),
        ]
    },
}
_NO_CANDIDATES = {"properties": {"candidates": {"anyOf": [{"type": "null"}, {"maxItems": 0}]}}}
# A decimal above 0 in either form (the field's own pattern still applies to the string).
ABOVE_ZERO: Schema = {"anyOf": [{"type": "number", "exclusiveMinimum": 0},
                                {"type": "string", "pattern": "[1-9]"}]}  # fmt: skip
_DL_HOURS = _given(
    "workloads",
    {"type": "array", "contains": _all(
        {"type": "object", "properties": {"kind": {"const": "deep_learning"}}},
        _given("gpu_hours_per_month", ABOVE_ZERO),
    )},
)  # fmt: skip
_USAGE_WITHOUT_HOURS = _all(_USAGE, _absent(*USAGE_HOURS))


def _some_part(schema: Schema) -> Schema:
    """Some candidate has a part matching `schema` (inline or in `parts`)."""
    return _given(
        "candidates",
        {"type": "array", "contains": {"anyOf": [
            _given("parts", {"type": "array", "contains": schema}),
            _all({"not": {"required": ["parts"]}}, schema),
        ]}},
    )  # fmt: skip


PLAN: list[Schema] = [
    _rule(
        "sizing needs work to size for: at least one CPU workload, unless every candidate "
        "has a fixed count or usage hours, or owned servers are the only options",
        {
            "anyOf": [
                _CPU_WORK,
                _given("candidates", _NO_SIZED_CANDIDATE),
                _all(_given("owned", {"type": "array", "minItems": 1}), _NO_CANDIDATES),
            ]
        },
    ),
    _rule(
        "a usage part without its own hours takes the deep-learning workloads' GPU hours: "
        "then some deep_learning workload gives gpu_hours_per_month above 0",
        {"anyOf": [{"not": _some_part(_USAGE_WITHOUT_HOURS)}, _DL_HOURS]},
    ),
]

ONE_TIME: list[Schema] = [
    _rule(
        "migration_hours and migration_rate are given together",
        {
            "anyOf": [
                _absent("migration_hours", "migration_rate"),
                _all(_given("migration_hours"), _given("migration_rate")),
            ]
        },
    ),
]

MONTHLY: list[Schema] = [
    _rule(
        "ops_hours_per_server takes an ops_rate",
        {"anyOf": [_absent("ops_hours_per_server"), _given("ops_rate")]},
    ),
]

OWNED: list[Schema] = [
    _rule(
        "resale percent takes resale_percent",
        {"anyOf": [{"not": _given("resale", {"const": "percent"})}, _given("resale_percent")]},
    ),
    _rule(
        "financing loan takes loan_annual_rate and loan_months",
        {
            "anyOf": [
                {"not": _given("financing", {"const": "loan"})},
                _all(_given("loan_annual_rate"), _given("loan_months")),
            ]
        },
    ),
]


def _absolute_ranges() -> list[Schema]:
    """A range of an input given as the rate or share itself keeps that field's bounds."""
    from planner.compute.schema.fields import Spec
    from planner.compute.schema.models import InputRange

    out = []
    for name, (least, most, _unit) in InputRange.ABSOLUTE.items():
        bound = Spec("decimal", min=float(least), max=float(most), places=6).json_schema()
        ends = {end: bound for end in ("low", "high")}
        out.append({"properties": {"input": {"const": name}, **ends}})
    others = {"not": {"enum": list(InputRange.ABSOLUTE)}}
    return [_rule(
        "low and high of " + ", ".join(InputRange.ABSOLUTE) + " are the rate or share "
        "itself, within that field's own bounds",
        {"anyOf": [{"properties": {"input": others}}, *out]},
    )]  # fmt: skip


MATCHED_SIZING = _rule(
    "sizing matched takes tiers or a bill (the bill's machines by tier)",
    {"anyOf": [{"not": _given("sizing", {"const": "matched"})}, _given("tiers"), _given("bill")]},
)


def attach(plan: Schema) -> Schema:
    """The plan's JSON Schema (inlined, docs.json_schema) with every rule in its place."""
    props = plan["properties"]
    add(plan, PLAN)
    baseline = props["baseline"]
    add(baseline, [exactly_one("monthly", "tier"), MATCHED_SIZING])
    add(baseline["properties"]["commitments"]["items"], [exactly_one("monthly", "tier")])
    add(props["one_time"], ONE_TIME)
    add(props["monthly"], MONTHLY)
    add(props["owned"]["items"], OWNED)
    add(props["ranges"]["items"], _absolute_ranges())
    for form in props["candidates"]["items"]["anyOf"]:
        if "parts" in form["properties"]:
            add(form["properties"]["parts"]["items"], PART)
        else:  # the one-part shorthand
            add(form, PART)
    plan["description"] += (
        " Rules on data, not in this schema: every tier (and baseline.runs_on) is a key "
        "the catalog offers (GET /api/v1/tiers), currency is one with an exchange rate on "
        "the plan's date (the refusal lists them), and baseline.bill.id is one of the "
        "caller's own imported bills."
    )
    return plan


def add(schema: Schema, rules: list[Schema]) -> None:
    """Attach `rules` to an object's schema (in place), and list them in its description."""
    if not rules:
        return
    schema["allOf"] = [*schema.get("allOf", []), *rules]
    listed = "; ".join(rule["description"] for rule in rules)
    schema["description"] = f"Rules between fields: {listed}."
