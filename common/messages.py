"""Messages as data (docs/design.md, "Messages as data"): a stable code and typed parameters.

Code below the views never writes a finished sentence. It returns a `Message`: a code
from the registry (`common.message_texts.TEXTS`) and parameters of the types below, so
each page can say it in its reader's language and formats, and the API can give the
code and the parameters beside the English text.

`plain()` is the English text the API gives (ISO dates, plain decimals); pages use
`common.django.message_render.render`. Pure: no Django. `to_json()` / `from_json()` carry a
message through a share's frozen snapshot, a cache or the API and back, with each
parameter's type kept.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from common.message_texts import TEXTS, placeholders


@dataclass(frozen=True)
class Money:
    """An amount with its currency: shown as $1,234.56 or 1.234,56 $."""

    amount: Decimal
    currency: str


@dataclass(frozen=True)
class Number:
    """A measured or computed number; `places` fixes the decimals (None: as few as needed,
    like Python's `:g`)."""

    value: Decimal | float | int
    places: int | None = None


@dataclass(frozen=True)
class Percent:
    """A share (0.07) shown as a percentage (7 % / 7%)."""

    value: Decimal | float
    places: int | None = None


@dataclass(frozen=True)
class TierRef:
    """A catalog tier: its key, and the name a reader knows it by (empty: the key)."""

    slug: str
    name: str = ""


@dataclass(frozen=True)
class ProfileRef:
    """A benchmark profile series or version: "gbm-xgboost 1.0" or "gbm-xgboost 1.0.2"; with
    its title in the reader's language where a page filled it in ("XGBoost hist training")."""

    name: str
    version: str = ""
    title: str = ""


# A tier's reason made from its shape (`benchmarks_app.findings.Why`: what `Findings`
# answers a pair, and `capacity` within its workload's) notes how, in its instance's dict
# beside `_plain`: the shape, `shape.said(tier, {})` equal to it for the TierRef in its
# holes (no tuple: one a reason, 70,000 at 20,000 tiers, were the collector's); so that
# `planner.compute.answer_json` encodes it by that shape without walking it. Not a field:
# equality, hashing and repr ignore it, pickle and copy drop it (`__getstate__`).
MADE = "_made"


@dataclass(frozen=True)
class Message:
    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __init__(self, code: str, params: Mapping[str, Any] | None = None) -> None:
        # Written straight into the instance's dict (as `plain` keeps its text): the frozen
        # dataclass's own `__init__` sets each field through `object.__setattr__` and then
        # calls `check`, twice the cost, and a large comparison makes some 170,000 messages
        # (bench/api_scale.py). The check is the same: `check`'s, inlined where it passes.
        known = self.__dict__
        known["code"] = code
        known["params"] = params = {} if params is None else params
        needed = _NEEDED.get(code)  # one look-up: 8 ms of 160,000 messages at 20,000 tiers
        if needed is None or (needed and not params.keys() >= needed):
            check(self)

    def __getstate__(self) -> dict[str, Any]:
        # Pickle and copy keep the fields (and the English, `_plain`), not how the message
        # was made (`MADE`): that note would carry its reason's shape along.
        state = self.__dict__
        if MADE in state:
            state = {k: v for k, v in state.items() if k != MADE}
        return state

    def to_json(self) -> dict[str, Any]:
        # The common parameter types inline (`_encode` says the same): an answer at 20,000
        # tiers lists some 120,000 messages, most of them nested (bench/api_scale.py).
        params: dict[str, Any] = {}
        for key, value in self.params.items():
            kind = type(value)
            if kind is str:
                params[key] = value
            elif kind is Message:
                params[key] = value.to_json()
            elif kind is TierRef:
                params[key] = {"tier": value.slug, "name": value.name}
            else:
                params[key] = _encode(value)
        return {"code": self.code, "params": params}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Message:
        return cls(data["code"], {k: _decode(v) for k, v in (data.get("params") or {}).items()})

    def __str__(self) -> str:  # plain English, as the API gives it
        return plain(self)


def msg(code: str, **params: Any) -> Message:
    """`msg("engine.price_stale", tier=TierRef(...), since=date)`: a Message, shorter."""
    return Message(code, params)


def _encode(value: Any) -> Any:
    # The exact types first, through a table (a large comparison encodes some 20,000
    # parameters); a subclass (a lazy string, an enum) goes through the match below.
    by_type = _ENCODE.get(type(value))
    if by_type is not None:
        return by_type(value)
    match value:
        case bool() | int() | str() | None:
            return value
        case float():
            return {"number": repr(value), "places": None}
        case Decimal():
            return {"number": str(value), "places": None}
        case dt.date():
            return {"date": value.isoformat()}
        case Money(amount, currency):
            return {"amount": str(amount), "currency": currency}
        case Number(number, places):
            return {"number": str(number), "places": places}
        case Percent(share, places):
            return {"percent": str(share), "places": places}
        case TierRef(slug, name):
            return {"tier": slug, "name": name}
        case ProfileRef(name, version, title):
            return {"profile": name, "version": version, **({"title": title} if title else {})}
        case Message():
            return value.to_json()
        case list() | tuple():
            return [_encode(v) for v in value]
    raise TypeError(f"not a message parameter: {value!r}")


def _same(value: Any) -> Any:
    return value


_ENCODE: dict[type, Any] = {
    str: _same, int: _same, bool: _same, type(None): _same,
    Decimal: lambda v: {"number": str(v), "places": None},
    TierRef: lambda v: {"tier": v.slug, "name": v.name},
    Number: lambda v: {"number": str(v.value), "places": v.places},
    ProfileRef: lambda v: {"profile": v.name, "version": v.version,
                           **({"title": v.title} if v.title else {})},
    Message: lambda v: v.to_json(),
    list: lambda v: [_encode(x) for x in v],
    tuple: lambda v: [_encode(x) for x in v],
}  # fmt: skip


def _decode(value: Any) -> Any:
    if isinstance(value, list):
        return [_decode(v) for v in value]
    if not isinstance(value, dict):
        return value
    if "code" in value:
        return Message.from_json(value)
    if "date" in value:
        return dt.date.fromisoformat(value["date"])
    if "currency" in value:
        return Money(Decimal(value["amount"]), value["currency"])
    if "number" in value:
        return Number(Decimal(value["number"]), value.get("places"))
    if "percent" in value:
        return Percent(Decimal(value["percent"]), value.get("places"))
    if "tier" in value:
        return TierRef(value["tier"], value.get("name", ""))
    if "profile" in value:
        return ProfileRef(value["profile"], value.get("version", ""), value.get("title", ""))
    raise ValueError(f"not a message parameter: {value!r}")


def check(message: Message) -> None:
    """A message names a registered code and gives every parameter its text uses."""
    if message.code not in TEXTS:
        raise KeyError(f"unknown message code {message.code!r}")
    needed = placeholders(message.code)
    if not message.params.keys() >= needed:  # every message made passes here: no new set
        missing = needed - set(message.params)
        raise KeyError(f"message {message.code!r} lacks parameters {sorted(missing)}")


def template(message: Message) -> str:
    """The English template the message's count picks (English plural: one or other)."""
    text = TEXTS[message.code]
    if text.plural and text.count and message.params[text.count] != 1:
        return text.plural
    return text.singular


def plain(message: Message) -> str:
    """The message in English with the API's stable formats (ISO dates, plain decimals).

    Said once per Message (a message is a value: its English never changes), so a message
    shared by many reasons (thousands of tiers, one cause) is put into words once."""
    said = message.__dict__.get("_plain")
    if said is None:
        said = template(message) % {k: plain_value(v) for k, v in message.params.items()}
        object.__setattr__(message, "_plain", said)
    return said


def said(message: Message, memo: dict[int, Any] | None = None) -> tuple[str, dict[str, Any]]:
    """(`plain(message)`, the JSON form of its parameters) in one walk, the English kept on
    the message as `plain` keeps it. `memo`: what this walk said already, by the id of the
    message (or list parameter), for the caller to share over messages that share parts
    (a tier's "on tier …", said for each workload; one list of series for every tier):
    the data is shared, never changed; the caller keeps them alive while it holds `memo`.
    Not kept on the message: a kept message (the evidence is kept per data generation)
    holding its JSON would give the collector tens of thousands more objects to walk."""
    if memo is not None and (kept := memo.get(id(message))) is not None:
        return kept
    texts: dict[str, Any] = {}
    params: dict[str, Any] = {}
    for key, value in message.params.items():
        kind = type(value)
        if kind is str:
            texts[key] = params[key] = value
        elif kind is Message:
            texts[key], inner = said(value, memo)
            params[key] = {"code": value.code, "params": inner}
        elif kind is TierRef:
            texts[key] = value.name or value.slug
            params[key] = {"tier": value.slug, "name": value.name}
        elif kind is list and memo is not None:  # a list shared by many messages (series)
            if (both := memo.get(id(value))) is None:
                both = memo[id(value)] = (plain_value(value), _encode(value))
            texts[key], params[key] = both
        else:
            texts[key], params[key] = plain_value(value), _encode(value)
    known = message.__dict__
    text = known.get("_plain")
    if text is None:
        singular = _SINGULAR.get(message.code)
        text = known["_plain"] = (template(message) if singular is None else singular) % texts
    if memo is None:
        return text, params
    memo[id(message)] = kept = (text, params)
    return kept


def as_api(message: Message) -> dict[str, Any]:
    """`{"code", "params", "text"}`, as the API returns each message."""
    return {**message.to_json(), "text": plain(message)}


def plain_value(value: Any) -> Any:
    by_type = _PLAIN_VALUE.get(type(value))
    if by_type is not None:
        return by_type(value)
    match value:
        case bool():
            return "yes" if value else "no"
        case int() | str():
            return value
        case float() | Decimal():
            return _g(value)
        case dt.date():
            return value.isoformat()
        case Money(amount, currency):
            return f"{amount} {currency}"
        case Number(number, places):
            return _g(number) if places is None else f"{Decimal(str(number)):.{places}f}"
        case Percent(share, places):
            pct = Decimal(str(share)) * 100
            return f"{_g(pct.normalize()) if places is None else f'{pct:.{places}f}'} %"
        case TierRef(slug, name):
            return name or slug
        case ProfileRef(name, version, title):
            return f"{title or name} {version}".strip()
        case Message():
            return plain(value)
        case list() | tuple():
            return ", ".join(str(plain_value(v)) for v in value)
    return value


def _g(value: Decimal | float | int) -> str:
    """As few digits as needed, like `:g` for floats; a Decimal keeps its own digits."""
    if isinstance(value, Decimal):
        return f"{value:f}"  # "1.50" stays "1.50"; "1E+3" reads "1000"
    return f"{value:g}"


# plain_value's exact types, as _ENCODE (the match in plain_value says the same).
_PLAIN_VALUE: dict[type, Any] = {
    str: _same, int: _same,
    TierRef: lambda v: v.name or v.slug,
    ProfileRef: lambda v: f"{v.title or v.name} {v.version}".strip(),
    Message: plain,
    list: lambda v: ", ".join(str(plain_value(x)) for x in v),
    tuple: lambda v: ", ".join(str(plain_value(x)) for x in v),
}  # fmt: skip

# The parameters each code's text needs (`placeholders`), for `Message.__init__`'s check: a
# code not here (none, or one registered since) is checked by `check`.
_NEEDED: dict[str, frozenset[str]] = {code: placeholders(code) for code in TEXTS}

# The template of each code with no plural (most): `template` without the count's check.
_SINGULAR: dict[str, str] = {code: t.singular for code, t in TEXTS.items() if not t.plural}
