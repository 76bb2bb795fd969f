"""Azure Retail Prices API: Virtual Machines of one region, paged (docs/formats.md §2).

Where: `https://prices.azure.com/api/retail/prices` with the OData filter
`serviceName eq 'Virtual Machines' and armRegionName eq '<region>'`; each page holds up
to 1,000 `Items` and a `NextPageLink` (null on the last page). `fetch` follows the links
and writes every page, one compact JSON document a line, into one file; `read` reads
that file, a single saved page, or a JSON array of pages, one page at a time.

What becomes a tier: Linux (a `productName` without "Windows"), `type` "Consumption"
(on demand, or spot where `skuName`/`meterName` says "Spot") and "Reservation" (1 or 3
years). DevTestConsumption, Low Priority, closed rows (an `effectiveEndDate` in the
past) and other units than "1 Hour" are left out. A reservation's `retailPrice` is the
price of the whole term: the hourly price is that divided by 8,760 hours a year, the term in
`min_term_months`. `effective_from` is the row's `effectiveStartDate`; of several rows
for one size and purchase option the newest already in force is kept. The price's
`source_key` is `meterId/skuId`. A pay-as-you-go row's `savingsPlan` terms (preview API
only) become savings plan tiers (azure_savings_plans.py).

The API has no vCPU or memory figures: they come from `catalog/data/azure_vm_sizes.csv`
(a dated Microsoft Learn table); a size not listed there keeps its specs unknown, and
the import's notes say which sizes those are.
"""

from __future__ import annotations

import csv
import datetime as dt
import re
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

import ijson

from catalog.feeds import config
from catalog.feeds.azure_savings_plans import savings_plan_prices
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
)
from catalog.feeds.download import Downloaded, download
from catalog.feeds.paged import fetch_pages
from catalog.feeds.plausible import SLUG_MAX, price_messages
from catalog.models import CURRENCIES, slug_validator
from common.django import clock
from common.messages import msg

SIZES_FILE = Path(__file__).resolve().parents[1] / "data" / "azure_vm_sizes.csv"
SIZES_SOURCE = "Microsoft Learn, VM size series pages"
ITEM_KEYS = ("armSkuName", "armRegionName", "retailPrice", "currencyCode",
             "effectiveStartDate", "type", "productName", "skuName", "meterName", "meterId",
             "serviceName", "unitOfMeasure")  # fmt: skip
YEARS = {"1 Year": 1, "3 Years": 3}
HOURS_PER_YEAR = 8760
API_VERSION = "2023-01-01-preview"
_MICRO = Decimal("0.000001")


class AzureRetail(Source):
    name = "azure"
    provider = "Microsoft Azure"
    complete = True  # the filter asks for every VM meter of the region
    vat_included = False  # retail list prices, before tax
    content_types = ("application/json", "text/json", "text/plain", "application/octet-stream")

    @property
    def default_regions(self) -> tuple[str, ...]:  # type: ignore[override]
        return config.azure_regions()

    def url(self, region: str) -> str:
        odata = f"serviceName eq 'Virtual Machines' and armRegionName eq '{region}'"
        # The preview API version adds each row's `savingsPlan` terms (docs/formats.md
        # §9).
        return f"{config.azure_base_url()}?$filter={quote(odata)}&api-version={API_VERSION}"

    def fetch(
        self,
        url: str,
        dest: Path,
        progress: Callable[[int], None] | None,
        download: Callable = download,
    ) -> Downloaded:
        """Every page from `url` on, one line each, into `dest`; any page refused refuses all."""
        return fetch_pages(
            url, dest, progress, max_pages=config.azure_max_pages(),
            get=lambda link, file: download(link, file, content_types=self.content_types),
            check=_page, next_link=lambda page: page["NextPageLink"],
        )  # fmt: skip

    def read(self, path: Path, region: str, progress: Progress | None = None) -> Reading:
        return _Pages(path, region, progress).reading()


FORMATS = ("the Azure Retail Prices API's JSON pages (one page, an array of pages, or one "
           "page a line)")  # fmt: skip


def _kind(document: Any) -> str:
    if isinstance(document, dict):
        return "a JSON object with the keys " + ", ".join(sorted(map(str, document))[:10])
    return f"a JSON {type(document).__name__}"


def _page(page: Any, where: str) -> dict[str, Any]:
    """A page must be an object with its `Items` list and its `NextPageLink` (null or text)."""
    if not isinstance(page, dict) or "Items" not in page or "NextPageLink" not in page:
        raise FeedRefused([msg("feeds.missing_keys", keys=f"{where}: Items, NextPageLink")])
    link = page["NextPageLink"]
    if not isinstance(page["Items"], list) or not (link is None or isinstance(link, str)):
        raise FeedRefused([msg("feeds.missing_keys", keys=f"{where}: Items, NextPageLink")])
    return page


@cache
def vm_sizes() -> dict[str, tuple[int, Decimal, str]]:
    """armSkuName → (vCPUs, RAM GiB, date of the source page), from the sized table."""
    with SIZES_FILE.open(encoding="utf-8", newline="") as file:
        rows = csv.DictReader(line for line in file if not line.startswith("#"))
        return {
            row["arm_sku_name"]: (int(row["vcpus"]), Decimal(row["ram_gib"]), row["source_date"])
            for row in rows
        }


@cache
def vm_sizes_refreshed() -> dt.date | None:
    """When the sized table was last written (its header's "Refreshed YYYY-MM-DD")."""
    with SIZES_FILE.open(encoding="utf-8") as file:
        for line in file:
            if not line.startswith("#"):
                break
            if found := re.search(r"Refreshed (\d{4}-\d{2}-\d{2})", line):
                return dt.date.fromisoformat(found.group(1))
    return None


def slug_for(arm_sku: str, region: str, model: str, system: str = "linux") -> str:
    """Standard_D2s_v3, eastus, on_demand → azure-standard-d2s-v3-eastus-on-demand (a
    Windows price: …-on-demand-windows)."""
    suffix = "" if system == "linux" else f"-{system}"
    return f"azure-{arm_sku}-{region}-{model}{suffix}".lower().replace("_", "-")


SYSTEMS = ("linux", "windows")


def _system(item: dict[str, Any]) -> str:
    """A VM meter's operating system: Windows where its product says so, else Linux."""
    return "windows" if "Windows" in str(item["productName"]) else "linux"


class _Pages:
    def __init__(self, path: Path, region: str, progress: Progress | None) -> None:
        self.path = path
        self.region = region
        self.progress = progress
        self.problems = Problems()
        self.today = clock.today()
        # (slug) → (effective_from, FeedPrice): the newest row in force per size and option.
        self.chosen: dict[str, tuple[dt.date, FeedPrice]] = {}
        self.rivals: dict[str, list[FeedPrice]] = {}  # slug → other prices of the same day
        self.notes: list = []
        self.hosts = 0  # Dedicated Host meters left out
        # Azure lists Linux and Windows VM prices (other systems are licence meters).
        self.systems = {name for name in config.operating_systems() if name in SYSTEMS}

    def reading(self) -> Reading:
        with CountingFile(self.path, self.progress) as file:
            try:
                self._pages(file)
            except ijson.JSONError as exc:
                raise malformed_json(exc, file) from None
        self.problems.refuse_if_any()
        records = [price for _, price in self.chosen.values()]
        records += [rival for rivals in self.rivals.values() for rival in rivals]
        self._spec_notes(records)
        if self.hosts:
            self.notes.append(msg("feeds.azure_hosts_left_out", count=self.hosts))
        return Reading(records=iter(records), version="", notes=self.notes)

    def _pages(self, file: CountingFile) -> None:
        last_link: str | None = None
        number = 0
        for document in ijson.items(file, "", multiple_values=True, use_float=False):
            pages = document if isinstance(document, list) else [document]
            for page in pages:
                number += 1
                if number == 1 and not (
                    isinstance(page, dict) and {"Items", "NextPageLink"} & set(page)
                ):
                    raise FeedRefused([msg("feeds.unsupported_format", source="azure",
                                           found=_kind(page), formats=FORMATS)])  # fmt: skip
                page = _page(page, f"page {number}")
                for index, item in enumerate(page["Items"]):
                    self._item(item, f"page {number}, Items[{index}]")
                    file.records += 1
                last_link = page["NextPageLink"]
        if number == 0:
            raise FeedRefused([msg("feeds.missing_keys", keys="Items, NextPageLink")])
        if last_link:
            raise FeedRefused([msg("feeds.azure_more_pages", url=last_link)])

    def _item(self, item: Any, where: str) -> None:
        if not isinstance(item, dict):
            self.problems.add(msg("feeds.json_missing", where=where, key=", ".join(ITEM_KEYS)))
            return
        missing = [key for key in ITEM_KEYS if key not in item]
        if missing:
            self.problems.add(msg("feeds.json_missing", where=where, key=", ".join(missing)))
            return
        if not self._wanted(item):
            return
        if item["armRegionName"] != self.region:
            self.problems.add(msg("feeds.wrong_region", found=str(item["armRegionName"]),
                                  expected=self.region))  # fmt: skip
            return
        price = self._price(item, where)
        if price is None:
            return
        for offer in [price, *savings_plan_prices(item, price, where, self.problems)]:
            held = self.chosen.get(offer.slug)
            if held is None or _better(offer.effective_from, held[0], self.today):
                self.chosen[offer.slug] = (offer.effective_from, offer)
                self.rivals.pop(offer.slug, None)
            elif offer.effective_from == held[0] and _terms(offer) != _terms(held[1]):
                # Two meters price one size and option from the same day: which one holds
                # is not for us to guess. Both go on, and staging refuses both.
                self.rivals.setdefault(offer.slug, []).append(offer)

    def _wanted(self, item: dict[str, Any]) -> bool:
        names = f"{item['skuName']} {item['meterName']}"
        if item["serviceName"] != "Virtual Machines" or item["type"] not in (
            "Consumption",
            "Reservation",
        ):
            return False  # DevTestConsumption is another price list
        if "Low Priority" in names:
            return False
        if _system(item) not in self.systems:
            return False
        if "Dedicated Host" in str(item["productName"]):  # a whole host, not a VM size
            self.hosts += 1
            return False
        if item["unitOfMeasure"] != "1 Hour":
            return False
        end = _day(str(item.get("effectiveEndDate") or ""))
        return end is None or end >= self.today

    def _price(self, item: dict[str, Any], where: str) -> FeedPrice | None:
        day = _day(str(item["effectiveStartDate"]))
        amount = non_negative_decimal(item["retailPrice"])
        currency = item["currencyCode"]
        if day is None:
            return self._bad(where, "effectiveStartDate", item["effectiveStartDate"])
        if amount is None:
            return self._bad(where, "retailPrice", item["retailPrice"])
        if currency not in CURRENCIES:
            return self._bad(where, "currencyCode", currency)
        months = None
        if item["type"] == "Reservation":
            years = YEARS.get(str(item.get("reservationTerm", "")))
            if years is None:
                return self._bad(where, "reservationTerm", item.get("reservationTerm"))
            # The reservation's price is for the whole term (docs/formats.md §2).
            amount = amount / (HOURS_PER_YEAR * years)
            model, months = f"reserved_{years}y", 12 * years
        elif "Spot" in f"{item['skuName']} {item['meterName']}":
            model = "spot"
        else:
            model = "on_demand"
        if problems := price_messages(where, amount, "hour", currency):
            for problem in problems:
                self.problems.add(problem)
            return None
        arm_sku = str(item["armSkuName"])
        system = _system(item)
        slug = slug_for(arm_sku, self.region, model, system)
        try:
            slug_validator(slug)
        except Exception:
            return self._bad(where, "armSkuName", arm_sku[:80])
        if len(slug) > SLUG_MAX:
            self.problems.add(msg("feeds.key_too_long", where=where, key="armSkuName",
                                  length=len(arm_sku), limit=SLUG_MAX))  # fmt: skip
            return None
        return FeedPrice(
            slug=slug,
            provider=AzureRetail.provider,
            tier={**_tier(arm_sku, self.region, model, months), "operating_system": system},
            amount=amount.quantize(_MICRO, ROUND_HALF_UP),
            unit="hour",
            currency=currency,
            effective_from=day,
            source_key=f"{item['meterId']}/{item.get('skuId', '')}"[:200],
            vat_included=False,
        )

    def _bad(self, where: str, key: str, value: Any) -> None:
        self.problems.add(msg("feeds.json_value", where=where, key=key, value=str(value)))
        return None

    def _spec_notes(self, records: list[FeedPrice]) -> None:
        sizes = vm_sizes()
        names = {record.tier["name"] for record in records}
        known = sorted(name for name in names if name in sizes)
        unknown = sorted(name for name in names if name not in sizes)
        if known:
            as_of = max(dt.date.fromisoformat(sizes[name][2]) for name in known)
            self.notes.append(msg("feeds.azure_specs_joined", count=len(known),
                                  source=SIZES_SOURCE, date=as_of))  # fmt: skip
        if unknown:
            self.notes.append(msg("feeds.azure_specs_unknown", count=len(unknown),
                                  sizes=", ".join(unknown[:50])))  # fmt: skip


def _tier(arm_sku: str, region: str, model: str, months: int | None) -> dict[str, Any]:
    vcpus, ram, _ = vm_sizes().get(arm_sku, (None, None, ""))
    return {
        "name": arm_sku,
        "region": region,
        "pricing_model": model,
        "kind": "cloud_vm",
        "vcpus": vcpus,  # None: not in the sized table, unknown (never guessed)
        "ram_gib": ram,
        "min_term_months": months,
        "retired": False,
    }


def _terms(price: FeedPrice) -> tuple:
    return (price.amount, price.setup_fee, price.currency)


def _better(day: dt.date, held: dt.date, today: dt.date) -> bool:
    """Is a row from `day` a better pick than one from `held`: the newest in force wins,
    and a row in force wins over one that starts later."""
    if (day <= today) != (held <= today):
        return day <= today
    return day > held if day <= today else day < held


def _day(text: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text[:10]) if len(text) >= 10 else None
    except ValueError:
        return None
