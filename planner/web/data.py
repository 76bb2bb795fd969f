"""Reads the dashboard needs beyond `planner.services`.

The catalog's freshness for the home page and the editor's tier choices. Figures come
from `planner.services.evaluation` (the one evaluate path); the data generation that
keys every cached page, chart and choice list is `changes.selectors.current_generation`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd
from django.core.cache import cache
from django.utils import translation
from django.utils.translation import gettext as _

from catalog import selectors as catalog_selectors
from catalog.pricing import catalog_frame, currencies_with_rates
from changes.memo import kept
from changes.selectors import Generation, current_generation
from common import formatting
from common.django.clock import today
from estimates import scores
from planner.compute import schema
from planner.services import plans as services

FORM_OPTIONS_SECONDS = 600


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


def form_options(generation: Generation | None = None) -> dict[str, Any]:
    """The editor's tier choices (with specs and price) and currencies, cached per language
    and data generation (and date: a price dated tomorrow changes a choice's label)."""
    language = translation.get_language() or "en"
    generation = generation or current_generation()
    day = today().isoformat()
    # Kept: bench/memo_pays.py, 0.9 ms from the shared cache at 2,018 tiers, 29 ms at
    # 20,000 (the labels of every tier); 0.01 ms kept. Read by every editor request.
    compute = lambda: _shared_options(language, day, generation)  # noqa: E731
    return kept(generation, "web.form_options", (language, day), compute, most=4)


def _shared_options(language: str, day: str, generation: Generation) -> dict[str, Any]:
    """The choices from the cache the workers share, else read (and put there)."""
    key = f"plan-form-options.2:{language}:{generation.key}:{day}"  # .2: labels as a dict
    options = cache.get(key)
    if options is None:
        options = _form_options(language)
        cache.set(key, options, FORM_OPTIONS_SECONDS)
    return options


def _form_options(language: str) -> dict[str, Any]:
    frame = catalog_frame(today())
    models = catalog_selectors.pricing_model_labels()
    choices = []
    for row in frame.itertuples():
        choices.append((row.slug, tier_label(row, language, models)))
    # Only currencies a plan can be shown in: the catalog's own, and those with a dated rate.
    currencies = set(frame["currency"]) | set(currencies_with_rates(today())) or {"USD"}
    return {"tier_labels": dict(choices), "currencies": sorted(currencies)}


def _text(value: Any) -> str:
    return "" if value is None or (isinstance(value, float) and pd.isna(value)) else str(value)


def tier_label(row: Any, language: str, models: dict[str, Any]) -> str:
    """A tier as the editor names it: provider and name, specs (with its CPU: the offer's,
    else what public runs saw; both where they differ), monthly price, model."""
    specs = []
    if not pd.isna(row.vcpus) and row.vcpus:
        specs.append(f"{int(row.vcpus)} vCPU")
    if not pd.isna(row.ram_gib) and row.ram_gib:
        specs.append(f"{formatting.number(row.ram_gib, 0, language)} GiB")
    cpu = scores.tier_cpu_label(row.provider, row.name, _text(row.cpu_model))
    if cpu.runs_saw:
        specs.append(_("offer: %(offered)s; runs saw %(seen)s") % {
            "offered": cpu.shown, "seen": cpu.runs_saw})  # fmt: skip
    elif cpu.shown:
        specs.append(cpu.shown)
    price = formatting.money(row.monthly, row.currency, language)
    per_month = _("%(price)s a month") % {"price": price}
    model = models.get(row.pricing_model, row.pricing_model)
    return " · ".join([f"{row.provider} {row.name}", *specs, per_month, str(model)])


def parser(generation: Generation) -> Callable[[Any], schema.Plan]:
    """`services.parse` with the offered tiers read once per data generation."""
    known = services.known_tiers(generation)
    currencies = services.known_currencies(generation)
    return lambda data: schema.parse_plan(data, known_tiers=known, known_currencies=currencies)
