"""The bill endpoints of the JSON API v1 (a ninja Router the API mounts at /bills): upload
an export (streamed, imported on the control queue, its status polled), list the caller's
bills, read one's aggregates, delete one. Owner-only: another user's bill or upload is the
same 404 as one that does not exist. Thin: the services and selectors do the work.

Errors keep the API's one shape, `{"errors": {field: [messages]}}`, built here (this app
never imports the plans code); a refusal's message also comes as `error_details`."""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.multipartparser import MultiPartParserError
from django.urls import reverse
from ninja import Path, Query, Router

from bills import schemas, selectors
from bills.baseline import baseline_from_bill
from bills.models import Bill, BillUpload
from bills.services import uploads
from bills.services.importing import delete_bill
from common.messages import Message, as_api, msg, plain

router = Router(tags=["bills"])
Errors = schemas.BillErrors
# The refusals every endpoint may answer (the API's auth, CSRF and rate limit).
READ = {401: Errors, 429: Errors}
WRITE = {**READ, 403: Errors}
BillId = Annotated[str, Path(alias="id", description="the bill's id (an integer)")]
UploadId = Annotated[str, Path(alias="id", description="the upload's id (an integer)")]
Name = Annotated[str, Query(max_length=255, description="the file's name (kept on the bill)")]
CHUNK = 1 << 20


def _errors(status: int, field: str, message: Message) -> JsonResponse:
    return JsonResponse(
        {"errors": {field: [plain(message)]}, "error_details": {field: [as_api(message)]}},
        status=status,
    )


def _number(text: str) -> int | None:
    """An id as matched (any text): a malformed one is the same 404 as an unknown one."""
    return int(text) if text.isascii() and text.isdigit() and len(text) < 19 else None


def _not_found() -> JsonResponse:
    return JsonResponse({"errors": {"__all__": ["not found"]}}, status=404)


def _money(value: Decimal | None) -> str:
    return f"{(value or Decimal(0)).normalize():f}"


def _sums(row: dict) -> dict:
    out = {k: _money(row[k]) for k in ("billed", "effective", "list_cost", "cost", "quantity")}
    return {**row, **out, "rows": int(row["rows"] or 0)}


def _bill_url(request: HttpRequest, bill_id: int) -> str:
    return request.build_absolute_uri(reverse("api:bill", args=[bill_id]))


def _summary(request: HttpRequest, bill: Bill) -> dict[str, Any]:
    return {
        "id": bill.pk, "url": _bill_url(request, bill.pk), "name": bill.name,
        "sha256": bill.sha256, "kind": bill.kind, "version": bill.version, "view": bill.view,
        "currency": bill.currency, "period_start": bill.period_start.isoformat(),
        "period_end": bill.period_end.isoformat(), "rows": bill.rows,
        "imported_at": bill.imported_at.isoformat(),
    }  # fmt: skip


def _upload(request: HttpRequest, upload: BillUpload) -> dict[str, Any]:
    message = Message.from_json(upload.message) if upload.message else None
    return {
        "id": upload.pk, "name": upload.name, "status": upload.status,
        "rows_read": upload.rows_read, "bill": upload.bill_id,
        "bill_url": _bill_url(request, upload.bill_id) if upload.bill_id else None,
        "message": as_api(message) if message else None,
        "url": request.build_absolute_uri(reverse("api:bill-upload", args=[upload.pk])),
    }  # fmt: skip


def _chunks(request: HttpRequest):
    while chunk := request.read(CHUNK):
        yield chunk


# An empty body is refused at once ("no file"); any other is taken and read in the background.
NON_EMPTY_FILE = {"type": "string", "format": "binary", "minLength": 1}


@router.post(
    "",
    url_name="bills",
    operation_id="uploadBill",
    summary="Upload a cost export (FOCUS, AWS CUR, Azure, GCP); imported in the background",
    response={202: schemas.UploadStatus, 400: Errors, 413: Errors, **WRITE},
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {
                "application/octet-stream": {"schema": NON_EMPTY_FILE},
                "text/csv": {"schema": NON_EMPTY_FILE},
                "multipart/form-data": {
                    "schema": {
                        "type": "object",
                        "required": ["file"],
                        # no minLength here: schemathesis sends a file for any binary
                        # part and cannot make one that breaks it
                        "properties": {"file": {"type": "string", "format": "binary"}},
                    }
                },
            },
        },
        "responses": {
            202: {
                "headers": {
                    "Location": {
                        "schema": {"type": "string", "format": "uri"},
                        "description": "poll this",
                    }
                }
            }
        },
    },
)
def upload_bill(request: HttpRequest, name: Name = "") -> HttpResponse:
    """The body is the file (CSV, gzip CSV or Parquet), or a form's `file` field. It is
    written to disk as it arrives, imported on the control queue, then deleted: poll the
    `url` answered. The file's own refusals (which line, which column) come there."""
    content_type = (request.content_type or "").lower()
    try:
        if content_type == "multipart/form-data":
            try:
                given = request.FILES.get("file")
            except MultiPartParserError:
                given = None
            if given is None:
                return _errors(400, "file", msg("bills.upload.missing"))
            upload = uploads.receive(request.auth, name or given.name, given.chunks(CHUNK))
        else:
            if not request.headers.get("Content-Length") and not request.headers.get(
                "Transfer-Encoding"
            ):
                return _errors(400, "body", msg("bills.upload.missing"))
            upload = uploads.receive(request.auth, name or "upload", _chunks(request))
    except uploads.TooLarge:
        limit = uploads.max_upload_bytes()
        return _errors(413, "body", msg("bills.upload.too_large", limit=limit))
    body = _upload(request, upload)
    response = JsonResponse(body, status=202)
    response["Location"] = body["url"]
    return response


@router.get(
    "/uploads/{str:id}",
    url_name="bill-upload",
    operation_id="getBillUpload",
    summary="An upload's status: queued, importing (rows read so far), done or refused",
    response={200: schemas.UploadStatus, 404: Errors, **READ},
)
def upload_status(request: HttpRequest, upload_id: UploadId) -> HttpResponse:
    number = _number(upload_id)
    upload = selectors.upload_of(request.auth, number) if number is not None else None
    return JsonResponse(_upload(request, upload)) if upload else _not_found()


@router.get(
    "",
    url_name="bills",
    operation_id="listBills",
    summary="The caller's own bills",
    response={200: schemas.BillList, **READ},
)
def list_bills(request: HttpRequest) -> HttpResponse:
    return JsonResponse({"bills": [_summary(request, b) for b in selectors.bills_of(request.auth)]})


@router.get(
    "/{str:id}",
    url_name="bill",
    operation_id="getBill",
    summary="One of the caller's bills: its aggregates and data-quality flags",
    response={200: schemas.BillDetail, 404: Errors, **READ},
)
def bill_detail(request: HttpRequest, bill_id: BillId) -> HttpResponse:
    number = _number(bill_id)
    bill = selectors.bill_of(request.auth, number) if number is not None else None
    if bill is None:
        return _not_found()
    totals = selectors.totals(bill)
    body = _summary(request, bill) | {
        "totals": _sums({k: totals[k] for k in selectors.SUMS}),
        "by_service": [_sums(r) for r in selectors.by_service(bill)],
        "by_month": [_sums(r) | {"month": r["month"].isoformat()[:10]}
                     for r in selectors.by_month(bill)],
        "compute": [_sums(r) for r in selectors.compute_lines(bill)],
        "flags": [as_api(Message.from_json(f)) for f in bill.flags],
    }  # fmt: skip
    return JsonResponse(body)


Filter = Annotated[list[str] | None, Query(description="repeat to choose several")]


@router.get(
    "/{str:id}/baseline",
    url_name="bill-baseline",
    operation_id="getBillBaseline",
    summary="A plan's baseline from the bill's compute usage, with its provenance",
    response={200: schemas.BillBaseline, 404: Errors, **READ},
)
def bill_baseline(
    request: HttpRequest,
    bill_id: BillId,
    account: Filter = None,
    region: Filter = None,
    service: Filter = None,
    instance_type: Filter = None,
    tag: Filter = None,
) -> HttpResponse:
    """The chosen compute usage lines as catalog tiers (count = hours a month / 730) at the
    bill's effective cost; instance types with no tier listed under `unmatched`. `tag`:
    "key=value" or "key" (any value); a line with any of the tags given is chosen. Give
    `baseline` as a plan's baseline; `provenance` names the bill, its period and lines."""
    number = _number(bill_id)
    bill = selectors.bill_of(request.auth, number) if number is not None else None
    if bill is None:
        return _not_found()
    found = baseline_from_bill(
        bill,
        accounts=account,
        regions=region,
        services=service,
        instance_types=instance_type,
        tags=tag,
    )
    return JsonResponse({"baseline": found.plan_baseline(), "provenance": found.provenance()})


@router.delete(
    "/{str:id}",
    url_name="bill",
    operation_id="deleteBill",
    summary="Delete one of the caller's bills and all its lines",
    response={204: None, 404: Errors, **WRITE},
)
def remove_bill(request: HttpRequest, bill_id: BillId) -> HttpResponse:
    number = _number(bill_id)
    bill = selectors.bill_of(request.auth, number) if number is not None else None
    if bill is None:
        return _not_found()
    delete_bill(bill)
    return HttpResponse(status=204)
