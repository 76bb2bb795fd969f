"""The catalog pages: the tier table (filtered, sorted, paged, exported as CSV), the
comparison of selected tiers, and the price sources with their last sync.

The table rests on one frame per data generation (`catalog.page_frame`: the catalog
frame with the CPU vendor and generation derived once), kept in this process and in the
shared cache under the generation's key and warmed after each price feed sync, so a
request over 20,000 tiers costs the generation query, filters and sorts in pandas, and
renders one page of rows.
"""

from __future__ import annotations

import csv
import datetime as dt

import pandas as pd
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from catalog import pricing_models
from catalog.feed_status import source_statuses
from catalog.feeds.azure import AzureRetail, vm_sizes, vm_sizes_refreshed
from catalog.forms import COLUMNS, DEFAULT_COLUMNS, SORTS, TierFilterForm
from catalog.models import CURRENCIES, Kind, PricingModel
from catalog.page_frame import PageFrame, page_frame
from catalog.pricing import TierQuery, select_tiers
from common.csv_cells import neutralise
from common.django.message_render import render as say
from common.messages import msg
from estimates import scores

PAGE_SIZE = 50
COMPARE_MAX = 6


def _filtered(request: HttpRequest) -> tuple[TierFilterForm, PageFrame, pd.DataFrame, TierQuery]:
    data = request.GET.copy()
    data.setdefault("per", "month")
    if not data.getlist("cols"):
        data.setlist("cols", DEFAULT_COLUMNS)  # so the chooser shows them ticked
    # The provider and region lists come from the same frame; the currency asked for
    # shapes the frame, so read it before the form knows its choices.
    probe = TierFilterForm(data, providers=[], regions=[])
    probe.is_valid()
    as_of, retired = probe.value("as_of"), bool(probe.value("retired"))
    asked = data.get("currency", "")
    entry = page_frame(as_of, asked if asked in CURRENCIES else None, retired)
    form = TierFilterForm(data, providers=entry.providers, regions=entry.regions,
                          choices=entry.choices)  # fmt: skip
    form.is_valid()  # invalid fields fall back to defaults and show their errors
    form.offer_currencies(entry.currencies)  # after cleaning: it keeps the code asked for
    frame = entry.frame
    query = TierQuery(
        q=form.value("q") or "",
        provider=form.value("provider") or "",
        kind=form.value("kind") or "",
        pricing_model=form.value("pricing_model") or "",
        region=form.value("region") or "",
        min_vcpus=form.value("min_vcpus"),
        min_ram_gib=float(form.value("min_ram_gib")) if form.value("min_ram_gib") else None,
        min_gpus=form.value("min_gpus"),
        sort=form.value("sort"),
        descending=form.value("dir") == "desc",
    )
    return form, entry, select_tiers(_page_filters(frame, form), query), query


def _page_filters(frame: pd.DataFrame, form: TierFilterForm) -> pd.DataFrame:
    """The filters select_tiers does not know: CPU, AVX-512, GPU model, confirmed only,
    pricing group."""
    keep = pd.Series(True, index=frame.index)
    for field, column in (("cpu_vendor", "cpu_vendor"), ("cpu_generation", "cpu_generation"),
                          ("gpu_model", "gpu_label")):  # fmt: skip
        if value := form.value(field):
            keep &= frame[column] == value
    if form.value("avx512"):
        keep &= frame["avx512"]
    if form.value("confirmed"):
        keep &= frame["confirmed"]
    if group := form.value("pricing"):
        keep &= frame["pricing_model"].map(lambda model: pricing_models.matches(model, group))
    return frame if bool(keep.all()) else frame.loc[keep]


def tier_list(request: HttpRequest) -> HttpResponse:
    form, entry, selected, query = _filtered(request)
    page = Paginator(selected, PAGE_SIZE).get_page(form.value("page"))
    as_of = form.value("as_of")
    currency = form.value("currency") or None
    context = {
        "form": form,
        "page": page,
        "tiers": _records(page.object_list, as_of),
        "total": len(entry.frame),
        "matching": len(selected),
        "as_of": as_of,
        "currency": currency,
        "per": form.value("per"),
        "columns": form.columns(),
        "column_labels": COLUMNS,
        "dropped": [
            {"slug": d["slug"], "reason": say(d["message"])}
            for d in entry.frame.attrs["dropped_messages"]
        ],
        "unreadable": [say(m) for m in entry.frame.attrs.get("unreadable", ())],
        "sort": query.sort,
        "descending": query.descending,
        "sort_links": _sort_links(request, query),
        "export_query": _without(request, "page"),
        "aws_no_spot": say(msg("feeds.aws_no_spot")),
        "compare_max": COMPARE_MAX,
    }
    template = "catalog/tiers.html#table" if request.htmx else "catalog/tiers.html"
    return render(request, template, context)


def _without(request: HttpRequest, *names: str) -> str:
    params = request.GET.copy()
    for name in names:
        params.pop(name, None)
    return params.urlencode()


def _sort_links(request: HttpRequest, query: TierQuery) -> dict[str, dict[str, str]]:
    """Per sortable column: the link that sorts by it (toggling the order) and its arrow."""
    links = {}
    for column, label in SORTS.items():
        params = request.GET.copy()
        params.pop("page", None)
        active = query.sort == column
        params["sort"] = column
        params["dir"] = "desc" if active and not query.descending else "asc"
        arrow = ("▼" if query.descending else "▲") if active else ""
        links[column] = {"url": f"?{params.urlencode()}", "arrow": arrow, "label": str(label)}
    return links


def _records(frame: pd.DataFrame, as_of: dt.date | None = None) -> list[dict]:
    """Rows for the template, with None (not NaN or <NA>) wherever a value is missing."""
    records = frame.astype(object).where(frame.notna(), None).to_dict("records")
    kinds, models = dict(Kind.choices), dict(PricingModel.choices)
    for record in records:
        record["specs_note"] = _specs_note(record)
        record["kind_label"] = kinds.get(record["kind"], record["kind"])
        record["pricing_model_label"] = models.get(record["pricing_model"], record["pricing_model"])
        day = record.get("effective_from")
        record["age_days"] = (as_of - day).days if as_of and day else None
    return records


def _specs_note(record: dict) -> str:
    """Why an Azure size's vCPUs or RAM are unknown: not in the size table (issue 28),
    with the table's date; "" for every other tier."""
    if record["provider"] != AzureRetail.provider or not (
        record["vcpus"] is None or record["ram_gib"] is None
    ):
        return ""
    if record["name"] in vm_sizes():
        return ""
    return say(msg("catalog.azure_specs_not_in_table", date=vm_sizes_refreshed()))


# --- CSV export of the filtered view ----------------------------------------------------

EXPORT_FIELDS = (
    "slug", "name", "provider", "kind", "pricing_model", "region", "vcpus", "cores",
    "cpu_model", "cpu_vendor", "cpu_generation", "avx512", "ram_gib", "gpus", "gpu_model",
    "currency", "hourly", "monthly", "per_vcpu_hour", "per_gib_hour", "per_gpu_hour",
    "effective_from", "confirmed", "stale", "source", "source_url",
)  # fmt: skip


def export_csv(request: HttpRequest) -> HttpResponse:
    """Every tier of the filtered view (all pages), one row each; text cells neutralised."""
    _form, _entry, selected, _query = _filtered(request)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="catalog.csv"'
    writer = csv.writer(response)
    writer.writerow(EXPORT_FIELDS)
    for record in _records(selected[list(EXPORT_FIELDS)]):
        writer.writerow([_cell(record.get(field)) for field in EXPORT_FIELDS])
    return response


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.6f}".rstrip("0").rstrip(".")
    if isinstance(value, int | dt.date):
        return str(value)
    return neutralise(str(value))


# --- comparing selected tiers -----------------------------------------------------------


def compare(request: HttpRequest) -> HttpResponse:
    """The selected tiers side by side (at most COMPARE_MAX), in the page's currency."""
    form, entry, _selected, _query = _filtered(request)
    slugs = list(dict.fromkeys(request.GET.getlist("t")))[:COMPARE_MAX]
    frame = entry.frame
    chosen = frame.loc[frame["slug"].isin(slugs)]
    order = {slug: index for index, slug in enumerate(slugs)}
    records = sorted(_records(chosen, form.value("as_of")), key=lambda r: order[r["slug"]])
    cheapest = min((r["monthly"] for r in records if r["monthly"] is not None), default=None)
    found = set(chosen["slug"])
    missing = [slug for slug in slugs if slug not in found]
    return render(
        request,
        "catalog/compare.html",
        {
            "tiers": records,
            "cheapest": cheapest,
            "missing": missing,
            "as_of": form.value("as_of"),
            "currency": form.value("currency") or None,
            "back": _without(request, "t"),
            "limit": COMPARE_MAX,
        },
    )


# --- the price sources ------------------------------------------------------------------


def sources(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "catalog/sources.html",
        {
            "sources": source_statuses(),
            "aws_no_spot": say(msg("feeds.aws_no_spot")),
            "speed": scores.about(),
        },
    )
