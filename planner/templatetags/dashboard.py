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


def cost_multiple(saving_pct: Decimal) -> Decimal:
    """How many times the baseline's total an option costs, from its saving in percent of
    that total: total_option / total_baseline = 1 - saving_pct / 100 (-1,856.3 -> 19.563)."""
    return 1 - Decimal(str(saving_pct)) / 100


@register.filter
def times_baseline(saving_pct: Any) -> str:
    """A far dearer option's multiple of the baseline's total ("19.6", "19,6"); empty
    unless it costs more than twice the baseline (a percentage reads better below that)."""
    if saving_pct in (None, ""):
        return ""
    times = cost_multiple(saving_pct)
    return formatting.number(times, 1, _language()) if times > 2 else ""


@register.filter
def dearer_pct(saving_pct: Any, places: int = 1) -> str:
    """A negative saving as how much dearer the option is: -35.2 -> "35.2%" ("35,2 %")."""
    return pct(-Decimal(str(saving_pct)), places)


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
