"""GCP Compute Engine from the Cloud Billing Catalog (gcp/README.md), paged.

Where: `https://cloudbilling.googleapis.com/v1/services/6F81-5844-456A/skus` (Compute
Engine), which needs an API key (`CATALOG_FEED_GCP_API_KEY`); each page is
`{skus[], nextPageToken}` and the next page is asked with `pageToken=<token>` until the
token is empty or absent. `fetch` follows the pages and writes them, one compact JSON
document a line, into one file; `read` reads that file, a single saved page or a JSON
array of pages, one page at a time. A last page that still names a next one is refused:
a saved copy must hold every page.

A SKU: `skuId`, `description`, `category {resourceGroup, usageType}`, `serviceRegions[]`,
`pricingInfo[].pricingExpression {usageUnit, tieredRates[].unitPrice {currencyCode, units,
nanos}}`. A family's per-vCPU SKU ("E2 Instance Core running in Americas", group CPU, unit
"h"), per-GiB SKU ("… Instance Ram …", group RAM, unit "GiBy.h") and, for GPU machine
types, its GPU SKU ("Nvidia Tesla A100 GPU …", group GPU, unit "h") price a predefined
machine type of the region: vCPUs x core + GiB x RAM + GPUs x GPU, with the shapes from
`gcp_shapes` (a documented table). usageType OnDemand → `on_demand`, Preemptible (Spot)
→ `spot`, Commit1Yr / Commit3Yr → `committed_use_1y` / `_3y` (resource-based commitments,
billed monthly: no set-up fee, the term in `min_term_months`). The price of the tier
`gcp-<machine type>-<region>-<model>` is the first tier's (startUsageAmount 0) unit price,
`effective_from` the newer of its SKUs' `effectiveTime`, `source_key` their skuIds joined
with "+". Other SKUs (custom shapes, sole tenancy, licences, disks) are not read.

Currencies: the catalog keeps USD. A price in another currency (the sample's T2D and E2
SKUs are in IDR) is converted at the ECB reference rates in the catalog (the ECB feed's
rows, EUR-based) of the price's date or the latest working day before it; the notes say
which rate. Without an ECB rate for it the file is refused: import the ECB feed first.
Google's own `currencyConversionRate` is not used.

Every SKU is checked: a renamed or missing key, a price that is not a number, an unknown
unit or currency, two SKUs pricing the same thing differently, a page cut short: the file
is refused, naming each, and nothing is written.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any
from urllib.parse import quote

import ijson
from django.conf import settings

from catalog.feeds import gcp_shapes
from catalog.feeds.base import (
    CountingFile,
    FeedPrice,
    FeedRefused,
    Problems,
    Progress,
    Reading,
    Source,
    malformed_json,
)
from catalog.feeds.download import Downloaded, download
from catalog.feeds.paged import fetch_pages
from catalog.models import CURRENCIES, ExchangeRate, slug_validator
from common.messages import Message, msg

BASE_URL = "https://cloudbilling.googleapis.com/v1/services/6F81-5844-456A/skus"
REGIONS = ("us-central1", "europe-west4")
MAX_PAGES = 1000
TARGET = "USD"
SKU_KEYS = ("skuId", "description", "category", "serviceRegions", "pricingInfo")
MODELS = {"OnDemand": ("on_demand", None), "Preemptible": ("spot", None),
          "Commit1Yr": ("committed_use_1y", 12), "Commit3Yr": ("committed_use_3y", 36)}  # fmt: skip
UNITS = {"CPU": "h", "RAM": "GiBy.h", "GPU": "h"}
# "E2 Instance Core running in Americas", "T2D AMD Instance Ram running in Singapore",
# "Spot Preemptible E2 Instance Core …", "Commitment v1: E2 Cpu in Americas for 1 Year"
_CORE_RAM = re.compile(
    r"^(?:Commitment v1: |Spot Preemptible |Preemptible )?(?P<family>[A-Z][A-Z0-9]{1,4})"
    r"(?: AMD| Intel| Arm)? (?:Instance )?(?P<resource>Core|Cpu|Ram)\b"
)
_GPU = re.compile(r"\bNvidia (?:Tesla )?(?P<model>[A-Z][A-Z0-9]+(?: 80GB)?) GPU\b")
_MICRO = Decimal("0.000001")
_NANO = Decimal("0.000000001")


def _setting(name: str, default: Any) -> Any:
    return getattr(settings, name, default)


class GcpComputeEngine(Source):
    name = "gcp"
    provider = "Google Cloud"
    complete = True  # the catalog lists every SKU of the service
    vat_included = False
    content_types = ("application/json", "text/json", "text/plain", "application/octet-stream")

    @property
    def default_regions(self) -> tuple[str, ...]:  # type: ignore[override]
        return tuple(_setting("CATALOG_FEED_GCP_REGIONS", REGIONS))

    def url(self, region: str) -> str:
        base = _setting("CATALOG_FEED_GCP_BASE_URL", BASE_URL)
        return f"{base}?currencyCode={TARGET}&pageSize=5000"

    def fetch(
        self,
        url: str,
        dest: Path,
        progress: Callable[[int], None] | None,
        download: Callable = download,
    ) -> Downloaded:
        """Every page from `url` on, one line each, into `dest`; any page refused refuses all."""

        def get(link: str, file: Path) -> Downloaded:
            try:
                return download(_keyed(link), file, content_types=self.content_types)
            except FeedRefused as exc:  # its reasons name the URL: never with the key
                raise FeedRefused([_unkeyed(m, link) for m in exc.reasons]) from None

        def next_link(page: dict[str, Any]) -> str | None:
            token = page.get("nextPageToken")
            return f"{url}{'&' if '?' in url else '?'}pageToken={quote(token)}" if token else None

        return fetch_pages(
            url, dest, progress, max_pages=MAX_PAGES, get=get, check=_page, next_link=next_link
        )

    def read(self, path: Path, region: str, progress: Progress | None = None) -> Reading:
        return _Catalog(path, region, progress).reading()


def _keyed(url: str) -> str:
    """The URL with the API key, for the request only: the key is never stored (the
    import's record and the prices keep the URL without it)."""
    key = _setting("CATALOG_FEED_GCP_API_KEY", "")
    return f"{url}{'&' if '?' in url else '?'}key={quote(key)}" if key else url


def _unkeyed(message: Message, url: str) -> Message:
    """`message` with the keyed URL written back as `url` in its text parameters."""
    keyed = _keyed(url)
    params = {k: v.replace(keyed, url) if isinstance(v, str) else v
              for k, v in message.params.items()}  # fmt: skip
    return Message(message.code, params)


def _page(page: Any, where: str) -> dict[str, Any]:
    """A page is an object with its `skus` list (and a `nextPageToken` unless the last)."""
    if not isinstance(page, dict) or not isinstance(page.get("skus"), list):
        raise FeedRefused([msg("feeds.missing_keys", keys=f"{where}: skus")])
    token = page.get("nextPageToken")
    if token is not None and not isinstance(token, str):
        raise FeedRefused([msg("feeds.missing_keys", keys=f"{where}: nextPageToken")])
    return page


class _Catalog:
    def __init__(self, path: Path, region: str, progress: Progress | None) -> None:
        self.path, self.region, self.progress = path, region, progress
        self.problems = Problems()
        # (usage type, family or GPU model, resource) → (price, currency, day, skuId)
        self.rates: dict[tuple[str, str, str], tuple[Decimal, str, dt.date, str]] = {}

    def reading(self) -> Reading:
        with CountingFile(self.path, self.progress) as file:
            try:
                self._pages(file)
            except ijson.JSONError as exc:
                raise malformed_json(exc, file) from None
        self.problems.refuse_if_any()
        notes: list = []
        records = self._machine_types(notes)
        return Reading(records=iter(records), version="", notes=notes)

    def _pages(self, file: CountingFile) -> None:
        number, token = 0, None
        for document in ijson.items(file, "", multiple_values=True, use_float=False):
            for page in document if isinstance(document, list) else [document]:
                number += 1
                page = _page(page, f"page {number}")
                for index, sku in enumerate(page["skus"]):
                    self._sku(sku, f"page {number}, skus[{index}]")
                    file.records += 1
                token = page.get("nextPageToken")
        if number == 0:
            raise FeedRefused([msg("feeds.missing_keys", keys="skus")])
        if token:
            raise FeedRefused([msg("feeds.gcp_more_pages", token=token[:40])])

    def _sku(self, sku: Any, where: str) -> None:
        if not isinstance(sku, dict) or any(key not in sku for key in SKU_KEYS):
            self.problems.add(msg("feeds.json_missing", where=where, key=", ".join(SKU_KEYS)))
            return
        category = sku["category"]
        if (
            not isinstance(category, dict)
            or "resourceGroup" not in category
            or "usageType" not in category
        ):
            self.problems.add(msg("feeds.json_missing", where=f"{where}.category",
                                  key="resourceGroup, usageType"))  # fmt: skip
            return
        group, usage = category["resourceGroup"], category["usageType"]
        if group not in UNITS or usage not in MODELS:
            return  # N1's own groups, licences, disks, …: not read
        if not isinstance(sku["serviceRegions"], list) or self.region not in sku["serviceRegions"]:
            return
        description = str(sku["description"])
        if group == "GPU":
            found = _GPU.search(description)
            key = found and (usage, found.group("model"), "GPU")
        else:
            found = _CORE_RAM.match(description)
            resource = found and ("RAM" if found.group("resource") == "Ram" else "CPU")
            if found and resource != group:
                return self._bad(where, "category.resourceGroup", group)
            key = found and (usage, found.group("family").lower(), group)
        if not key:
            return  # a custom shape, sole tenancy, another GPU: not a predefined type's rate
        price = self._price(sku, where, UNITS[group])
        if price is None:
            return
        held = self.rates.get(key)
        if held is not None and held[:2] != price[:2]:
            return self._bad(where, "skuId", f"{price[3]} prices {' '.join(key)} as {held[3]} does")
        if held is None:
            self.rates[key] = price

    def _price(self, sku: dict, where: str, unit: str) -> tuple[Decimal, str, dt.date, str] | None:
        infos = sku["pricingInfo"]
        if not isinstance(infos, list) or not infos or not isinstance(infos[-1], dict):
            return self._bad(where, "pricingInfo", json.dumps(infos, default=str)[:100])
        info = infos[-1]
        expression = info.get("pricingExpression")
        if (
            not isinstance(expression, dict)
            or "usageUnit" not in expression
            or "tieredRates" not in expression
        ):
            self.problems.add(msg("feeds.json_missing", where=f"{where}.pricingInfo",
                                  key="pricingExpression.usageUnit, tieredRates"))  # fmt: skip
            return None
        if expression["usageUnit"] != unit:
            return self._bad(where, "usageUnit", expression["usageUnit"])
        first = [t for t in expression["tieredRates"] or [] if isinstance(t, dict)
                 and str(t.get("startUsageAmount")) == "0"]  # fmt: skip
        price = first[0].get("unitPrice") if first else None
        if not isinstance(price, dict) or any(
            k not in price for k in ("currencyCode", "units", "nanos")
        ):
            self.problems.add(msg("feeds.json_missing", where=f"{where}.tieredRates[0].unitPrice",
                                  key="currencyCode, units, nanos"))  # fmt: skip
            return None
        try:
            amount = Decimal(str(price["units"])) + Decimal(int(price["nanos"])) * _NANO
        except (ArithmeticError, TypeError, ValueError):
            return self._bad(where, "unitPrice", json.dumps(price, default=str))
        if not amount.is_finite() or amount < 0:
            return self._bad(where, "unitPrice", json.dumps(price, default=str))
        currency = price["currencyCode"]
        if currency not in CURRENCIES:
            return self._bad(where, "currencyCode", currency)
        # Google writes `effectiveTime`; the sample's IDR SKUs say `EffectiveTime`.
        when = str(info.get("effectiveTime") or info.get("EffectiveTime") or "")
        try:
            day = dt.date.fromisoformat(when[:10])
        except ValueError:
            return self._bad(where, "pricingInfo.effectiveTime", when)
        return amount, currency, day, str(sku["skuId"])

    def _bad(self, where: str, key: str, value: Any) -> None:
        self.problems.add(msg("feeds.json_value", where=where, key=key, value=str(value)))
        return None

    def _machine_types(self, notes: list) -> list[FeedPrice]:
        shapes = gcp_shapes.shapes()
        records: list[FeedPrice] = []
        used: list[gcp_shapes.Shape] = []
        unpriced: set[str] = set()
        factors = _Factors()
        for usage, (model, months) in MODELS.items():
            for shape in shapes.values():
                parts = [self.rates.get((usage, shape.family, "CPU")),
                         self.rates.get((usage, shape.family, "RAM"))]  # fmt: skip
                if shape.gpus:
                    parts.append(self.rates.get((usage, shape.gpu_model, "GPU")))
                if not any(parts[:2]):
                    continue  # the family is not sold this way here
                if not all(parts):
                    unpriced.add(shape.name)
                    continue
                record = self._record(shape, model, months, parts, factors)
                if record is not None:
                    records.append(record)
                    used.append(shape)
        self.problems.refuse_if_any()
        if used:
            notes.append(msg("feeds.gcp_shapes_joined", count=len({s.name for s in used}),
                             source=gcp_shapes.SOURCE,
                             date=max(s.source_date for s in used)))  # fmt: skip
        if unpriced:
            notes.append(msg("feeds.gcp_unpriced", count=len(unpriced),
                             types=", ".join(sorted(unpriced)[:50])))  # fmt: skip
        notes.extend(factors.notes)
        return records

    def _record(
        self,
        shape: gcp_shapes.Shape,
        model: str,
        months: int | None,
        parts: list,
        factors: _Factors,
    ) -> FeedPrice | None:
        currencies = {part[1] for part in parts}
        day = max(part[2] for part in parts)
        total = Decimal(0)
        for (amount, currency, _, _), count in zip(parts, (shape.vcpus, shape.ram_gib, shape.gpus),
                                                   strict=False):  # fmt: skip
            factor = factors.get(currency, day)
            if factor is None:
                self.problems.add(msg("feeds.gcp_no_rate", currency=currency, date=day))
                return None
            total += amount * count * factor
        slug = f"gcp-{shape.name}-{self.region}-{model.replace('_', '-')}"
        slug_validator(slug)
        return FeedPrice(
            slug=slug,
            provider=GcpComputeEngine.provider,
            tier={
                "name": shape.name,
                "region": self.region,
                "pricing_model": model,
                "kind": "cloud_gpu" if shape.gpus else "cloud_vm",
                "vcpus": shape.vcpus,
                "ram_gib": shape.ram_gib,
                "gpus": shape.gpus,
                "gpu_model": shape.gpu_model or None,
                "gpu_mem_gib": shape.gpu_mem_gib,
                "min_term_months": months,
                "retired": False,
            },
            amount=total.quantize(_MICRO, ROUND_HALF_UP),
            unit="hour",
            currency=TARGET,
            effective_from=day,
            source_key="+".join(part[3] for part in parts)
            + (f" ({'/'.join(sorted(currencies))} at ECB)" if currencies != {TARGET} else ""),
            vat_included=False,
        )


class _Factors:
    """Currency → USD per unit on a day, from the catalog's ECB rows (EUR-based); each
    conversion used is said once in the notes."""

    def __init__(self) -> None:
        self.cache: dict[tuple[str, dt.date], Decimal | None] = {}
        self.notes: list = []

    def get(self, currency: str, day: dt.date) -> Decimal | None:
        if currency == TARGET:
            return Decimal(1)
        if (currency, day) not in self.cache:
            self.cache[(currency, day)] = self._factor(currency, day)
        return self.cache[(currency, day)]

    def _factor(self, currency: str, day: dt.date) -> Decimal | None:
        usd = (ExchangeRate.objects.filter(from_currency="EUR", to_currency=TARGET, date__lte=day)
               .order_by("-date").first())  # fmt: skip
        if usd is None:
            return None
        if currency == "EUR":
            other_rate = Decimal(1)
        else:
            other = ExchangeRate.objects.filter(from_currency="EUR", to_currency=currency,
                                                date=usd.date).first()  # fmt: skip
            if other is None or not other.rate:
                return None
            other_rate = other.rate
        self.notes.append(msg("feeds.gcp_converted", currency=currency, target=TARGET,
                              date=usd.date, rate=other_rate, target_rate=usd.rate))  # fmt: skip
        return usd.rate / other_rate
