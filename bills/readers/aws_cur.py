"""AWS Cost and Usage Report: legacy names (`lineItem/UnblendedCost`), Athena and CUR 2.0
names (`line_item_unblended_cost`); CSV, gzip CSV or Parquet.

Every header name is brought to the snake form (`lineItem/UsageStartDate` →
`line_item_usage_start_date`), so one table of columns reads both. The effective
(amortised) cost follows the line item type as AWS defines it: reservation-covered usage
at `reservation_effective_cost`, Savings-Plan-covered usage at its effective cost, the
negation and up-front fee lines at zero, unused reservation fees as billed; elsewhere the
unblended cost. Pure: no Django."""

from __future__ import annotations

import re

import pyarrow as pa
import pyarrow.compute as pc

from bills.readers import columns as c
from bills.readers.quality import judged

KIND = "aws_cur"
LABEL = "AWS CUR"
REQUIRED = [
    "line_item_usage_start_date", "line_item_unblended_cost", "line_item_currency_code",
    "line_item_product_code", "line_item_usage_account_id",
]  # fmt: skip
SERVICE_CATEGORY = {
    "AmazonEC2": "Compute", "AWSLambda": "Compute", "AmazonECS": "Compute",
    "AmazonEKS": "Compute", "AmazonSageMaker": "AI and Machine Learning",
    "AmazonS3": "Storage", "AmazonEFS": "Storage", "AmazonGlacier": "Storage",
    "AmazonRDS": "Databases", "AmazonDynamoDB": "Databases", "AmazonRedshift": "Databases",
    "AmazonCloudFront": "Networking", "AmazonVPC": "Networking", "AWSDataTransfer": "Networking",
    "awskms": "Security", "AWSCloudTrail": "Management and Governance",
    "AmazonCloudWatch": "Management and Governance", "AWSQueueService": "Integration",
}  # fmt: skip
CHARGE_CATEGORY = {
    "Usage": "Usage", "DiscountedUsage": "Usage", "SavingsPlanCoveredUsage": "Usage",
    "SavingsPlanNegation": "Usage", "Tax": "Tax", "Fee": "Purchase", "RIFee": "Purchase",
    "SavingsPlanRecurringFee": "Purchase", "SavingsPlanUpfrontFee": "Purchase",
    "Credit": "Credit", "Refund": "Credit", "BundledDiscount": "Credit",
    "EdpDiscount": "Credit", "PrivateRateDiscount": "Credit",
}  # fmt: skip


def snake(name: str) -> str:
    name = name.replace("/", "_").replace(" ", "_")
    name = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)
    return re.sub(r"_+", "_", name).lower()


def claims(header: list[str]) -> bool:
    names = {snake(h) for h in header}
    return any(n.startswith(("line_item_", "identity_line_item")) for n in names)


def version(header: list[str]) -> str | None:
    if missing(header):
        return None
    if any("/" in h for h in header):
        return "legacy"
    return "2.0"  # snake names: Athena and CUR 2.0 alike


def missing(header: list[str]) -> list[str]:
    names = {snake(h) for h in header}
    return [name for name in REQUIRED if name not in names]


WANTED = [
    *REQUIRED,
    "line_item_line_item_type", "line_item_usage_type", "line_item_usage_amount",
    "line_item_availability_zone", "pricing_public_on_demand_cost", "pricing_unit",
    "product_region_code", "product_region", "product_instance_type",
    "reservation_effective_cost", "savings_plan_savings_plan_effective_cost",
    "bill_payer_account_id", "bill_billing_period_start_date", "product_servicecode",
    "reservation_unused_amortized_upfront_fee_for_billing_period",
    "reservation_unused_recurring_fee", "savings_plan_total_commitment_to_date",
    "savings_plan_used_commitment", "resource_tags",
]  # fmt: skip
# Legacy `resourceTags/user:team`, Athena `resource_tags_user_team`: one column per tag.
TAG_PREFIXES = ("resourceTags/user:", "resource_tags_user_")


# CUR 2.0 (AWS Data Exports) keeps some product attributes, and the resource tags, in map
# columns: `product` is read for the attributes below that are not columns of their own.
MAPS = ("product",)
# CUR 2.0's `resource_tags` map (Parquet) read as one "k=v;k=v" text column.
AS_TEXT = frozenset({"resource_tags"})
FLATTEN = frozenset(name for name in WANTED if name.startswith("product_"))


def wanted(header: list[str]) -> list[str]:
    by_snake = {snake(h): h for h in header}
    names = [by_snake[name] for name in WANTED if name in by_snake]
    names += [h for h in header if h.startswith(TAG_PREFIXES) and h not in names]
    return names + [by_snake[m] for m in MAPS if m in by_snake and by_snake[m] not in names]


def _user_tags(tags: pa.Array) -> pa.Array:
    """Of normalised tags ("k=v;k=v"), the user tags ("user_team=ml" → "team=ml"), as the
    legacy and Athena columns give them; once per distinct set."""
    if not len(tags) or tags.null_count == len(tags):
        return tags
    encoded = pc.dictionary_encode(tags)
    kept = []
    for value in encoded.dictionary.to_pylist():
        pairs = [p[5:] for p in value.split(";") if p.startswith(("user_", "user:"))]
        kept.append(";".join(sorted(pairs)) or None)
    return pc.take(pa.array(kept, pa.string()), encoded.indices)


def normalise(batch: pa.RecordBatch, file: str, first: int) -> pa.Table:
    names = {snake(h): h for h in batch.schema.names}
    t = lambda name: c.text(batch, names.get(name))  # noqa: E731
    num = lambda name: c.number(batch, names.get(name), file, first)  # noqa: E731
    n = batch.num_rows
    kind = pc.fill_null(t("line_item_line_item_type"), "Usage")
    unblended = num("line_item_unblended_cost")
    reserved = num("reservation_effective_cost")
    planned = num("savings_plan_savings_plan_effective_cost")
    effective = pc.case_when(
        pc.make_struct(
            pc.equal(kind, "DiscountedUsage"),
            pc.equal(kind, "SavingsPlanCoveredUsage"),
            pc.is_in(kind, value_set=pa.array(["SavingsPlanNegation", "SavingsPlanUpfrontFee"])),
        ),
        reserved,
        planned,
        pa.array([0.0] * n, pa.float64()),
        unblended,
    )
    committed = pc.is_in(kind, value_set=pa.array(["DiscountedUsage", "SavingsPlanCoveredUsage"]))
    spot = pc.fill_null(pc.match_substring(t("line_item_usage_type"), "SpotUsage"), False)
    pricing = pc.case_when(
        pc.make_struct(committed, spot, pc.equal(kind, "Usage")),
        c.const("Committed", n), c.const("Dynamic", n), c.const("Standard", n), c.const("Other", n),
    )  # fmt: skip
    charge = c.mapped(kind, CHARGE_CATEGORY, default="Adjustment")
    # Unused commitment: a reservation fee's unused part, a Savings Plan fee's commitment
    # not used (AWS's own columns; absent from a CUR without commitments: 0).
    zero = pa.array([0.0] * n, pa.float64())
    unused_ri = pc.add(
        pc.fill_null(num("reservation_unused_amortized_upfront_fee_for_billing_period"), 0.0),
        pc.fill_null(num("reservation_unused_recurring_fee"), 0.0),
    )
    unused_sp = pc.subtract(
        pc.fill_null(num("savings_plan_total_commitment_to_date"), 0.0),
        pc.fill_null(num("savings_plan_used_commitment"), 0.0),
    )
    unused = pc.case_when(
        pc.make_struct(pc.equal(kind, "RIFee"), pc.equal(kind, "SavingsPlanRecurringFee")),
        unused_ri, pc.max_element_wise(unused_sp, zero), zero,
    )  # fmt: skip
    tag_columns = {names[s]: names[s][len(p):] for s in names for p in TAG_PREFIXES
                   if names[s].startswith(p)}  # fmt: skip
    if tag_columns:
        tags = c.tag_columns(batch, tag_columns)
    else:  # CUR 2.0's `resource_tags` (a map, or JSON text): its user tags, as above
        tags = _user_tags(c.tags(t("resource_tags")))
    listed = num("pricing_public_on_demand_cost")
    quantity = num("line_item_usage_amount")
    product = t("line_item_product_code")
    region = pc.coalesce(t("product_region_code"), t("product_region"))
    zone = t("line_item_availability_zone")
    region = pc.coalesce(region, pc.utf8_slice_codeunits(zone, 0, -1) if len(zone) else zone)
    billing = pc.coalesce(t("bill_payer_account_id"), t("line_item_usage_account_id"))
    return c.assemble(
        {
            "day": c.day(batch, names.get("line_item_usage_start_date"), file, first),
            "provider": c.const("AWS", n),
            "billing_account": billing,
            "account": t("line_item_usage_account_id"),
            "region": region,
            "service_category": c.mapped(product, SERVICE_CATEGORY, default="Other"),
            "service_name": product,
            "sku": t("line_item_usage_type"),
            "instance_type": t("product_instance_type"),
            "pricing_category": pricing,
            "charge_category": charge,
            "unit": t("pricing_unit"),
            "currency": t("line_item_currency_code"),
            "commitment_status": pc.if_else(committed, c.const(c.USED, n), c.const(None, n)),
            "tags": tags,
            "billed": pc.fill_null(unblended, 0.0),
            "effective": pc.fill_null(effective, 0.0),
            "list": pc.fill_null(listed, 0.0),
            "quantity": pc.fill_null(quantity, 0.0),
            "contracted": pa.nulls(n, pa.float64()),  # a CUR gives no contracted cost
            "eligible": pc.if_else(pc.equal(charge, "Usage"), pc.fill_null(listed, 0.0), 0.0),
            "unused": unused,
            **judged(unblended, effective, listed, charge, pricing, c.const(None, n), quantity),
            "line": pa.array(range(first, first + n), pa.int64()),
        }
    )
