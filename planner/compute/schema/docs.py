"""The plan schema as documentation, read from the models: the field tables the web form
builds its fields from (`FieldSpec`, `PLAN_FIELDS`, ...), `SCHEMA_BOUNDS` and its Markdown
table, and the JSON Schema of docs/openapi.yaml (`json_schema()`).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import PydanticUndefined, core_schema

from planner.compute.schema import rules
from planner.compute.schema.fields import Items, Section, Spec
from planner.compute.schema.models import (
    WORKLOAD_CLASSES,
    Baseline,
    BillChoice,
    Candidate,
    Commitment,
    InputRange,
    MonthlyExtras,
    OneTime,
    OwnedServer,
    Part,
    Plan,
    Workload,
)


@dataclass(frozen=True)
class FieldSpec:
    """One field as the form and the documentation see it (read from the model)."""

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


def fields_of(model: type[BaseModel], skip: Iterable[str] = ()) -> tuple[FieldSpec, ...]:
    out = []
    for name, info in model.model_fields.items():
        if name in skip:
            continue
        default = None if info.default is PydanticUndefined else info.default
        required = info.is_required()
        for marker in info.metadata:
            if isinstance(marker, Spec):
                out.append(
                    FieldSpec(name, marker.type, required, default, marker.min, marker.max,
                              marker.min_exclusive, marker.places, marker.unit, marker.doc,
                              marker.choices)
                )  # fmt: skip
            elif isinstance(marker, Items):
                out.append(FieldSpec(name, "list", required, (), doc=marker.doc,
                                     max_items=marker.max_items))  # fmt: skip
            elif isinstance(marker, Section):
                out.append(FieldSpec(name, "object", required, None, doc=marker.doc))
    return tuple(out)


PLAN_FIELDS = fields_of(Plan)
BASELINE_FIELDS = fields_of(Baseline)
BILL_FIELDS = fields_of(BillChoice)
COMMITMENT_FIELDS = fields_of(Commitment)
ONE_TIME_FIELDS = fields_of(OneTime)
MONTHLY_FIELDS = fields_of(MonthlyExtras)
CANDIDATE_FIELDS = fields_of(Candidate)
PART_FIELDS = fields_of(Part)
WORKLOAD_COMMON = fields_of(Workload)
OWNED_FIELDS = fields_of(OwnedServer)
RANGE_FIELDS = fields_of(InputRange)
WORKLOAD_FIELDS: dict[str, tuple[FieldSpec, ...]] = {
    kind: fields_of(model, skip=("kind", "name")) for kind, model in WORKLOAD_CLASSES.items()
}


def _bounds_table() -> dict[str, FieldSpec]:
    sections: list[tuple[str, Iterable[FieldSpec]]] = [
        ("", PLAN_FIELDS),
        ("baseline.", BASELINE_FIELDS),
        ("baseline.bill.", BILL_FIELDS),
        ("baseline.commitments[].", COMMITMENT_FIELDS),
        ("one_time.", ONE_TIME_FIELDS),
        ("monthly.", MONTHLY_FIELDS),
        ("candidates[].", CANDIDATE_FIELDS),
        ("candidates[].parts[].", PART_FIELDS),
        ("workloads[].", WORKLOAD_COMMON),
        ("owned[].", OWNED_FIELDS),
        ("ranges[].", RANGE_FIELDS),
    ]
    sections += [(f"workloads[kind={kind}].", specs) for kind, specs in WORKLOAD_FIELDS.items()]
    return {prefix + spec.name: spec for prefix, specs in sections for spec in specs}


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


# --- the JSON Schema ---------------------------------------------------------------------


class _Documented(GenerateJsonSchema):
    """pydantic's JSON Schema as the document has it: no titles, no defaults (the table
    has them), and `null` allowed for every member that may be left out: an object drops
    its null members before validating ("not given"), and a stored plan's `inputs` hold
    null where "not given" is the default, to be sent back as they are."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False

    def sort(self, value: JsonSchemaValue, parent_key: str | None = None) -> JsonSchemaValue:
        return value  # each field's keys as Spec.json_schema writes them: type first

    def default_schema(self, schema: core_schema.WithDefaultSchema) -> JsonSchemaValue:
        return _nullable(self.generate_inner(schema["schema"]))


_NULLABLE_REF = "x-planner-nullable"  # marks a reference to resolve as nullable (_inline)


def _nullable(schema: JsonSchemaValue) -> JsonSchemaValue:
    out = dict(schema)
    if "$ref" in out:  # an object section with a default (one_time, monthly)
        out[_NULLABLE_REF] = True
    elif "enum" in out and None not in out["enum"]:
        out["enum"] = [*out["enum"], None]
    elif isinstance(out.get("type"), list) and "null" not in out["type"]:
        out["type"] = [*out["type"], "null"]
    elif isinstance(out.get("type"), str):
        out["type"] = [out["type"], "null"]
    return out


def json_schema() -> dict[str, Any]:
    """A JSON Schema (draft 2020-12) of the plan, from the models, for OpenAPI."""
    generated = Plan.model_json_schema(schema_generator=_Documented, mode="validation")
    definitions = generated.pop("$defs", {})
    schema = rules.attach(_inline(generated, definitions))
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema


def _inline(node: Any, definitions: dict[str, Any]) -> Any:
    """References replaced by what they name; objects without pydantic's titles and
    class docstrings (the document is read field by field)."""
    if isinstance(node, list):
        return [_inline(item, definitions) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        target = copy.deepcopy(definitions[node["$ref"].rsplit("/", 1)[-1]])
        given = {k: v for k, v in node.items() if k not in ("$ref", _NULLABLE_REF)}
        out = _inline({**target, **given}, definitions)
        return _nullable(out) if node.get(_NULLABLE_REF) else out
    out = {key: _inline(value, definitions) for key, value in node.items()}
    if out.get("type") == "object":
        out.pop("title", None)
        out.pop("description", None)
        order = ("type", "additionalProperties", "properties", "required")
        out = {k: out[k] for k in order if k in out} | out
    return out
