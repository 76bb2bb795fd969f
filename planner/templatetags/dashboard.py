"""Filters that show figures in the active language: `{{ amount|money:currency }}`."""

import datetime as dt
from decimal import Decimal
from typing import Any

from django import template
from django.utils import timezone, translation

from common import formatting
from planner.web import dashboard, uncertainty

register = template.Library()


def _language() -> str:
    return translation.get_language() or "en"


@register.filter
def money(value: Any, currency: str = "USD") -> str:
    if value in (None, ""):
        return formatting.DASH
    return formatting.money(Decimal(str(value)), currency, _language())


@register.filter
def money0(value: Any, currency: str = "USD") -> str:
    """Whole units, for headlines and chart-sized figures."""
    if value in (None, ""):
        return formatting.DASH
    return formatting.money(Decimal(str(value)), currency, _language(), places=0)


@register.filter
def price(value: Any, currency: str = "USD") -> str:
    """A catalog price with the decimals it needs: $349.99 / hour, $0.0416 (not 349.9900)."""
    if value in (None, ""):
        return formatting.DASH
    return formatting.price(Decimal(str(value)), currency, _language())


@register.filter
def day(value: Any) -> str:
    """A date as the active language writes it (CLDR): "Dec 2, 2026", "2. Dez. 2026"."""
    if value in (None, ""):
        return ""
    if isinstance(value, str):
        value = dt.date.fromisoformat(value[:10])
    if isinstance(value, dt.datetime):
        value = timezone.localtime(value).date() if timezone.is_aware(value) else value.date()
    return formatting.date(value, _language())


@register.filter
def num(value: Any, places: int = 0) -> str:
    if value in (None, ""):
        return formatting.DASH
    return formatting.number(Decimal(str(value)), int(places), _language())


@register.filter
def pct(value: Any, places: int = 1) -> str:
    """A value already in percent (23.33) as "23.3%" or "23,3 %"."""
    if value in (None, ""):
        return formatting.DASH
    return formatting.percent(Decimal(str(value)) / 100, int(places), _language())


@register.filter
def share(value: Any, places: int = 0) -> str:
    """A share (0.9987) as a percentage: "99.9%" or "99,9 %"."""
    if value in (None, ""):
        return formatting.DASH
    return formatting.percent(Decimal(str(value)), int(places), _language())


@register.filter
def range_source(source: str) -> str:
    """Where an uncertain input's range comes from, in the reader's language."""
    return uncertainty.source_text(source)


@register.filter
def not_entered(item: str) -> str:
    return dashboard.not_entered_text(item)
