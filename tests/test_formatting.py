"""Figures in the reader's language: our fast path agrees with Django's own number_format."""

from decimal import ROUND_HALF_UP, Decimal

from django.utils import formats, translation
from hypothesis import given
from hypothesis import strategies as st

from common.django import formatting


def test_money_reads_as_each_language_writes_it():
    assert formatting.money(Decimal("1234.565"), "USD", "en") == "$1,234.57"
    assert formatting.money(Decimal("1234.565"), "USD", "de") == "1.234,57\u00a0$"
    assert formatting.money(Decimal("-349.99"), "EUR", "en") == "\u2212€349.99"
    assert formatting.money(Decimal("1234567"), "CHF", "en", places=0) == "1,234,567\u00a0CHF"
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
