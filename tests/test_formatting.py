"""Figures in the reader's language, as CLDR (Babel) writes them; numbers agree with
Django's own number_format."""

import datetime as dt
from decimal import ROUND_HALF_UP, Decimal

from django.utils import formats, translation
from hypothesis import given
from hypothesis import strategies as st

from common import formatting


def test_money_reads_as_each_language_writes_it():
    assert formatting.money(Decimal("1234.565"), "USD", "en") == "$1,234.57"
    assert formatting.money(Decimal("1234.565"), "USD", "de") == "1.234,57\u00a0$"
    assert formatting.money(Decimal("-349.99"), "EUR", "en") == "\u2212€349.99"
    assert formatting.money(Decimal("1234567"), "CHF", "en", places=0) == "CHF\u00a01,234,567"
    assert formatting.percent(Decimal("0.5244"), 2, "de") == "52,44\u00a0%"
    assert formatting.number(None) == "\u2013"


@given(
    value=st.decimals(min_value=-(10**9), max_value=10**9, places=4, allow_nan=False),
    places=st.integers(min_value=0, max_value=4),
    language=st.sampled_from(["en", "de"]),
)
def test_number_agrees_with_djangos_number_format(value, places, language):
    rounded = value.quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP)
    with translation.override(language):
        expected = formats.number_format(rounded, places, use_l10n=True, force_grouping=True)
    assert formatting.number(value, places, language) == expected


def test_a_price_keeps_the_decimals_it_needs_and_no_more():
    assert formatting.price(Decimal("349.990000"), "USD") == "$349.99"
    assert formatting.price(Decimal("0.041600"), "USD") == "$0.0416"
    assert formatting.price(Decimal("12.5"), "EUR", "de") == "12,50\u00a0€"
    assert formatting.price(Decimal("1234"), "USD") == "$1,234.00"
    assert formatting.price(Decimal("0.00001234"), "USD") == "$0.000012"  # six places at most


def test_usd_eur_jpy_and_chf_as_cldr_writes_them_in_english_and_german():
    amount = Decimal("1234.5")
    assert formatting.money(amount, "USD", "en") == "$1,234.50"
    assert formatting.money(amount, "USD", "de") == "1.234,50\u00a0$"
    assert formatting.money(amount, "EUR", "en") == "€1,234.50"
    assert formatting.money(amount, "EUR", "de") == "1.234,50\u00a0€"
    # Yen has no decimals, even where two are asked for; rounded half up.
    assert formatting.money(amount, "JPY", "en") == "¥1,235"
    assert formatting.money(amount, "JPY", "en", places=2) == "¥1,235"
    assert formatting.money(amount, "JPY", "de") == "1.235\u00a0¥"
    assert formatting.price(Decimal("1234"), "JPY") == "¥1,234"
    # A letter symbol before the amount in English, spaced (CLDR), after it in German.
    assert formatting.money(amount, "CHF", "en") == "CHF\u00a01,234.50"
    assert formatting.money(amount, "CHF", "de") == "1.234,50\u00a0CHF"
    assert formatting.money(amount, "SEK", "en") == "SEK\u00a01,234.50"
    assert formatting.money(-amount, "CHF", "en") == "\u2212CHF\u00a01,234.50"
    assert formatting.money(Decimal("-0.001"), "USD", "en") == "$0.00"  # no minus zero


def test_dates_in_each_language_and_iso_in_files():
    day = dt.date(2026, 12, 2)
    assert formatting.date(day, "en") == "Dec 2, 2026"
    assert formatting.date(day, "de") == "2. Dez. 2026"
    assert formatting.iso_date(day) == "2026-12-02"
    assert formatting.date(None) == formatting.DASH


@given(
    value=st.decimals(min_value=-(10**10), max_value=10**10, places=4, allow_nan=False),
    places=st.integers(min_value=0, max_value=4),
    language=st.sampled_from(["en", "de"]),
    currency=st.sampled_from(["USD", "EUR", "JPY", "CHF"]),
)
def test_the_fast_path_writes_what_babel_writes(value, places, language, currency):
    """Digits grouped by Python around Babel's prefix and suffix: the same text as Babel's
    own `NumberPattern.apply` (with CLDR's currency spacing) for every amount."""
    from babel import Locale

    locale = Locale.parse(language)

    def babel(kind: str, amount: Decimal, digits: int, **extra) -> str:
        pattern = formatting._pattern(language, kind, digits)
        return pattern.apply(amount, locale, currency_digits=False, **extra)

    rounded = value.quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP)
    rounded = rounded if rounded else abs(rounded)
    assert formatting.number(value, places, language) == babel("decimal", rounded, places)
    assert formatting.percent(value / 100, places, language) == babel(
        "percent", rounded / 100, places
    )
    digits = min(places, formatting.currency_places(currency))
    amount = value.quantize(Decimal(1).scaleb(-digits), ROUND_HALF_UP)
    written = formatting._spaced(babel("currency", abs(amount), digits, currency=currency))
    expected = f"\u2212{written}" if amount < 0 else written
    assert formatting.money(value, currency, language, places=places) == expected
