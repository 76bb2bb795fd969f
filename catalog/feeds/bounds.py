"""Plausible bounds for what a price feed may store: prices per unit and currency, rates.

A feed value outside them refuses the whole file, naming the record (line, key) and the
field (docs/formats.md §11). They are wide on purpose: they catch a
misplaced decimal point, an exponent or a corrupted digit string, never a real price.

Prices are bounded in US dollars and scaled into each currency by the range of its
units per dollar; a rate `1 EUR = x Q` by the range of `x`. Both ranges come from the
ECB's reference rates 1999-01-04 … 2026-04-13 (sample E4 of ../shared/reference/feeds):
the lowest value seen divided by 3 and the highest multiplied by 3, to two significant
digits. TWD, which the ECB does not publish, is set from its 1999-2026 range against the
dollar (27 to 35) widened the same way.

Every upper bound is also capped below its column's limit (`Price.amount` max_digits 14,
6 places: below 10⁸; `setup_fee` 14, 2: below 10¹²; `ExchangeRate.rate` 18, 8: below
10¹⁰), so a value inside the bounds always fits the database (PostgreSQL refuses one that
does not; SQLite would store it).

Pure: no Django, no I/O.
"""

from __future__ import annotations

from decimal import Decimal

# In US dollars: the largest cloud machines list at about 400 USD an hour on demand
# (u-24tb1.112xlarge, 2024), the largest dedicated servers at a few thousand a month.
HOURLY_USD = (Decimal("0.0001"), Decimal(1000))
MONTHLY_USD = (Decimal("0.5"), Decimal(100_000))
# A set-up fee or an all-upfront reservation (3 years of the largest machine: ~10 M USD).
SETUP_FEE_MAX_USD = Decimal(50_000_000)

AMOUNT_MAX = Decimal("99999999.999999")
FEE_MAX = Decimal("9999999999.99")
RATE_MAX = Decimal("9999999999.99999999")

# currency → ((1 EUR in it: low, high), (1 USD in it: low, high))
_RANGES: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    "AUD": (("0.39", "6.2"), ("0.3", "6.2")),
    "BRL": (("0.72", "21"), ("0.51", "19")),
    "CAD": (("0.4", "5.4"), ("0.3", "4.9")),
    "CHF": (("0.3", "5.0"), ("0.24", "5.5")),
    "CNY": (("2.2", "34"), ("2.0", "25")),
    "CZK": (("7.7", "120"), ("4.8", "130")),
    "DKK": (("2.5", "22"), ("1.6", "27")),
    "EUR": (("1", "1"), ("0.21", "3.6")),
    "GBP": (("0.19", "2.9"), ("0.16", "2.8")),
    "HKD": (("2.1", "37"), ("2.6", "24")),
    "HUF": (("76", "1300"), ("48", "1300")),
    "IDR": (("3600", "60000"), ("2800", "52000")),
    "ILS": (("1.1", "16"), ("1.0", "12")),
    "INR": (("19", "330"), ("15", "280")),
    "JPY": (("30", "560"), ("25", "490")),
    "KRW": (("310", "6000"), ("300", "4700")),
    "MXN": (("4.9", "81"), ("3.3", "75")),
    "NOK": (("2.4", "37"), ("1.7", "34")),
    "NZD": (("0.46", "7.7"), ("0.38", "7.7")),
    "PLN": (("1.1", "15"), ("0.68", "15")),
    "RON": (("1.0", "15"), ("0.74", "16")),
    "SEK": (("2.7", "36"), ("1.9", "34")),
    "SGD": (("0.46", "6.7"), ("0.4", "5.6")),
    "THB": (("11", "160"), ("9.5", "130")),
    "TRY": (("0.52", "160"), ("0.38", "130")),
    "TWD": (("9", "120"), ("9", "105")),
    "USD": (("0.28", "4.8"), ("1", "1")),
    "ZAR": (("2.0", "66"), ("1.9", "59")),
}
RATE_RANGE = {code: (Decimal(lo), Decimal(hi)) for code, ((lo, hi), _) in _RANGES.items()}
PER_USD = {code: (Decimal(lo), Decimal(hi)) for code, (_, (lo, hi)) in _RANGES.items()}


def price_range(unit: str, currency: str) -> tuple[Decimal, Decimal] | None:
    """The lowest and highest plausible price of one `unit` ("hour", "month") in
    `currency`, or None for a currency or unit without bounds (refused as such)."""
    scale = PER_USD.get(currency)
    usd = {"hour": HOURLY_USD, "month": MONTHLY_USD}.get(unit)
    if scale is None or usd is None:
        return None
    return usd[0] * scale[0], min(usd[1] * scale[1], AMOUNT_MAX)


def price_problem(
    amount: Decimal, unit: str, currency: str, *, upfront_only: bool = False
) -> str | None:
    """Why `amount` is not a plausible price, as the bound it breaks ("≥ 0.0001"), or None.
    `upfront_only`: an all-upfront reservation, whose recurring price is 0 (its set-up fee
    holds the price)."""
    if not amount.is_finite():
        return "finite"
    if upfront_only and amount == 0:
        return None
    bounds = price_range(unit, currency)
    if bounds is None:
        return f"{unit} {currency}"
    low, high = bounds
    if amount < low:
        return f">= {low.normalize():f} {currency}/{unit}"
    if amount > high:
        return f"<= {high.normalize():f} {currency}/{unit}"
    return None


def fee_problem(fee: Decimal, currency: str, *, required: bool = False) -> str | None:
    """Why a set-up fee (or upfront payment) is implausible, or None. `required`: an
    all-upfront reservation must have one."""
    if not fee.is_finite() or fee < 0:
        return ">= 0"
    if required and fee == 0:
        return "> 0"
    scale = PER_USD.get(currency)
    if scale is None:
        return currency
    high = min(SETUP_FEE_MAX_USD * scale[1], FEE_MAX)
    return f"<= {high.normalize():f} {currency}" if fee > high else None


def rate_problem(quote: str, rate: Decimal) -> str | None:
    """Why `1 EUR = rate quote` is implausible, or None (a quote without bounds: None;
    the rate reader skips the currencies the catalog does not keep)."""
    if not rate.is_finite() or rate <= 0:
        return "> 0"
    bounds = RATE_RANGE.get(quote)
    if bounds is None:
        return None
    low, high = bounds
    if rate < low:
        return f">= {low.normalize():f}"
    if rate > high:
        return f"<= {high.normalize():f}"
    return None


# A tier's specs a feed states: (lowest, highest); a malformed or absurd one refuses the
# file. The largest cloud machines have 896 vCPUs and 32 TiB of memory (2026).
SPEC_RANGE: dict[str, tuple[Decimal, Decimal]] = {
    "vcpus": (Decimal(1), Decimal(10_000)),
    "cores": (Decimal(1), Decimal(10_000)),
    "ram_gib": (Decimal("0.25"), Decimal(1_000_000)),
    "storage_gib": (Decimal(0), Decimal(10_000_000)),
    "gpus": (Decimal(0), Decimal(1_000)),
    "gpu_mem_gib": (Decimal(0), Decimal(100_000)),
}


def spec_problem(name: str, value: object) -> str | None:
    """Why a spec value is implausible, or None (None and unbounded specs pass)."""
    bounds = SPEC_RANGE.get(name)
    if bounds is None or value is None:
        return None
    try:
        number = Decimal(str(value))
    except ArithmeticError:
        return "a number"
    low, high = bounds
    if not number.is_finite() or number < low:
        return f">= {low}"
    if number > high:
        return f"<= {high}"
    return None
