"""Numbers, money, percentages and dates in the reader's language, for pages, CSV and charts.

Babel (CLDR) does the work, so a page and a chart drawn in the same language always agree
and every currency is written as CLDR writes it: English "$1,234.56", "¥1,235" (yen has
no decimals), "CHF 1,234.50"; German "1.234,56 $", "1.235 ¥"; German dates "2. Dez. 2026".
The language is passed in explicitly (no Django here), so a chart rendered outside a
request (or cached for another language) never depends on the active language.

What is ours on top of Babel: half-up rounding (money is rounded so, Babel rounds half to
even), the typographic minus before an amount of money (a hyphen reads as a dash in a
table), a dash for a missing
figure, and CLDR's currency spacing (a space between a letter symbol and its digits, "CHF
1,234.50"), which Babel does not apply.
"""

from __future__ import annotations

import datetime as dt
import functools
from decimal import ROUND_HALF_UP, Decimal

from babel import Locale
from babel.dates import format_skeleton
from babel.numbers import (
    NumberPattern,
    get_currency_precision,
    get_minus_sign_symbol,
    parse_pattern,
)

NBSP = "\u00a0"
DASH = "\u2013"  # shown where a figure is missing
MINUS = "\u2212"  # typographic minus: a hyphen reads as a dash in a table
DATE_SKELETON = "yMMMd"  # "Dec 2, 2026", "2. Dez. 2026"


@functools.lru_cache(maxsize=16)
def _locale(language: str) -> Locale:
    # A parsed locale is a fixed table: looked up once per language, not per figure.
    return Locale.parse(language.replace("-", "_"))


@functools.lru_cache(maxsize=64)
def _pattern(language: str, kind: str, places: int) -> NumberPattern:
    """The language's decimal, currency or percent pattern with exactly `places` decimals
    (parsed once: a results page formats a few hundred figures)."""
    locale = _locale(language)
    formats = {"decimal": locale.decimal_formats, "currency": locale.currency_formats,
               "percent": locale.percent_formats}[kind]  # fmt: skip
    pattern = parse_pattern(formats["standard" if kind == "currency" else None].pattern)
    pattern.frac_prec = (places, places)
    return pattern


@functools.lru_cache(maxsize=256)
def _shape(language: str, kind: str, currency: str, places: int) -> tuple[str, str, dict] | None:
    """What Babel writes around the digits of a positive amount of this kind (prefix,
    suffix) and its separators, read once from a probe: a page formats a few hundred
    figures, and Babel's own `apply` costs twice Python's grouping per figure. None where
    the language does not group by threes (Babel then formats each figure itself)."""
    pattern = _pattern(language, kind, places)
    if pattern.grouping != (3, 3):
        return None
    text = _written(language, kind, currency, places, Decimal(1000000))  # "1,000,000"
    first = next(i for i, c in enumerate(text) if c.isdigit())
    last = max(i for i, c in enumerate(text) if c.isdigit())
    digits = text[first : last + 1]  # "1,000,000.00" or "1.000.000,00"
    group = digits[1]
    decimal = digits[-places - 1] if places else "."
    return text[:first], text[last + 1 :], str.maketrans({",": group, ".": decimal})


def _written(language: str, kind: str, currency: str, places: int, value: Decimal) -> str:
    """Babel's text of a positive amount (CLDR's currency spacing added for money)."""
    if kind == "percent":
        value = value / 100
    text = _pattern(language, kind, places).apply(
        value, _locale(language), currency=currency or None, currency_digits=False
    )
    return _spaced(text) if kind == "currency" else text


def _shaped(language: str, kind: str, currency: str, places: int, rounded: Decimal) -> str:
    """|rounded| as Babel writes it (`_written`), the digits grouped by Python."""
    shape = _shape(language, kind, currency, places)
    if shape is None:
        return _written(language, kind, currency, places, abs(rounded))
    prefix, suffix, separators = shape
    return f"{prefix}{format(abs(rounded), f',.{places}f').translate(separators)}{suffix}"


@functools.lru_cache(maxsize=16)
def _minus(language: str) -> str:
    return get_minus_sign_symbol(_locale(language))


def _rounded(value: float | Decimal | int, places: int) -> Decimal:
    rounded = Decimal(str(value)).quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP)
    return rounded if rounded else abs(rounded)  # no "-0"


def currency_places(currency: str) -> int:
    """The decimals CLDR gives a currency: 2 for USD, EUR, CHF; 0 for JPY."""
    return get_currency_precision(currency)


def number(value: float | Decimal | int | None, places: int = 0, language: str = "en") -> str:
    """A grouped number in the language's separators: 1,234.5 (en) or 1.234,5 (de)."""
    if value is None:
        return DASH
    rounded = _rounded(value, places)
    text = _shaped(language, "decimal", "", places, rounded)
    return f"{_minus(language)}{text}" if rounded < 0 else text


def money(
    value: float | Decimal | int | None,
    currency: str,
    language: str = "en",
    places: int | None = None,
) -> str:
    """An amount with its currency as CLDR writes it: $1,234.56, 1.234,56 $, ¥1,235,
    CHF 1,234.56. `places`: the currency's own decimals unless given (never more than
    the currency has: a yen amount has none)."""
    if value is None:
        return DASH
    digits = currency_places(currency)
    places = digits if places is None else min(places, digits)
    rounded = _rounded(value, places)
    text = _shaped(language, "currency", currency, places, rounded)
    return f"{MINUS}{text}" if rounded < 0 else text


def _spaced(text: str) -> str:
    """CLDR's currency spacing: a no-break space between a symbol that ends (or starts)
    with a letter and the digits beside it ("CHF1,234" → "CHF 1,234")."""
    for i in range(1, len(text)):
        before, after = text[i - 1], text[i]
        if (before.isalpha() and after.isdigit()) or (before.isdigit() and after.isalpha()):
            return f"{text[:i]}{NBSP}{text[i:]}"
    return text


def places_needed(value: float | Decimal | int, minimum: int = 2, maximum: int = 6) -> int:
    """The decimals an amount needs: 349.99 → 2, 0.0416 → 4, 12.5 → 2, 349.990000 → 2."""
    exponent = Decimal(str(value)).normalize().as_tuple().exponent
    needed = -exponent if isinstance(exponent, int) and exponent < 0 else 0
    return max(minimum, min(maximum, needed))


def price(value: float | Decimal | int | None, currency: str, language: str = "en") -> str:
    """A catalog price with the decimals it needs, at least its currency's: $349.99,
    $0.0416, 0,0416 $ (a unit price of a fraction of a cent keeps its digits), ¥1,234."""
    if value is None:
        return DASH
    places = places_needed(value, minimum=currency_places(currency))
    rounded = _rounded(value, places)
    text = _shaped(language, "currency", currency, places, rounded)
    return f"{MINUS}{text}" if rounded < 0 else text


def percent(value: float | Decimal | None, places: int = 0, language: str = "en") -> str:
    """A share (0.25) as a percentage in the language: 25 % (de) or 25% (en)."""
    if value is None:
        return DASH
    shown = _rounded(Decimal(str(value)) * 100, places)
    text = _shaped(language, "percent", "", places, shown)
    return f"{_minus(language)}{text}" if shown < 0 else text


def date(value: dt.date | None, language: str = "en") -> str:
    """A day as the language writes it: "Dec 2, 2026", "2. Dez. 2026"."""
    if value is None:
        return DASH
    return format_skeleton(DATE_SKELETON, value, locale=_locale(language))


def iso_date(value: dt.date | None) -> str:
    """A day in a file (CSV): 2026-12-02, whatever the reader's language."""
    return "" if value is None else value.isoformat()
