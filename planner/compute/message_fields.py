"""Messages inside the engine's results, and the plain data the API and shares keep.

The engine and the capacity model put `Message`s where a sentence goes (a note, a
reason, a label). `split(data)` turns such a tree into what JSON carries: every
Message becomes its plain English text, byte for byte the string the field always
held, and is listed beside as `{"field", "code", "params", "text"}`, `field` being its
path in the tree ("notes[0]", "parts[0].capacity.reasons[1]"). So no existing field
changes type, and a page (or an API client) finds the structured form of each sentence.

Pure: no Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from common.messages import Message, Number, as_api, msg

MESSAGES = "messages"  # the key each object's list of messages sits under


def as_message(reason: Any) -> Message:
    """A reason as a Message, whatever form it comes in.

    Transitional: benchmarks_app (`NoMeasurement`, fit labels) and catalog (dropped
    tiers) still explain themselves in English strings while they move to messages.
    A Message passes through; an exception carrying one (as `.message` or its first
    argument) gives it; anything else is shown as its text (`common.text`), which
    reads the same in every language until its source says it as a message.
    """
    if isinstance(reason, Message):
        return reason
    for carried in (getattr(reason, "message", None), *getattr(reason, "args", ())[:1]):
        if isinstance(carried, Message):
            return carried
    return msg("common.text", text=str(reason))


def split(
    data: Any, path: str = "", memo: dict[int, Any] | None = None
) -> tuple[Any, list[dict[str, Any]]]:
    """(data with each Message as its English text, the messages with their field paths).
    `memo`: shared by the splits of one dump, each dictionary said once for its path, the
    data it gives shared by the dump (the price/performance rows' bases share their
    published estimate: 14 of them for 2,244 rows at 20,000 tiers, 10 ms of 14 walked
    again and again, bench, CPU)."""
    found: list[dict[str, Any]] = []
    if memo is None:
        return _walk(data, path, found), found
    return _walk_kept(data, path, found, memo), found


# Leaves that hold no message: passed over without building their path (a comparison of a
# 2,000-tier catalog has some 200,000 of them).
_PLAIN = frozenset({str, int, float, bool, type(None), Decimal})


def _walk(value: Any, path: str, found: list[dict[str, Any]]) -> Any:
    kind = type(value)
    if kind in _PLAIN:
        return value
    # The exact containers first: `isinstance(value, Mapping)` asks the ABC each time, and
    # a price/performance row's basis holds some nine of them (2,244 rows at 20,000 tiers).
    if kind is dict:
        prefix = f"{path}." if path else ""
        return {
            k: v if type(v) in _PLAIN else _walk(v, f"{prefix}{k}", found) for k, v in value.items()
        }
    if kind is list or kind is tuple:
        return [
            v if type(v) in _PLAIN else _walk(v, f"{path}[{i}]", found) for i, v in enumerate(value)
        ]
    if isinstance(value, Message):
        entry = as_api(value)  # its English once: the field's text is the message's
        found.append({"field": path, **entry})
        return entry["text"]
    if isinstance(value, dict | Mapping):
        prefix = f"{path}." if path else ""
        return {
            k: v if type(v) in _PLAIN else _walk(v, f"{prefix}{k}", found) for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return [
            v if type(v) in _PLAIN else _walk(v, f"{path}[{i}]", found) for i, v in enumerate(value)
        ]
    return value


def _walk_kept(value: Any, path: str, found: list[dict[str, Any]], memo: dict[int, Any]) -> Any:
    """`_walk`, each dictionary (of exactly that type) said once for its path (`split`)."""
    kind = type(value)
    if kind is not dict:
        if kind is list or kind is tuple:
            return [
                v if type(v) in _PLAIN else _walk_kept(v, f"{path}[{i}]", found, memo)
                for i, v in enumerate(value)
            ]
        return _walk(value, path, found)
    kept = memo.get(id(value))
    if kept is not None and kept[0] is value and kept[1] == path:
        found += [dict(entry) for entry in kept[3]]
        return kept[2]
    start = len(found)
    prefix = f"{path}." if path else ""
    out = {
        k: v if type(v) in _PLAIN else _walk_kept(v, f"{prefix}{k}", found, memo)
        for k, v in value.items()
    }
    # the dictionary kept with its data: its id stays its own while `memo` is held
    memo[id(value)] = (value, path, out, found[start:])
    return out


def with_messages(data: Mapping[str, Any]) -> dict[str, Any]:
    """An object's plain form with its `messages` list added."""
    out, found = split(data)
    out[MESSAGES] = found
    return out


def by_field(entries: Any) -> dict[str, list[Message]]:
    """An object's `messages` (its JSON form) back as Messages, keyed by field path.

    A share frozen before messages has none: the caller then shows the stored text.
    """
    out: dict[str, list[Message]] = {}
    for entry in entries or []:
        try:
            message = Message.from_json(entry)
        except (KeyError, TypeError, ValueError):
            continue  # a code retired since the snapshot: the stored English stands in
        out.setdefault(str(entry.get("field", "")), []).append(message)
    return out


def figure(value: Any, spec: str = "g") -> Number | str:
    """A computed number for a message, shown in English as `format(value, spec)` always was.

    A `Number` holding exactly those digits, so each page localises it ("0.20" → "0,20",
    a fixed-point spec keeping its places) and its JSON form keeps them; a figure in
    exponent form ("5e+07") or not finite stays that text, which reads the same in every
    language.
    """
    text = format(value, spec)
    try:
        exact = Decimal(text)
    except InvalidOperation:
        return text
    if not exact.is_finite() or "e" in text.lower():
        return text
    places = len(text.partition(".")[2]) if spec.endswith("f") else None
    return Number(exact, places)
