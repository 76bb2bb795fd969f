"""Messages in the reader's language and formats: the pages' side of `common.messages`.

`render(message, language)` translates the code's English template (`gettext`, or
`ngettext` on the count parameter) and localises each parameter: money and numbers with
the language's separators and currency order, dates in its short date format, nested
messages in the same language. Templates use the `message` filter (a builtin of every
template: `{{ note|message }}`), which also takes a message in its JSON form (a share's
frozen snapshot).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django.utils import translation
from django.utils.translation import gettext, ngettext

from common import formatting
from common.message_texts import TEXTS
from common.messages import Message, Money, Number, Percent, ProfileRef, TierRef


def render(message: Message | Mapping[str, Any], language: str | None = None) -> str:
    if not isinstance(message, Message):
        message = Message.from_json(message)
    active = translation.get_language()
    language = language or active or "en"
    if language == active:  # a page's messages: no switching the language back and forth
        return _render(message, language)
    with translation.override(language):
        return _render(message, language)


def _render(message: Message, language: str) -> str:
    text = TEXTS[message.code]
    params = {k: localised(v, language) for k, v in message.params.items()}
    if text.plural and text.count:
        count = message.params[text.count]
        template = ngettext(text.singular, text.plural, int(_value(count)))
    else:
        template = gettext(text.singular)
    return template % params


def localised(value: Any, language: str) -> Any:
    match value:
        case bool():
            return gettext("yes") if value else gettext("no")
        case int():
            return formatting.number(value, 0, language)
        case str():
            return value
        case float() | Decimal():
            return _number(value, None, language)
        case dt.date():
            return formatting.date(value, language)
        case Money(amount, currency):
            return formatting.money(amount, currency, language)
        case Number(number, places):
            return _number(number, places, language)
        case Percent(share, places):
            pct = Decimal(str(share)) * 100
            shown = places if places is not None else _places(pct)
            return formatting.percent(share, shown, language)
        case TierRef(slug, name):
            return name or slug
        case ProfileRef(name, version, title):
            return f"{title or name} {version}".strip()
        case Message():
            return render(value, language)
        case list() | tuple():
            return ", ".join(str(localised(v, language)) for v in value)
    return value


def _value(value: Any) -> Any:
    return value.value if isinstance(value, Number) else value


def _number(value: Decimal | float | int, places: int | None, language: str) -> str:
    if places is not None:
        return formatting.number(value, places, language)
    text = f"{value:f}" if isinstance(value, Decimal) else f"{value:g}"
    if "e" in text.lower() or not Decimal(text).is_finite():
        return text  # 1e+08 reads the same in every language
    return formatting.number(Decimal(text), _places(Decimal(text)), language)


def _places(value: Decimal) -> int:
    exponent = value.normalize().as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0
