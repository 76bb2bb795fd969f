"""What the bill endpoints answer, as pydantic models: the source of their part of
docs/openapi.yaml. Amounts are exact decimal strings in the bill's currency."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Decimal = Annotated[str, Field(description="an exact decimal number as a string")]
Date = Annotated[str, Field(json_schema_extra={"format": "date"})]
DateTime = Annotated[str, Field(json_schema_extra={"format": "date-time"})]
Uri = Annotated[str, Field(json_schema_extra={"format": "uri"})]


class Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class ApiMessage(Open):
    code: str = Field(description="a stable message code (common/message_texts.py)")
    params: dict[str, Any]
    text: str = Field(description="the message in English")


class BillErrors(BaseModel):
    """The API's one error shape; a refusal of the bill app also gives its messages as data."""

    errors: dict[str, list[str]]
    error_details: dict[str, list[ApiMessage]] | None = None


class UploadStatus(Open):
    id: int
    name: str
    status: Literal["queued", "importing", "done", "refused"]
    rows_read: int = Field(description="rows read so far (progress)")
    bill: int | None = Field(description="the bill imported (or already held), once done")
    bill_url: Uri | None
    message: ApiMessage | None = Field(description="the outcome, or why it was refused")
    url: Uri = Field(description="poll this until status is done or refused")


class BillSummary(Open):
    id: int
    url: Uri
    name: str = Field(description="the file's name as uploaded")
    sha256: str
    kind: Literal["focus", "aws_cur", "azure", "gcp"]
    version: str
    view: Literal["focus", "actual", "amortized"] = Field(
        description="focus: billed and effective both given; actual and amortized exports "
        "of one account and month are never added together"
    )
    currency: str
    period_start: Date
    period_end: Date = Field(description="exclusive: the first day after the period")
    rows: int = Field(description="rows read from the file")
    imported_at: DateTime


class BillList(Open):
    bills: list[BillSummary]


class Sums(Open):
    billed: Decimal
    effective: Decimal
    list_cost: Decimal
    cost: Decimal = Field(description="effective cost, or the fallback a flag names")
    quantity: Decimal
    rows: int


class ServiceSums(Sums):
    provider: str
    service_category: str


class MonthSums(Sums):
    month: Date


class ComputeSums(Sums):
    provider: str
    account: str
    region: str
    instance_type: str
    pricing_category: str
    unit: str


class BillDetail(BillSummary):
    totals: Sums
    by_service: list[ServiceSums]
    by_month: list[MonthSums]
    compute: list[ComputeSums] = Field(description="compute usage by instance type")
    flags: list[ApiMessage] = Field(description="data quality, each naming its fallback")


class BaselineTier(Open):
    provider: str
    instance_type: str
    region: str
    tier: str | None = Field(description="the catalog tier's key; null: no tier (unmatched)")
    hours_a_month: Decimal
    count: Decimal = Field(description="machines: hours a month / 730")
    monthly: Decimal = Field(description="at the bill's effective cost")
    lines: int


class BaselineProvenance(Open):
    source: Literal["bill"]
    bill: int
    name: str
    sha256: str
    kind: str
    view: str
    currency: str
    period_start: Date
    period_end: Date
    months: int
    lines: int = Field(description="the bill lines the baseline is made of")
    filters: dict[str, list[str]]
    cost: Literal["effective"]
    tiers: list[BaselineTier]
    unmatched: list[BaselineTier] = Field(description="instance types with no catalog tier")
    no_instance_type_monthly: Decimal


class BillBaseline(Open):
    baseline: dict[str, str] = Field(description="a plan's `baseline` input: {monthly}")
    provenance: BaselineProvenance
