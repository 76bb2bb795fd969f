"""The catalog as one DataFrame: each tier with its price as of a date.

`catalog_frame(as_of, currency=None)` is what the planner and the catalog page
read. It costs a fixed number of queries however large the catalog (one for the
prices, one more for exchange rates when converting) and does the arithmetic in
pandas.

Money: `amount`, `monthly_exact` and `setup_fee_exact` are exact `Decimal`s;
`monthly` and `setup_fee` are the same rounded to the cent as float64.
`effective_hourly` spreads a reservation's upfront fee over its term (upfront ÷
(8,760 x years) + the hourly rate; the hourly rate for everything else).
Normalised figures (`per_vcpu_hour`, `per_gib_hour`, `per_gpu_hour`) are rates
for comparison, kept unrounded: a p4d.24xlarge at $21.957642/h with 8 GPUs is
2.7447 per GPU-hour, shown as $2.74. They are NaN where the spec is unknown or 0.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

import numpy as np
import pandas as pd
from django.core.exceptions import EmptyResultSet
from django.db import connections
from django.db.models import CharField, FloatField, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Cast

from catalog.models import ExchangeRate, Price, Tier, Unit
from catalog.staleness import COMMITMENT_PREFIXES, is_stale
from common.gcpause import paused
from common.messages import msg, plain
from common.units import HOURS_PER_MONTH

FRAME_COLUMNS: list[str] = [
    "slug", "name", "provider", "kind", "pricing_model", "region", "vcpus", "cores",
    "cpu_model", "cpu_flags", "ram_gib", "gpus", "gpu_model", "gpu_mem_gib", "managed",
    "min_term_months",
    "price_id", "amount", "unit", "effective_from", "source", "source_url", "confirmed",
    "stale", "currency", "monthly", "monthly_exact", "setup_fee", "setup_fee_exact",
    "per_vcpu_hour", "per_gib_hour", "per_gpu_hour", "effective_hourly",
]  # fmt: skip
# fx_rate: the multiplier applied; fx_date: the date of the (older) rate row it rests on;
# fx_via: "EUR" when converted through the euro (two rows), else None; fx_rate_ids: the
# ExchangeRate ids used, one for a direct rate, two through EUR, none in the same currency.
FX_COLUMNS: list[str] = ["fx_rate", "fx_date", "fx_via", "fx_rate_ids"]
PIVOT = "EUR"  # the ECB publishes every rate against the euro

_CENT = Decimal("0.01")
_INT_COLUMNS = ("vcpus", "cores", "gpus", "min_term_months")
_FLOAT_SPEC_COLUMNS = ("ram_gib", "gpu_mem_gib")
_PRICE_FIELDS = {
    "price_id": "id",
    "slug": "tier__slug",
    "name": "tier__name",
    "provider": "tier__provider__name",
    "kind": "tier__kind",
    "pricing_model": "tier__pricing_model",
    "region": "tier__region",
    "vcpus": "tier__vcpus",
    "cores": "tier__cores",
    "cpu_model": "tier__cpu_model",
    "cpu_flags": "tier__cpu_flags",
    "ram_gib": "tier__ram_gib",
    "gpus": "tier__gpus",
    "gpu_model": "tier__gpu_model",
    "gpu_mem_gib": "tier__gpu_mem_gib",
    "managed": "tier__managed",
    "min_term_months": "tier__min_term_months",
    "amount": "amount",
    "unit": "unit",
    "effective_from": "effective_from",
    "source": "source",
    "source_url": "source_url",
    "confirmed": "confirmed",
    "currency": "currency",
    "setup_fee_exact": "setup_fee",
}


def cents(value: Decimal) -> Decimal:
    return value.quantize(_CENT, rounding=ROUND_HALF_UP)


def current_price(tier: Tier, as_of: dt.date) -> Price | None:
    """The tier's newest price whose `effective_from` is on or before `as_of`."""
    return tier.current_price(as_of)


def current_prices(as_of: dt.date, include_retired: bool = False):
    """Each (non-retired) tier's price as of a date, as one query."""
    newest = (
        Price.objects.filter(tier=OuterRef("tier"), effective_from__lte=as_of)
        .order_by("-effective_from")
        .values("effective_from")[:1]
    )
    prices = Price.objects.filter(effective_from__lte=as_of, effective_from=Subquery(newest))
    return prices if include_retired else prices.filter(tier__retired=False)


def catalog_frame(
    as_of: dt.date, currency: str | None = None, *, include_retired: bool = False
) -> pd.DataFrame:
    """One row per non-retired tier with a price effective on or before `as_of`.

    `include_retired` adds the retired tiers too, with a last column `retired`.

    With `currency`, every money column is converted at the newest rate on or
    before `as_of` (a direct rate, or the inverse of the opposite pair's rate:
    both are the same published figure), else through EUR (the ECB's base: two rows,
    `fx_via` "EUR", both ids in `fx_rate_ids`, `fx_date` the older); tiers with no such
    rate are left out and listed in `frame.attrs["dropped"]` with the reason in English,
    and in `frame.attrs["dropped_messages"]` (`{"slug", "message"}`) as a message.

    A price row whose stored amount or set-up fee its column cannot hold (SQLite kept one
    written before the feeds' bounds existed; PostgreSQL refuses it) leaves its tier out:
    `frame.attrs["unreadable"]` lists one message per such row, naming it.
    """
    with paused():  # common/gcpause.py
        return _catalog_frame(as_of, currency, include_retired)


def _catalog_frame(as_of: dt.date, currency: str | None, include_retired: bool) -> pd.DataFrame:
    fields = {**_PRICE_FIELDS, "retired": "tier__retired"}
    prices = current_prices(as_of, include_retired)
    unreadable: list[Any] = []
    # Columns, in `fields`' order (no dictionary or tuple per row: 20,000 of them). On
    # SQLite the rows in no order: the frame is sorted by slug below, and the database's
    # sort of the whole rows (`Price.Meta.ordering`) was a fifth of the read at 20,000
    # tiers (~25 ms); the tiers dropped for want of a rate, listed in that order, are
    # sorted as it would (`_in_sqlite_order`). Another database's collation may order text
    # unlike Python: there the database sorts.
    sqlite = connections[prices.db].vendor == "sqlite"
    try:
        read = prices.order_by() if sqlite else prices
        columns = values_columns(read.values_list(*fields.values()))
    except InvalidOperation:  # SQLite's decimal converter: a value beyond the column
        unreadable, ids = out_of_range(prices)
        read = read.exclude(id__in=ids)
        columns = values_columns(read.values_list(*fields.values()))
    if columns:  # each column's type as `from_records` of the rows finds it, ~15 ms less
        frame = pd.DataFrame(dict(zip(fields, columns, strict=True)))
    else:  # no rows: object columns (a frame of empty lists would be float)
        frame = pd.DataFrame.from_records([], columns=list(fields))
    frame = _derive(frame, as_of)
    dropped: list[dict[str, Any]] = []
    if currency:  # the float columns from the converted amounts (once: 20,000 rows)
        read_frame = frame
        frame, dropped = _convert(frame, currency, as_of)
        if sqlite:
            dropped = _in_sqlite_order(dropped, read_frame)
        dropped = [{"slug": d["slug"], "message": d["message"]} for d in dropped]
    else:
        frame = _money_floats(frame)
    # Sorted in pandas, not SQL: database collations order "." and "-" differently.
    columns = FRAME_COLUMNS + (FX_COLUMNS if currency else []) + (["retired"] * include_retired)
    frame = frame.sort_values("slug", kind="stable")[columns]
    frame = _typed(frame.reset_index(drop=True))
    frame.attrs["as_of"] = as_of.isoformat()
    frame.attrs["currency"] = currency
    frame.attrs["dropped"] = Unchanging(
        {"slug": d["slug"], "reason": plain(d["message"])} for d in dropped
    )
    frame.attrs["dropped_messages"] = Unchanging(dropped)
    frame.attrs["unreadable"] = Unchanging(unreadable)
    return frame


# The columns' limits (Price.amount: 14 digits, 6 places; setup_fee: 14, 2), compared in
# SQL as floats: a Decimal this size would not pass Django's own adaptation to the column.
_LIMITS = {"amount": 10.0**8, "setup_fee": 10.0**12}


def out_of_range(prices) -> tuple[list[Any], list[int]]:
    """The rows among `prices` whose amount or set-up fee is beyond its column (only SQLite
    stores one): a message naming each row and its stored value, and their ids."""
    beyond = Q()
    for name, limit in _LIMITS.items():
        beyond |= Q(**{f"{name}__gte": Value(limit, FloatField())})
    texts = {f"raw_{name}": Cast(name, CharField()) for name in _LIMITS}
    found = prices.filter(beyond).annotate(**texts).order_by("id")
    messages, ids = [], []
    for row in found.values("id", "tier__slug", *texts):
        for name, limit in _LIMITS.items():
            text = row[f"raw_{name}"]
            if _beyond(text, limit):
                messages.append(msg("catalog.price_out_of_range", price=row["id"],
                                    tier=row["tier__slug"], field=name, value=text,
                                    limit=Decimal(int(limit))))  # fmt: skip
        ids.append(row["id"])
    return messages, ids


def _beyond(text: str | None, limit: float) -> bool:
    try:
        return text is not None and not abs(Decimal(text)) < Decimal(int(limit))
    except InvalidOperation:
        return True


def values_columns(queryset: QuerySet) -> list[list]:
    """A `values_list` queryset's columns (none where it has no rows): the same values as
    iterating it gives, with the database's converters (SQLite's decimals, dates and
    booleans; PostgreSQL has none for these columns) applied once per distinct value of a
    column rather than once per row: Django's per-row `apply_converters` was a third of
    the frame at 20,000 tiers, and a catalog's prices, dates and flags repeat (the
    converters are pure functions of the value)."""
    compiler = queryset.query.get_compiler(using=queryset.db)
    connection = connections[queryset.db]
    try:
        sql, params = compiler.as_sql()
    except EmptyResultSet:
        return []
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    columns: list = [list(column) for column in zip(*rows, strict=True)]
    selected = [column for column, _sql, _alias in compiler.select[: compiler.col_count]]
    converters = compiler.get_converters(selected) if rows else {}
    for index, (functions, expression) in converters.items():
        said = {}
        for raw in set(columns[index]):
            value = raw
            for convert in functions:
                value = convert(value, expression, connection)
            said[raw] = value
        if any(value is not raw for raw, value in said.items()):  # dates and flags: as read
            columns[index] = [said[raw] for raw in columns[index]]
    return columns


class Unchanging(list):
    """A list of `frame.attrs` that pandas hands on as it is: pandas deep-copies a frame's
    attrs into every frame, row and column made from it (`__finalize__`), and with 1,258
    tiers dropped (a currency without a rate) the catalog page's row-by-row work copied
    their messages some 800 times: 12 s a request. Never changed once set."""

    def __deepcopy__(self, memo: dict) -> Unchanging:
        return self


def _derive(frame: pd.DataFrame, as_of: dt.date) -> pd.DataFrame:
    monthly_exact = [
        amount * HOURS_PER_MONTH if unit == Unit.HOUR else amount
        for amount, unit in zip(frame["amount"], frame["unit"].tolist(), strict=True)
    ]
    # Staleness once per (pricing model, date): a catalog has a few of each.
    pairs = list(zip(frame["pricing_model"].tolist(), frame["effective_from"], strict=True))
    stale = {pair: is_stale(*pair, as_of) for pair in set(pairs)}
    return frame.assign(
        stale=[stale[pair] for pair in pairs],
        monthly_exact=pd.Series(monthly_exact, index=frame.index, dtype=object),
        setup_fee_exact=frame["setup_fee_exact"].astype(object),  # the Decimals as read
    )


def _floats(values: pd.Series, *said: Callable[[Decimal], float]) -> list[np.ndarray]:
    """`[of(v) for v in values]` as an array for each `of` in `said`, each said once per
    distinct amount (prices repeat), the distinct amounts found once for them all."""
    values = values.tolist()
    distinct = list(set(values))
    at = {value: n for n, value in enumerate(distinct)}
    rows = np.array([at[value] for value in values], dtype=np.intp)
    return [np.array([of(v) for v in distinct], dtype=float)[rows] for of in said]


def _money_floats(frame: pd.DataFrame) -> pd.DataFrame:
    """Rounded float columns and normalised rates, from the exact Decimal columns."""
    hourly, monthly = _floats(
        frame["monthly_exact"], lambda v: float(v / HOURS_PER_MONTH), lambda v: float(cents(v))
    )

    def per(column: str) -> np.ndarray:
        spec = pd.to_numeric(frame[column], errors="coerce").astype(float).to_numpy()
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(spec > 0, hourly / spec, np.nan)

    # A reservation's upfront fee spread over its term (docs/design.md, "Money conventions"):
    # upfront ÷ (8,760 x years) + the recurring hourly. Derived here, never stored.
    months = pd.to_numeric(frame["min_term_months"], errors="coerce").astype(float).to_numpy()
    reserved = (
        frame["pricing_model"].astype(str).str.startswith(COMMITMENT_PREFIXES).to_numpy(dtype=bool)
    )
    fees, setup_fee = _floats(frame["setup_fee_exact"], float, lambda v: float(cents(v)))
    with np.errstate(divide="ignore", invalid="ignore"):
        spread = np.where(reserved & (months > 0), fees / (months / 12 * 8760), 0.0)
    return frame.assign(
        effective_hourly=hourly + np.nan_to_num(spread),
        monthly=monthly,
        setup_fee=setup_fee,
        per_vcpu_hour=per("vcpus"),
        per_gib_hour=per("ram_gib"),
        per_gpu_hour=per("gpus"),
    )


@dataclass(frozen=True)
class Conversion:
    """How one currency converts into the frame's: the factor and the rate rows behind it."""

    factor: Decimal
    date: dt.date
    via: str | None
    ids: tuple[int, ...]


def _newest(rates: list[ExchangeRate], currency: str) -> dict[str, Conversion]:
    """Per currency, the newest multiplier into `currency` among `rates` (direct or inverse)."""
    best: dict[str, Conversion] = {}
    # Oldest first, direct rates after inverse ones, so the newest wins and a direct rate
    # wins a tie with an inverse one of the same date.
    for rate in sorted(rates, key=lambda r: (r.date, r.to_currency == currency)):
        if rate.to_currency == currency:
            best[rate.from_currency] = Conversion(rate.rate, rate.date, None, (rate.pk,))
        elif rate.from_currency == currency:
            best[rate.to_currency] = Conversion(Decimal(1) / rate.rate, rate.date, None, (rate.pk,))
    return best


def _rates_to(currency: str, as_of: dt.date) -> dict[str, Conversion]:
    """For each currency, how it converts into `currency` on `as_of`: the newest direct
    rate (or the inverse of the opposite pair's), else through EUR with two rows."""
    pair = Q(from_currency=currency) | Q(to_currency=currency)
    pivot = Q(from_currency=PIVOT) | Q(to_currency=PIVOT)
    rates = list(ExchangeRate.objects.filter(pair | pivot, date__lte=as_of))
    direct = _newest([r for r in rates if currency in (r.from_currency, r.to_currency)], currency)
    if currency == PIVOT or PIVOT not in direct:
        return direct
    second = direct[PIVOT]
    to_pivot = _newest([r for r in rates if PIVOT in (r.from_currency, r.to_currency)], PIVOT)
    for source, first in to_pivot.items():
        if source not in direct and source != currency:
            direct[source] = Conversion(
                first.factor * second.factor,
                min(first.date, second.date),
                PIVOT,
                first.ids + second.ids,
            )
    return direct


def conversions_to(currency: str, as_of: dt.date) -> dict[str, Conversion]:
    """Each currency's conversion into `currency` on `as_of` (the newest rate on or before
    it, direct or through EUR), with the ExchangeRate ids behind it: for other apps (the
    bill importer converts a bill's lines at the rates of their charge dates)."""
    return _rates_to(currency, as_of)


def currencies_with_rates(as_of: dt.date) -> list[str]:
    """The currencies an exchange rate on or before `as_of` names: those a plan or the
    catalog page can be shown in (every other price converts through them)."""
    pairs = (
        ExchangeRate.objects.filter(date__lte=as_of)
        .order_by()
        .values_list("from_currency", "to_currency")
        .distinct()
    )
    return sorted({code for pair in pairs for code in pair})


# `Price.Meta.ordering` ("tier", then "-effective_from"), "tier" as `Tier.Meta.ordering`.
_TIER_ORDER = ("provider", "name", "region", "pricing_model")


def _in_sqlite_order(dropped: list[dict[str, Any]], frame: pd.DataFrame) -> list[dict[str, Any]]:
    """The dropped tiers (`row`: theirs in `frame`, as read in no order) in the order SQLite
    lists their prices by `Price.Meta.ordering`: the tier's provider, name, region and
    pricing model, then the newest price first. SQLite compares text by its UTF-8 bytes
    (the BINARY collation), as Python compares strings by code point; a NULL first. Tiers
    alike in all of these (an order SQL leaves open) keep the order they were read in."""
    if len(dropped) < 2:
        return dropped
    said = {column: frame[column].tolist() for column in (*_TIER_ORDER, "effective_from")}

    def text(value: Any) -> tuple[bool, str]:  # a missing text (NULL) before any other
        return (True, value) if isinstance(value, str) else (False, "")

    newest = sorted(dropped, key=lambda d: said["effective_from"][d["row"]], reverse=True)
    return sorted(newest, key=lambda d: tuple(text(said[c][d["row"]]) for c in _TIER_ORDER))


def _convert(
    frame: pd.DataFrame, currency: str, as_of: dt.date
) -> tuple[pd.DataFrame, list[dict[str, Any]]]:
    rates = _rates_to(currency, as_of)
    same = Conversion(Decimal(1), None, None, ())  # type: ignore[arg-type]
    conversions: list[Conversion | None] = []
    dropped: list[dict[str, Any]] = []
    # Columns as lists: a string column iterated value by value costs ~1.5 us a value.
    columns = (frame["slug"].tolist(), frame["currency"].tolist())
    for row, (slug, source) in enumerate(zip(*columns, strict=True)):
        conversion = same if source == currency else rates.get(source)
        conversions.append(conversion)
        if conversion is None:
            why = msg("catalog.no_rate", source=source, target=currency, date=as_of)
            dropped.append({"slug": slug, "message": why, "row": row})
    kept = [c for c in conversions if c is not None]
    if dropped:
        frame = frame.loc[[c is not None for c in conversions]]

    # Once per conversion (a catalog has a few), not per row; a price in the frame's own
    # currency is itself (x 1 would give the same digits): 20,000 rows' products and
    # floats were a third of the conversion (~15 ms, CPU).
    factors = {id(c): float(c.factor) for c in kept}

    def scaled(column: str) -> pd.Series:
        values = [v if c is same else v * c.factor
                  for v, c in zip(frame[column].tolist(), kept, strict=True)]  # fmt: skip
        return pd.Series(values, index=frame.index, dtype=object)

    converted = frame.assign(
        amount=scaled("amount"),
        monthly_exact=scaled("monthly_exact"),
        setup_fee_exact=scaled("setup_fee_exact"),
        currency=currency,
        fx_rate=[factors[id(c)] for c in kept],
        fx_date=[c.date for c in kept],
        fx_via=pd.Series([c.via for c in kept], index=frame.index, dtype=object),
        fx_rate_ids=pd.Series([list(c.ids) for c in kept], index=frame.index, dtype=object),
    )
    return _money_floats(converted), dropped


def _typed(frame: pd.DataFrame) -> pd.DataFrame:
    """Stable dtypes, the same for an empty frame as for a full one."""
    types: dict[str, object] = {column: "Int64" for column in _INT_COLUMNS}
    types.update({column: "float64" for column in _FLOAT_SPEC_COLUMNS})
    types.update({"price_id": "int64", "managed": "boolean", "confirmed": bool, "stale": bool,
                  "retired": bool})  # fmt: skip
    types.update(
        {
            c: "float64"
            for c in (
                "monthly",
                "setup_fee",
                "per_vcpu_hour",
                "per_gib_hour",
                "per_gpu_hour",
                "effective_hourly",
                "fx_rate",
            )
        }
    )
    for column in ("amount", "monthly_exact", "setup_fee_exact", "effective_from", "fx_date",
                   "fx_via", "fx_rate_ids"):  # fmt: skip
        types[column] = object
    present = {column: kind for column, kind in types.items() if column in frame.columns}
    return frame.astype(present)


SORTABLE = ("monthly", "per_vcpu_hour", "per_gib_hour", "per_gpu_hour", "vcpus", "ram_gib", "name")


@dataclass(frozen=True)
class TierQuery:
    """What the catalog page asks of a frame: filters, then one sort."""

    q: str = ""
    provider: str = ""
    kind: str = ""
    pricing_model: str = ""
    region: str = ""
    min_vcpus: int | None = None
    min_ram_gib: float | None = None
    min_gpus: int | None = None
    sort: str = "monthly"
    descending: bool = False


# What the catalog page's search reads: the names, where and how a tier is sold, and its
# specs (the CPU and GPU models with the page's vendor and generation where the frame has
# them), so "EPYC", "4545P", "Genoa" or "eu-west-1" find the tiers they describe.
SEARCHED = ("slug", "name", "provider", "region", "pricing_model", "kind", "cpu_model",
            "gpu_model", "cpu_vendor", "cpu_generation")  # fmt: skip


def search_text(frame: pd.DataFrame) -> pd.Series:
    """Each tier's searchable text, lower case: the `SEARCHED` columns the frame has, and
    its counts as words ("32 vcpu", "16 cores", "192 gib")."""
    parts = [frame[c].fillna("").astype(str) for c in SEARCHED if c in frame.columns]
    for column, unit in (("vcpus", "vcpu"), ("cores", "cores"), ("ram_gib", "gib")):
        if column in frame.columns:
            counts = frame[column].astype("Float64").round().astype("Int64").astype(str)
            parts.append((counts + f" {unit}").where(frame[column].notna(), ""))
    text = parts[0]
    for part in parts[1:]:
        text = text + " " + part
    return text.str.lower()


def select_tiers(frame: pd.DataFrame, query: TierQuery) -> pd.DataFrame:
    """Filter and sort a catalog frame; unknown specs never pass a minimum, and sort last."""
    keep = pd.Series(True, index=frame.index)
    for column in ("provider", "kind", "pricing_model", "region"):
        if value := getattr(query, column):
            keep &= frame[column] == value
    if query.q:
        text = search_text(frame)
        for word in query.q.lower().split():
            keep &= text.str.contains(word, regex=False)
    minimums = (("vcpus", query.min_vcpus), ("ram_gib", query.min_ram_gib),
                ("gpus", query.min_gpus))  # fmt: skip
    for column, minimum in minimums:
        if minimum is not None:
            keep &= (frame[column] >= minimum).fillna(False).astype(bool)
    selected = frame.loc[keep]
    sort = query.sort if query.sort in SORTABLE else "monthly"

    def key(values: pd.Series) -> pd.Series:
        return values.str.lower() if values.name == "name" else values

    return selected.sort_values(
        [sort, "slug"], ascending=[not query.descending, True], na_position="last", key=key
    )
