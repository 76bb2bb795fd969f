"""Moved to `common.formatting` (pure since issue 20: Babel, the language passed in, no
Django). Kept so code that still imports it from here works; import `common.formatting`."""

from common.formatting import (
    DASH,
    MINUS,
    NBSP,
    currency_places,
    date,
    iso_date,
    money,
    number,
    percent,
    places_needed,
    price,
)

__all__ = ["DASH", "MINUS", "NBSP", "currency_places", "date", "iso_date", "money", "number",
           "percent", "places_needed", "price"]  # fmt: skip
