"""The Google Cloud billing export (BigQuery's standard usage cost table) flattened to CSV:
dotted names such as `service.description`, `usage.amount`, `location.region`.

The file gives one cost (`cost`, before credits); credits sit in a JSON list per row and
are not applied, so the effective cost falls back to `cost` and says so; there is no
list price. GCP lines carry no instance type (machine types are in the SKU text), so a
baseline lists them as unmatched. Pure: no Django."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from bills.readers import columns as c
from bills.readers.quality import judged

KIND = "gcp"
LABEL = "GCP billing"
REQUIRED = ["billing_account_id", "usage_start_time", "cost", "currency", "service.description"]
SERVICE_CATEGORY = {
    "Compute Engine": "Compute", "Kubernetes Engine": "Compute", "Cloud Run": "Compute",
    "Cloud Functions": "Compute", "Cloud Storage": "Storage", "BigQuery": "Analytics",
    "Cloud SQL": "Databases", "Networking": "Networking", "Vertex AI": "AI and Machine Learning",
}  # fmt: skip
CHARGE_CATEGORY = {
    "regular": "Usage",
    "tax": "Tax",
    "adjustment": "Adjustment",
    "rounding error": "Adjustment",
}


def claims(header: list[str]) -> bool:
    names = set(header)
    return "billing_account_id" in names or ("service.description" in names and "cost" in names)


def missing(header: list[str]) -> list[str]:
    return [name for name in REQUIRED if name not in set(header)]


def version(header: list[str]) -> str | None:
    return None if missing(header) else "standard"


WANTED = [
    *REQUIRED,
    "project.id", "location.region", "location.location", "sku.id", "sku.description",
    "usage.amount", "usage.unit", "cost_type",
]  # fmt: skip


def wanted(header: list[str]) -> list[str]:
    return [name for name in WANTED if name in header]


def normalise(batch: pa.RecordBatch, file: str, first: int) -> pa.Table:
    t = lambda name: c.text(batch, name)  # noqa: E731
    n = batch.num_rows
    cost = c.number(batch, "cost", file, first)
    service = t("service.description")
    charge = c.mapped(
        pc.fill_null(t("cost_type"), "regular"), CHARGE_CATEGORY, default="Adjustment"
    )
    pricing = c.const("Standard", n)
    quantity = c.number(batch, "usage.amount", file, first)
    effective = pa.nulls(n, pa.float64())
    listed = pa.nulls(n, pa.float64())
    return c.assemble(
        {
            "day": c.day(batch, "usage_start_time", file, first),
            "provider": c.const("Google Cloud", n),
            "billing_account": t("billing_account_id"),
            "account": pc.coalesce(t("project.id"), t("billing_account_id")),
            "region": pc.coalesce(t("location.region"), t("location.location")),
            "service_category": c.mapped(service, SERVICE_CATEGORY, default="Other"),
            "service_name": service,
            "sku": pc.coalesce(t("sku.description"), t("sku.id")),
            "instance_type": c.const(None, n),
            "pricing_category": pricing,
            "charge_category": charge,
            "unit": t("usage.unit"),
            "currency": t("currency"),
            "commitment_status": c.const(None, n),
            "tags": c.const(None, n),  # labels sit in a JSON list per row: not read yet
            "billed": pc.fill_null(cost, 0.0),
            "effective": pc.fill_null(effective, 0.0),
            "list": pc.fill_null(listed, 0.0),
            "quantity": pc.fill_null(quantity, 0.0),
            "contracted": pa.nulls(n, pa.float64()),
            "eligible": pc.if_else(pc.equal(charge, "Usage"), pc.fill_null(listed, 0.0), 0.0),
            "unused": pa.array([0.0] * n, pa.float64()),
            **judged(cost, effective, listed, charge, pricing, c.const(None, n), quantity),
            "line": pa.array(range(first, first + n), pa.int64()),
        }
    )
