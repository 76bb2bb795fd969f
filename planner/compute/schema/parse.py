"""Plain data and JSON bodies to a `Plan`, and back."""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from decimal import Decimal
from typing import Any

from pydantic import BaseModel, ValidationError

from common import safejson
from common.limits import MAX_JSON_BODY_BYTES
from common.messages import msg
from planner.compute.schema.errors import PlanValidationError, by_path, problems
from planner.compute.schema.models import Plan

# A plan is five levels deep (plan, candidates, a candidate, its parts, a part); anything
# far deeper is not a plan.
MAX_PLAN_DEPTH = 32
# The loader's refusals of the text as a whole; the others name a value's path.
_WHOLE_BODY = ("common.json.malformed", "common.json.not_utf8")


def parse_plan(
    data: Any,
    *,
    known_tiers: AbstractSet[str] | None = None,
    known_currencies: AbstractSet[str] | None = None,
) -> Plan:
    """Validate plain data (a decoded JSON object) into a `Plan`, or raise with every problem.
    `known_currencies`: those a plan may be in (None: any ISO code)."""
    if known_tiers is not None and not isinstance(known_tiers, AbstractSet):
        known_tiers = frozenset(known_tiers)  # a set is taken as it is, not copied: only
        # asked whether it holds each tier the plan names (the services' reads its keys
        # only then, `inputs.OfferedTiers`)
    context = {"known_tiers": known_tiers, "known_currencies": known_currencies}
    try:
        return Plan.model_validate(data, context=context)
    except ValidationError as exc:
        raise PlanValidationError(by_path(problems(exc))) from None


def parse_plan_json(
    body: bytes | str,
    *,
    known_tiers: AbstractSet[str] | None = None,
    known_currencies: AbstractSet[str] | None = None,
    max_bytes: int = MAX_JSON_BODY_BYTES,
) -> Plan:
    """A request body → `Plan`. Too large or malformed JSON is an error under "body"; a
    refused value (a NUL, a duplicate key, a 400-digit number) under its own path."""
    size = len(body.encode() if isinstance(body, str) else body)
    if size > max_bytes:
        raise PlanValidationError(
            {"body": [msg("schema.body_too_large", limit=max_bytes, size=size)]}
        )
    return parse_plan(decode_plan_json(body), known_tiers=known_tiers,
                      known_currencies=known_currencies)  # fmt: skip


def decode_plan_json(body: bytes | str) -> Any:
    """A plan body's JSON as plain data (exact decimals), or a `PlanValidationError`: malformed
    JSON under "body", a refused value (a NUL, a duplicate key, a 400-digit number) under
    its own path. The API's parser reads bodies through this."""
    try:
        # NaN and Infinity become floats, for the fields to refuse by name.
        return safejson.loads(body, max_depth=MAX_PLAN_DEPTH, constants=float)
    except safejson.JsonRefused as exc:
        if exc.message.code in _WHOLE_BODY:
            raise PlanValidationError(
                {"body": [msg("schema.malformed_json", reason=exc.message)]}
            ) from None
        raise PlanValidationError({exc.path or "body": [exc.message]}) from None


def _plain(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, BaseModel):
        omit = getattr(type(value), "OMIT_WHEN_NONE", ())
        return {
            name: _plain(getattr(value, name))
            for name in type(value).model_fields
            if not (name in omit and getattr(value, name) is None)
        }
    return value


def plan_to_dict(plan: Plan) -> dict[str, Any]:
    """JSON-able plain data that `parse_plan` reads back to an equal `Plan`."""
    return _plain(plan)
