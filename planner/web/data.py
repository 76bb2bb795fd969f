"""Reads the dashboard needs beyond `planner.services`.

The catalog's freshness and the benchmark targets for the home page, the editor's tier
choices. Saving an edited plan is `planner.services.plans.plan_update`; figures come from
`planner.services.evaluation` (the one evaluate path); the data generation that keys
every cached page, chart and choice list is `changes.selectors.current_generation`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd
from django.core.cache import cache
from django.db import connection
from django.db.models import OuterRef, Subquery
from django.utils import translation
from django.utils.translation import gettext as _

from benchmarks_app.models import Run, Target
from catalog.models import PricingModel
from catalog.pricing import catalog_frame, currencies_with_rates
from changes.selectors import Generation, current_generation, generation_with
from common import formatting
from common.clock import today
from planner.compute import schema
from planner.models import Share
from planner.services import evaluation
from planner.services import plans as services
from planner.services.inputs import Memo

FORM_OPTIONS_SECONDS = 600


def live_share_generation(token: str) -> Generation | None:
    """The data generation if `token` names a live share link, else None: one query.

    The same answer as `services.shared(token) is not None`, without loading the
    snapshot: a cached shared page costs this query and a cache lookup.
    """
    if not token or len(token) > 64:
        return None
    q = connection.ops.quote_name
    live = (
        f"SELECT COUNT(*) FROM {q(Share._meta.db_table)} "
        f"WHERE {q('token')} = %s AND {q('revoked_at')} IS NULL"
    )
    generation, found = generation_with(live, [token])
    return generation if found else None


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


def form_options(generation: Generation | None = None) -> dict[str, Any]:
    """The editor's tier choices (with specs and price) and currencies, cached per language
    and data generation (and date: a price dated tomorrow changes a choice's label)."""
    language = translation.get_language() or "en"
    generation = generation or current_generation()
    day = today().isoformat()
    key = (generation.key, language, day)
    return _options.get(key, lambda: _shared_options(language, day, generation))


def _shared_options(language: str, day: str, generation: Generation) -> dict[str, Any]:
    """The choices from the cache the workers share, else read (and put there)."""
    key = f"plan-form-options.2:{language}:{generation.key}:{day}"  # .2: labels as a dict
    options = cache.get(key)
    if options is None:
        options = _form_options(language)
        cache.set(key, options, FORM_OPTIONS_SECONDS)
    return options


# In front of the shared cache: the choices are read by every editor request, and their
# key holds the data generation (read once per request anyway), so a kept entry is never
# out of date.
_options = Memo(4)


def _form_options(language: str) -> dict[str, Any]:
    frame = catalog_frame(today())
    models = dict(PricingModel.choices)
    choices = []
    for row in frame.itertuples():
        choices.append((row.slug, tier_label(row, language, models)))
    # Only currencies a plan can be shown in: the catalog's own, and those with a dated rate.
    currencies = set(frame["currency"]) | set(currencies_with_rates(today())) or {"USD"}
    return {"tier_labels": dict(choices), "currencies": sorted(currencies)}


def tier_label(row: Any, language: str, models: dict[str, Any]) -> str:
    """A tier as the editor names it: provider and name, specs, monthly price, model."""
    specs = []
    if not pd.isna(row.vcpus) and row.vcpus:
        specs.append(f"{int(row.vcpus)} vCPU")
    if not pd.isna(row.ram_gib) and row.ram_gib:
        specs.append(f"{formatting.number(row.ram_gib, 0, language)} GiB")
    price = formatting.money(row.monthly, row.currency, language)
    per_month = _("%(price)s a month") % {"price": price}
    model = models.get(row.pricing_model, row.pricing_model)
    return " · ".join([f"{row.provider} {row.name}", *specs, per_month, str(model)])


def parser(generation: Generation) -> Callable[[Any], schema.Plan]:
    """`services.parse` with the offered tiers read once per data generation."""
    known = services.known_tiers(generation)
    currencies = services.known_currencies(generation)
    return lambda data: schema.parse_plan(data, known_tiers=known, known_currencies=currencies)


def forget() -> None:
    """Drop this process's memos (tests: rolled-back data can repeat a database state)."""
    evaluation.forget()
    _options.clear()
