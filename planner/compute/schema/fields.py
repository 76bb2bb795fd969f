"""The plan's field types: each declares its wire type, bounds, unit and words once.

A field of a plan model is `Annotated[<python type>, Spec(...)]`. The `Spec` is what
pydantic validates the value with (its own validator, so the type checks, bounds and
their English are exactly the schema's), what the JSON Schema of the field says, and
what the documentation table and the web form read (`FieldSpec`, in `docs`).

Types on the wire (JSON):
- money: a JSON number or a decimal string ("349.99"), at most 2 decimal places,
  kept as `Decimal`; strings carry exact cents through any JSON library.
- decimal (rates, hours): number or decimal string, more places allowed.
- integer: a JSON number with no fraction (36 or 36.0); never a string or a bool.
- number: a finite JSON number (never a string, a bool, NaN or Infinity), kept as a
  float: workload volumes feed the capacity model's float arithmetic.
- `null` counts as "not given" for every field (the model drops it before validating).

Every refusal is a `Message` (codes `schema.*`), raised as pydantic's custom error with
the message in its context; `errors.problems` reads it back.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic_core import PydanticCustomError, core_schema

from common.decimal_range_regex import decimal_range_pattern
from common.message_texts import TEXTS
from common.messages import Message, Number, msg

ROOT = "__all__"
TIER_RE = re.compile(r"^[a-z0-9][a-z0-9.-]{0,199}$")
CURRENCY_RE = re.compile(r"^[A-Z]{3}$")
# A decimal written as a string: what `Decimal()` reads, less its extras (spaces,
# underscores, NaN, Infinity, non-ASCII digits, exponents past what it can hold), so that
# the documented pattern and the parser take exactly the same strings ("" is refused).
DECIMAL_RE = re.compile(r"^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]{1,4})?$")

# Every string of the request is refused with a NUL in it (common/safejson.py).
NO_NUL = r"^[^\x00]*$"

SCALAR_TYPES = ("int", "number", "decimal", "money", "bool", "str", "enum", "tier", "currency")
_SURROGATE = re.compile("[\ud800-\udfff]")


def refusal(message: Message) -> PydanticCustomError:
    """A pydantic error carrying our message (its type is the code, for pydantic's logs)."""
    return PydanticCustomError(message.code, message.code, {"message": message})


def refuse(code: str, **params: Any) -> PydanticCustomError:
    return refusal(msg(code, **params))


def got(value: Any) -> Message:
    """What a value is, for "expected a list, got an object"."""
    if value is None:
        return msg("schema.got.null")
    if isinstance(value, bool):
        return msg("schema.got.boolean")
    if isinstance(value, str):
        return msg("schema.got.string")
    if isinstance(value, list | tuple):
        return msg("schema.got.list")
    if isinstance(value, Mapping):
        return msg("schema.got.object")
    if isinstance(value, int | float | Decimal):
        return msg("schema.got.number")
    return msg("common.text", text=type(value).__name__)


_UNIT_CODES = {
    text.singular: code for code, text in TEXTS.items() if code.startswith("schema.unit.")
}


def unit_message(unit: str) -> Message:
    """A unit as a message, so that a German page says "Monate" where the API says "months"."""
    code = _UNIT_CODES.get(unit)
    return msg(code) if code else msg("common.text", text=unit)


def exact(value: float | int) -> Decimal:
    """A bound as an exact decimal: 1e12 → 1000000000000, 0.05 → 0.05."""
    number = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    return Decimal(int(number)) if number == number.to_integral_value() else number


@dataclass(frozen=True)
class Spec:
    """One scalar field: its wire type, bounds, unit and documentation; it validates too."""

    type: str
    min: float | None = None
    max: float | None = None
    min_exclusive: bool = False
    places: int | None = None
    unit: str = ""
    doc: str = ""
    choices: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.type not in SCALAR_TYPES:
            raise ValueError(f"unknown field type {self.type!r}")

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.with_info_plain_validator_function(self._validate)

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> dict[str, Any]:
        return self.json_schema()

    def _validate(self, value: Any, info: core_schema.ValidationInfo) -> Any:
        if value is None:  # only from Python callers: JSON nulls never get here
            return None
        return _VALIDATORS[self.type](self, value, info.context or {})

    # documentation ----------------------------------------------------------------------

    def json_schema(self) -> dict[str, Any]:
        kinds: dict[str, dict[str, Any]] = {
            "int": {"type": "integer"},
            "number": {"type": "number"},
            "decimal": {"type": ["number", "string"], "pattern": DECIMAL_RE.pattern},
            "money": {"type": ["number", "string"], "pattern": DECIMAL_RE.pattern},
            "bool": {"type": "boolean"},
            "str": {"type": "string", "pattern": NO_NUL},
            "tier": {"type": "string", "pattern": TIER_RE.pattern},
            "currency": {"type": "string", "pattern": CURRENCY_RE.pattern},
            "enum": {"enum": list(self.choices)},
        }
        out = dict(kinds[self.type])
        if self.type in ("decimal", "money"):
            out.update(self._decimal_forms())
        if self.min is not None:
            out["exclusiveMinimum" if self.min_exclusive else "minimum"] = self.min
        if self.max is not None:
            out["maxLength" if self.type == "str" else "maximum"] = self.max
        description = " ".join(x for x in (self.unit, self.doc) if x)
        if description:
            out["description"] = description
        return out

    def _decimal_forms(self) -> dict[str, Any]:
        """`minimum`/`maximum` bind only the number form: the string form's bounds and
        places are in its `pattern` (the strings the parser takes, exactly), the number
        form's places in `multipleOf`."""
        places = 2 if self.type == "money" else self.places
        out: dict[str, Any] = {}
        if self.min is not None and self.max is not None and not self.min_exclusive:
            out["pattern"] = self.string_pattern().pattern
        if places is not None:
            out["multipleOf"] = float(Decimal(1).scaleb(-places))
        return out

    def string_pattern(self) -> re.Pattern[str]:
        """The decimal strings this field takes (docs/design.md, "Bounds")."""
        if self.min is None or self.max is None or self.min_exclusive:
            return DECIMAL_RE
        places = 2 if self.type == "money" else self.places
        return _range_pattern(exact(self.min), exact(self.max), places)

    # bounds -------------------------------------------------------------------------------

    def check_bounds(self, value: Decimal) -> None:
        unit = unit_message(self.unit)
        if self.min is not None:
            low = exact(self.min)
            if value < low or (self.min_exclusive and value == low):
                code = "schema.above" if self.min_exclusive else "schema.at_least"
                raise refuse(code, value=Number(low), unit=unit)
        if self.max is not None and value > exact(self.max):
            raise refuse("schema.at_most", value=Number(exact(self.max)), unit=unit)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float | Decimal) and not isinstance(value, bool)


def _exact_number(value: Any) -> Decimal:
    """A JSON number (or a Python one) as an exact decimal; refused if not finite."""
    if not _is_number(value):
        raise refuse("schema.expected_number", got=got(value))
    number = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    return _finite(number)


def _finite(number: Decimal) -> Decimal:
    if not number.is_finite():
        raise refuse("schema.not_finite")
    if number.is_zero() and number.as_tuple().exponent > 0:  # type: ignore[operator]
        # "0E+999999999" is within every bound, but quantize() overflows on it and int()
        # would build a billion-digit number: it is plain zero.
        return Decimal(0)
    return number


def _decimal(spec: Spec, value: Any, context: Mapping[str, Any]) -> Decimal:
    if isinstance(value, str):
        if not DECIMAL_RE.fullmatch(value):
            raise refuse("schema.expected_decimal", value=repr(value[:40]))
        number = _finite(Decimal(value))
    else:
        number = _exact_number(value)
    spec.check_bounds(number)
    places = 2 if spec.type == "money" else spec.places
    if places is not None:
        step = Decimal(1).scaleb(-places)
        rounded = number.quantize(step)
        if number != rounded and not _float_noise(value, number, rounded):
            raise refuse("schema.max_places", n=places)
        if spec.type == "money" or number != rounded:
            number = rounded  # "480" is kept as 480.00: cents, always
    if isinstance(value, str) and not spec.string_pattern().fullmatch(value):
        # In range and places, but written as the pattern does not take it: an exponent.
        raise refuse("schema.plain_decimal", value=repr(value[:40]))
    if number.is_zero() and (number.is_signed() or "E" in str(number)):
        number = Decimal(0)  # "-0.00000000000000000" is echoed as "0", not "-0E-17"
    return number


def _float_noise(value: Any, number: Decimal, rounded: Decimal) -> bool:
    """A JSON number that is the binary neighbour of an amount with the allowed places
    (57 * 0.01 is 0.5700000000000001 in binary floating point): it means that amount."""
    if not isinstance(value, float):
        return False
    return abs(number - rounded) <= abs(rounded) * Decimal("1e-12") + Decimal("1e-15")


@functools.cache
def _range_pattern(low: Decimal, high: Decimal, places: int | None) -> re.Pattern[str]:
    return re.compile(decimal_range_pattern(low, high, places))


def _int(spec: Spec, value: Any, context: Mapping[str, Any]) -> int:
    if not _is_number(value):
        raise refuse("schema.expected_integer", got=got(value))
    number = _exact_number(value)
    # to_integral_value before int(): int(Decimal("1E+400")) would build a 400-digit int.
    if number != number.to_integral_value():
        raise refuse("schema.expected_integer", got=msg("schema.got.fraction"))
    spec.check_bounds(number)
    return int(number)


def _number(spec: Spec, value: Any, context: Mapping[str, Any]) -> float:
    number = _exact_number(value)
    spec.check_bounds(number)  # on the exact value: 1e400 is "at most", never infinity
    return float(number)


def _bool(spec: Spec, value: Any, context: Mapping[str, Any]) -> bool:
    if not isinstance(value, bool):
        raise refuse("schema.expected_bool", got=got(value))
    return value


def _text(spec: Spec, value: Any, context: Mapping[str, Any]) -> str:
    if not isinstance(value, str):
        raise refuse("schema.expected_string", got=got(value))
    if spec.type == "enum" and value not in spec.choices:
        raise refuse("schema.unknown_value", value=repr(value[:40]), choices=list(spec.choices))
    # fullmatch, not match: "$" also matches before a final newline, and "USD\n" is no code.
    if spec.type == "currency" and not CURRENCY_RE.fullmatch(value):
        raise refuse("schema.currency_code")
    known_currencies = context.get("known_currencies") if spec.type == "currency" else None
    if known_currencies is not None and value not in known_currencies:
        # No rate: the plan would be accepted and then show no figure at all.
        known = ", ".join(sorted(known_currencies))
        raise refuse("schema.unknown_currency", currency=value, known=known)
    if spec.type == "tier":
        if not TIER_RE.fullmatch(value):
            raise refuse("schema.tier_key")
        known = context.get("known_tiers")
        if known is not None and value not in known:
            raise refuse("schema.unknown_tier", tier=value)
    if spec.type == "str":
        # Refused here as well as by the JSON loader: Python callers (the web form) too.
        if "\x00" in value:
            raise refuse("schema.nul")
        if _SURROGATE.search(value):
            raise refuse("schema.surrogate")
        if spec.max is not None and len(value) > spec.max:
            raise refuse("schema.max_length", n=int(spec.max))
    return value


_VALIDATORS = {
    "int": _int,
    "number": _number,
    "decimal": _decimal,
    "money": _decimal,
    "bool": _bool,
    "str": _text,
    "enum": _text,
    "tier": _text,
    "currency": _text,
}


@dataclass(frozen=True)
class Items:
    """A list field: at most `max_items` items, each validated by the list's item type."""

    max_items: int
    doc: str = ""
    min_items: int = 0  # documented here; the object's own check refuses fewer, by name

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.no_info_wrap_validator_function(self._validate, handler(source))

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> dict[str, Any]:
        out = handler(schema)
        if self.min_items:
            out["minItems"] = self.min_items
        out["maxItems"] = self.max_items
        if self.doc:
            out["description"] = self.doc
        return out

    def _validate(self, value: Any, handler: core_schema.ValidatorFunctionWrapHandler) -> Any:
        if not isinstance(value, list | tuple):
            raise refuse("schema.expected_list", got=got(value))
        if len(value) > self.max_items:  # before the items: 10,000 of them are not read
            raise refuse("schema.max_items", n=self.max_items)
        return handler(value)


@dataclass(frozen=True)
class Section:
    """An object field (baseline, one_time, monthly): only its documentation."""

    doc: str = ""
