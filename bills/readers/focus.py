"""FOCUS 1.0-1.4 (the FinOps Open Cost and Usage Specification), CSV, gzip CSV or Parquet.

1.0-1.2 name the provider ProviderName; 1.3 adds ServiceProviderName (ProviderName
deprecated); 1.4 drops ProviderName. Both are read. The instance type is not a FOCUS
1.0 column: it is taken from x_InstanceType where given, else from the AWS charge
description ("per On Demand Linux c5.2xlarge
Instance Hour"), else left empty. Pure: no Django."""

from __future__ import annotations

import numpy as np
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
    "ChargeDescription", "x_InstanceType", "BillingPeriodStart", "CommitmentDiscountStatus",
    "ContractedCost", "ListUnitPrice", "ResourceId", "Tags",
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


def status(given: pa.Array, charge: pa.Array) -> pa.Array:
    """Used/Unused as CommitmentDiscountStatus gives it (usage rows); else null."""
    usage = pc.fill_null(pc.equal(charge, "Usage"), False)
    known = pc.is_in(given, value_set=pa.array([c.USED, c.UNUSED]))
    return pc.if_else(pc.and_(usage, pc.fill_null(known, False)), given, None)


def eligible(
    listed: pa.Array,
    unit_price: pa.Array,
    consumed: pa.Array,
    resource: pa.Array,
    period: pa.Array,
    usage: pa.Array,
    committed: pa.Array,
) -> pa.Array:
    """The list cost each usage row adds to the usage a commitment could cover: its own
    list cost, except where one resource's charge period has committed and on-demand rows
    that all state the same ConsumedQuantity (each row names the whole resource-hour, as
    the spec's flexibility example does: the committed row the hour's full list cost, the
    on-demand row the rest): there the hour counts once, at ListUnitPrice x
    ConsumedQuantity, on its first row. Rows of one resource-hour in different batches
    (8 MiB of text each) are each taken at their own list cost."""
    n = len(listed)
    base = pc.if_else(usage, pc.fill_null(listed, 0.0), 0.0)
    whole = pc.multiply(unit_price, consumed)
    grouped = pc.and_(pc.and_(usage, pc.is_valid(resource)), pc.is_valid(whole))
    if not n or not pc.any(pc.and_(grouped, committed)).as_py():
        return base
    rows = pa.table({
        "r": resource, "p": pc.fill_null(period, ""), "w": whole, "q": consumed,
        "c": pc.cast(committed, pa.int8()), "i": pa.array(np.arange(n)),
    }).filter(grouped)  # fmt: skip
    groups = rows.group_by(["r", "p"], use_threads=False).aggregate([
        ("w", "max"), ("q", "min"), ("q", "max"), ("c", "min"), ("c", "max"), ("i", "min"),
        ("i", "count"),
    ])  # fmt: skip
    mixed = pc.and_(pc.equal(groups["c_min"], 0), pc.equal(groups["c_max"], 1))
    same = pc.equal(groups["q_min"], groups["q_max"])
    once = groups.filter(pc.and_(mixed, same))
    if not once.num_rows:
        return base
    members = rows.join(once.select(["r", "p"]), ["r", "p"], join_type="inner")
    out = np.asarray(base.to_numpy(zero_copy_only=False), dtype=np.float64).copy()
    out[np.asarray(members["i"])] = 0.0
    out[np.asarray(once["i_min"])] = np.asarray(once["w_max"])
    return pa.array(out, pa.float64())


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
    given = status(t("CommitmentDiscountStatus"), charge_category)
    usage = pc.fill_null(pc.equal(charge_category, "Usage"), False)
    unused = pc.fill_null(pc.equal(given, c.UNUSED), False)
    committed = pc.fill_null(pc.equal(pricing, "Committed"), False)
    contracted = c.number(batch, "ContractedCost", file, first)
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
            "commitment_status": given,
            "tags": c.tags(t("Tags")),
            "billed": pc.fill_null(billed, 0.0),
            "effective": pc.fill_null(effective, 0.0),
            "list": pc.fill_null(listed, 0.0),
            "quantity": pc.fill_null(quantity, 0.0),
            "contracted": contracted,
            "eligible": eligible(
                listed,
                c.number(batch, "ListUnitPrice", file, first),
                quantity,
                t("ResourceId"),
                t("ChargePeriodStart"),
                pc.and_(usage, pc.invert(unused)),
                committed,
            ),
            "unused": pc.if_else(unused, pc.fill_null(effective, 0.0), 0.0),
            **judged(
                billed, effective, listed, charge_category, pricing, t("ChargeClass"), quantity
            ),
            "line": pa.array(range(first, first + n), pa.int64()),
        }
    )
