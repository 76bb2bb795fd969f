"""The JSON text of the engine's plain entries that hold messages, written directly.

A comparison over a large catalog lists thousands of tiers with no number, each with its
reasons as messages (`{"tier", "status", "reasons": [Message, …]}`). The API gives each as
`message_fields.with_messages(entry)` encoded by `DjangoJSONEncoder`: the reasons as their
English texts and a `messages` list of `{"field", "code", "params", "text"}`. Building
those dictionaries and encoding them costs more than the engine's work on the same tiers,
so `entry_json` writes the same text directly from the messages: byte for byte what
`json.dumps(with_messages(entry), cls=DjangoJSONEncoder)` gives (tests hold it to that for
every parameter type), with a nested message's JSON and a shared list's kept once.

Written here rather than through a faster JSON library: the bytes must stay those of the
standard encoder the rest of the answer uses (separators, ASCII escapes), and the cost is
the intermediate dictionaries, which no encoder avoids. Pure: no Django.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable, Mapping
from decimal import Decimal
from json.encoder import encode_basestring_ascii as _text
from typing import Any

from common.message_texts import TEXTS
from common.messages import (
    Message,
    Money,
    Number,
    Percent,
    ProfileRef,
    TierRef,
    plain_value,
    template,
)
from common.messages import _encode as encode_param

from .message_fields import MESSAGES


class Writer:
    """One answer's entries. Lists shared by many messages (a profile series named in every
    tier's reason) are encoded once while the writer lives, keyed by identity: the
    entries it writes hold them alive meanwhile, so an identity names one list."""

    def __init__(self) -> None:
        self._lists: dict[int, tuple[str, str]] = {}
        # A reason's form by its shape (`_shape_key`): None where the shape has no form; the
        # forms dropped (None) once an answer's shapes stop repeating (FORMS_MAX).
        self._forms: dict[tuple, tuple[str, list[int], str] | None] | None = {}

    def entry(self, entry: Mapping[str, Any]) -> str | None:
        """`json.dumps(with_messages(entry), cls=DjangoJSONEncoder)`; None for an entry of
        another shape (a value neither text nor messages), which the caller encodes so."""
        fields, messages = [], []
        for key, value in entry.items():
            kind = type(value)
            if kind is str:
                said = _text(value)
            elif kind is Message:
                said = self._reason(value, key, messages)
            elif kind is list or kind is tuple:
                said = self._reasons(value, key, messages)
            else:
                said = None
            if said is None or type(key) is not str or key == MESSAGES:
                return None
            fields.append(f"{_text(key)}: {said}")
        fields.append(f'"{MESSAGES}": [{", ".join(messages)}]')
        return "{" + ", ".join(fields) + "}"

    def _reasons(self, values: list | tuple, key: str, messages: list[str]) -> str | None:
        out = []
        for index, value in enumerate(values):
            kind = type(value)
            if kind is str:
                out.append(_text(value))
            elif kind is Message:
                out.append(self._reason(value, f"{key}[{index}]", messages))
            else:
                return None
        return "[" + ", ".join(out) + "]"

    def _reason(self, message: Message, field: str, messages: list[str]) -> str:
        said, encoded = self._formed(message)
        text = _text(said)
        messages.append(f'{{"field": {_text(field)}, {encoded[1:-1]}, "text": {text}}}')
        return text

    def _formed(self, message: Message) -> tuple[str, str]:
        """`_both(message)`, through the form of its shape: thousands of tiers' reasons
        differ only in their texts and tiers (the slots), so each shape is said once with
        a marker in every slot (`_form`), and each reason fills its slots into that
        form's English and JSON (two %-formats) instead of a walk that formats each nested
        message. The first reason of each shape is said both ways and the form kept only
        where the two agree."""
        known = message.__dict__
        if self._forms is None or ("_plain" in known and "_json_text" in known):
            return self._both(message)
        texts: list[Any] = []
        jsons: list[str] = []
        try:
            key = _shape_key(self, message, texts, jsons)
            form = self._forms.get(key, _UNSEEN)
        except TypeError:  # a parameter that is no dictionary key
            return self._both(message)
        if form is _UNSEEN:
            form = self._forms[key] = self._form(message, len(texts))
            if len(self._forms) > FORMS_MAX:
                self._forms = None
            if form is not None:  # said both ways: the form only where they agree
                found = self._both(message)
                if found != _fill(form, texts, jsons) and self._forms is not None:
                    self._forms[key] = None
                return found
        if form is None:
            return self._both(message)
        said, encoded = _fill(form, texts, jsons)  # type: ignore[arg-type]
        known["_plain"], known["_json_text"] = said, encoded
        return said, encoded

    def _form(self, message: Message, slots: int) -> tuple[str, list[int], str] | None:
        """The shape's English and JSON as %-formats (the English's slots in the order its
        text names them), or None where markers show outside their slots."""
        counter = [0]
        said, encoded = self._marked(message, counter)
        if counter[0] != slots or _JSON_MARK in said or _TEXT_MARK in encoded:
            return None
        text_parts = _TEXT_SLOT.split(said)
        json_parts = _JSON_SLOT.split(encoded)
        literals = text_parts[::2] + json_parts[::2]
        if any(_TEXT_MARK in p or _JSON_MARK in p for p in literals):
            return None
        if [int(i) for i in json_parts[1::2]] != list(range(slots)):
            return None
        order = [int(i) for i in text_parts[1::2]]
        text_form = "%s".join(p.replace("%", "%%") for p in text_parts[::2])
        json_form = "%s".join(p.replace("%", "%%") for p in json_parts[::2])
        return text_form, order, json_form

    def _marked(self, message: Message, counter: list[int]) -> tuple[str, str]:
        """`_both` with a marker for each slot `_shape_key` fills (the same walk, uncached)."""
        texts, parts = {}, []
        count = TEXTS[message.code].count
        for key, value in message.params.items():
            kind = type(value)
            if key == count:
                texts[key], part = plain_value(value), self.value(value)
            elif kind is Message and not _said(value):
                texts[key], part = self._marked(value, counter)
            elif kind is Message:
                texts[key], part = self._both(value)
            elif kind is list:
                texts[key], part = self._list(value)
            elif kind in _LITERALS:
                texts[key], part = plain_value(value), self.value(value)
            else:
                i = counter[0]
                counter[0] += 1
                texts[key], part = f"{_TEXT_MARK}{i}{_TEXT_MARK}", f"{_JSON_MARK}{i}{_JSON_MARK}"
            parts.append(part)
        said = template(message) % texts
        shape = _SHAPES.get((message.code, *message.params))
        if shape is None:
            shape = _shape(message.code, tuple(message.params))
        return said, shape % tuple(parts)

    def _message(self, message: Message) -> str:
        """`json.dumps(message.to_json())`."""
        return self._both(message)[1]

    def _both(self, message: Message) -> tuple[str, str]:
        """The message's English (`plain`) and its JSON, in one walk of its parameters, each
        kept on the message (a value: neither ever changes; `plain` reads the same slot,
        written straight into the frozen instance's dict as `plain` does through
        `object.__setattr__`). The common parameter types inline; any other through
        `plain_value` and `value`; the English template as `plain` picks it; the JSON
        around the parameters from one format per code and parameter names (`_shape`).
        The hot loop of a large answer: some 100,000 messages at 20,000 tiers."""
        known = message.__dict__
        said, encoded = known.get("_plain"), known.get("_json_text")
        if said is not None and encoded is not None:
            return said, encoded
        params = message.params
        texts, parts = {}, []
        for key, value in params.items():
            kind = type(value)
            if kind is str:
                texts[key] = value
                parts.append(_text(value))
            elif kind is Message:
                texts[key], part = self._both(value)
                parts.append(part)
            elif kind is TierRef:
                texts[key] = value.name or value.slug
                parts.append(
                    '{"tier": ' + _text(value.slug) + ', "name": ' + _text(value.name) + "}"
                )
            elif kind is list:
                texts[key], part = self._list(value)
                parts.append(part)
            else:
                texts[key] = plain_value(value)
                parts.append(self.value(value))
        if said is None:
            said = known["_plain"] = template(message) % texts
        if encoded is None:
            code = message.code
            shape = _SHAPES.get((code, *params))
            if shape is None:
                shape = _shape(code, tuple(params))
            encoded = known["_json_text"] = shape % tuple(parts)
        return said, encoded

    def _list(self, values: list) -> tuple[str, str]:
        """A list parameter's English and JSON, once per list (by identity) while the writer
        lives: the profile series every tier's reason names is one list."""
        both = self._lists.get(id(values))
        if both is None:
            both = self._lists[id(values)] = (plain_value(values), _sequence(self, values))
        return both

    def value(self, value: Any) -> str:
        """A parameter as `json.dumps(common.messages._encode(value))` writes it."""
        by_type = _BY_TYPE.get(type(value))
        if by_type is not None:
            return by_type(self, value)
        if type(value) is list:
            return self._list(value)[1]
        return json.dumps(encode_param(value))


# A reason's shape (`Writer._formed`): its codes and parameter names, the values that pick
# its words (counts: integers, yes/no, none) and the shared lists and said messages by
# identity; every other value is a slot (a text, a tier, a figure), filled per reason.
FORMS_MAX = 512  # shapes in one answer before the forms stop paying (values that never repeat)
_LITERALS = frozenset({int, bool, type(None)})
_TEXT_MARK, _JSON_MARK = "\x00", "\x01"
_TEXT_SLOT = re.compile("\x00(\\d+)\x00")
_JSON_SLOT = re.compile("\x01(\\d+)\x01")
_UNSEEN = object()


def _said(message: Message) -> bool:
    known = message.__dict__
    return "_plain" in known and "_json_text" in known


def _shape_key(writer: Writer, message: Message, texts: list[Any], jsons: list[str]) -> tuple:
    """The message's shape, its slots' English in `texts` and JSON in `jsons` (in the order
    `Writer._marked` numbers them)."""
    key: list[Any] = [message.code]
    count = TEXTS[message.code].count  # its value picks the words: never a slot
    for name, value in message.params.items():
        kind = type(value)
        key.append(name)
        if name == count:
            key.append((kind, value))
        elif kind is str:
            texts.append(value)
            jsons.append(_text(value))
        elif kind is TierRef:
            texts.append(value.name or value.slug)
            jsons.append('{"tier": ' + _text(value.slug) + ', "name": ' + _text(value.name) + "}")
        elif kind is Message:
            if _said(value):
                key.append(("said", id(value)))
            else:
                key.append(_shape_key(writer, value, texts, jsons))
        elif kind is list:
            key.append(("list", id(value)))
        elif kind in _LITERALS:
            key.append((kind, value))
        else:
            texts.append(plain_value(value))
            jsons.append(writer.value(value))
    return tuple(key)


def _fill(form: tuple[str, list[int], str], texts: list[Any], jsons: list[str]) -> tuple[str, str]:
    text_form, order, json_form = form
    return text_form % tuple([texts[i] for i in order]), json_form % tuple(jsons)


_KEYS: dict[str, str] = {}
_SHAPES: dict[tuple[str, ...], str] = {}


def _shape(code: str, names: tuple[str, ...]) -> str:
    """`{"code": <code>, "params": {<name>: %s, …}}` as a %-format of the parameters' JSON,
    once per code and parameter names (a few dozen in an answer)."""
    members = ", ".join(_key(name).replace("%", "%%") + ": %s" for name in names)
    head = _text(code).replace("%", "%%")
    shape = _SHAPES[(code, *names)] = '{"code": ' + head + ', "params": {' + members + "}}"
    return shape


def _key(name: str) -> str:
    """A parameter's name as JSON text (a few dozen names, each encoded once)."""
    said = _KEYS.get(name)
    if said is None:
        said = _KEYS[name] = _text(name)
    return said


def _places(places: int | None) -> str:
    return "null" if places is None else int.__repr__(places)


def _sequence(writer: Writer, values: list | tuple) -> str:
    return "[" + ", ".join(writer.value(v) for v in values) + "]"


_BY_TYPE: dict[type, Callable[[Writer, Any], str]] = {
    str: lambda w, v: _text(v),
    bool: lambda w, v: "true" if v else "false",
    int: lambda w, v: int.__repr__(v),
    type(None): lambda w, v: "null",
    float: lambda w, v: f'{{"number": {_text(repr(v))}, "places": null}}',
    Decimal: lambda w, v: f'{{"number": {_text(str(v))}, "places": null}}',
    dt.date: lambda w, v: f'{{"date": {_text(v.isoformat())}}}',
    Money: lambda w, v: f'{{"amount": {_text(str(v.amount))}, "currency": {_text(v.currency)}}}',
    Number: lambda w, v: f'{{"number": {_text(str(v.value))}, "places": {_places(v.places)}}}',
    Percent: lambda w, v: f'{{"percent": {_text(str(v.value))}, "places": {_places(v.places)}}}',
    TierRef: lambda w, v: f'{{"tier": {_text(v.slug)}, "name": {_text(v.name)}}}',
    ProfileRef: lambda w, v: (
        f'{{"profile": {_text(v.name)}, "version": {_text(v.version)}'
        + (f', "title": {_text(v.title)}}}' if v.title else "}")
    ),
    Message: lambda w, v: w._message(v),
    tuple: _sequence,
}
