"""The schema's refusals: pydantic's errors as messages keyed by today's paths.

`PlanValidationError.details` maps a path ("workloads[0].rows", "candidates[1].tier",
"body", "__all__" for the plan as a whole) to `Message`s; `.errors` is the same in
English, as the API has always answered.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import ValidationError
from pydantic_core import InitErrorDetails

from common.messages import Message, Number, msg, plain
from planner.compute.schema.fields import ROOT, got, refusal

Loc = tuple[str | int, ...]
# One refusal: where (relative to the object being validated), what, and the value given.
Problem = tuple[Loc, Message, Any]

# pydantic's own error types that our field types leave to it: structure, not values.
_OBJECT_TYPES = ("model_type", "model_attributes_type", "dict_type", "dataclass_type")
_LIST_TYPES = ("list_type", "tuple_type")


class PlanValidationError(ValueError):
    def __init__(self, details: Mapping[str, list[Message]]) -> None:
        self.details: dict[str, list[Message]] = {k: list(v) for k, v in details.items()}
        self.errors: dict[str, list[str]] = {
            path: [english(m) for m in messages] for path, messages in self.details.items()
        }
        super().__init__("; ".join(f"{k}: {', '.join(v)}" for k, v in sorted(self.errors.items())))

    def api_details(self) -> dict[str, list[dict[str, Any]]]:
        """`{path: [{code, params, text}]}`: the API's `error_details`, beside `errors`."""
        return {
            path: [{**m.to_json(), "text": english(m)} for m in messages]
            for path, messages in self.details.items()
        }


def english(message: Message) -> str:
    """The API's English for a schema message.

    `plain()`, except that a bound keeps the thousands separators the schema has always
    written ("must be at most 1,000,000,000,000 rows"); pages localise the same number.
    """
    value = message.params.get("value")
    if isinstance(value, Number):
        return plain(Message(message.code, {**message.params, "value": _grouped(value)}))
    return plain(message)


def _grouped(number: Number) -> str:
    value = number.value
    return f"{value:,.0f}" if value == int(value) else f"{value:g}"


def path(loc: Loc) -> str:
    """('workloads', 0, 'rows') → "workloads[0].rows"; () → "__all__"."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or ROOT


def problems(exc: ValidationError) -> list[Problem]:
    """Every error of a pydantic ValidationError as (loc, Message, input)."""
    return [(tuple(e["loc"]), _message(e), e.get("input")) for e in exc.errors(include_url=False)]


def _message(error: Mapping[str, Any]) -> Message:
    context = error.get("ctx") or {}
    if isinstance(context.get("message"), Message):
        return context["message"]
    kind = error["type"]
    if kind == "missing":
        return msg("schema.required")
    if kind == "extra_forbidden":
        return msg("schema.unknown_field")
    if kind in _OBJECT_TYPES:
        return msg("schema.expected_object", got=got(error.get("input")))
    if kind in _LIST_TYPES:
        return msg("schema.expected_list", got=got(error.get("input")))
    return msg("common.text", text=str(error.get("msg", kind)))


def fail(title: str, found: Iterable[Problem]) -> ValidationError:
    """A ValidationError of our messages, to raise from a validator (pydantic adds the
    outer locations on its way up)."""
    details = [
        InitErrorDetails(type=refusal(message), loc=loc, input=given)
        for loc, message, given in found
    ]
    return ValidationError.from_exception_data(title, details)


def by_path(found: Iterable[Problem]) -> dict[str, list[Message]]:
    out: dict[str, list[Message]] = {}
    for loc, message, _given in found:
        out.setdefault(path(loc), []).append(message)
    return out
