"""The Bills pages (issue 26): the list with its upload, an upload's polled status, one
bill's page, its CSV and charts, delete. Thin: `bills.services.uploads` receives,
`bills.page` computes, `bills.tables` shapes the rows; every bill and upload is looked up
by its owner, so another user's is the same 404 as none."""

from __future__ import annotations

import logging

from celery import current_app
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HTMX_STOP_POLLING, HttpResponseClientRefresh

from bills import charts, page, selectors, tables
from bills.models import BillUpload
from bills.services import uploads
from bills.services.importing import delete_bill
from bills.web.forms import UploadForm
from common.django.message_render import render as say
from common.messages import Message, msg

log = logging.getLogger(__name__)
CHUNK_LIMIT = 8 * 1024 * 1024  # one piece the page sends (its JavaScript sends 4 MiB)


def _bill(request: HttpRequest, bill_id: int):
    bill = selectors.bill_of(request.user, bill_id)
    if bill is None:
        raise Http404
    return bill


def _status_context(upload: BillUpload) -> dict:
    message = Message.from_json(upload.message) if upload.message else None
    over = upload.status in (BillUpload.DONE, BillUpload.REFUSED)
    return {"upload": upload, "over": over, "text": say(message) if message else ""}


@login_required
def index(request: HttpRequest) -> HttpResponse:
    form = UploadForm()
    if request.method == "POST":  # without JavaScript: the whole file in one form post
        form = UploadForm(request.POST, request.FILES)
        if form.is_valid():
            given = form.cleaned_data["file"]
            try:
                upload = uploads.receive(request.user, given.name, given.chunks())
            except uploads.TooLarge:
                form.add_error("file", say(msg("bills.upload.too_large",
                                               limit=uploads.max_upload_bytes())))  # fmt: skip
            else:
                return redirect(f"{reverse('bills:index')}?upload={upload.pk}")
    shown = None
    wanted = request.GET.get("upload", "")
    if wanted.isdigit() and len(wanted) < 19:
        found = selectors.upload_of(request.user, int(wanted))
        shown = _status_context(found) if found else None
    context = {
        "form": form, "bills": selectors.bills_of(request.user), "shown": shown,
        "chunk_bytes": 4 * 1024 * 1024, "limit": uploads.max_upload_bytes(),
    }  # fmt: skip
    return render(request, "bills/index.html", context)


def _refused(message: Message, status: int = 400) -> JsonResponse:
    return JsonResponse({"error": say(message)}, status=status)


@login_required
@require_POST
def upload_chunk(request: HttpRequest) -> HttpResponse:
    """One piece of a file (the raw body) at `offset`; answers the token and bytes held."""
    offset, token = request.GET.get("offset", ""), request.GET.get("token", "")
    name = request.GET.get("name", "upload")
    if not offset.isdigit() or len(offset) > 15:
        return _refused(msg("bills.upload.bad_chunk", file=name))
    data = request.read(CHUNK_LIMIT + 1)  # not .body: Django caps that at 2.5 MB
    if len(data) > CHUNK_LIMIT:
        return _refused(msg("bills.upload.bad_chunk", file=name))
    try:
        token, held = uploads.append_chunk(request.user, token, int(offset), data)
    except uploads.BadChunk:
        return _refused(msg("bills.upload.bad_chunk", file=name))
    except uploads.TooLarge:
        return _refused(msg("bills.upload.too_large", limit=uploads.max_upload_bytes()), 413)
    return JsonResponse({"token": token, "received": held})


@login_required
@require_POST
def upload_finish(request: HttpRequest) -> HttpResponse:
    """The last piece is in: record the upload, queue its import, answer its status."""
    name = request.POST.get("name", "upload")
    try:
        upload = uploads.finish(request.user, request.POST.get("token", ""), name)
    except uploads.BadChunk:
        return _refused(msg("bills.upload.bad_chunk", file=name))
    return render(request, "bills/upload_status.html", _status_context(upload))


@login_required
@require_GET
def upload_status(request: HttpRequest, upload_id: int) -> HttpResponse:
    """An upload's status; HTTP 286 (htmx: stop polling) once done or refused."""
    upload = selectors.upload_of(request.user, upload_id)
    if upload is None:
        raise Http404
    context = _status_context(upload)
    status = HTMX_STOP_POLLING if context["over"] and request.htmx else 200
    return render(request, "bills/upload_status.html", context, status=status)


@login_required
@require_GET
def detail(request: HttpRequest, bill_id: int) -> HttpResponse:
    bill = _bill(request, bill_id)
    figures = page.kept(bill)
    if figures is None:  # the kept figures were lost: rebuilt on the control queue
        if page.claim(bill):
            try:
                current_app.send_task("bills.warm_page", args=[bill.pk])
            except Exception:  # no broker: computed here, as before the queue
                log.exception("bills.warm_page not queued for bill %s", bill.pk)
                figures = page.figures(bill)
        if figures is None:
            if request.htmx:  # the waiting page's poll: nothing to swap yet
                return HttpResponse(status=204)
            return render(request, "bills/computing.html", {"bill": bill})
    if request.htmx:  # the waiting page's poll, and the figures are ready: reload it
        return HttpResponseClientRefresh()
    language = get_language() or "en"
    context = {"bill": bill, **tables.shaped(bill, figures, language),
               "chart_version": charts.VERSION}  # fmt: skip
    return render(request, "bills/detail.html", context)


@login_required
@require_GET
def export_csv(request: HttpRequest, bill_id: int) -> HttpResponse:
    bill = _bill(request, bill_id)
    response = HttpResponse(tables.csv_bytes(bill, page.figures(bill)),
                            content_type="text/csv; charset=utf-8")  # fmt: skip
    response["Content-Disposition"] = f'attachment; filename="bill-{bill.pk}.csv"'
    return response


@login_required
@require_GET
def chart(request: HttpRequest, bill_id: int, kind: str) -> HttpResponse:
    bill = _bill(request, bill_id)
    if kind not in charts.KINDS:
        raise Http404
    language = get_language() or "en"
    key = f"bills:chart:{charts.VERSION}:{bill.pk}:{bill.sha256}:{kind}:{language}"
    svg = cache.get(key)
    if svg is None:  # a bill never changes: its drawing is kept like its figures
        svg = charts.render(kind, bill.currency, page.figures(bill), language)
        cache.set(key, svg, 7 * 24 * 3600)
    response = HttpResponse(svg, content_type="image/svg+xml")
    response["Cache-Control"] = "private, max-age=3600"
    return response


@login_required
@require_POST
def delete(request: HttpRequest, bill_id: int) -> HttpResponse:
    delete_bill(_bill(request, bill_id))
    return redirect("bills:index")
