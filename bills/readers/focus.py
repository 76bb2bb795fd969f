"""FOCUS 1.0-1.4 (the FinOps Open Cost and Usage Specification), CSV, gzip CSV or Parquet.

1.0-1.2 name the provider ProviderName; 1.3 adds ServiceProviderName (ProviderName
deprecated); 1.4 drops ProviderName. Both are read. The instance type is not a FOCUS
1.0 column: it is taken from x_InstanceType where given, else from the AWS charge
description ("per On Demand Linux c5.2xlarge
Instance Hour"), else left empty. Pure: no Django."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from bills.readers import columns as c
from bills.readers.quality import judged

KIND = "focus"
LABEL = "FOCUS"
SIGNATURE = {"BilledCost", "ChargePeriodStart"}
REQUIRED = [
    "BilledCost",
    "EffectiveCost",
    "ChargePeriodStart",
    "BillingCurrency",
    "ServiceCategory",
]
PROVIDER = ("ServiceProviderName", "ProviderName")
# Columns that only later versions carry (the version is the newest whose columns appear).
SINCE = [
    ("1.4", {"ServiceProviderName"}, {"ProviderName"}),
    ("1.3", {"ServiceProviderName"}, set()),
    ("1.2", {"BillingAccountType", "InvoiceId", "PricingCurrency"}, set()),
    ("1.1", {"ServiceSubcategory", "CapacityReservationId", "SkuMeter"}, set()),
]
INSTANCE = (
    r"(?:per|On Demand|Reserved|Spot)[^,]*?\b(?P<t>[a-z][a-z0-9-]*\d[a-z0-9-]*\.[0-9]*[a-z0-9]+)\b"
)


def claims(header: list[str]) -> bool:
    return set(header) >= SIGNATURE


def version(header: list[str]) -> str | None:
    """The FOCUS version a header is of, or None: a required column of every version missing."""
    names = set(header)
    if missing(header):
        return None
    for name, present, absent in SINCE:
        if names & present and not names & absent:
            return name
    return "1.0"


def missing(header: list[str]) -> list[str]:
    names = set(header)
    gone = [name for name in REQUIRED if name not in names]
    if not names & set(PROVIDER):
        gone.append("ProviderName|ServiceProviderName")
    return gone


WANTED = [
    "BilledCost", "EffectiveCost", "ListCost", "ChargePeriodStart", "BillingCurrency",
    "ServiceCategory", "ServiceName", "ProviderName", "ServiceProviderName", "BillingAccountId",
    "SubAccountId", "RegionId", "RegionName", "SkuId", "PricingCategory", "ChargeCategory",
    "ChargeClass", "ConsumedQuantity", "ConsumedUnit", "PricingQuantity", "PricingUnit",
    "ChargeDescription", "x_InstanceType", "BillingPeriodStart",
]  # fmt: skip


def wanted(header: list[str]) -> list[str]:
    return [name for name in WANTED if name in header]


def _from_description(described: pa.Array) -> pa.Array:
    """The instance type in AWS's charge descriptions: the pattern is matched once per
    distinct description (a month repeats a few thousand of them), not once per row."""
    if not len(described):
        return pa.nulls(0, pa.string())
    encoded = pc.dictionary_encode(pc.fill_null(described, ""))
    found = pc.extract_regex(encoded.dictionary, INSTANCE)
    types = pc.struct_field(found, [0]) if len(found) else pa.nulls(0, pa.string())
    return pc.take(types, encoded.indices)


def normalise(batch: pa.RecordBatch, file: str, first: int) -> pa.Table:
    t = lambda name: c.text(batch, name)  # noqa: E731
    n = batch.num_rows
    provider = pc.coalesce(t("ServiceProviderName"), t("ProviderName"))
    instance = pc.coalesce(t("x_InstanceType"), _from_description(t("ChargeDescription")))
    quantity = c.number(batch, "ConsumedQuantity", file, first)
    quantity = pc.coalesce(quantity, c.number(batch, "PricingQuantity", file, first))
    unit = pc.coalesce(t("ConsumedUnit"), t("PricingUnit"))
    billed = c.number(batch, "BilledCost", file, first)
    effective = c.number(batch, "EffectiveCost", file, first)
    listed = c.number(batch, "ListCost", file, first)
    charge_category = t("ChargeCategory")
    pricing = t("PricingCategory")
    return c.assemble(
        {
            "day": c.day(batch, "ChargePeriodStart", file, first),
            "provider": provider,
            "billing_account": t("BillingAccountId"),
            "account": pc.coalesce(t("SubAccountId"), t("BillingAccountId")),
            "region": pc.coalesce(t("RegionId"), t("RegionName")),
            "service_category": t("ServiceCategory"),
            "service_name": t("ServiceName"),
            "sku": t("SkuId"),
            "instance_type": instance,
            "pricing_category": pricing,
            "charge_category": charge_category,
            "unit": unit,
            "currency": t("BillingCurrency"),
            "billed": pc.fill_null(billed, 0.0),
            "effective": pc.fill_null(effective, 0.0),
            "list": pc.fill_null(listed, 0.0),
            "quantity": pc.fill_null(quantity, 0.0),
            **judged(
                billed, effective, listed, charge_category, pricing, t("ChargeClass"), quantity
            ),
            "line": pa.array(range(first, first + n), pa.int64()),
        }
    )
