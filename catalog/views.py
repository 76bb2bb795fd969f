"""The catalog page: every tier with its price as of a date, filtered, sorted and paged.

Built on one `catalog_frame` call (plus two small queries for the filter choices: providers
and regions, and the currencies that have a rate), so the number of queries does not grow
with the catalog.
"""

import pandas as pd
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from catalog.forms import SORTS, TierFilterForm
from catalog.models import Kind, PricingModel, Tier
from catalog.pricing import TierQuery, catalog_frame, currencies_with_rates, select_tiers
from common.message_render import render as say

PAGE_SIZE = 50


def tier_list(request: HttpRequest) -> HttpResponse:
    # One query for both filter lists: the providers and regions that have tiers.
    pairs = Tier.objects.order_by().values_list("provider__name", "region").distinct()
    providers = sorted({provider for provider, _ in pairs})
    regions = sorted({region for _, region in pairs if region})
    form = TierFilterForm(request.GET, providers=providers, regions=regions)
    form.is_valid()  # invalid fields fall back to defaults and show their errors
    form.offer_currencies(currencies_with_rates(form.value("as_of")))
    currency = form.value("currency") or None
    frame = catalog_frame(form.value("as_of"), currency, include_retired=form.value("retired"))
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
    selected = select_tiers(frame, query)
    page = Paginator(selected, PAGE_SIZE).get_page(form.value("page"))
    context = {
        "form": form,
        "page": page,
        "tiers": _records(page.object_list),
        "total": len(frame),
        "matching": len(selected),
        "as_of": form.value("as_of"),
        "currency": currency,
        "dropped": [
            {"slug": d["slug"], "reason": say(d["message"])}
            for d in frame.attrs["dropped_messages"]
        ],
        "sort": query.sort,
        "descending": query.descending,
        "sort_links": _sort_links(request, query),
    }
    template = "catalog/tiers.html#table" if request.htmx else "catalog/tiers.html"
    return render(request, template, context)


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


def _records(frame: pd.DataFrame) -> list[dict]:
    """Rows for the template, with None (not NaN or <NA>) wherever a value is missing."""
    records = frame.astype(object).where(frame.notna(), None).to_dict("records")
    kinds, models = dict(Kind.choices), dict(PricingModel.choices)
    for record in records:
        record["kind_label"] = kinds.get(record["kind"], record["kind"])
        record["pricing_model_label"] = models.get(record["pricing_model"], record["pricing_model"])
    return records
