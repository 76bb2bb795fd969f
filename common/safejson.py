"""One safe JSON loader for everything read from outside: plan bodies, catalog files, run
files and benchmark profiles.

`loads` refuses what the standard library takes silently or crashes on:

- duplicate keys in an object (the standard library keeps the last one);
- nesting deeper than `max_depth` (the standard library raises RecursionError, or worse);
- a NUL character or a lone UTF-16 surrogate in a string or a key (PostgreSQL refuses
  NUL in text, and a lone surrogate cannot be encoded as UTF-8 when stored);
- number literals of more than `max_digits` digits (10^400 overflows a float, and
  Python's `int()` of a long digit string is slow enough to be an attack), or with an
  exponent beyond ±`MAX_EXPONENT` (`Decimal("1e9999999999999999999")` raises, and
  `int(Decimal("0e999999999"))` would build a billion-digit number);
- NaN and Infinity, unless the caller says what they become (`constants=`).

Numbers with a fraction or an exponent become exact `Decimal`s (so 0.1 stays 0.1), or
floats with `decimals=False` for callers that store the document as JSON again; integers
stay `int`. Each refusal is a `JsonRefused` (a `ValueError`) carrying a `Message`, the
JSON path of the value it concerns (`workloads[0].name`; "" for the whole document) and
its line and column.

The common case costs one pass of the C decoder plus two regular-expression scans; the
slower path-tracking walk (`_locate`) only runs when something looks wrong, to say where.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from common.messages import Message, msg, plain

MAX_DEPTH = 64
MAX_DIGITS = 40
MAX_EXPONENT = 1000

_WS = re.compile(r"[ \t\n\r]*")
# A string token as JSON writes it, except that a raw NUL is let through here so that the
# walk can name it (the decoder below is strict and refuses every other control character).
_STRING = re.compile(r'"(?:[^"\\\x01-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"')
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
_CONSTANT = re.compile(r"NaN|-?Infinity")
_LITERAL = re.compile(r"true|false|null")
_SURROGATE = re.compile("[\ud800-\udfff]")
# Cheap signs that the walk is needed: a NUL (raw or escaped), or a surrogate escape that
# is not one half of a pair (JSON writes a character beyond U+FFFF as a pair of escapes).
_SUSPECT = re.compile(
    r"\x00|\\u0000"
    r"|\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    r"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}"
)
_BIG_EXPONENT = re.compile(rf"[eE][-+]?[0-9]{{{len(str(MAX_EXPONENT))},}}")
_ANY_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class JsonRefused(ValueError):
    """A document refused: what is wrong (a `Message`), at which JSON path, line and column."""

    def __init__(
        self,
        message: Message,
        *,
        path: str = "",
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        super().__init__(plain(message))
        self.message = message
        self.path = path
        self.line = line
        self.column = column

    @property
    def lineno(self) -> int | None:  # the name json.JSONDecodeError uses: callers read either
        return self.line


def loads(
    data: bytes | bytearray | str,
    *,
    max_depth: int = MAX_DEPTH,
    max_digits: int = MAX_DIGITS,
    decimals: bool = True,
    constants: Callable[[str], Any] | None = None,
) -> Any:
    """Decode one JSON document, or raise `JsonRefused` naming the problem and where it is."""
    limits = _Limits(max_depth, max_digits, constants is not None)
    text = _text(data)
    if _suspect(text, data, limits) and (refusal := _locate(text, limits)):
        raise refusal

    def parse_constant(name: str) -> Any:
        if constants is None:
            raise _Found
        return constants(name)

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out = dict(items)
        if len(out) != len(items):
            raise _Found
        return out

    try:
        # No number reaching int() or Decimal() here is longer than max_digits or has an
        # exponent beyond MAX_EXPONENT: _suspect sent those to the walk, which refused them.
        return json.loads(
            text,
            parse_float=Decimal if decimals else float,
            parse_constant=parse_constant,
            object_pairs_hook=pairs,
        )
    except json.JSONDecodeError as exc:
        reason = msg("common.json.malformed", reason=exc.msg, line=exc.lineno, column=exc.colno)
        raise JsonRefused(reason, line=exc.lineno, column=exc.colno) from None
    except (_Found, RecursionError):
        # The hooks saw a refusal (or the estimate of the depth was fooled): say where.
        refusal = _locate(text, limits)
        raise refusal or _refusal(text, 0, "", "common.json.too_deep", limit=max_depth) from None


class _Found(Exception):
    """Raised inside the decoder's hooks: something is refused; the walk says where."""


@dataclass(frozen=True)
class _Limits:
    max_depth: int
    max_digits: int
    constants: bool


def _text(data: bytes | bytearray | str) -> str:
    if isinstance(data, str):
        return data
    raw = bytes(data)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - raw.rfind(b"\n", 0, exc.start)
        refusal = msg("common.json.not_utf8", offset=exc.start, line=line, column=column)
        raise JsonRefused(refusal, line=line, column=column) from None


def _suspect(text: str, data: bytes | bytearray | str, limits: _Limits) -> bool:
    """Cheap signs that the walk is needed; a false alarm only costs the walk's time."""
    return bool(
        _too_deep(text, limits.max_depth)
        or _SUSPECT.search(text)
        or _long_digits(limits.max_digits).search(text)
        or _BIG_EXPONENT.search(text)
        or (isinstance(data, str) and _SURROGATE.search(text))  # UTF-8 never decodes to one
    )


@functools.cache
def _long_digits(max_digits: int) -> re.Pattern[str]:
    return re.compile(f"[0-9]{{{max_digits + 1}}}")


def _too_deep(text: str, max_depth: int) -> bool:
    """An estimate, without recursion: strings removed, the brackets' running depth."""
    brackets = _NOT_BRACKET.sub("", _ANY_STRING.sub("", text))
    if len(brackets) <= max_depth:
        return False
    steps = (1 if c in "[{" else -1 for c in brackets)
    return max(itertools.accumulate(steps)) > max_depth


def _exponent(token: str) -> int:
    parts = re.split("[eE]", token, maxsplit=1)
    return int(parts[1]) if len(parts) == 2 else 0


def _digits(token: str) -> int:
    """The longest run of digits in a number literal (its integer part or its fraction)."""
    return max(len(run) for run in re.findall("[0-9]+", token))


# --- the walk: where is the problem? ------------------------------------------------------


@dataclass
class _Frame:
    is_object: bool
    keys: set[str] = field(default_factory=set)
    index: int = 0
    key: str | None = None

    def segment(self) -> str:
        if not self.is_object:
            return f"[{self.index}]"
        key = self.key or ""
        if _IDENTIFIER.fullmatch(key):
            return f".{key}"
        return f"[{json.dumps(key[:40])}]"


def _path(stack: list[_Frame]) -> str:
    """The value being read, as the plan's error keys write it: "workloads[0].rows"."""
    return "".join(frame.segment() for frame in stack).removeprefix(".")


def _refusal(text: str, pos: int, path: str, code: str, **params: Any) -> JsonRefused:
    line = text.count("\n", 0, pos) + 1
    column = pos - text.rfind("\n", 0, pos)
    where = "$" + ("" if not path or path.startswith("[") else ".") + path
    message = msg(code, path=where, line=line, column=column, **params)
    return JsonRefused(message, path=path, line=line, column=column)


def _locate(text: str, limits: _Limits) -> JsonRefused | None:
    """Walk the document once, without recursion, and return its first refusal (None: the
    document has none of ours; if it is malformed the decoder says so)."""
    stack: list[_Frame] = []
    pos = _WS.match(text, 0).end()  # type: ignore[union-attr]
    state = "value"
    while True:
        if state == "value":
            found = _value(text, pos, stack, limits)
            if isinstance(found, JsonRefused) or found is None:
                return found
            pos, state = found
        elif state == "key":
            found = _key(text, pos, stack)
            if isinstance(found, JsonRefused) or found is None:
                return found
            pos, state = found
        else:  # after a value: a comma, the end of the container, or the end of the text
            pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
            if not stack:
                return None
            frame, char = stack[-1], text[pos : pos + 1]
            if char == ",":
                pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]
                frame.index += 1
                state = "key" if frame.is_object else "value"
            elif char == ("}" if frame.is_object else "]"):
                stack.pop()
                pos += 1
            else:
                return None


def _value(
    text: str, pos: int, stack: list[_Frame], limits: _Limits
) -> tuple[int, str] | JsonRefused | None:
    char = text[pos : pos + 1]
    if char in ("{", "["):
        if len(stack) >= limits.max_depth:
            return _refusal(text, pos, _path(stack), "common.json.too_deep", limit=limits.max_depth)
        stack.append(_Frame(is_object=char == "{"))
        pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]
        closing = "}" if char == "{" else "]"
        if text.startswith(closing, pos):
            stack.pop()
            return pos + 1, "after"
        return pos, "key" if char == "{" else "value"
    if char == '"':
        token = _STRING.match(text, pos)
        if token is None:
            return None
        problem = _string_problem(token.group())
        if problem:
            return _refusal(text, pos, _path(stack), problem)
        return token.end(), "after"
    if number := _NUMBER.match(text, pos):
        if _digits(number.group()) > limits.max_digits:
            code = "common.json.long_number"
            return _refusal(text, pos, _path(stack), code, limit=limits.max_digits)
        if abs(_exponent(number.group())) > MAX_EXPONENT:
            code = "common.json.big_exponent"
            return _refusal(text, pos, _path(stack), code, limit=MAX_EXPONENT)
        return number.end(), "after"
    if constant := _CONSTANT.match(text, pos):
        if not limits.constants:
            code = "common.json.constant"
            return _refusal(text, pos, _path(stack), code, name=constant.group())
        return constant.end(), "after"
    if literal := _LITERAL.match(text, pos):
        return literal.end(), "after"
    return None


def _key(text: str, pos: int, stack: list[_Frame]) -> tuple[int, str] | JsonRefused | None:
    token = _STRING.match(text, pos)
    if token is None:
        return None
    frame = stack[-1]
    key = json.loads(token.group(), strict=False)
    frame.key = key
    if problem := _string_problem(token.group()):
        return _refusal(text, pos, _path(stack), problem)
    if key in frame.keys:
        return _refusal(text, pos, _path(stack), "common.json.duplicate_key")
    frame.keys.add(key)
    pos = _WS.match(text, token.end()).end()  # type: ignore[union-attr]
    if not text.startswith(":", pos):
        return None
    return _WS.match(text, pos + 1).end(), "value"  # type: ignore[union-attr]


def _string_problem(token: str) -> str | None:
    value = json.loads(token, strict=False)
    if "\x00" in value:
        return "common.json.nul"
    if _SURROGATE.search(value):
        return "common.json.surrogate"
    return None
