"""The records of a catalog file, price and exchange-rate, and the check of every cell.

`check_records` turns each record's cells into a `PriceRecord` or `RateRecord`,
collecting every problem as an `Issue` ("line N, field X: why") rather than stopping
at the first. An issue's why is a message (a code and parameters): the admin says it in
its reader's language, the commands in English.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import URLValidator

from catalog.models import (
    CURRENCIES,
    ExchangeRate,
    Kind,
    Price,
    PricingModel,
    Provider,
    Tier,
    Unit,
    slug_validator,
)
from common.django.message_render import render
from common.messages import Message, msg

TIER_TEXT = ("name", "region", "cpu_model", "cpu_flags", "storage_type", "gpu_model", "network")
TIER_INT = ("vcpus", "cores", "gpus", "min_term_months")
TIER_DECIMAL = ("ram_gib", "storage_gib", "gpu_mem_gib")
TIER_FIELDS = (
    "name", "region", "pricing_model", "kind", "vcpus", "cores", "cpu_model", "cpu_flags",
    "ram_gib", "storage_gib", "storage_type", "gpus", "gpu_model", "gpu_mem_gib", "network",
    "managed", "min_term_months", "retired",
)  # fmt: skip
PRICE_FIELDS = (
    "amount", "unit", "currency", "setup_fee", "effective_from", "source", "source_url",
    "confirmed", "recorded_by",
)  # fmt: skip
RATE_FIELDS = ("rate_from", "rate_to", "rate")
PRICE_RECORD_FIELDS = ("slug", "provider", *TIER_FIELDS, *PRICE_FIELDS)
# A price's feed provenance (catalog/feeds). Optional on import, so files written before
# these columns existed still import (as empty: no version, no key, VAT unknown).
FEED_FIELDS = ("source_version", "source_key", "vat_included")
RATE_RECORD_FIELDS = ("effective_from", "rate_from", "rate_to", "rate", "source", "source_url")

# Free-text cells a spreadsheet could run as a formula get a leading "'" on
# export; a leading "'" is escaped the same way so import can undo it exactly.
TEXT_CELLS = frozenset(
    ("provider", *TIER_TEXT, "source", "source_url", "recorded_by", "source_version", "source_key")
)
_PLAIN_DECIMAL = re.compile(r"^[0-9]+(\.[0-9]+)?$")
_PLAIN_INT = re.compile(r"^[0-9]+$")
_ISO_DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")


def _max_length(model: type, name: str) -> int:
    return model._meta.get_field(name).max_length


MAX_LENGTH: dict[str, int] = {
    "slug": _max_length(Tier, "slug"),
    "provider": _max_length(Provider, "name"),
    **{name: _max_length(Tier, name) for name in TIER_TEXT},
    "source": _max_length(Price, "source"),
    "source_url": _max_length(Price, "source_url"),
    "recorded_by": _max_length(Price, "recorded_by_text"),
    "source_version": _max_length(Price, "source_version"),
    "source_key": _max_length(Price, "source_key"),
}
DECIMAL_SHAPE: dict[str, tuple[int, int]] = {
    **{
        n: (Tier._meta.get_field(n).max_digits, Tier._meta.get_field(n).decimal_places)
        for n in TIER_DECIMAL
    },
    "amount": (
        Price._meta.get_field("amount").max_digits,
        Price._meta.get_field("amount").decimal_places,
    ),
    "setup_fee": (
        Price._meta.get_field("setup_fee").max_digits,
        Price._meta.get_field("setup_fee").decimal_places,
    ),
    "rate": (
        ExchangeRate._meta.get_field("rate").max_digits,
        ExchangeRate._meta.get_field("rate").decimal_places,
    ),
}


_LINE = re.compile(r"^line ([0-9]+)$")


def location(where: str) -> Message:
    """A record's place, said in the reader's language: the keys this package writes are
    "line N" (CSV), "header", "file", and a JSON path ("prices[3]") shown as it is."""
    if match := _LINE.match(where):
        return msg("catalog.at_line", line=match[1])
    if where in ("header", "file"):
        return msg(f"catalog.at_{where}")
    return msg("common.text", text=where)


@dataclass(frozen=True)
class Issue:
    where: str  # "line 4", "prices[3]", "header", "file": the place, also the sort key
    field: str | None
    message: Message | str  # why; a plain str is shown as it is (words from outside)

    @property
    def why(self) -> Message:
        return self.message if isinstance(self.message, Message) else _words(self.message)

    def as_message(self) -> Message:
        """ "line 4, field amount: why" as one message, for a page in its reader's language."""
        if match := _LINE.match(self.where):
            line = match[1]
            if self.field:
                return msg("catalog.issue_line_field", line=line, field=self.field, why=self.why)
            return msg("catalog.issue_line", line=line, why=self.why)
        if self.where in ("header", "file"):
            code = f"catalog.issue_{self.where}" + ("_field" if self.field else "")
            return msg(code, why=self.why, **({"field": self.field} if self.field else {}))
        if self.field:
            return msg("catalog.issue_record_field", where=self.where, field=self.field,
                       why=self.why)  # fmt: skip
        return msg("catalog.issue_record", where=self.where, why=self.why)

    def __str__(self) -> str:
        # English as a page writes it (grouped numbers: "52,428,800 bytes"), for the commands.
        return render(self.as_message(), "en")


def _words(text: str) -> Message:
    return msg("common.text", text=text)


class CatalogFileError(Exception):
    """The file was refused; `issues` names every bad line and field."""

    def __init__(self, issues: list[Issue]) -> None:
        self.issues = issues
        super().__init__("\n".join(str(issue) for issue in issues))


class CatalogBusy(CatalogFileError):
    """Another import was writing the catalog: nothing of this file was written; retry."""

    def __init__(self) -> None:
        super().__init__([Issue("file", None, msg("catalog.import_busy"))])


@dataclass
class PriceRecord:
    where: str
    slug: str
    provider: str
    tier: dict[str, Any]
    price: dict[str, Any]


@dataclass
class RateRecord:
    where: str
    date: dt.date
    from_currency: str
    to_currency: str
    rate: Decimal
    source: str
    source_url: str


@dataclass
class ParsedCatalog:
    prices: list[PriceRecord]
    rates: list[RateRecord]


def check_records(
    records: list[tuple[str, dict[str, str]]], *, quoted: bool
) -> tuple[ParsedCatalog, list[Issue]]:
    """Check each record; `quoted` says text cells may carry the export's leading "'"."""
    issues: list[Issue] = []
    prices: list[PriceRecord] = []
    rates: list[RateRecord] = []
    tiers_seen: dict[str, tuple[str, str, dict[str, Any]]] = {}
    price_keys: dict[tuple[str, dt.date], str] = {}
    rate_keys: dict[tuple[str, str, dt.date], str] = {}
    for where, cells in records:
        row = _Row(where, cells, quoted)
        kind = row.cells.get("record", "").strip()
        if kind == "price":
            record = _price_record(row)
            if record:
                _check_tier_consistency(row, record, tiers_seen)
                key = (record.slug, record.price["effective_from"])
                if key in price_keys:
                    row.issue(
                        "effective_from",
                        msg("catalog.duplicate_price", first=location(price_keys[key]),
                            slug=record.slug, date=key[1].isoformat()),
                    )  # fmt: skip
                price_keys.setdefault(key, where)
                prices.append(record)
        elif kind == "rate":
            rate = _rate_record(row)
            if rate:
                key3 = (rate.from_currency, rate.to_currency, rate.date)
                if key3 in rate_keys:
                    row.issue(
                        "effective_from",
                        msg("catalog.duplicate_rate", first=location(rate_keys[key3]),
                            source=rate.from_currency, target=rate.to_currency),
                    )  # fmt: skip
                rate_keys.setdefault(key3, where)
                rates.append(rate)
        else:
            row.issue("record", msg("catalog.bad_record_kind", value=repr(kind)))
        issues.extend(row.issues)
    return ParsedCatalog(prices=prices, rates=rates), issues


def _check_tier_consistency(
    row: _Row, record: PriceRecord, seen: dict[str, tuple[str, str, dict[str, Any]]]
) -> None:
    if record.slug not in seen:
        seen[record.slug] = (row.where, record.provider, record.tier)
        return
    first_where, provider, tier = seen[record.slug]
    differs = msg("catalog.tier_differs", first=location(first_where), slug=record.slug)
    if provider != record.provider:
        row.issue("provider", differs)
    for name in TIER_FIELDS:
        if tier.get(name) != record.tier.get(name):
            row.issue(name, differs)


class _Row:
    """One record's cells and the problems found in them."""

    def __init__(self, where: str, cells: dict[str, str], quoted: bool) -> None:
        self.where = where
        self.cells = cells
        self.quoted = quoted
        self.issues: list[Issue] = []

    def issue(self, name: str | None, message: Message) -> None:
        self.issues.append(Issue(self.where, name, message))

    def text(self, name: str, required: bool = False) -> str:
        value = self.cells.get(name, "")
        if "\x00" in value:
            self.issue(name, msg("catalog.nul_byte"))
            return ""
        if name in TEXT_CELLS and self.quoted and value.startswith("'"):
            value = value[1:]
        else:
            value = value.strip()
        if required and not value:
            self.issue(name, msg("catalog.required"))
        limit = MAX_LENGTH.get(name)
        if limit and len(value) > limit:
            self.issue(name, msg("catalog.too_long", length=len(value), limit=limit))
        return value

    def choice(self, name: str, choices: Iterable[str], what: str) -> str:
        """`what` names the list in the message's code: "pricing_model", "kind", "unit"..."""
        value = self.text(name)
        allowed = list(choices)
        if value not in allowed:
            self.issue(name, msg(f"catalog.unknown_{what}", value=repr(value), choices=allowed))
        return value

    def decimal(
        self, name: str, required: bool = False, default: Decimal | None = None
    ) -> Decimal | None:
        value = self.text(name)
        if value == "":
            if required:
                self.issue(name, msg("catalog.required"))
            return default
        try:
            number = Decimal(value)
        except InvalidOperation:
            self.issue(name, msg("catalog.not_a_number", value=repr(value)))
            return None
        if number.is_nan() or number.is_infinite():
            self.issue(name, msg("catalog.not_finite", value=repr(value)))
            return None
        if number < 0:
            self.issue(name, msg("catalog.negative", value=value))
            return None
        if not _PLAIN_DECIMAL.match(value):
            self.issue(name, msg("catalog.not_plain_digits", value=repr(value)))
            return None
        digits, places = DECIMAL_SHAPE[name]
        whole, _, fraction = value.partition(".")
        if len(fraction) > places:
            self.issue(name, msg("catalog.too_many_places", value=value, places=places))
            return None
        if len(whole.lstrip("0")) > digits - places:
            whole_digits = digits - places
            self.issue(name, msg("catalog.too_many_digits", value=value, digits=whole_digits))
            return None
        return number

    def integer(self, name: str) -> int | None:
        value = self.text(name)
        if value == "":
            return None
        if value.startswith("-") and _PLAIN_INT.match(value[1:]):
            self.issue(name, msg("catalog.negative", value=value))
            return None
        if not _PLAIN_INT.match(value) or len(value) > 9:
            self.issue(name, msg("catalog.not_whole", value=repr(value)))
            return None
        return int(value)

    def boolean(self, name: str, allow_empty: bool) -> bool | None:
        value = self.text(name).lower()
        if value == "" and allow_empty:
            return None
        if value in ("true", "false"):
            return value == "true"
        code = "catalog.not_boolean_or_empty" if allow_empty else "catalog.not_boolean"
        self.issue(name, msg(code, value=repr(value)))
        return None

    def date(self, name: str) -> dt.date | None:
        value = self.text(name)
        if not _ISO_DATE.match(value):
            self.issue(name, msg("catalog.not_a_date", value=repr(value)))
            return None
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            self.issue(name, msg("catalog.not_a_real_date", value=value))
            return None

    def url(self, name: str) -> str:
        value = self.text(name)
        if value:
            try:
                URLValidator()(value)
            except ValidationError:
                self.issue(name, msg("catalog.not_a_url", value=repr(value)))
        return value

    def must_be_empty(self, names: Iterable[str], record: str) -> None:
        for name in names:
            if self.cells.get(name, "").strip():
                self.issue(name, msg(f"catalog.empty_on_{record}"))


def _price_record(row: _Row) -> PriceRecord | None:
    slug = row.text("slug", required=True)
    if slug:
        try:
            slug_validator(slug)
        except ValidationError:
            row.issue("slug", msg("catalog.bad_slug", value=repr(slug)))
    tier = {
        "name": row.text("name", required=True),
        "region": row.text("region"),
        "pricing_model": row.choice("pricing_model", PricingModel.values, "pricing_model"),
        "kind": row.choice("kind", Kind.values, "kind"),
        **{name: row.integer(name) for name in TIER_INT},
        **{name: row.decimal(name) for name in TIER_DECIMAL},
        **{
            name: row.text(name)
            for name in ("cpu_model", "cpu_flags", "storage_type", "gpu_model", "network")
        },
        "managed": row.boolean("managed", allow_empty=True),
        "retired": row.boolean("retired", allow_empty=False),
    }
    price = {
        "amount": row.decimal("amount", required=True),
        "unit": row.choice("unit", Unit.values, "unit"),
        "currency": row.choice("currency", CURRENCIES, "currency"),
        "setup_fee": row.decimal("setup_fee", default=Decimal(0)),
        "effective_from": row.date("effective_from"),
        "source": row.text("source", required=True),
        "source_url": row.url("source_url"),
        "confirmed": row.boolean("confirmed", allow_empty=False),
        "recorded_by_text": row.text("recorded_by"),
        "source_version": row.text("source_version"),
        "source_key": row.text("source_key"),
        "vat_included": row.boolean("vat_included", allow_empty=True),
    }
    provider = row.text("provider", required=True)
    row.must_be_empty(RATE_FIELDS, "price")
    if row.issues:
        return None
    return PriceRecord(row.where, slug, provider, tier, price)


def _rate_record(row: _Row) -> RateRecord | None:
    date = row.date("effective_from")
    from_currency = row.choice("rate_from", CURRENCIES, "currency")
    to_currency = row.choice("rate_to", CURRENCIES, "currency")
    rate = row.decimal("rate", required=True)
    if rate is not None and rate == 0:
        row.issue("rate", msg("catalog.rate_not_above_zero"))
    if from_currency == to_currency:
        row.issue("rate_to", msg("catalog.same_currencies"))
    source = row.text("source", required=True)
    source_url = row.url("source_url")
    row.must_be_empty(
        [n for n in (*PRICE_RECORD_FIELDS, *FEED_FIELDS) if n not in RATE_RECORD_FIELDS], "rate"
    )
    if row.issues:
        return None
    return RateRecord(row.where, date, from_currency, to_currency, rate, source, source_url)
