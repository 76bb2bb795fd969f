"""Numbers, money and percentages in the reader's language, for pages and charts alike.

Django's own locale formats (decimal and thousand separators) do the work, so a
page and a chart drawn in the same language always agree: English "$1,234.56",
German "1.234,56 $". The language is passed in explicitly so a chart rendered
outside a request (or cached for another language) never depends on whichever
language happens to be active in the thread.
"""

from __future__ import annotations

import functools
from decimal import ROUND_HALF_UP, Decimal

from django.utils import formats, numberformat

SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£", "CHF": "CHF", "JPY": "¥"}
# Languages that write the currency after the amount, separated by a (no-break) space.
SYMBOL_AFTER = {"de"}
NBSP = "\u00a0"
DASH = "\u2013"  # shown where a figure is missing
MINUS = "\u2212"  # typographic minus: a hyphen reads as a dash in a table


def number(value: float | Decimal | int | None, places: int = 0, language: str = "en") -> str:
    """A grouped number in the language's separators: 1,234.5 (en) or 1.234,5 (de)."""
    if value is None:
        return DASH
    # Rounded here, half up: Django's number_format cuts extra digits off (349.99 → "349").
    rounded = Decimal(str(value)).quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP)
    decimal_sep, grouping, thousand_sep = separators(language)
    return numberformat.format(rounded, decimal_sep, places, grouping, thousand_sep,
                               force_grouping=True, use_l10n=True)  # fmt: skip


@functools.lru_cache(maxsize=16)
def separators(language: str) -> tuple[str, int, str]:
    """The language's decimal separator, grouping and thousand separator, as Django's
    `number_format` reads them, looked up once: a results page formats a few hundred
    figures, and switching the active language for each was a twentieth of a recompute."""
    return (
        formats.get_format("DECIMAL_SEPARATOR", language, use_l10n=True),
        formats.get_format("NUMBER_GROUPING", language, use_l10n=True),
        formats.get_format("THOUSAND_SEPARATOR", language, use_l10n=True),
    )


def money(
    value: float | Decimal | int | None, currency: str, language: str = "en", places: int = 2
) -> str:
    """An amount with its currency in the language's order: $1,234.56 or 1.234,56 $."""
    if value is None:
        return DASH
    symbol = SYMBOLS.get(currency, currency)
    negative = value < 0
    text = number(abs(value), places, language)
    if language in SYMBOL_AFTER or len(symbol) > 1:
        out = f"{text}{NBSP}{symbol}"
    else:
        out = f"{symbol}{text}"
    return f"{MINUS}{out}" if negative else out


def places_needed(value: float | Decimal | int, minimum: int = 2, maximum: int = 6) -> int:
    """The decimals an amount needs: 349.99 → 2, 0.0416 → 4, 12.5 → 2, 349.990000 → 2."""
    exponent = Decimal(str(value)).normalize().as_tuple().exponent
    needed = -exponent if isinstance(exponent, int) and exponent < 0 else 0
    return max(minimum, min(maximum, needed))


def price(value: float | Decimal | int | None, currency: str, language: str = "en") -> str:
    """A catalog price with the decimals it needs, in the language's order: $349.99,
    $0.0416, 0,0416 $ (a unit price of a fraction of a cent keeps its digits)."""
    if value is None:
        return DASH
    return money(value, currency, language, places=places_needed(value))


def percent(value: float | Decimal | None, places: int = 0, language: str = "en") -> str:
    """A share (0.25) as a percentage in the language: 25 % (de) or 25% (en)."""
    if value is None:
        return DASH
    text = number(Decimal(str(value)) * 100, places, language)
    return f"{text}{NBSP}%" if language in SYMBOL_AFTER else f"{text}%"
