"""Number formats for benchmark pages: throughputs span 1e-2 to 1e9."""

import math

from django import template
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _

register = template.Library()

# Why a thread count's repetitions stopped (benchmarks_app.repetition).
STOP_REASONS = {
    "cv_met": _("variation within target"),
    "cap_reached": _("repetition cap reached"),
    "time_budget": _("time budget spent"),
}


@register.filter
def sig(value, digits: int = 4) -> str:
    """`digits` significant figures, locale-grouped: 66197037.2 → 66,200,000."""
    try:
        x = float(value)
    except (TypeError, ValueError):
        return ""
    if not math.isfinite(x):
        return str(x)
    if x == 0:
        return "0"
    places = max(0, digits - 1 - math.floor(math.log10(abs(x))))
    return number_format(round(x, places), decimal_pos=places, use_l10n=True, force_grouping=True)


@register.filter
def percent(value, places: int = 1) -> str:
    try:
        return number_format(100 * float(value), decimal_pos=places, use_l10n=True) + " %"
    except (TypeError, ValueError):
        return ""


@register.filter
def binary_bytes(value) -> str:
    """Memory in GiB/MiB (binary, as RAM is sold)."""
    try:
        n = float(value)
    except (TypeError, ValueError):
        return ""
    if n >= 2**30:
        return number_format(n / 2**30, decimal_pos=1, use_l10n=True) + " GiB"
    if n >= 2**20:
        return number_format(n / 2**20, decimal_pos=0, use_l10n=True) + " MiB"
    return number_format(n / 2**10, decimal_pos=0, use_l10n=True) + " KiB"


@register.filter
def flag_list(flags) -> str:
    """CPU flags present, from a {flag: bool} map or a plain list."""
    if isinstance(flags, dict):
        return " ".join(name for name, present in flags.items() if present)
    return " ".join(str(f) for f in flags or [])


@register.filter
def stop_reason(code: str) -> str:
    """The stop reason in the reader's language ("" for one this page does not know)."""
    return str(STOP_REASONS.get(code, ""))
