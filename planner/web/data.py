"""Reads and one write the dashboard needs beyond `planner.services.plans`.

A thin adapter, kept apart so any of it can move into `planner.services.plans` without
touching the views: the catalog's freshness and the benchmark targets for the
home page, the editor's tier choices, saving an edited plan, and a cheap
"generation" of the data a plan's figures rest on (cache keys use it, so a
cached page or chart is never served once a price, rate, run or tier changed).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable
from typing import Any

import pandas as pd
from django.core.cache import cache
from django.db import connection
from django.db.models import OuterRef, Subquery
from django.utils import translation
from django.utils.translation import gettext as _

from benchmarks_app.models import Run, Target
from catalog.models import ExchangeRate, Price, PricingModel, Tier
from catalog.pricing import catalog_frame
from common import formatting
from common.clock import today
from planner.compute import engine, schema
from planner.models import Plan, Share, SpeedFactor
from planner.services import plans as services

FORM_OPTIONS_SECONDS = 600
FRAMES_KEPT = 4
_frames: dict[tuple[dt.date, str, str], pd.DataFrame] = {}
_prices: dict[tuple[dt.date, str, str], engine.Prices] = {}


def _generation_sql() -> str:
    q = connection.ops.quote_name
    price, rate, run = (
        q(Price._meta.db_table),
        q(ExchangeRate._meta.db_table),
        q(Run._meta.db_table),
    )
    tier, factor = q(Tier._meta.db_table), q(SpeedFactor._meta.db_table)
    done = f"WHERE {q('status')} = %s"
    return f"""
        (SELECT COUNT(*) FROM {price}), (SELECT MAX({q("id")}) FROM {price}),
        (SELECT SUM(CASE WHEN {q("confirmed")} THEN 1 ELSE 0 END) FROM {price}),
        (SELECT SUM({q("amount")}) FROM {price}), (SELECT SUM({q("rate")}) FROM {rate}),
        (SELECT COUNT(*) FROM {rate}), (SELECT MAX({q("id")}) FROM {rate}),
        (SELECT COUNT(*) FROM {run} {done}), (SELECT MAX({q("finished_at")}) FROM {run} {done}),
        (SELECT COUNT(*) FROM {tier}),
        (SELECT SUM(CASE WHEN {q("retired")} THEN 1 ELSE 0 END) FROM {tier}),
        (SELECT SUM(CASE WHEN {q("managed")} THEN 1 ELSE 0 END) FROM {tier}),
        (SELECT SUM(COALESCE({q("vcpus")}, 0) + COALESCE({q("cores")}, 0)
                    + COALESCE({q("gpus")}, 0) + COALESCE({q("min_term_months")}, 0)) FROM {tier}),
        (SELECT SUM(COALESCE({q("ram_gib")}, 0)) FROM {tier}),
        (SELECT COUNT(*) FROM {factor}), (SELECT MAX({q("id")}) FROM {factor}),
        (SELECT MAX({q("updated_at")}) FROM {factor})"""


def _digest(row: tuple) -> str:
    parts = [today().isoformat(), *map(str, row)]
    # sha1, not hash(): every worker process must compute the same key.
    return hashlib.sha1("|".join(parts).encode(), usedforsecurity=False).hexdigest()[:16]


def data_generation() -> str:
    """Changes whenever anything a plan's figures rest on changes.

    One query (a recompute pays it on every keystroke): counts and newest ids of the
    append-only prices and rates, the newest succeeded run, speed factors, and sums
    over the tiers' specs and flags, so an edited tier changes it too.
    """
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {_generation_sql()}", [Run.Status.SUCCEEDED] * 2)
        return _digest(cursor.fetchone())


def live_share_generation(token: str) -> str | None:
    """The data generation if `token` names a live share link, else None: one query.

    The same answer as `services.shared(token) is not None`, without loading the
    snapshot; a cached shared page costs this query and a cache lookup.
    """
    if not token or len(token) > 64:
        return None
    q = connection.ops.quote_name
    share = q(Share._meta.db_table)
    live = f"SELECT COUNT(*) FROM {share} WHERE {q('token')} = %s AND {q('revoked_at')} IS NULL"
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT ({live}), {_generation_sql()}", [token, *[Run.Status.SUCCEEDED] * 2]
        )
        row = cursor.fetchone()
    return _digest(row[1:]) if row[0] else None


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


def form_options(generation: str | None = None) -> dict[str, Any]:
    """The editor's tier choices (with specs and price) and currencies, cached per language."""
    language = translation.get_language() or "en"
    key = f"plan-form-options:{language}:{generation or data_generation()}"
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


def catalog_frame_cached(as_of: dt.date, currency: str, generation: str) -> pd.DataFrame:
    """`catalog_frame` kept in this process until the data's generation changes.

    Building the frame is most of a recompute's time; while a manager types, the
    catalog does not change. pandas copy-on-write keeps a cached frame unchanged
    by whatever the engine does with it.
    """
    key = (as_of, currency, generation)
    frame = _frames.get(key)
    if frame is None:
        frame = catalog_frame(as_of, currency)
        if len(_frames) >= FRAMES_KEPT:
            _frames.pop(next(iter(_frames)))
        _frames[key] = frame
    return frame


def prices_cached(as_of: dt.date, currency: str, generation: str) -> engine.Prices:
    """`engine.Prices` over `catalog_frame_cached`'s frame, kept beside it.

    Its memos (columns as lists, each tier's price provenance, the exchange rates,
    the rows sized) then serve every recompute until the data's generation changes.
    """
    key = (as_of, currency, generation)
    frame = catalog_frame_cached(as_of, currency, generation)
    prices = _prices.get(key)
    if prices is None or _frames.get(key) is not frame:
        prices = engine.Prices(frame, currency)
        for old in [k for k in _prices if k not in _frames]:
            del _prices[old]
        _prices[key] = prices
    return prices


def cached_comparison(plan: schema.Plan, generation: str | None = None) -> dict[str, Any]:
    """`services.evaluate(plan).to_dict()` on a cached catalog frame.

    The same steps as `services.gather` (kept in step with it), only the frame comes
    from `catalog_frame_cached`; `services.gather(plan, frame=...)` would make this
    adapter unnecessary.
    """
    as_of = today()
    generation = generation or data_generation()
    frame = catalog_frame_cached(as_of, plan.currency, generation)
    prices = prices_cached(as_of, plan.currency, generation)
    slugs = services.candidate_tiers(plan, frame)
    factor_rows = factor_rows_cached(generation, slugs)
    looked_up = list(dict.fromkeys(slugs + [row.relative_to.slug for row in factor_rows]))
    measurements = measurements_cached(generation, looked_up, services.workload_classes(plan))
    factors = services.speed_factors(factor_rows)
    inputs = services.EngineInputs(
        plan=plan,
        as_of=as_of,
        frame=frame,
        measurements=measurements,
        speed_factors=factors,
        speed_factor_rows=[services.plain(row.to_plain()) for row in factor_rows],
    )
    comparison = engine.compare(
        plan, frame, measurements, speed_factors=factors, as_of=as_of, prices=prices
    )
    return services.Evaluation(inputs, comparison).to_dict(fx_rows=fx_rows_cached(generation))


_known: dict[str, frozenset[str]] = {}
MEASUREMENTS_KEPT = 32
_measured: dict[tuple[str, tuple[str, ...], tuple[str, ...]], dict] = {}
_factors: dict[tuple[str, tuple[str, ...]], list[SpeedFactor]] = {}
_fx_rows: dict[tuple[str, str | None, str], list[dict[str, Any]]] = {}


def _memo(
    store: dict, key: tuple, compute: Callable[[], Any], kept: int | None = MEASUREMENTS_KEPT
) -> Any:
    """`store[key]`, computed on a miss. A key starts with the data generation: storing
    drops the entries of any other generation, and the oldest once `kept` are held."""
    found = store.get(key)
    if found is None:
        found = compute()
        for old in [k for k in store if k[0] != key[0]]:
            del store[old]
        if kept is not None and len(store) >= kept:
            store.pop(next(iter(store)))
        store[key] = found
    return found


def measurements_cached(generation: str, slugs: list[str], classes: list[str]) -> dict:
    """`services.best_measurements` kept in this process for the data's generation.

    A plan sized over every tier looks up a run per tier and class (dozens of queries);
    the generation changes with every finished run and every tier edit.
    """
    key = (generation, tuple(slugs), tuple(classes))
    return dict(_memo(_measured, key, lambda: services.best_measurements(slugs, classes)))


def factor_rows_cached(generation: str, slugs: list[str]) -> list[SpeedFactor]:
    """The speed factors of `slugs` (with both tiers), looked up once per data generation.

    The generation has the factors' count, newest id and newest `updated_at`, so an
    added, removed or edited factor changes it. Rows are read, never changed, by the callers.
    """
    rows = _memo(
        _factors,
        (generation, tuple(slugs)),
        lambda: list(
            SpeedFactor.objects.filter(tier__slug__in=slugs).select_related("tier", "relative_to")
        ),
    )
    return list(rows)


def fx_rows_cached(generation: str) -> services.FxRows:
    """`services.exchange_rate_rows` looked up once per data generation (rates are in it)."""

    def rows(date: str | None, currency: str) -> list[dict[str, Any]]:
        key = (generation, date, currency)
        found = _memo(_fx_rows, key, lambda: services.exchange_rate_rows(date, currency), None)
        return [dict(row) for row in found]

    return rows


def parser(generation: str) -> Callable[[Any], schema.Plan]:
    """`services.parse` with the offered tiers looked up once per data generation."""
    tiers = _known.get(generation)
    if tiers is None:
        _known.clear()
        tiers = _known[generation] = frozenset(services.known_tiers())
    return lambda data: schema.parse_plan(data, known_tiers=set(tiers))


def plan_update(plan: Plan, parsed: schema.Plan) -> None:
    """Store the edited inputs in the canonical form `services.plan_create` uses."""
    plan.inputs = schema.plan_to_dict(parsed)
    plan.name = parsed.name
    plan.save(update_fields=["inputs", "name", "updated"])


def forget() -> None:
    """Drop this process's memos (tests: rolled-back data can repeat a generation)."""
    _frames.clear()
    _prices.clear()
    _known.clear()
    _measured.clear()
    _factors.clear()
    _fx_rows.clear()
