"""AWS Price List bulk API: the EC2 regional offer files, JSON or CSV, read streaming.

Where (docs/formats.md §1): the region index `…/AmazonEC2/current/region_index.json` names
each region's current file (`regions.<code>.currentVersionUrl`, relative). A regional
file is tens to hundreds of MB, so neither form is ever held whole: the JSON form is
read with ijson (the products, then the on-demand terms, then the reserved terms, each
pass parsed in C and handed over one SKU at a time); the CSV form, after its five
metadata lines and its header (columns mapped by name), a block of text at a time
(csv_screen: a block in AWS's exact form is checked whole by one compiled pattern and only
the lines of wanted products are parsed), else line by line.

What becomes a tier (the "Linux/Shared filter"): product family "Compute Instance" (or
its bare-metal twin) in an "AWS Region", shared tenancy, Linux, no pre-installed
software, no licence included, capacity status "Used". Each such instance type gives
an on-demand tier and one tier per reservation it offers (1 or 3 years, standard or
convertible, no, partial or all upfront): the recurring hourly rate is the price, the
upfront fee its set-up fee, the term `min_term_months`. `effective_from` is the file's
`publicationDate`; the price's `source_key` is AWS's `SKU.offerTermCode`.

Every line (CSV) or entry (JSON) is checked, wanted or not: any malformed one refuses
the file, naming each by line number or key. Spot prices are not in this feed.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import itertools
import json
import operator
import re
from collections.abc import Callable, Iterator
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import ijson
from django.core.exceptions import ValidationError

from catalog.feeds import csv_screen
from catalog.feeds.aws_locations import REGION_BY_LOCATION, ZONE_TYPES, is_zone
from catalog.feeds.base import (
    CountingFile,
    FeedPrice,
    FeedRefused,
    Problems,
    Progress,
    Reading,
    Source,
    malformed_json,
    non_negative_decimal,
    regions_in_index,
)
from catalog.feeds.config import aws_base_url, aws_regions, operating_systems
from catalog.feeds.plausible import SLUG_MAX, price_messages
from catalog.models import CURRENCIES, PricingModel, slug_validator
from common.messages import msg

INDEX_PATH = "/offers/v1.0/aws/AmazonEC2/current/region_index.json"
OFFER_CODE = "AmazonEC2"

FAMILIES = ("Compute Instance", "Compute Instance (bare metal)")
WANTED = {
    "tenancy": "Shared",
    "operatingSystem": "Linux",
    "preInstalledSw": "NA",
    "licenseModel": "No License required",
    "capacitystatus": "Used",
}
# Each operating system's values of the two attributes that tell it; Windows with its
# licence in the price (AWS says "No License required" there, as in the 2020 offer file,
# or "License Included"), never "Bring your own license". Linux's is WANTED's.
OS_ATTRIBUTES = {
    "linux": (("Linux", "No License required"),),
    "rhel": (("RHEL", "No License required"),),
    "suse": (("SUSE", "No License required"),),
    "windows": (("Windows", "No License required"), ("Windows", "License Included")),
}
# The attributes a compute product must carry for the filter and the specs.
PRODUCT_KEYS = ("instanceType", "vcpu", "memory", *WANTED)
YEARS = {"1yr": 1, "3yr": 3}
CLASSES = ("standard", "convertible")
OPTIONS = {"No Upfront": "no_upfront", "Partial Upfront": "partial_upfront",
           "All Upfront": "all_upfront"}  # fmt: skip
TERM_TYPES = ("OnDemand", "Reserved")

# CSV column → JSON attribute, for the columns the importer reads.
CSV_ATTRIBUTES = {
    "Product Family": "productFamily", "Location Type": "locationType",
    "Instance Type": "instanceType", "vCPU": "vcpu", "Memory": "memory",
    "Physical Processor": "physicalProcessor", "Processor Features": "processorFeatures",
    "GPU": "gpu", "GPU Memory": "gpuMemory", "Network Performance": "networkPerformance",
    "Storage": "storage", "Tenancy": "tenancy", "Operating System": "operatingSystem",
    "Pre Installed S/W": "preInstalledSw", "License Model": "licenseModel",
    "CapacityStatus": "capacitystatus", "Region Code": "regionCode",
    "Market Option": "marketoption",
}  # fmt: skip
CSV_TERM_COLUMNS = ("SKU", "OfferTermCode", "RateCode", "TermType", "PriceDescription",
                    "EffectiveDate", "Unit", "PricePerUnit", "Currency", "LeaseContractLength",
                    "PurchaseOption", "OfferingClass")  # fmt: skip
CSV_REQUIRED = (*CSV_TERM_COLUMNS, "Product Family", "Location Type", "Instance Type", "vCPU",
                "Memory", "Tenancy", "Operating System", "Pre Installed S/W", "License Model",
                "CapacityStatus")  # fmt: skip
PREAMBLE = ("FormatVersion", "Disclaimer", "Publication Date", "Version", "OfferCode")
HEADER_KEYS = ("formatVersion", "offerCode", "version", "publicationDate")

_SKU = re.compile(r"^[A-Z0-9]{8,20}$")
_PRICE = re.compile(r"^[0-9]+(\.[0-9]+)?$")
_CURRENCIES = frozenset(CURRENCIES)
_ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}")
_MICRO = Decimal("0.000001")
_UNKNOWN = ("NA", "N/A", "")  # what AWS writes for a figure it does not state
_CENT = Decimal("0.01")


class AwsEc2(Source):
    name = "aws"
    provider = "AWS"
    complete = True
    vat_included = False  # AWS list prices are before tax
    # What AWS and a mirror may label these files; an HTML error page is refused.
    content_types = ("application/json", "text/csv", "application/octet-stream",
                     "binary/octet-stream", "text/plain")  # fmt: skip

    @property
    def default_regions(self) -> tuple[str, ...]:  # type: ignore[override]
        return aws_regions()

    def url(self, region: str) -> str:
        return f"{aws_base_url()}/offers/v1.0/aws/AmazonEC2/current/{region}/index.json"

    def resolve_urls(self, regions: list[str], fetch: Callable[[str], Path]) -> dict[str, str]:
        """Each region's current file, as the region index names it."""
        index = region_index(fetch(aws_base_url() + INDEX_PATH))
        return regions_in_index(index, regions, self.name)

    def refuse_region(self, region: str, zones: bool) -> None:
        """A Local or Wavelength Zone is not a Region: imported only when asked for."""
        if is_zone(region) and not zones:
            raise FeedRefused([msg("feeds.aws_zone", region=region)])

    def scope_tiers(self, region: str) -> dict[str, Any]:
        """The region's AWS tiers but the savings plans (aws_savings_plans.py retires those)."""
        models = [m for m in PricingModel.values if not m.startswith("savings_plan_")]
        return {**super().scope_tiers(region), "pricing_model__in": models}

    def read(self, path: Path, region: str, progress: Progress | None = None) -> Reading:
        with path.open("rb") as file:
            start = file.read(64).lstrip()
        if start.startswith(b"{"):
            return _JsonOffer(path, region, progress).reading()
        if start.startswith(b"["):  # no offer file is an array; ec2instances.info's is
            raise unsupported("a JSON array (as ec2instances.info's instances.json)")
        return _CsvOffer(path, region, progress).reading()


# What this source reads, named when a file is in another format.
FORMATS = ("the AWS Price List bulk API's AmazonEC2 offer file, JSON (index.json) or CSV "
           "(index.csv)")  # fmt: skip


def unsupported(found: str) -> FeedRefused:
    return FeedRefused(
        [msg("feeds.unsupported_format", source="aws", found=found, formats=FORMATS)]
    )


def _json_kind(keys: set[str]) -> str:
    """What a JSON object that is no offer file looks like it is, by its top-level keys."""
    if {"manifest", "regions"} <= keys:
        return "AWS's pricing-page JSON (meteredUnitMaps, as ec2.shop saves it)"
    if {"instance_type", "pricing"} <= keys:
        return "an ec2instances.info instance record"
    return "a JSON object with the keys " + ", ".join(sorted(keys)[:10])


def region_index(path: Path) -> dict[str, str]:
    """Region code → absolute URL of its current offer file, from a region index file."""
    base = aws_base_url()
    try:
        document = json.loads(path.read_bytes())
        regions = document["regions"]
        return {
            code: base + entry["currentVersionUrl"]
            if entry["currentVersionUrl"].startswith("/")
            else entry["currentVersionUrl"]
            for code, entry in regions.items()
        }
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise FeedRefused([msg("feeds.missing_keys", keys=f"region index: {exc}")]) from None


def raw_rows(path: Path) -> Iterator[Any]:
    """The bare reader, for comparison (bench/catalog_sync.py): every product and every
    SKU's terms (JSON) or every line (CSV) as a Python object, with no filter, no check
    and no mapping. The importer reads the file the same way."""
    with path.open("rb") as file:
        start = file.read(64).lstrip()
    with CountingFile(path) as file:
        if start.startswith(b"{"):
            for prefix in ("products", "terms.OnDemand", "terms.Reserved"):
                file.rewind()
                yield from ijson.kvitems(file, prefix, use_float=False)
            return
        text = io.TextIOWrapper(io.BufferedReader(file, 1024 * 1024), "utf-8", newline="")
        yield from csv.reader(text, strict=True)


# What a product and a term become -----------------------------------------------------


class _Offer:
    """What both forms share: the filter, the specs, and each term's price."""

    def __init__(self, path: Path, region: str, progress: Progress | None) -> None:
        self.path = path
        self.region = region
        self.progress = progress
        self.problems = Problems()
        self.version = ""
        self.published: dt.date | None = None
        self.specs: dict[str, dict[str, Any]] = {}  # wanted SKU → tier columns
        self.regions_seen: set[str] = set()
        self.zone = is_zone(region)
        # (operatingSystem, licenseModel) → the catalog's name of the system, as configured.
        self.systems = {pair: name for name in operating_systems()
                        for pair in OS_ATTRIBUTES.get(name, ())}  # fmt: skip
        self.names_ok: dict[str, bool] = {}

    def reading(self) -> Reading:
        records = self.records()
        first = next(records, None)  # reads the metadata (and refuses a wrong file) now
        return Reading(
            records=_chain(first, records),
            version=self.version,
            notes=[msg("feeds.aws_no_spot")],
        )

    def records(self) -> Iterator[FeedPrice]:
        raise NotImplementedError

    def wanted(self, family: str, attributes: dict[str, str]) -> bool:
        if family not in FAMILIES:
            return False
        location_type = attributes.get("locationType", "AWS Region")
        if self.zone:  # asked for by name: the zone's own products only
            if location_type not in ZONE_TYPES or attributes.get("regionCode") != self.region:
                return False
        elif location_type != "AWS Region":
            return False
        if attributes.get("marketoption", "OnDemand") not in ("OnDemand", ""):
            return False
        system = (attributes.get("operatingSystem"), attributes.get("licenseModel"))
        if system not in self.systems:
            return False
        return all(attributes.get(key) == value for key, value in WANTED.items()
                   if key not in ("operatingSystem", "licenseModel"))  # fmt: skip

    def tier(self, attributes: dict[str, str], where: str) -> dict[str, Any]:
        # The region the product is in: its code, or (files before 2021) its location's.
        location = attributes.get("location", "")
        code = attributes.get("regionCode") or REGION_BY_LOCATION.get(location)
        if code or location:
            self.regions_seen.add(code or location)
        for key, read in (("vcpu", _count), ("memory", _gib), ("gpu", _count),
                          ("gpuMemory", _gib)):  # fmt: skip
            value = attributes.get(key)
            if value and value.strip() not in _UNKNOWN and read(value) is None:
                self.problems.add(msg("feeds.json_value", where=where, key=key,
                                      value=value[:40]))  # fmt: skip
        gpus = _count(attributes.get("gpu")) or 0
        total_gpu_mem = _gib(attributes.get("gpuMemory"))
        system = self.systems.get(
            (attributes.get("operatingSystem"), attributes.get("licenseModel")), "linux"
        )
        return {
            "name": attributes["instanceType"],
            "operating_system": system,
            "region": self.region,
            "kind": "cloud_gpu" if gpus else "cloud_vm",
            "vcpus": _count(attributes.get("vcpu")),
            "ram_gib": _gib(attributes.get("memory")),
            "cpu_model": attributes.get("physicalProcessor", "")[:120] or None,
            "cpu_flags": cpu_flags(attributes.get("processorFeatures", "")) or None,
            "storage_type": attributes.get("storage", "")[:120] or None,
            "gpus": gpus,
            # AWS gives the instance's GPU memory as one figure; the catalog keeps it per GPU.
            "gpu_mem_gib": (total_gpu_mem / gpus).quantize(_CENT)
            if gpus and total_gpu_mem
            else None,
            "network": attributes.get("networkPerformance", "")[:120] or None,
            "retired": False,
        }

    def price(
        self,
        where: str,
        sku: str,
        term_code: str,
        term_type: str,
        term_attributes: dict[str, str],
        dimensions: list[tuple[str, str, str]],  # (unit, currency, price)
    ) -> FeedPrice | None:
        spec = self.specs[sku]
        model, months = pricing_model(term_type, term_attributes)
        if model is None:
            self.problems.add(msg("feeds.json_value", where=where, key="termAttributes",
                                  value=json.dumps(term_attributes)))  # fmt: skip
            return None
        hourly = [(c, p) for unit, c, p in dimensions if unit == "Hrs"]
        upfront = [(c, p) for unit, c, p in dimensions if unit == "Quantity"]
        if len(hourly) != 1 or len(upfront) > 1:
            self.problems.add(msg("feeds.json_value", where=where, key="priceDimensions",
                                  value=", ".join(unit for unit, _, _ in dimensions)))  # fmt: skip
            return None
        currency, amount = hourly[0]
        fee = upfront[0][1] if upfront else Decimal(0)
        system = "" if spec["operating_system"] == "linux" else f"-{spec['operating_system']}"
        slug = f"aws-{spec['name']}-{self.region}-{model.replace('_', '-')}{system}".lower()
        if len(slug) > SLUG_MAX:
            self.problems.add(msg("feeds.key_too_long", where=where, key="instanceType",
                                  length=len(spec["name"]), limit=SLUG_MAX))  # fmt: skip
            return None
        if not self.valid_key(spec["name"], slug):
            self.problems.add(msg("feeds.json_value", where=where, key="instanceType",
                                  value=spec["name"][:80]))  # fmt: skip
            return None
        if problems := price_messages(where, amount, "hour", currency, fee, model):
            for problem in problems:
                self.problems.add(problem)
            return None
        return FeedPrice(
            slug=slug,
            provider="AWS",
            tier={**spec, "pricing_model": model, "min_term_months": months},
            amount=amount.quantize(_MICRO, ROUND_HALF_UP),
            unit="hour",
            currency=currency,
            effective_from=self.published,
            source_key=f"{sku}.{term_code}",
            setup_fee=fee.quantize(_CENT, ROUND_HALF_UP),
            vat_included=False,
        )

    def valid_key(self, name: str, slug: str) -> bool:
        """Whether `slug`, a key of the type `name`, is a valid key. The pricing model's part
        of a key is valid for every model, so the answer holds for all of a name's keys and
        is worked out once per name."""
        valid = self.names_ok.get(name)
        if valid is None:
            try:
                slug_validator(slug)
                valid = True
            except ValidationError:
                valid = False
            self.names_ok[name] = valid
        return valid

    def check_region(self) -> None:
        others = self.regions_seen - {self.region}
        if others:
            raise FeedRefused(
                [msg("feeds.wrong_region", found=", ".join(sorted(others)), expected=self.region)]
            )


def pricing_model(term_type: str, attributes: dict[str, str]) -> tuple[str | None, int | None]:
    """`on_demand`, or `reserved_1y[_convertible]_no_upfront` and its term in months."""
    if term_type == "OnDemand":
        return "on_demand", None
    years = YEARS.get(attributes.get("LeaseContractLength", ""))
    offering = attributes.get("OfferingClass", "")
    option = OPTIONS.get(attributes.get("PurchaseOption", ""))
    if years is None or option is None or offering not in CLASSES:
        return None, None
    convertible = "_convertible" if offering == "convertible" else ""
    return f"reserved_{years}y{convertible}_{option}", 12 * years


def cpu_flags(features: str) -> str:
    """ "Intel AVX; Intel AVX2; Intel AVX512; Intel Turbo" → "avx avx2 avx512 turbo"."""
    flags = []
    for feature in re.split(r"[;,]", features):
        words = feature.strip().lower().split()
        if words and words[0] in ("intel", "amd", "aws"):
            words = words[1:]
        if words:
            flags.append("-".join(words).replace("avx-512", "avx512"))
    return " ".join(dict.fromkeys(flags))[:500]


def _count(value: str | None) -> int | None:
    if value and value.strip().isdigit():
        return int(value.strip())
    return None


def _gib(value: str | None) -> Decimal | None:
    """ "32 GiB", "1,952 GiB", "0.5 GiB" → Decimal; "NA" or empty → None."""
    if not value:
        return None
    match = re.fullmatch(r"([\d,]+(?:\.\d+)?)\s*(GiB|GB)", value.strip())
    return Decimal(match.group(1).replace(",", "")) if match else None


def _chain(first: FeedPrice | None, rest: Iterator[FeedPrice]) -> Iterator[FeedPrice]:
    if first is not None:
        yield first
    yield from rest


# The JSON form --------------------------------------------------------------------------


class _JsonOffer(_Offer):
    def records(self) -> Iterator[FeedPrice]:
        with CountingFile(self.path, self.progress) as file:
            try:
                self._header(file)
                yield from self._passes(file)
            except ijson.JSONError as exc:
                raise malformed_json(exc, file) from None
        self.problems.refuse_if_any()

    def _header(self, file: CountingFile) -> None:
        """The metadata before `products`, read event by event (a few dozen events)."""
        header: dict[str, Any] = {}
        top: set[str] = set()
        for prefix, event, value in ijson.parse(file, use_float=False):
            if prefix == "" and event == "map_key":
                if value in ("products", "terms"):
                    break
                top.add(value)
            if event in ("string", "number") and prefix in HEADER_KEYS:
                header[prefix] = value
        if not header:
            raise unsupported(_json_kind(top))
        missing = [key for key in HEADER_KEYS if key not in header]
        if header.get("offerCode", OFFER_CODE) != OFFER_CODE:
            raise FeedRefused(
                [msg("feeds.wrong_offer", found=str(header["offerCode"]), expected=OFFER_CODE)]
            )
        if missing:
            raise FeedRefused([msg("feeds.missing_keys", keys=", ".join(missing))])
        self.version = str(header["version"])
        self.published = _day(str(header["publicationDate"]))
        if self.published is None:
            raise FeedRefused([msg("feeds.json_value", where="publicationDate",
                                   key="publicationDate",
                                   value=str(header["publicationDate"]))])  # fmt: skip

    def _passes(self, file: CountingFile) -> Iterator[FeedPrice]:
        file.rewind()
        for sku, product in ijson.kvitems(file, "products", use_float=False):
            self._product(sku, product)
        self.check_region()
        if not self.specs:
            return
        on_demand = 0
        for term_type in TERM_TYPES:
            file.rewind()
            for sku, terms in ijson.kvitems(file, f"terms.{term_type}", use_float=False):
                on_demand += term_type == "OnDemand"
                if sku in self.specs:
                    yield from self._terms(term_type, sku, terms, file)
                else:  # not kept, but a price there that is no price still refuses the file
                    self._check_terms(term_type, sku, terms)
            if term_type == "OnDemand" and not on_demand:
                raise FeedRefused([msg("feeds.missing_keys", keys="terms.OnDemand")])

    def _product(self, sku: str, product: Any) -> None:
        where = f"products.{sku}"
        if not isinstance(product, dict) or not isinstance(product.get("attributes"), dict):
            self.problems.add(msg("feeds.json_missing", where=where, key="attributes"))
            return
        family = product.get("productFamily")
        if family is None:
            self.problems.add(msg("feeds.json_missing", where=where, key="productFamily"))
            return
        attributes = product["attributes"]
        if family in FAMILIES:
            missing = [key for key in PRODUCT_KEYS if key not in attributes]
            if missing:
                self.problems.add(msg("feeds.json_missing", where=where, key=", ".join(missing)))
                return
        if self.wanted(family, attributes):
            self.specs[sku] = self.tier(attributes, where)

    def _terms(
        self, term_type: str, sku: str, terms: Any, file: CountingFile
    ) -> Iterator[FeedPrice]:
        for code, term in (terms or {}).items():
            where = f"terms.{term_type}.{sku}.{code}"
            dimensions = self._dimensions(where, term)
            if dimensions is None:
                continue
            price = self.price(where, sku, term.get("offerTermCode", ""), term_type,
                               term.get("termAttributes") or {}, dimensions)  # fmt: skip
            if price:
                file.records += 1
                yield price

    def _check_terms(self, term_type: str, sku: str, terms: Any) -> None:
        for code, term in (terms or {}).items() if isinstance(terms, dict) else ():
            self._dimensions(f"terms.{term_type}.{sku}.{code}", term)

    def _dimensions(self, where: str, term: Any) -> list[tuple[str, str, Decimal]] | None:
        if not isinstance(term, dict) or not isinstance(term.get("priceDimensions"), dict):
            self.problems.add(msg("feeds.json_missing", where=where, key="priceDimensions"))
            return None
        out = []
        for rate_code, dimension in term["priceDimensions"].items():
            prices = dimension.get("pricePerUnit") if isinstance(dimension, dict) else None
            if not isinstance(prices, dict) or len(prices) != 1 or "unit" not in dimension:
                self.problems.add(msg("feeds.json_missing", where=f"{where}.{rate_code}",
                                      key="unit, pricePerUnit"))  # fmt: skip
                return None
            ((currency, text),) = prices.items()
            # AWS writes plain decimals ("0.0420000000"): "1e3" or "abc" is no price of its.
            amount = non_negative_decimal(str(text)) if _PRICE.match(str(text)) else None
            if amount is None or currency not in CURRENCIES:
                self.problems.add(msg("feeds.json_value", where=f"{where}.{rate_code}",
                                      key="pricePerUnit", value=f"{text} {currency}"))  # fmt: skip
                return None
            out.append((dimension["unit"], currency, amount))
        return out


class _Columns:
    """The indices of the columns every line is checked on."""

    def __init__(self, columns: dict[str, int]) -> None:
        self.sku, self.code, self.rate = (columns[c] for c in ("SKU", "OfferTermCode", "RateCode"))
        self.type, self.day = columns["TermType"], columns["EffectiveDate"]
        self.price, self.currency = columns["PricePerUnit"], columns["Currency"]
        self.lease, self.option = columns["LeaseContractLength"], columns["PurchaseOption"]
        self.offering, self.family = columns["OfferingClass"], columns["Product Family"]
        self.unit = columns["Unit"]


class _Seen:
    """What the CSV loop has checked already: term combinations, SKUs (with their product's
    decision) and price strings. A line made only of these needs no further check."""

    PRICES_KEPT = 200_000  # distinct price strings remembered (a few MB), then forgotten

    def __init__(self, term_of: Callable[[list[str]], tuple]) -> None:
        self.term_of = term_of
        self.terms: set[tuple] = set()
        self.decided: dict[str, bool] = {}
        self.prices: set[str] = set()

    def first_bad(self, row: list[str], at: _Columns, sku: str) -> str | None:
        """The first column of the line not in AWS's form, or None (then remembered). A
        reservation's lease, purchase option and class are checked only on the lines of a
        product the importer keeps (`kept_term_bad`): AWS writes other products' in other
        forms ("1 yr", "AllUpfront" for Dedicated Hosts), and the JSON reader never reads
        them either."""
        term = self.term_of(row)
        if term not in self.terms and (bad := _bad_term(term, reservation=False)):
            return bad
        if sku not in self.decided and not _SKU.match(sku):
            return "SKU"
        if not row[at.rate].startswith(f"{sku}.{row[at.code]}."):
            return "RateCode"
        price = row[at.price]
        if price not in self.prices:
            if not _PRICE.match(price):
                return "PricePerUnit"
            if len(self.prices) >= self.PRICES_KEPT:
                self.prices.clear()
            self.prices.add(price)
        return None

    def kept_term_bad(self, row: list[str]) -> str | None:
        """The first of a kept line's term columns not in AWS's form, or None (remembered)."""
        term = self.term_of(row)
        if term not in self.terms:
            if bad := _bad_term(term):
                return bad
            self.terms.add(term)
        return None


def _bad_term(term: tuple[str, ...], reservation: bool = True) -> str | None:
    """The first of a line's term columns not in AWS's form, or None; `reservation`: also
    a reservation's lease, purchase option and class."""
    term_type, day, currency, lease, option, offering = term
    if term_type not in TERM_TYPES:
        return "TermType"
    if _day(day) is None:
        return "EffectiveDate"
    if currency not in _CURRENCIES:
        return "Currency"
    if term_type == "Reserved" and reservation:
        if lease not in YEARS:
            return "LeaseContractLength"
        if option not in OPTIONS:
            return "PurchaseOption"
        if offering not in CLASSES:
            return "OfferingClass"
    return None


def _day(text: str) -> dt.date | None:
    if not _ISO_DAY.match(text):
        return None
    try:
        return dt.date.fromisoformat(text[:10])
    except ValueError:
        return None


# The CSV form ---------------------------------------------------------------------------


class _CsvOffer(_Offer):
    def records(self) -> Iterator[FeedPrice]:
        terms: dict[tuple[str, str], dict[str, Any]] = {}
        with CountingFile(self.path, self.progress) as file:
            text = io.TextIOWrapper(io.BufferedReader(file, 1024 * 1024), "utf-8", newline="")
            reader, offset = csv.reader(text, strict=True), 0
            try:
                self._preamble(reader)
                columns = self._header(reader)
                rows = _CsvRows(self, columns, terms, file)
                rest, offset = self._screened(text, columns, rows, reader.line_num)
                if rest is not None:  # line by line from the first block not in AWS's form
                    reader = csv.reader(itertools.chain(io.StringIO(rest, newline=""), text),
                                        strict=True)  # fmt: skip
                    rows.take(_numbered(reader, offset))
            except csv.Error as exc:
                raise FeedRefused(
                    [msg("feeds.malformed_csv", line=offset + reader.line_num, error=str(exc))]
                ) from None
            except UnicodeDecodeError:
                raise FeedRefused(
                    [msg("feeds.not_utf8", line=_first_bad_utf8_line(self.path))]
                ) from None
        self.problems.refuse_if_any()
        self.check_region()
        for (sku, code), term in terms.items():
            price = self.price(term["where"], sku, code, term["type"], term["attributes"],
                               term["dimensions"])  # fmt: skip
            if price:
                yield price
        self.problems.refuse_if_any()

    def _screened(
        self, text: io.TextIOBase, columns: dict[str, int], rows: _CsvRows, read: int
    ) -> tuple[str | None, int]:
        """The lines after the header, a block at a time (csv_screen): in a block in AWS's
        exact form only the lines holding every wanted value are parsed and checked. The
        first block not in that form, if any, comes back with the number of the line
        before it, for the line-by-line reading that names what is wrong."""
        pattern = _block_pattern(columns)
        if pattern is None:  # columns in an order the block pattern cannot follow
            return "", read
        wanted = csv_screen.needles(rows.wanted, columns["*"])
        for block in csv_screen.screen(text, pattern, wanted, read + 1):
            if block.rest is not None:
                return block.rest, block.first_line - 1
            if block.lines:
                numbers, texts = zip(*block.lines, strict=True)
                rows.take(zip(numbers, csv.reader(texts, strict=True), strict=True))
        return None, read

    def _preamble(self, reader: Any) -> None:
        lines = [next(reader, []) for _ in PREAMBLE]
        meta = {row[0]: row[1] for row in lines if len(row) == 2}
        if meta.get("OfferCode", OFFER_CODE) != OFFER_CODE:
            raise FeedRefused(
                [msg("feeds.wrong_offer", found=meta["OfferCode"], expected=OFFER_CODE)]
            )
        if [row[0] if row else "" for row in lines] != list(PREAMBLE) or len(meta) != 5:
            self.problems.add(msg("feeds.bad_preamble"))
            return
        self.version = meta["Version"]
        self.published = _day(meta["Publication Date"])
        if self.published is None:
            self.problems.add(msg("feeds.line_value", line=3, column="Publication Date",
                                  value=meta["Publication Date"]))  # fmt: skip

    def _header(self, reader: Any) -> dict[str, int]:
        header = next(reader, None) or []
        columns = {name.strip(): index for index, name in enumerate(header)}
        missing = [name for name in CSV_REQUIRED if name not in columns]
        if missing:
            raise FeedRefused([msg("feeds.missing_keys", keys=", ".join(missing))])
        columns["*"] = len(header)
        return columns

    def _product_line(
        self, sku: str, family: str, row: list[str], attribute_at: list, line: int
    ) -> bool:
        """A product that passed the filter's columns: the rest of the filter, its specs."""
        attributes = {name: row[index] for name, index in attribute_at}
        if not self.wanted(family, attributes):
            return False
        missing = [k for k in PRODUCT_KEYS if not attributes.get(k)]
        if missing:
            self.problems.add(msg("feeds.line_value", line=line, column=missing[0], value=""))
            return False
        self.specs[sku] = self.tier(attributes, f"line {line}")
        return True

    def _collect(
        self,
        row: list[str],
        at: _Columns,
        terms: dict[tuple[str, str], dict[str, Any]],
        line: int,
    ) -> None:
        key = (row[at.sku], row[at.code])
        term = terms.get(key)
        if term is None:
            term = terms[key] = {
                "where": f"line {line}",
                "type": row[at.type],
                "attributes": {
                    "LeaseContractLength": row[at.lease],
                    "PurchaseOption": row[at.option],
                    "OfferingClass": row[at.offering],
                },
                "dimensions": [],
            }
        term["dimensions"].append((row[at.unit], row[at.currency], Decimal(row[at.price])))


class _CsvRows:
    """Every line handed over checked, the wanted ones collected; what was learnt (term
    combinations, SKUs with their product's decision, price strings) kept across the
    calls, so the screened blocks and a line-by-line rest share it."""

    def __init__(
        self,
        offer: _CsvOffer,
        columns: dict[str, int],
        terms: dict[tuple[str, str], dict[str, Any]],
        file: CountingFile,
    ) -> None:
        self.offer, self.columns, self.terms, self.file = offer, columns, terms, file
        self.at = at = _Columns(columns)
        # Column index → the value a kept product holds there (the Linux/Shared filter).
        # The filter's columns: those with one wanted value become the screen's needles;
        # the operating system's two are one of the configured systems' pairs.
        systems = list(offer.systems) or list(OS_ATTRIBUTES["linux"])
        fixed = {name: value for name, value in WANTED.items()
                 if name not in ("operatingSystem", "licenseModel")}  # fmt: skip
        if len(systems) == 1:
            fixed.update(zip(("operatingSystem", "licenseModel"), systems[0], strict=True))
        self.wanted = {columns[c]: fixed[name] for c, name in CSV_ATTRIBUTES.items()
                       if name in fixed}  # fmt: skip
        checked = [columns[c] for c, name in CSV_ATTRIBUTES.items() if name in WANTED]
        names = [name for c, name in CSV_ATTRIBUTES.items() if name in WANTED]
        self.picked = operator.itemgetter(*checked)
        self.filter_values = {
            tuple({**WANTED, "operatingSystem": os_name, "licenseModel": licence}[n]
                  for n in names)
            for os_name, licence in systems
        }  # fmt: skip
        self.attribute_at = [(name, columns[column]) for column, name in CSV_ATTRIBUTES.items()
                             if column in columns]  # fmt: skip
        self.seen = _Seen(operator.itemgetter(at.type, at.day, at.currency, at.lease,
                                              at.option, at.offering))  # fmt: skip

    def take(self, numbered: Iterator[tuple[int, list[str]]]) -> None:
        """(line number, row) pairs. The hot loop when a file is read line by line, so a
        line like the ones before it costs a few steps, each in C: its term columns (type,
        date, currency, lease, option, class) are one of the few combinations already
        checked, its SKU one already seen (its product's decision remembered), its price a
        string already checked; only the rate code is new on every line. Any other line is
        checked column by column (`_Seen.first_bad`), in the order the messages name."""
        offer, at, seen, file, terms = self.offer, self.at, self.seen, self.file, self.terms
        width = self.columns["*"]
        decided = seen.decided  # a checked SKU → whether its product is wanted
        term_of, terms_ok, prices_ok = seen.term_of, seen.terms, seen.prices
        sku_at, code_at, rate_at, price_at = at.sku, at.code, at.rate, at.price
        last_sku, wanted = None, None  # a SKU's lines come together: its decision is at hand
        for start, row in numbered:
            if len(row) != width:
                if row:
                    offer.problems.add(
                        msg("feeds.line_fields", line=start, count=len(row), header=width)
                    )
                continue
            sku = row[sku_at]
            if sku != last_sku:
                wanted = decided.get(sku)
                last_sku = None if wanted is None else sku
            if not (
                wanted is not None
                and term_of(row) in terms_ok
                and row[rate_at].startswith(f"{sku}.{row[code_at]}.")
                and row[price_at] in prices_ok
            ):
                bad = seen.first_bad(row, at, sku)
                if bad:
                    offer.problems.add(msg("feeds.line_value", line=start, column=bad,
                                           value=row[self.columns[bad]]))  # fmt: skip
                    continue
                if wanted is None:
                    wanted = row[at.family] in FAMILIES and self.picked(row) in self.filter_values
                    if wanted:
                        wanted = offer._product_line(sku, row[at.family], row,
                                                     self.attribute_at, start)  # fmt: skip
                    decided[sku], last_sku = wanted, sku
                if wanted and (bad := seen.kept_term_bad(row)):
                    offer.problems.add(msg("feeds.line_value", line=start, column=bad,
                                           value=row[self.columns[bad]]))  # fmt: skip
                    continue
            if wanted:
                offer._collect(row, at, terms, start)
                file.records += 1


def _numbered(reader: Any, offset: int) -> Iterator[tuple[int, list[str]]]:
    """A csv reader's rows, each with the number of its first line in the file."""
    line = offset + reader.line_num
    for row in reader:
        start, line = line + 1, offset + reader.line_num
        yield start, row


def _block_pattern(columns: dict[str, int]) -> re.Pattern[str] | None:
    """The block pattern (csv_screen) accepting exactly the lines that pass the checks of
    `_CsvRows.take` on a line of a product it does not keep, in AWS's quoted form. None
    when the columns' order keeps a pattern from following the checks (the SKU and term
    code must come before the rate code, the term type before the reservation's terms)."""
    sku, code, rate, kind = (columns[c] for c in ("SKU", "OfferTermCode", "RateCode", "TermType"))
    reserved = [columns[c] for c in ("LeaseContractLength", "PurchaseOption", "OfferingClass")]
    if not (max(sku, code) < min(rate, kind) and kind < min(reserved)):
        return None

    def one_of(values: Any) -> str:
        return "(?:" + "|".join(re.escape(v) for v in values) + ")"

    cells = {
        sku: r"(?P<sku>[A-Z0-9]{8,20})",  # _SKU
        code: r'(?P<code>[^"\n]*+)',
        rate: r'(?P=sku)\.(?P=code)\.[^"\n]*+',  # starts with "{sku}.{code}."
        # _day: a date of the calendar first (29 February goes line by line), then anything
        columns[
            "EffectiveDate"
        ]: r"(?!0000)[0-9]{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])"
        r'|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))[^"\n]*+',
        columns["Currency"]: one_of(sorted(_CURRENCIES)),
        columns["PricePerUnit"]: r"[0-9]++(?:\.[0-9]++)?",  # _PRICE
    }
    on_demand = {kind: "OnDemand"}
    # A reservation's lease, option and class are checked on kept lines only (`take`), and
    # every candidate line (holding the filter's values) is parsed and taken.
    reservation = {kind: "Reserved"}
    return csv_screen.block_pattern(columns["*"], cells, kind, (on_demand, reservation))


def _first_bad_utf8_line(path: Path) -> int:
    """The number of the first line that is not UTF-8 (the decoder reads ahead, so where
    it failed says little)."""
    with path.open("rb") as file:
        for number, raw in enumerate(file, 1):
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError:
                return number
    return 1
