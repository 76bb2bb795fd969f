"""Import and export of the catalog in one format, CSV or JSON (see catalog/FORMAT.md).

Import is all-or-nothing: `parse` reads and checks every field of every record,
`plan` compares the result with the database, and only a file without a single
problem reaches `apply`, which writes everything in one transaction. Every
problem is collected as "line N, field X: why" before the file is refused.

Export is deterministic (sorted rows, fixed number formatting), so export →
empty database → import → export gives the same bytes, history included.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import transaction
from django.db.models import OuterRef, Subquery

from catalog.models import (
    CURRENCIES,
    ExchangeRate,
    Kind,
    Price,
    PricingModel,
    Provider,
    Tier,
    Unit,
    provider_slug,
    slug_validator,
)

FORMAT_NAME = "planner-catalog"
FORMAT_VERSION = 1

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
RATE_RECORD_FIELDS = ("effective_from", "rate_from", "rate_to", "rate", "source", "source_url")
CSV_COLUMNS = ("record", *PRICE_RECORD_FIELDS, *RATE_FIELDS)

# Free-text cells a spreadsheet could run as a formula get a leading "'" on
# export; a leading "'" is escaped the same way so import can undo it exactly.
TEXT_CELLS = frozenset(("provider", *TIER_TEXT, "source", "source_url", "recorded_by"))
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "'")
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


@dataclass(frozen=True)
class Issue:
    where: str  # "line 4", "prices[3]", "header", "file"
    field: str | None
    message: str

    def __str__(self) -> str:
        return (
            f"{self.where}, field {self.field}: {self.message}"
            if self.field
            else (f"{self.where}: {self.message}")
        )


class CatalogFileError(Exception):
    """The file was refused; `issues` names every bad line and field."""

    def __init__(self, issues: list[Issue]) -> None:
        self.issues = issues
        super().__init__("\n".join(str(issue) for issue in issues))


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


@dataclass
class ImportPlan:
    """What an import would do. Nothing is written until `apply`."""

    parsed: ParsedCatalog
    new_providers: list[str] = field(default_factory=list)
    new_tiers: list[str] = field(default_factory=list)
    changed_tiers: dict[str, list[str]] = field(default_factory=dict)  # slug → changed fields
    unchanged_tiers: list[str] = field(default_factory=list)
    new_prices: list[PriceRecord] = field(default_factory=list)
    unchanged_prices: list[PriceRecord] = field(default_factory=list)
    new_rates: list[RateRecord] = field(default_factory=list)
    unchanged_rates: list[RateRecord] = field(default_factory=list)

    @property
    def changes(self) -> int:
        return (
            len(self.new_providers)
            + len(self.new_tiers)
            + len(self.changed_tiers)
            + len(self.new_prices)
            + len(self.new_rates)
        )

    def summary(self) -> str:
        tiers = len(self.new_tiers) + len(self.changed_tiers) + len(self.unchanged_tiers)
        prices = len(self.new_prices) + len(self.unchanged_prices)
        rates = len(self.new_rates) + len(self.unchanged_rates)
        return (
            f"{tiers} tiers, {prices} prices, {rates} exchange rates: "
            f"{len(self.new_tiers)} new tiers, {len(self.changed_tiers)} changed tiers, "
            f"{len(self.new_prices)} new prices, {len(self.new_rates)} new exchange rates"
        )


# Reading ---------------------------------------------------------------------------


def detect_format(filename: str, data: bytes) -> str:
    lowered = filename.lower()
    if lowered.endswith(".json"):
        return "json"
    if lowered.endswith(".csv"):
        return "csv"
    return "json" if data.lstrip()[:1] == b"{" else "csv"


def check_size(size: int) -> None:
    limit = settings.CATALOG_IMPORT_MAX_BYTES
    if size > limit:
        raise CatalogFileError(
            [Issue("file", None, f"{size:,} bytes is over the limit of {limit:,} bytes")]
        )


def parse(data: bytes, fmt: str) -> ParsedCatalog:
    """Check every record of a CSV or JSON catalog file; raise CatalogFileError on any problem."""
    check_size(len(data))
    if not data.strip():
        raise CatalogFileError([Issue("file", None, "the file is empty")])
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise CatalogFileError([Issue(f"line {line}", None, "not UTF-8 text")]) from None
    records, issues = _csv_records(text) if fmt == "csv" else _json_records(text)
    # Records that did parse are still checked, so one refusal names every problem.
    parsed, more = _check_records(records, quoted=fmt == "csv")
    issues = sorted(issues + more, key=_issue_order)
    if issues:
        raise CatalogFileError(issues)
    return parsed


def _issue_order(issue: Issue) -> tuple[int, int]:
    """File and header problems first, then by line (CSV) or by record (JSON)."""
    match = re.fullmatch(r"(line |prices\[|exchange_rates\[)(\d+)\]?", issue.where)
    if not match:
        return (0, 0)
    return ({"line ": 1, "prices[": 2}.get(match.group(1), 3), int(match.group(2)))


def _csv_records(text: str) -> tuple[list[tuple[str, dict[str, str]]], list[Issue]]:
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    issues: list[Issue] = []
    records: list[tuple[str, dict[str, str]]] = []
    header: list[str] | None = None
    start = 1
    try:
        for row in reader:
            where, start = f"line {start}", reader.line_num + 1
            if not row or row == [""]:
                continue
            if header is None:
                header = [cell.strip() for cell in row]
                _check_header(header)
                continue
            if len(row) != len(header):
                missing = f" (no {header[len(row)]} onwards)" if len(row) < len(header) else ""
                issues.append(
                    Issue(
                        where, None, f"has {len(row)} fields, the header has {len(header)}{missing}"
                    )
                )
                continue
            records.append((where, dict(zip(header, row, strict=True))))
    except csv.Error as exc:
        issues.append(Issue(f"line {reader.line_num}", None, f"unreadable CSV: {exc}"))
    if header is None:
        raise CatalogFileError([Issue("file", None, "the file is empty")])
    if not records and not issues:
        raise CatalogFileError([Issue("file", None, "the file has a header but no rows")])
    return records, issues


def _check_header(header: list[str]) -> None:
    issues = []
    missing = [c for c in CSV_COLUMNS if c not in header]
    unknown = [c for c in header if c not in CSV_COLUMNS]
    repeated = sorted({c for c in header if header.count(c) > 1})
    if missing:
        issues.append(Issue("header", None, f"missing column(s): {', '.join(missing)}"))
    if unknown:
        issues.append(Issue("header", None, f"unknown column(s): {', '.join(unknown)}"))
    if repeated:
        issues.append(Issue("header", None, f"repeated column(s): {', '.join(repeated)}"))
    if issues:
        raise CatalogFileError(issues)


def _json_records(text: str) -> tuple[list[tuple[str, dict[str, str]]], list[Issue]]:
    def refuse_constant(name: str) -> None:
        raise ValueError(f"{name} is not a number this format accepts")

    try:
        document = json.loads(text, parse_constant=refuse_constant)
    except (json.JSONDecodeError, ValueError) as exc:
        line = getattr(exc, "lineno", None)
        raise CatalogFileError(
            [Issue(f"line {line}" if line else "file", None, f"not valid JSON: {exc}")]
        ) from None
    if not isinstance(document, dict):
        raise CatalogFileError([Issue("file", None, "expected a JSON object")])
    issues = []
    if document.get("format") != FORMAT_NAME:
        issues.append(Issue("file", "format", f"must be {FORMAT_NAME!r}"))
    if document.get("version") != FORMAT_VERSION:
        issues.append(Issue("file", "version", f"must be {FORMAT_VERSION}"))
    unknown = sorted(set(document) - {"format", "version", "prices", "exchange_rates"})
    if unknown:
        issues.append(Issue("file", None, f"unknown key(s): {', '.join(unknown)}"))
    records: list[tuple[str, dict[str, str]]] = []
    for key, record_type, names in (
        ("prices", "price", PRICE_RECORD_FIELDS),
        ("exchange_rates", "rate", RATE_RECORD_FIELDS),
    ):
        items = document.get(key, [])
        if not isinstance(items, list):
            issues.append(Issue("file", key, "must be a list"))
            continue
        for index, item in enumerate(items):
            where = f"{key}[{index}]"
            if not isinstance(item, dict):
                issues.append(Issue(where, None, "must be an object"))
                continue
            missing = [name for name in names if name not in item]
            extra = sorted(set(item) - set(names))
            issues += [Issue(where, name, "missing") for name in missing]
            issues += [Issue(where, name, "unknown field") for name in extra]
            if missing or extra:
                continue
            cells = {"record": record_type}
            for name in names:
                value = item[name]
                if isinstance(value, (dict, list)):
                    issues.append(Issue(where, name, "must be a string, number, boolean or null"))
                cells[name] = _json_cell(value)
            records.append((where, cells))
    if not records and not issues:
        raise CatalogFileError([Issue("file", None, "the file holds no prices or exchange rates")])
    return records, issues


def _json_cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _check_records(
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
                        f"duplicate of {price_keys[key]}: one price per "
                        f"(slug, effective_from) ({record.slug}, {key[1].isoformat()})",
                    )
                price_keys.setdefault(key, where)
                prices.append(record)
        elif kind == "rate":
            rate = _rate_record(row)
            if rate:
                key3 = (rate.from_currency, rate.to_currency, rate.date)
                if key3 in rate_keys:
                    row.issue(
                        "effective_from",
                        f"duplicate of {rate_keys[key3]}: one "
                        f"{rate.from_currency}→{rate.to_currency} rate per date",
                    )
                rate_keys.setdefault(key3, where)
                rates.append(rate)
        else:
            row.issue("record", f"{kind!r} is neither 'price' nor 'rate'")
        issues.extend(row.issues)
    return ParsedCatalog(prices=prices, rates=rates), issues


def _check_tier_consistency(
    row: _Row, record: PriceRecord, seen: dict[str, tuple[str, str, dict[str, Any]]]
) -> None:
    if record.slug not in seen:
        seen[record.slug] = (row.where, record.provider, record.tier)
        return
    first_where, provider, tier = seen[record.slug]
    if provider != record.provider:
        row.issue("provider", f"differs from {first_where} for the same tier {record.slug}")
    for name in TIER_FIELDS:
        if tier.get(name) != record.tier.get(name):
            row.issue(name, f"differs from {first_where} for the same tier {record.slug}")


class _Row:
    """One record's cells and the problems found in them."""

    def __init__(self, where: str, cells: dict[str, str], quoted: bool) -> None:
        self.where = where
        self.cells = cells
        self.quoted = quoted
        self.issues: list[Issue] = []

    def issue(self, name: str | None, message: str) -> None:
        self.issues.append(Issue(self.where, name, message))

    def text(self, name: str, required: bool = False) -> str:
        value = self.cells.get(name, "")
        if "\x00" in value:
            self.issue(name, "contains a NUL byte")
            return ""
        if name in TEXT_CELLS and self.quoted and value.startswith("'"):
            value = value[1:]
        else:
            value = value.strip()
        if required and not value:
            self.issue(name, "required")
        limit = MAX_LENGTH.get(name)
        if limit and len(value) > limit:
            self.issue(name, f"{len(value)} characters, at most {limit}")
        return value

    def choice(self, name: str, choices: Iterable[str], what: str) -> str:
        value = self.text(name)
        allowed = list(choices)
        if value not in allowed:
            self.issue(name, f"unknown {what} {value!r} (one of {', '.join(allowed)})")
        return value

    def decimal(
        self, name: str, required: bool = False, default: Decimal | None = None
    ) -> Decimal | None:
        value = self.text(name)
        if value == "":
            if required:
                self.issue(name, "required")
            return default
        try:
            number = Decimal(value)
        except InvalidOperation:
            self.issue(name, f"{value!r} is not a number")
            return None
        if number.is_nan() or number.is_infinite():
            self.issue(name, f"{value!r} is not a finite number")
            return None
        if number < 0:
            self.issue(name, f"{value} is negative")
            return None
        if not _PLAIN_DECIMAL.match(value):
            self.issue(name, f"{value!r}: write plain digits with an optional '.'")
            return None
        digits, places = DECIMAL_SHAPE[name]
        whole, _, fraction = value.partition(".")
        if len(fraction) > places:
            self.issue(name, f"{value}: more than {places} decimal places")
            return None
        if len(whole.lstrip("0")) > digits - places:
            self.issue(name, f"{value}: more than {digits - places} digits before the point")
            return None
        return number

    def integer(self, name: str) -> int | None:
        value = self.text(name)
        if value == "":
            return None
        if value.startswith("-") and _PLAIN_INT.match(value[1:]):
            self.issue(name, f"{value} is negative")
            return None
        if not _PLAIN_INT.match(value) or len(value) > 9:
            self.issue(name, f"{value!r} is not a whole number")
            return None
        return int(value)

    def boolean(self, name: str, allow_empty: bool) -> bool | None:
        value = self.text(name).lower()
        if value == "" and allow_empty:
            return None
        if value in ("true", "false"):
            return value == "true"
        self.issue(name, f"{value!r}: write true or false" + (" (or leave empty)" * allow_empty))
        return None

    def date(self, name: str) -> dt.date | None:
        value = self.text(name)
        if not _ISO_DATE.match(value):
            self.issue(name, f"{value!r} is not a date written YYYY-MM-DD")
            return None
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            self.issue(name, f"{value} is not a real date")
            return None

    def url(self, name: str) -> str:
        value = self.text(name)
        if value:
            try:
                URLValidator()(value)
            except ValidationError:
                self.issue(name, f"{value!r} is not a URL")
        return value

    def must_be_empty(self, names: Iterable[str], record: str) -> None:
        for name in names:
            if self.cells.get(name, "").strip():
                self.issue(name, f"must be empty on a {record} record")


def _price_record(row: _Row) -> PriceRecord | None:
    slug = row.text("slug", required=True)
    if slug:
        try:
            slug_validator(slug)
        except ValidationError:
            row.issue("slug", f"{slug!r}: use lowercase letters, digits, '.' and '-'")
    tier = {
        "name": row.text("name", required=True),
        "region": row.text("region"),
        "pricing_model": row.choice("pricing_model", PricingModel.values, "pricing model"),
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
        row.issue("rate", "must be above 0")
    if from_currency == to_currency:
        row.issue("rate_to", "must differ from rate_from")
    source = row.text("source", required=True)
    source_url = row.url("source_url")
    row.must_be_empty(
        [n for n in PRICE_RECORD_FIELDS if n not in RATE_RECORD_FIELDS and n != "record"], "rate"
    )
    if row.issues:
        return None
    return RateRecord(row.where, date, from_currency, to_currency, rate, source, source_url)


# Comparing with the database ------------------------------------------------------------


def _chunks(items: list, size: int = 500) -> Iterator[list]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def plan(parsed: ParsedCatalog, *, update_tiers: bool = True) -> ImportPlan:
    """What importing `parsed` would change; refuses a price or rate that contradicts the DB.

    With `update_tiers=False` a tier already recorded keeps its columns as they are.
    """
    result = ImportPlan(parsed=parsed)
    issues: list[Issue] = []
    slugs = sorted({record.slug for record in parsed.prices})
    tiers: dict[str, Tier] = {}
    for chunk in _chunks(slugs):
        tiers.update(
            (t.slug, t) for t in Tier.objects.filter(slug__in=chunk).select_related("provider")
        )
    existing_prices: dict[tuple[str, dt.date], Decimal] = {}
    for chunk in _chunks(slugs):
        for slug, day, amount in Price.objects.filter(tier__slug__in=chunk).values_list(
            "tier__slug", "effective_from", "amount"
        ):
            existing_prices[(slug, day)] = amount
    providers = dict(Provider.objects.values_list("name", "slug"))
    provider_slugs = {slug: name for name, slug in providers.items()}

    planned: set[str] = set()
    for record in parsed.prices:
        if record.provider not in providers:
            slug = provider_slug(record.provider)
            if slug in provider_slugs:
                issues.append(
                    Issue(
                        record.where,
                        "provider",
                        (
                            f"{record.provider!r} is too close to the provider "
                            f"{provider_slugs[slug]!r}: write that name exactly"
                        ),
                    )
                )
            else:
                result.new_providers.append(record.provider)
                providers[record.provider] = slug
                provider_slugs[slug] = record.provider
        if record.slug not in planned:
            planned.add(record.slug)
            _plan_tier(result, record, tiers.get(record.slug), update_tiers)
        key = (record.slug, record.price["effective_from"])
        if key not in existing_prices:
            result.new_prices.append(record)
        elif existing_prices[key] == record.price["amount"]:
            result.unchanged_prices.append(record)
        else:
            issues.append(
                Issue(
                    record.where,
                    "amount",
                    (
                        f"{record.price['amount']} differs from the recorded "
                        f"{format_decimal(existing_prices[key])} "
                        f"for ({record.slug}, {key[1].isoformat()}); prices are never overwritten: "
                        "give the new price its own effective_from"
                    ),
                )
            )

    existing_rates = {
        (r.from_currency, r.to_currency, r.date): r.rate for r in ExchangeRate.objects.all()
    }
    for rate in parsed.rates:
        key = (rate.from_currency, rate.to_currency, rate.date)
        if key not in existing_rates:
            result.new_rates.append(rate)
        elif existing_rates[key] == rate.rate:
            result.unchanged_rates.append(rate)
        else:
            issues.append(
                Issue(
                    rate.where,
                    "rate",
                    (
                        f"{rate.rate} differs from the recorded "
                        f"{format_decimal(existing_rates[key])} for "
                        f"{key[0]}→{key[1]} on {key[2].isoformat()}"
                    ),
                )
            )
    if issues:
        raise CatalogFileError(issues)
    return result


def _plan_tier(
    result: ImportPlan, record: PriceRecord, tier: Tier | None, update_tiers: bool
) -> None:
    if tier is None:
        result.new_tiers.append(record.slug)
        return
    if not update_tiers:
        result.unchanged_tiers.append(record.slug)
        return
    changed = [name for name, value in record.tier.items() if getattr(tier, name) != value]
    if tier.provider.name != record.provider:
        changed.insert(0, "provider")
    if changed:
        result.changed_tiers[record.slug] = changed
    else:
        result.unchanged_tiers.append(record.slug)


def apply(result: ImportPlan, user=None) -> ImportPlan:
    """Write a checked plan in one transaction: all of it or, on any error, nothing."""
    with transaction.atomic():
        for name in result.new_providers:
            Provider.objects.create(name=name)
        providers = {p.name: p for p in Provider.objects.all()}
        first = {}
        for record in result.parsed.prices:
            first.setdefault(record.slug, record)
        new_tiers = [
            Tier(slug=slug, provider=providers[first[slug].provider], **first[slug].tier)
            for slug in result.new_tiers
        ]
        for tier in new_tiers:
            # A safety net under the parser's checks; excludes what would cost a query.
            tier.full_clean(exclude=["provider"], validate_unique=False, validate_constraints=False)
        Tier.objects.bulk_create(new_tiers, batch_size=500)
        for slug, fields in result.changed_tiers.items():
            tier = Tier.objects.get(slug=slug)
            record = first[slug]
            tier.provider = providers[record.provider]
            for name, value in record.tier.items():
                setattr(tier, name, value)
            tier.save(update_fields=fields)
        tier_ids = {}
        for chunk in _chunks(sorted(first)):
            tier_ids.update(Tier.objects.filter(slug__in=chunk).values_list("slug", "id"))
        Price.objects.bulk_create(
            [
                Price(
                    tier_id=tier_ids[r.slug],
                    recorded_by=None if r.price["recorded_by_text"] else user,
                    **r.price,
                )
                for r in result.new_prices
            ],
            batch_size=500,
        )
        ExchangeRate.objects.bulk_create(
            [
                ExchangeRate(
                    date=r.date,
                    from_currency=r.from_currency,
                    to_currency=r.to_currency,
                    rate=r.rate,
                    source=r.source,
                    source_url=r.source_url,
                )
                for r in result.new_rates
            ],
            batch_size=500,
        )
    return result


def import_catalog(
    data: bytes, fmt: str, *, user=None, dry_run: bool = False, update_tiers: bool = True
) -> ImportPlan:
    """Parse, check against the database and (unless `dry_run`) write. Raises CatalogFileError."""
    result = plan(parse(data, fmt), update_tiers=update_tiers)
    return result if dry_run else apply(result, user=user)


# Writing ------------------------------------------------------------------------------


def format_decimal(value: Decimal | None) -> str:
    if value is None:
        return ""
    text = format(value, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text or "0"


def neutralise(value: str) -> str:
    """Keep a spreadsheet from running a text cell as a formula."""
    return "'" + value if value.startswith(_FORMULA_START) else value


def _price_rows(history: bool, as_of: dt.date | None) -> list[dict[str, Any]]:
    prices = Price.objects.select_related("tier__provider", "recorded_by")
    if not history:
        as_of = as_of or dt.date.today()
        newest = (
            Price.objects.filter(tier=OuterRef("tier"), effective_from__lte=as_of)
            .order_by("-effective_from")
            .values("effective_from")[:1]
        )
        prices = prices.filter(effective_from=Subquery(newest))
    rows = []
    for price in prices:
        tier = price.tier
        rows.append({
            "slug": tier.slug, "provider": tier.provider.name,
            **{name: getattr(tier, name) for name in TIER_FIELDS},
            "amount": price.amount, "unit": price.unit, "currency": price.currency,
            "setup_fee": price.setup_fee, "effective_from": price.effective_from,
            "source": price.source, "source_url": price.source_url,
            "confirmed": price.confirmed, "recorded_by": price.recorder,
        })  # fmt: skip
    # Sorted here, not in SQL: database collations order "." and "-" differently.
    return sorted(rows, key=lambda row: (row["slug"], row["effective_from"]))


def _rate_rows(history: bool, as_of: dt.date | None) -> list[dict[str, Any]]:
    rates = ExchangeRate.objects.order_by("from_currency", "to_currency", "date")
    if not history:
        as_of = as_of or dt.date.today()
        newest: dict[tuple[str, str], ExchangeRate] = {}
        for rate in rates.filter(date__lte=as_of):
            newest[(rate.from_currency, rate.to_currency)] = rate
        rates = [newest[key] for key in sorted(newest)]
    return [
        {
            "effective_from": r.date,
            "rate_from": r.from_currency,
            "rate_to": r.to_currency,
            "rate": r.rate,
            "source": r.source,
            "source_url": r.source_url,
        }
        for r in rates
    ]


def _csv_cell(name: str, value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Decimal):
        return format_decimal(value)
    if isinstance(value, dt.date):
        return value.isoformat()
    text = str(value)
    return neutralise(text) if name in TEXT_CELLS else text


def _json_value(value: Any) -> Any:
    if isinstance(value, Decimal):
        return format_decimal(value)  # a string: JSON numbers would lose exactness
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def export_catalog(fmt: str, *, history: bool = False, as_of: dt.date | None = None) -> bytes:
    """The catalog as CSV or JSON bytes: every price row with `history`, else current ones."""
    prices = _price_rows(history, as_of)
    rates = _rate_rows(history, as_of)
    if fmt == "json":
        document = {
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            "prices": [{k: _json_value(row[k]) for k in PRICE_RECORD_FIELDS} for row in prices],
            "exchange_rates": [{k: _json_value(r[k]) for k in RATE_RECORD_FIELDS} for r in rates],
        }
        return (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode()
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in prices:
        writer.writerow(["price", *(_csv_cell(c, row.get(c)) for c in CSV_COLUMNS[1:])])
    for row in rates:
        writer.writerow(["rate", *(_csv_cell(c, row.get(c)) for c in CSV_COLUMNS[1:])])
    return out.getvalue().encode()
