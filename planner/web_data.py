"""Reads and one write the dashboard needs beyond `planner.services`.

A thin adapter, kept apart so any of it can move into `planner.services` without
touching the views: the catalog's freshness and the benchmark targets for the
home page, the editor's tier choices, saving an edited plan, and a cheap
"generation" of the data a plan's figures rest on (cache keys use it, so a
cached page or chart is never served once a price, rate, run or tier changed).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Any

import pandas as pd
from django.core.cache import cache
from django.db.models import Count, Max, OuterRef, Q, Subquery
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from benchmarks_app.models import Run, Target
from catalog.models import ExchangeRate, Price, PricingModel, Tier
from catalog.pricing import catalog_frame
from planner import formatting, schema
from planner.models import Plan, SpeedFactor

FORM_OPTIONS_SECONDS = 600


def today() -> dt.date:
    return timezone.localdate()


def data_generation() -> str:
    """Changes whenever anything a plan's figures rest on changes (prices are append-only)."""
    prices = Price.objects.aggregate(n=Count("id"), last=Max("id"))
    rates = ExchangeRate.objects.aggregate(n=Count("id"), last=Max("id"))
    runs = Run.objects.filter(status=Run.Status.SUCCEEDED).aggregate(
        n=Count("id"), last=Max("finished_at")
    )
    tiers = Tier.objects.aggregate(n=Count("id"), retired=Count("id", filter=_retired()))
    factors = SpeedFactor.objects.aggregate(n=Count("id"), last=Max("id"))
    parts = [today().isoformat(), prices, rates, runs, tiers, factors]
    # sha1, not hash(): every worker process must compute the same key.
    return hashlib.sha1(repr(parts).encode(), usedforsecurity=False).hexdigest()[:16]


def _retired() -> Q:
    return Q(retired=True)


def catalog_freshness() -> dict[str, Any]:
    """The newest price date, how many prices are stale, how many only quoted."""
    frame = catalog_frame(today())
    if frame.empty:
        return {"tiers": 0, "newest": None, "stale": 0, "unconfirmed": 0}
    return {
        "tiers": len(frame),
        "newest": max(frame["effective_from"]),
        "stale": int(frame["stale"].sum()),
        "unconfirmed": int((~frame["confirmed"].astype(bool)).sum()),
    }


def bench_targets() -> list[dict[str, Any]]:
    """Each benchmark target with its newest run (one query for the runs)."""
    newest = Run.objects.filter(target=OuterRef("pk")).order_by("-created_at").values("pk")[:1]
    targets = list(Target.objects.select_related("tier").annotate(last_run_id=Subquery(newest)))
    runs = Run.objects.for_listing().in_bulk([t.last_run_id for t in targets if t.last_run_id])
    return [
        {"target": t, "alive": t.is_alive(), "last_run": runs.get(t.last_run_id)} for t in targets
    ]


def form_options() -> dict[str, Any]:
    """The editor's tier choices (with specs and price) and currencies, cached per language."""
    language = translation.get_language() or "en"
    key = f"plan-form-options:{language}:{data_generation()}"
    options = cache.get(key)
    if options is None:
        options = _form_options(language)
        cache.set(key, options, FORM_OPTIONS_SECONDS)
    return options


def _form_options(language: str) -> dict[str, Any]:
    frame = catalog_frame(today())
    models = dict(PricingModel.choices)
    choices = []
    for row in frame.itertuples():
        specs = []
        if not pd.isna(row.vcpus) and row.vcpus:
            specs.append(f"{int(row.vcpus)} vCPU")
        if not pd.isna(row.ram_gib) and row.ram_gib:
            specs.append(f"{formatting.number(row.ram_gib, 0, language)} GiB")
        price = formatting.money(row.monthly, row.currency, language)
        per_month = _("%(price)s a month") % {"price": price}
        model = models.get(row.pricing_model, row.pricing_model)
        label = " · ".join([f"{row.provider} {row.name}", *specs, per_month, str(model)])
        choices.append((row.slug, label))
    currencies = set(frame["currency"]) | {"USD"}
    for pair in ExchangeRate.objects.values_list("from_currency", "to_currency").distinct():
        currencies.update(pair)
    return {"tier_choices": choices, "currencies": sorted(currencies)}


def plan_update(plan: Plan, parsed: schema.Plan) -> None:
    """Store the edited inputs in the canonical form `services.plan_create` uses."""
    plan.inputs = schema.plan_to_dict(parsed)
    plan.name = parsed.name
    plan.save(update_fields=["inputs", "name", "updated"])
