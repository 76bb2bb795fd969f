"""The answer's JSON text, its tiers with no figure encoded by shape.

`encoded(answer, default)` is `json.dumps(answer.model_dump(), default=default).encode()`
(the API's encoding, `JsonResponse`'s: ASCII only, the default separators), byte for byte,
its text joined as bytes. It encodes
the answer's data member by member, each member by `json.dumps` of pydantic's data, except
`no_number`, which `unpriced` encodes from the same entries (`_Listed.dumped`'s data) by
shape. No text is spliced into other text: the members are joined as `json.dumps` joins
an object's members.

Why (bench/api_scale.py, CPU, 20,000 tiers): some 15,500 tiers have no figure, each entry
about 2 KB of JSON (its reasons' English, and their `messages` with nested parameters
that name the tier several times), 31 MB of the 34 MB answer. Said and encoded entry by
entry (`NoNumber.dumped`, then `json.dumps`) they cost some 440 ms; by shape, some 90 ms.

An entry's shape is its type and its fields with every tier it names left as a hole: its
own `tier`, and each `TierRef` in its sentences (the slug a hole, and the name a second
one where it is not empty: an empty name is part of the shape, the English then says the
slug). Everything else (codes, parameters, numbers, lists, other strings) is part of the
shape as it is. An entry's fills are the strings in its holes, in order; a reason noted as
made from a reason's shape for its tier (`messages.MADE`, most of them) is that shape as
one token, its fills read off the shape once (`_nested`). Such entries come in a few
shapes ("gbm #1: no succeeded standard or full run of gbm (gbm-xgboost 1.0) on tier X;
no estimate either: the catalog names no CPU for X", X its slug). The first time
a shape is seen again, its text is made once, by the generic encoding (`json.dumps` of
`entry.dumped`), from a copy of the entry whose fills are sentinels; the sentinels cut
that text into pieces, and every entry of the shape is then its pieces joined by its own
fills, JSON-escaped.

Why that is the generic encoding's text: JSON escapes a string character by character,
and a sentence puts a tier's slug or name into its English as it is (every placeholder in
`common.message_texts` is `%(name)s`; `messages.plain_value` says a TierRef as its name,
or its slug where the name is empty, and a list as its items joined), so an entry's text
is its shape's text with each sentinel's escaped characters replaced by its fill's. A
shape's text is kept only where every marker in it belongs to a sentinel and it gives the
first entry of the shape its own generic text back; else its entries are encoded one by
one, as is an entry whose shape is seen once, or which holds a value whose kind is not
listed in `_AS_REPR` (a subclass, an unknown object). Pure: no Django.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable, Sequence
from decimal import Decimal
from json.encoder import encode_basestring_ascii as quoted
from typing import TYPE_CHECKING, Any

from common.messages import MADE, Message, Money, Number, Percent, ProfileRef, TierRef

if TYPE_CHECKING:
    from planner.compute.answer import Answer, Unpriced


def encoded(answer: Answer, default: Callable[[Any], Any] | None = None) -> bytes:
    """`json.dumps(answer.model_dump(), default=default).encode()`: the answer's JSON text
    as the API's bytes, its members joined as `json.dumps` joins them, in one join.

    Joined as bytes: the text is ASCII (`json.dumps` escapes the rest), so each member's
    text encoded on its own and the tiers with no figure made as bytes (`unpriced`) join
    into the same bytes as the text's, with no copy of the whole text as a string first
    (4.4 MB at 2,018 tiers, 34 MB at 20,000: bench, CPU, 2,018 tiers, the join and the
    encoding of the text 2.5 ms, the join of its bytes 0.5)."""
    encode = json.JSONEncoder(default=default, check_circular=False).encode
    parts: list[bytes] = []
    for key, value in answer.dumped_but_unpriced().items():
        parts += (b", ", quoted(key).encode(), b": ")
        if key == "no_number" and answer.no_number:
            texts = unpriced(answer.no_number, encode)
            listed = [b", "] * (2 * len(texts) - 1)
            listed[0::2] = texts
            parts += (b"[", *listed, b"]")
        else:
            parts.append(encode(value).encode())
    parts[0] = b"{"
    parts.append(b"}")
    return b"".join(parts)


def unpriced(entries: Sequence[Unpriced], encode: Callable[[Any], str]) -> list[bytes]:
    """`[encode(entry.dumped()).encode() for entry in entries]`, each entry by its shape
    where it shares one: ASCII bytes, as `encoded` joins them. `encode`:
    `json.JSONEncoder(...).encode`, ASCII only, default separators."""
    shapes: dict[tuple[Any, ...], _Shape | _Seen | None] = {}
    lists: dict[int, tuple[Any, ...]] = {}  # a list's token, by its id (`_said`)
    whys: dict[Any, _Made | None] = {}  # a reason's shape's, by its `Why` (`_nested`)
    memo: dict[int, Any] = {}  # `messages.said`'s, for the entries encoded one by one
    out = []
    for entry in entries:
        try:
            shape, fills = _shape_of(entry, lists, whys)
        except _NoShape:
            out.append(encode(entry.dumped(memo)).encode())
            continue
        found = shapes.get(shape, _NEW)
        if type(found) is _Shape:
            out.append(found.text(fills))
            continue
        text = encode(entry.dumped(memo)).encode()
        if found is _NEW:  # seen once so far: its text made when it is seen again
            shapes[shape] = _Seen(fills, text)
        elif found is not None:  # seen again: its text made once, checked against the first
            shapes[shape] = _Shape.made(entry, fills, encode, found)  # type: ignore[arg-type]
        out.append(text)
    return out


class _NoShape(Exception):
    """The entry holds a value no shape describes: it is encoded on its own."""


_NEW = object()
# Tokens of a shape: a nested message's start and end, a hole for a tier's slug, and for
# a slug followed by a (non-empty) name.
_OPEN, _CLOSE, _SLUG, _NAMED = object(), object(), object(), object()
# Kinds whose value is part of a shape as its repr (equal reprs, equal JSON and English).
_AS_REPR = frozenset({
    int, float, bool, type(None), Decimal, dt.date, Money, Number, Percent, ProfileRef,
})  # fmt: skip


def _shape_of(
    entry: Unpriced, lists: dict[int, tuple[Any, ...]], whys: dict[Any, _Made | None]
) -> tuple[tuple, list[str]]:
    """(the entry's shape, its fills): its fields in order, its own `tier` a hole."""
    out: list[Any] = [type(entry)]
    fills: list[str] = []
    fields = entry.__dict__
    for name in entry.fields_in_order:
        value = fields[name]
        kind = type(value)
        if kind is str:
            if name == "tier":
                fills.append(value)
                value = _SLUG
            out.append(value)
        elif kind is Message:
            _nested(value, out, fills, lists, whys)
        elif kind is list:
            out.append(len(value))
            for item in value:
                if type(item) is Message:
                    _nested(item, out, fills, lists, whys)
                else:
                    out.append(_value(item))
        else:
            out.append(_value(value))
    return tuple(out), fills


def _said(
    message: Message, out: list[Any], fills: list[str], lists: dict[int, Any], whys: dict
) -> None:
    """A message's tokens (its code, then each parameter's name and value) and fills."""
    out.append(message.code)
    for key, value in message.params.items():
        out.append(key)
        kind = type(value)
        if kind is str:
            out.append(value)
        elif kind is Message:
            _nested(value, out, fills, lists, whys)
        elif kind is TierRef:
            if type(value.slug) is not str or type(value.name) is not str:
                raise _NoShape
            fills.append(value.slug)
            if value.name:
                fills.append(value.name)
                out.append(_NAMED)
            else:
                out.append(_SLUG)
        elif kind is list or kind is tuple:  # one list shared by many messages (series)
            if (token := lists.get(id(value))) is None:
                token = lists[id(value)] = _value(value)
            out.append(token)
        else:
            out.append(_value(value))


def _nested(
    message: Message, out: list[Any], fills: list[str], lists: dict[int, Any], whys: dict
) -> None:
    """A message within an entry: its tokens between `_OPEN` and `_CLOSE` (`_said`), or,
    where it is noted as made from a reason's shape (`messages.MADE`: a `findings.Why`
    with a tier filled in, most reasons of a large catalog's entries), that `Why` as one
    token and the fills its walk gives, the tier's slug in the tier's holes (`_Made`).
    The shape's text is still made, and checked, from its entries (`_Shape.made`).

    Why: the walk of an entry's reasons, 3 to 4 messages deep each, was most of the
    encoding's cost (bench/api_scale.py, CPU: the shapes 4.4 ms of `unpriced`'s 7.2 at
    2,018 tiers, 49 of 69 at 20,000; with the short cut 1.8 of 4.1, 28 of 42)."""
    why = message.__dict__.get(MADE)
    if why is not None:
        recipe = whys.get(why, _NEW)
        if recipe is _NEW:
            recipe = whys[why] = _Made.of(why, lists, whys)
        tier: Any = message
        if recipe is not None:
            for key in recipe.path:  # to its first hole: every hole holds the same tier
                tier = tier.params[key]
        if recipe is not None and type(tier) is TierRef and tier.name == "":
            slug = tier.slug
            if type(slug) is str:
                out.append(why)  # never a token of a walk: no `Why` is a parameter
                if recipe.fixed is None:
                    fills += [slug] * recipe.count
                else:
                    fills += [slug if fill is None else fill for fill in recipe.fixed]
                return
    out.append(_OPEN)
    _said(message, out, fills, lists, whys)
    out.append(_CLOSE)


class _Made:
    """What the walk of a message made from a `Why` (its tier's name empty) gives: its
    fills, each the tier's slug or (`fixed`, where some are not) a string of the `Why`'s
    own. Read off two walks of the `Why` said for two sentinel tiers: a fill that differs
    between them is the tier's slug, one that does not is the `Why`'s; their tokens must
    be the same (a hole is a token, never its fill)."""

    def __init__(self, count: int, fixed: list[str | None] | None, path: tuple) -> None:
        self.count, self.fixed, self.path = count, fixed, path

    @classmethod
    def of(cls, why: Any, lists: dict[int, Any], whys: dict) -> _Made | None:
        """None where the walk finds no shape, or the two walks do not agree."""
        walks = []
        for slug in (f"{_MARK}a{_MARK}", f"{_MARK}b{_MARK}"):
            out: list[Any] = []
            fills: list[str] = []
            try:
                _said(why.said(TierRef(slug), {}), out, fills, lists, whys)
            except _NoShape:
                return None
            walks.append((slug, out, fills))
        (a, tokens, fills_a), (b, again, fills_b) = walks
        if tokens != again:
            return None
        fixed: list[str | None] = []
        for one, other in zip(fills_a, fills_b, strict=True):
            if one == a and other == b:
                fixed.append(None)
            elif one == other:
                fixed.append(one)
            else:
                return None
        path: tuple[str, ...] = ()
        while not why.tiers:  # the keys to the shape's first hole
            if not why.nested:
                return None
            key, why = why.nested[0]
            path += (key,)
        mixed = any(fill is not None for fill in fixed)
        return cls(len(fixed), fixed if mixed else None, (*path, why.tiers[0]))


def _value(value: Any) -> Any:
    """A value as it is part of a shape, every tier in it as it is (no hole): a list's
    token is kept by its id for the encoding (the entries hold it meanwhile)."""
    kind = type(value)
    if kind is str:
        return value
    if kind in _AS_REPR:
        return kind, repr(value)
    if kind is TierRef:
        return kind, value.slug, value.name
    if kind is Message:
        return kind, value.code, tuple((k, _value(v)) for k, v in value.params.items())
    if kind is list or kind is tuple:
        return kind, tuple(_value(v) for v in value)
    raise _NoShape


_MARK = "\udfff"  # a lone surrogate: JSON (ASCII only) writes it as `_ESCAPED`
_ESCAPED = quoted(_MARK)[1:-1]
_SENTINEL = re.compile(f"{re.escape(_ESCAPED)}(\\d+){re.escape(_ESCAPED)}")


class _Seen:
    """A shape seen once: its first entry's fills and text (bytes)."""

    def __init__(self, fills: list[str], text: bytes) -> None:
        self.fills, self.text = fills, text


class _Shape:
    """A shape's text (bytes), cut where its holes are: `pieces` around `holes` (fill
    indexes)."""

    def __init__(self, pieces: list[bytes], holes: list[int]) -> None:
        self.pieces, self.holes = pieces, holes

    @classmethod
    def made(
        cls, entry: Unpriced, fills: list[str], encode: Callable[[Any], str], first: _Seen
    ) -> _Shape | None:
        """The shape's text from `entry` with sentinels for fills; None where the check of
        the module's docstring fails (or a fill holds the sentinels' mark)."""
        if any(_MARK in fill for fill in (*fills, *first.fills)):
            return None
        marks = iter([f"{_MARK}{i}{_MARK}" for i in range(len(fills))])
        text = encode(_with_marks(entry, marks).dumped({}))
        parts = _SENTINEL.split(text)
        shape = cls([part.encode() for part in parts[0::2]], [int(i) for i in parts[1::2]])
        if text.count(_ESCAPED) != 2 * len(shape.holes) or any(
            i >= len(fills) for i in shape.holes
        ):
            return None
        return shape if shape.text(first.fills) == first.text else None

    def text(self, fills: list[str]) -> bytes:
        """The shape's text with `fills` in its holes, each JSON-escaped."""
        first = fills[0] if fills else ""
        if fills.count(first) == len(fills):  # one tier named throughout (most): one join
            return quoted(first)[1:-1].encode().join(self.pieces)
        escaped = [quoted(fill)[1:-1].encode() for fill in fills]
        out = [self.pieces[0]]
        for hole, piece in zip(self.holes, self.pieces[1:], strict=True):
            out += (escaped[hole], piece)
        return b"".join(out)


def _with_marks(entry: Unpriced, marks: Any) -> Unpriced:
    """A copy of `entry` with the sentinels `marks` in its holes, in `_shape_of`'s order."""
    fields = dict(entry.__dict__)
    for name in entry.fields_in_order:
        value = fields[name]
        if type(value) is str and name == "tier":
            fields[name] = next(marks)
        elif type(value) is Message:
            fields[name] = _marked(value, marks)
        elif type(value) is list:
            fields[name] = [_marked(v, marks) if type(v) is Message else v for v in value]
    return type(entry).model_construct(**fields)


def _marked(message: Message, marks: Any) -> Message:
    params = {}
    for key, value in message.params.items():
        kind = type(value)
        if kind is Message:
            value = _marked(value, marks)
        elif kind is TierRef:
            value = TierRef(next(marks), next(marks) if value.name else "")
        params[key] = value
    return Message(message.code, params)
