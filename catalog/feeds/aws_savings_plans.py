"""AWS Savings Plans price list: Compute and EC2 Instance plans as pricing models of EC2 tiers.

Where (docs/formats.md §8; the sample's savings-plans/README.md): the region index
`…/savingsPlan/v1.0/aws/AWSComputeSavingsPlan/current/region_index.json` lists
`regions[] {regionCode, versionUrl}` (relative); each region's file has `products[]` (one
per plan: `productFamily` ComputeSavingsPlans / EC2InstanceSavingsPlans, `usageType`,
`attributes.purchaseTerm` "1yr"/"3yr", `attributes.purchaseOption`) and
`terms.savingsPlan[]` (one per plan SKU: `leaseContractLength.duration` in years and
`rates[]` of `discountedUsageType`, `discountedOperation`, `discountedServiceCode`,
`rateCode`, `discountedRate.price`). The file is read streaming (ijson), one product or
term at a time.

The join: a rate applies to the EC2 usage it names. The catalog's AWS tiers are Linux,
shared tenancy, so the rates kept are AmazonEC2's `[PREFIX-]BoxUsage:<type>` with the
operation `RunInstances` (Linux, no licence). A rate that names no operation (the ligoj
sample's EC2 rates) is joined by its usage type alone and the import's notes count them.
Each kept rate becomes a price of the tier `aws-<type>-<region>-savings-plan-<plan>-<term>-
<option>` whose specs are those of the EC2 feed's on-demand tier of the same type and
region already in the catalog; a rate whose type has no such tier is left out and
counted in the notes (nothing is made up: the EC2 feed of the region comes first). A
tier with no rate in the file gets no savings plan price.

AWS prices the payment option into the rate (an effective hourly rate). Kept like the
reservations: no upfront = the rate per hour, no set-up fee; all upfront = the whole term
paid as the set-up fee (rate x 8,760 h x years), 0 per hour; partial upfront = half of the
term upfront, half per hour (AWS's least upfront share: CreateSavingsPlan's
`upfrontPaymentAmount` is "between 50 and 99 percent of the total value"). In each case
set-up fee spread over the term + hourly = the rate. The term is `min_term_months`,
`effective_from` the file's `publicationDate`, the price's `source_key` AWS's `rateCode`.

Every product and term is checked: a renamed or missing key, a rate without a price, a
term whose plan has no product (or a product with no term), a file cut short: the file
is refused, naming each, and nothing is written.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable, Iterator
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import ijson
from django.core.exceptions import ValidationError

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
from catalog.feeds.config import aws_base_url, aws_regions
from catalog.models import CURRENCIES, Tier, slug_validator
from common.messages import msg

INDEX_PATH = "/savingsPlan/v1.0/aws/AWSComputeSavingsPlan/current/region_index.json"
PLANS = {"ComputeSavingsPlans": "compute", "EC2InstanceSavingsPlans": "instance"}
YEARS = {"1yr": 1, "3yr": 3}
OPTIONS = {"No Upfront": "no_upfront", "Partial Upfront": "partial_upfront",
           "All Upfront": "all_upfront"}  # fmt: skip
PRODUCT_KEYS = ("sku", "productFamily", "usageType", "attributes")
TERM_KEYS = ("sku", "leaseContractLength", "rates")
RATE_KEYS = ("discountedUsageType", "discountedServiceCode", "rateCode", "discountedRate")
LINUX = "RunInstances"
HOURS_PER_YEAR = 8760
# A Linux shared-tenancy instance hour: "BoxUsage:c5.large" (us-east-1), "EUW1-BoxUsage:c1.medium".
_BOX_USAGE = re.compile(r"^(?:[A-Z0-9]+-)?BoxUsage:(?P<type>[a-z0-9][a-z0-9.-]*)$")
# The specs a savings plan tier takes from the EC2 on-demand tier of its type and region.
SPEC_FIELDS = ("name", "kind", "vcpus", "ram_gib", "cpu_model", "cpu_flags", "storage_type",
               "gpus", "gpu_mem_gib", "network")  # fmt: skip
_MICRO = Decimal("0.000001")
_CENT = Decimal("0.01")


class AwsSavingsPlans(Source):
    name = "aws-savings-plans"
    provider = "AWS"
    complete = True  # a region's file lists every plan of the region
    vat_included = False
    content_types = ("application/json", "application/octet-stream", "binary/octet-stream",
                     "text/plain")  # fmt: skip

    @property
    def default_regions(self) -> tuple[str, ...]:  # type: ignore[override]
        return aws_regions()

    def url(self, region: str) -> str:
        return f"{aws_base_url()}{INDEX_PATH.rsplit('/', 1)[0]}/{region}/index.json"

    def resolve_urls(self, regions: list[str], fetch: Callable[[str], Path]) -> dict[str, str]:
        index = region_index(fetch(aws_base_url() + INDEX_PATH))
        return regions_in_index(index, regions, self.name)

    def read(self, path: Path, region: str, progress: Progress | None = None) -> Reading:
        return _PlanFile(path, region, progress, ec2_tiers(region)).reading()

    def scope_tiers(self, region: str) -> dict[str, Any]:
        """Only the savings plan tiers: the EC2 feed's tiers are not this file's to retire."""
        return {"provider__name": self.provider, "region": region,
                "pricing_model__startswith": "savings_plan_"}  # fmt: skip


def region_index(path: Path) -> dict[str, str]:
    """Region code → absolute URL of its current savings plan file."""
    base = aws_base_url()
    try:
        document = json.loads(path.read_bytes())
        urls = {}
        for entry in document["regions"]:
            url = entry["versionUrl"]
            urls[entry["regionCode"]] = base + url if url.startswith("/") else url
        return urls
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise FeedRefused([msg("feeds.missing_keys", keys=f"region index: {exc}")]) from None


def ec2_tiers(region: str) -> dict[str, dict[str, Any]]:
    """Instance type → specs of the EC2 feed's on-demand tiers of `region` in the catalog."""
    rows = Tier.objects.filter(
        provider__name=AwsSavingsPlans.provider, region=region, pricing_model="on_demand",
        retired=False,
    ).values(*SPEC_FIELDS)  # fmt: skip
    return {row["name"]: row for row in rows}


def pricing_model(plan: str, years: int, option: str) -> str:
    """compute, 1, no_upfront → savings_plan_compute_1y_no_upfront."""
    return f"savings_plan_{plan}_{years}y_{option}"


def split(rate: Decimal, years: int, option: str) -> tuple[Decimal, Decimal]:
    """(hourly, set-up fee) of an effective hourly `rate` paid by `option` over `years`."""
    term = rate * HOURS_PER_YEAR * years
    if option == "all_upfront":
        return Decimal(0), term.quantize(_CENT, ROUND_HALF_UP)
    if option == "partial_upfront":
        return (rate / 2).quantize(_MICRO, ROUND_HALF_UP), (term / 2).quantize(_CENT, ROUND_HALF_UP)
    return rate.quantize(_MICRO, ROUND_HALF_UP), Decimal(0)


class _PlanFile:
    def __init__(
        self, path: Path, region: str, progress: Progress | None, tiers: dict[str, dict]
    ) -> None:
        self.path, self.region, self.progress, self.tiers = path, region, progress, tiers
        self.problems = Problems()
        self.version = ""
        self.published: dt.date | None = None
        self.plans: dict[str, tuple[str, int, str]] = {}  # product SKU → (plan, years, option)
        self.termed: set[str] = set()
        self.unjoined: set[str] = set()
        self.no_operation = 0

    def reading(self) -> Reading:
        chosen: dict[str, tuple[bool, FeedPrice]] = {}  # slug → (operation named, price)
        with CountingFile(self.path, self.progress) as file:
            try:
                self._header(file)
                file.rewind()
                for index, product in enumerate(
                    ijson.items(file, "products.item", use_float=False)
                ):
                    self._product(product, f"products[{index}]")
                file.rewind()
                items = ijson.items(file, "terms.savingsPlan.item", use_float=False)
                for index, term in enumerate(items):
                    for named, price in self._term(term, f"terms.savingsPlan[{index}]"):
                        held = chosen.get(price.slug)
                        if held is None or (named and not held[0]):
                            chosen[price.slug] = (named, price)
                        file.records += 1
            except ijson.JSONError as exc:
                raise malformed_json(exc, file) from None
        for sku in sorted(set(self.plans) - self.termed):
            self.problems.add(msg("feeds.json_missing", where=f"product {sku}",
                                  key="terms.savingsPlan"))  # fmt: skip
        self.problems.refuse_if_any()
        notes = []
        if self.no_operation:
            notes.append(msg("feeds.sp_no_operation", count=self.no_operation))
        if self.unjoined:
            notes.append(msg("feeds.sp_unjoined", count=len(self.unjoined),
                             usage=", ".join(sorted(self.unjoined)[:50])))  # fmt: skip
        return Reading(records=iter([p for _, p in chosen.values()]), version=self.version,
                       notes=notes)  # fmt: skip

    def _header(self, file: CountingFile) -> None:
        header: dict[str, str] = {}
        for prefix, event, value in ijson.parse(file, use_float=False):
            if prefix in ("version", "publicationDate") and event == "string":
                header[prefix] = value
            if prefix == "products" or len(header) == 2:
                break
        day = _day(header.get("publicationDate", ""))
        if day is None or "version" not in header:
            raise FeedRefused([msg("feeds.missing_keys", keys="version, publicationDate")])
        self.version, self.published = header["version"], day

    def _product(self, product: Any, where: str) -> None:
        if not isinstance(product, dict) or any(k not in product for k in PRODUCT_KEYS):
            self.problems.add(msg("feeds.json_missing", where=where, key=", ".join(PRODUCT_KEYS)))
            return
        plan = PLANS.get(product["productFamily"])
        if plan is None:
            return  # another family of the same offer (none kept here)
        attributes = product["attributes"]
        years = YEARS.get(str(attributes.get("purchaseTerm")))
        option = OPTIONS.get(str(attributes.get("purchaseOption")))
        if years is None:
            return self._bad(where, "attributes.purchaseTerm", attributes.get("purchaseTerm"))
        if option is None:
            return self._bad(where, "attributes.purchaseOption", attributes.get("purchaseOption"))
        self.plans[str(product["sku"])] = (plan, years, option)

    def _term(self, term: Any, where: str) -> Iterator[tuple[bool, FeedPrice]]:
        if not isinstance(term, dict) or any(k not in term for k in TERM_KEYS):
            self.problems.add(msg("feeds.json_missing", where=where, key=", ".join(TERM_KEYS)))
            return
        sku = str(term["sku"])
        if sku not in self.plans:
            self._bad(where, "sku", sku)
            return
        self.termed.add(sku)
        plan, years, option = self.plans[sku]
        duration = term["leaseContractLength"]
        if not isinstance(duration, dict) or str(duration.get("duration")) != str(years):
            self._bad(where, "leaseContractLength", json.dumps(duration, default=str))
            return
        if not isinstance(term["rates"], list):
            self._bad(where, "rates", type(term["rates"]).__name__)
            return
        for index, rate in enumerate(term["rates"]):
            found = self._rate(rate, f"{where}.rates[{index}]", plan, years, option)
            if found is not None:
                yield found

    def _rate(
        self, rate: Any, where: str, plan: str, years: int, option: str
    ) -> tuple[bool, FeedPrice] | None:
        if not isinstance(rate, dict) or any(k not in rate for k in RATE_KEYS):
            self.problems.add(msg("feeds.json_missing", where=where, key=", ".join(RATE_KEYS)))
            return None
        price = rate["discountedRate"]
        amount = non_negative_decimal(price.get("price")) if isinstance(price, dict) else None
        if amount is None:
            return self._bad(where, "discountedRate.price", json.dumps(price, default=str))
        currency = price.get("currency", "USD")
        if currency not in CURRENCIES:
            return self._bad(where, "discountedRate.currency", currency)
        if rate["discountedServiceCode"] != "AmazonEC2":
            return None
        usage = _BOX_USAGE.match(str(rate["discountedUsageType"]))
        operation = rate.get("discountedOperation")
        if usage is None or operation not in (None, LINUX):
            return None  # dedicated, another OS, unused reservations: not the catalog's tiers
        if operation is None:
            self.no_operation += 1
        name = usage.group("type")
        spec = self.tiers.get(name)
        if spec is None:
            self.unjoined.add(str(rate["discountedUsageType"]))
            return None
        model = pricing_model(plan, years, option)
        slug = f"aws-{name}-{self.region}-{model.replace('_', '-')}".lower()
        try:
            slug_validator(slug)
        except ValidationError:
            return self._bad(where, "discountedUsageType", rate["discountedUsageType"])
        hourly, fee = split(amount, years, option)
        return (
            operation is not None,
            FeedPrice(
                slug=slug,
                provider=AwsSavingsPlans.provider,
                tier={
                    **spec,
                    "region": self.region,
                    "pricing_model": model,
                    "min_term_months": 12 * years,
                    "retired": False,
                },
                amount=hourly,
                unit="hour",
                currency=currency,
                effective_from=self.published,
                source_key=str(rate["rateCode"])[:200],
                setup_fee=fee,
                vat_included=False,
            ),
        )

    def _bad(self, where: str, key: str, value: Any) -> None:
        self.problems.add(msg("feeds.json_value", where=where, key=key, value=str(value)))
        return None


def _day(text: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text[:10]) if len(text) >= 10 else None
    except ValueError:
        return None
