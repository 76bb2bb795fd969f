"""The one evaluate path: a plan in, its comparison (and a share's snapshot) out, cached.

The dashboard's editor, the API, the CSV exports, share links, scenario compare and the
shared page's "today" all call `comparison` (or `snapshot`). The answer is cached under
everything it rests on:

- the data generation (`changes.selectors.current_generation`): every write that can
  change a figure records a change, so no answer outlives the data it was computed on;
- the calendar date: a price dated tomorrow, and a price growing stale, change figures
  without any write;
- the plan's currency and its canonical content (`schema.plan_to_dict`, the form a
  stored plan keeps), so two ways of writing the same plan share one answer.

The cache keeps the answer as its model (`planner.compute.answer.Answer`, pickled by
Django's cache), which the pages read as it is, and beside it the answer's JSON bytes,
which the API returns: neither is decoded on the way.

Uncached, an evaluation reads the engine's inputs through `inputs.gather` in a bounded
number of queries (at most ten with the generation read, whatever the catalog's size),
and keeps each read in this process for the generation.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.core.cache import cache
from django.core.serializers.json import DjangoJSONEncoder

from benchmarks_app.evidence import BestMeasurement
from catalog.models import Price
from changes.selectors import Generation
from common.django import clock
from common.gcpause import paused
from common.messages import msg
from planner.compute import answer_json, bounds, breakeven, engine, montecarlo, schema, tco
from planner.compute import uncertainty as ranges
from planner.compute.answer import Answer
from planner.compute.answer_bill import BillCommitments
from planner.compute.uncertainty_answer import Uncertainty, UncertaintyBase
from planner.services import bill_commitments as bill_deals
from planner.services import inputs as engine_inputs
from planner.services.inputs import EngineInputs, candidate_tiers, plain, plan_tiers
from planner.services.provenance import with_provenance

SNAPSHOT_VERSION = 2  # 2: the sensitivity and odds frozen under "uncertainty"
# A response lists the cheapest options only; "options_total" says how many there were.
OPTIONS_LIMIT = 50
# Raised when the shape of a cached answer changes, so a deploy never serves the old one.
CACHE_VERSION = 4  # 4: the answer kept as its model, its encoded JSON beside
CACHE_SECONDS = 24 * 3600  # the key holds the date: a day is as long as an answer can live
# raised when the shape of `uncertainty_of` changes; 5: owned inputs (21), spot interruption (27);
UNCERTAINTY_VERSION = 6  # 6: kept as its model (`uncertainty_answer.Uncertainty`)


@dataclass
class Evaluation:
    inputs: EngineInputs
    comparison: Any  # planner.compute.engine.Comparison
    _bill: list[BillCommitments | None] = field(default_factory=list, repr=False)

    def bill_commitments(self) -> BillCommitments | None:
        """A bill baseline's commitments weighed against the bill (issue 27), None for any
        other baseline: read once, when an answer is written (the odds never need it)."""
        if not self._bill:
            self._bill.append(bill_deals.for_plan(self.inputs.plan, self.inputs.prices))
        return self._bill[0]

    def answer(self) -> Answer:
        """The answer (`planner.compute.answer.Answer`): the engine's output models, the
        cheapest `OPTIONS_LIMIT` options, with the sources of their figures and a bill
        baseline's commitments. What the API, the pages and a share read."""
        output = self.comparison.output(limit=OPTIONS_LIMIT)
        return with_provenance(output, self.inputs.generation, self.bill_commitments())

    def to_dict(self) -> dict[str, Any]:
        """The answer as plain data (what a share freezes): its JSON, decoded."""
        return json.loads(self.to_json())

    def to_json(self) -> bytes:
        """The answer's JSON bytes (what the API returns and the cache keeps): the model
        encoded once (`encoded`)."""
        return encoded(self.answer())


def evaluate(
    plan: schema.Plan, *, as_of: dt.date | None = None, generation: Generation | None = None
) -> Evaluation:
    """The plan evaluated now (uncached): the engine's inputs and its comparison."""
    inputs = engine_inputs.gather(plan, as_of=as_of, generation=generation)
    comparison = engine.compare(
        inputs.plan,
        inputs.frame,
        inputs.measurements,
        speed_factors=inputs.speed_factors,
        as_of=inputs.as_of,
        prices=inputs.prices,
        commitments=inputs.commitments,
    )
    return Evaluation(inputs, comparison)


def answer(
    plan: schema.Plan, *, as_of: dt.date | None = None, generation: Generation | None = None
) -> Answer:
    """`evaluate(plan).answer()`, cached by generation, date, currency and plan content: the
    model itself (a page reads it as it is; nothing is decoded)."""

    def compute(day: dt.date, gen: Generation) -> Answer:
        with paused():  # common/gcpause.py: the evidence read and the engine
            return evaluate(plan, as_of=day, generation=gen).answer()

    return cached("answer", plan, compute, as_of=as_of, generation=generation)


def comparison_json(
    plan: schema.Plan, *, as_of: dt.date | None = None, generation: Generation | None = None
) -> bytes:
    """The answer as the API's JSON bytes (what `JsonResponse` would encode), cached beside
    `answer`'s model (on a miss encoded from that model where the cache has it, else from
    a fresh evaluation, whose model is not kept: pickling it would cost the API's uncached
    answer for pages that may never ask): one encoding serves the cache and every
    response, and a cached answer is never decoded to be encoded again."""
    generation = engine_inputs.generation_or_current(generation)
    as_of = as_of or clock.today()
    content = content_digest(plan)  # once for both kinds' keys
    key = cache_key("comparison", plan, as_of, generation, content=content)
    found = cache.get(key)
    if found is None:
        model = cache.get(cache_key("answer", plan, as_of, generation, content=content))
        with paused():  # common/gcpause.py: the evidence read, the engine and the encoding
            if model is None:  # not kept as a model: the API reads only the bytes
                found = evaluate(plan, as_of=as_of, generation=generation).to_json()
            else:
                found = encoded(model)
        cache.set(key, found, CACHE_SECONDS)
    return found


def encoded(answer: Answer | dict[str, Any]) -> bytes:
    """The answer's JSON exactly as `JsonResponse(answer.model_dump())` encodes it: an
    `Answer` through `answer_json.encoded` (its tiers with no figure by shape, the same
    bytes: at 20,000 tiers 90 ms, not 440), data through `json.dumps`. Without the check
    for cycles (the same bytes; an answer is a tree): at 20,000 tiers the encoder's
    record of every list and dictionary it is inside was a fifth of `json.dumps`."""
    if isinstance(answer, Answer):
        return answer_json.encoded(answer, _DJANGO.default)
    return json.dumps(answer, cls=DjangoJSONEncoder, check_circular=False).encode()


_DJANGO = DjangoJSONEncoder()  # its `default`: Decimals, dates, lazy strings


def snapshot(
    plan: schema.Plan, *, as_of: dt.date | None = None, generation: Generation | None = None
) -> dict[str, Any]:
    """What a share freezes (inputs, price rows, measurements, results), cached like
    `answer`; its results are the answer's JSON, whose bytes it caches on the way."""
    generation = engine_inputs.generation_or_current(generation)
    as_of = as_of or clock.today()

    content = content_digest(plan)  # once for both kinds' keys

    def compute() -> dict[str, Any]:
        evaluated = evaluate(plan, as_of=as_of, generation=generation)
        data = evaluated.to_json()
        # its bytes for the API; not its model (pickled only where a page asks, `answer`)
        key = cache_key("comparison", plan, as_of, generation, content=content)
        cache.add(key, data, CACHE_SECONDS)
        return snapshot_of(evaluated, data)

    return _cached(cache_key("snapshot", plan, as_of, generation, content=content), compute)


def content_digest(plan: schema.Plan, stored: dict[str, Any] | None = None) -> str:
    """The plan's canonical content as a hex digest: two ways of writing one plan agree.
    `stored`: its `plain(plan_to_dict(plan))`, when the caller has it already."""
    stored = plain(schema.plan_to_dict(plan)) if stored is None else stored
    canonical = json.dumps(stored, sort_keys=True, separators=(",", ":"))
    # sha256, not hash(): every worker process must compute the same key.
    return hashlib.sha256(canonical.encode()).hexdigest()


def cache_key(
    kind: str,
    plan: schema.Plan,
    as_of: dt.date,
    generation: Generation,
    *,
    content: str | None = None,
) -> str:
    """The cache's key of `kind` for the plan; `content`: its `content_digest(plan)`, when
    the caller has it already (a request that asks two kinds digests the plan once)."""
    content = content_digest(plan) if content is None else content
    version = f"{CACHE_VERSION}.{engine.ENGINE_VERSION}.r2-{engine_inputs.fit_min_r2()}"
    parts = [version, kind, generation.key]
    # Whose unconfirmed imports count (None for most: the figures everyone shares).
    if (scope := engine_inputs.evidence_scope(generation)) is not None:
        parts.append(f"viewer-{scope}")
    return ":".join(["evaluation", *parts, as_of.isoformat(), plan.currency, content])


def cached[T](
    kind: str,
    plan: schema.Plan,
    compute: Callable[[dt.date, Generation], T],
    *,
    as_of: dt.date | None = None,
    generation: Generation | None = None,
) -> T:
    """`compute(as_of, generation)`, kept in the cache under `cache_key(kind, ...)`: once
    per plan, data generation, date and (where imports count only for some) viewer.
    `as_of` defaults to today, `generation` to the current one (read once here). For
    answers computed from a plan beside the evaluation (the odds, the next runs worth
    making)."""
    generation = engine_inputs.generation_or_current(generation)
    as_of = as_of or clock.today()
    return _cached(cache_key(kind, plan, as_of, generation), lambda: compute(as_of, generation))


def _cached[T](key: str, compute: Callable[[], T]) -> T:
    found = cache.get(key)
    if found is None:
        found = compute()
        cache.set(key, found, CACHE_SECONDS)
    return found


# --- what a share freezes -------------------------------------------------------------------


def price_rows(evaluation: Evaluation) -> list[dict[str, Any]]:
    """The price rows the plan used, by id and value, in their own currency."""
    plan = evaluation.inputs.plan
    frame = evaluation.inputs.frame
    used = set(plan_tiers(plan)) | set(candidate_tiers(plan, frame))
    rows = frame.loc[frame["slug"].isin(used)]
    fx = dict(zip(rows["price_id"], rows["fx_rate"], strict=True)) if "fx_rate" in rows else {}
    out = []
    for price in Price.objects.filter(pk__in=[int(i) for i in rows["price_id"]]).select_related(
        "tier"
    ):
        out.append(
            {
                "id": price.pk,
                "tier": price.tier.slug,
                "amount": str(price.amount),
                "unit": price.unit,
                "currency": price.currency,
                "setup_fee": str(price.setup_fee),
                "effective_from": price.effective_from.isoformat(),
                "source": price.source,
                "source_url": price.source_url,
                "confirmed": price.confirmed,
                "fx_rate": fx.get(price.pk),
            }
        )
    return sorted(out, key=lambda row: row["tier"])


def measurement_rows(evaluation: Evaluation) -> list[dict[str, Any]]:
    """The measurements the plan was sized from, with their runs, by id and value."""
    out = []
    for (slug, cls), found in sorted(evaluation.inputs.measurements.items()):
        if isinstance(found, BestMeasurement):
            out.append(
                {
                    "tier": slug,
                    "profile_class": cls,
                    "run_id": found.run_id,
                    "host": found.host,
                    "profile": found.profile_name,
                    "profile_version": found.profile_version,
                    "scale": found.scale,
                    "threads": found.threads,
                    "value": found.value,
                    "metric": found.metric,
                    "unit": found.unit,
                    "measured": found.measured,
                    "fit": found.fit,
                    "extrapolation": found.extrapolation,
                }
            )
        else:
            out.append({"tier": slug, "profile_class": cls, "none": str(found)})
    return out


def snapshot_of(evaluation: Evaluation, data: bytes | None = None) -> dict[str, Any]:
    """What a share freezes; `data`: the evaluation's JSON bytes, when the caller has them."""
    return {
        "snapshot_version": SNAPSHOT_VERSION,
        "engine_version": engine.ENGINE_VERSION,
        "as_of": evaluation.inputs.as_of.isoformat(),
        "inputs": schema.plan_to_dict(evaluation.inputs.plan),
        "prices": price_rows(evaluation),
        "measurements": measurement_rows(evaluation),
        "speed_factors": evaluation.inputs.speed_factor_rows,
        "results": json.loads(evaluation.to_json() if data is None else data),
    }


# --- sensitivity through the engine and the odds of paying back (deferred) ------------------


def uncertainty_of(evaluation: Evaluation, *, seed: int = montecarlo.SEED) -> Uncertainty:
    """The one-way table of every uncertain input (recomputed through the engine; money
    inputs as amounts with their break-even to the cent), the tornado's eight widest bars
    and the Monte Carlo of the three leading options, as output models
    (`planner.compute.uncertainty_answer`)."""
    inputs, comparison_ = evaluation.inputs, evaluation.comparison
    plan = inputs.plan
    moves = engine.moving(comparison_.options)  # the odds are about switching
    if not moves:
        return Uncertainty(option=None, currency=plan.currency,
                           horizon_months=plan.horizon_months, base=None, one_way=[],
                           tornado=None, montecarlo=None)  # fmt: skip
    model = montecarlo.Model(
        plan, inputs.frame, inputs.measurements, inputs.speed_factors, prices=inputs.prices,
        interruptions=inputs.interruptions,
    )  # fmt: skip
    best = moves[0]

    seen: dict[tuple, tuple[int, int, int] | None] = {}

    def outcome(values: Any) -> tuple[int, int, int] | None:
        key = tuple(sorted(values.items()))
        if key not in seen:
            seen[key] = _outcome(values)
        return seen[key]

    def _outcome(values: Any) -> tuple[int, int, int] | None:
        values = ranges.bill_for_tier_baseline(plan, values)
        moved, frame, found = ranges.apply(plan, inputs.frame, inputs.measurements, values)
        try:
            result = engine.compare(moved, frame, found, inputs.speed_factors, as_of=inputs.as_of)
        except engine.PlanTooLarge as exc:  # this end passes a maximum: `within_bounds`
            raise exc.reason from None
        for option in result.options:
            if option.key == best.key:
                m = option.money
                return (tco.to_cents(m.npv), tco.to_cents(m.saving), m.payback_month or 0)
        return None

    entered = {r.input: i for i, r in enumerate(plan.ranges)}
    try:
        model.items = ranges.within_bounds(model.items, outcome, entered)
        rows = ranges.one_way(model.items, outcome, plan.horizon_months)
        odds = montecarlo.summary(model, seed=seed)
    except bounds.TooLarge as exc:  # an entered range, or the draws at once: refused
        raise engine.too_large(exc.at("ranges")) from None
    amounts = _amounts(evaluation, model.items)
    # an amount of nothing moves nothing: no "$0-$0 one-time costs" row (issue 21)
    rows = [r for r in rows if r["input"] not in amounts or amounts[r["input"]].value != 0]
    found = breakeven.in_money(
        rows, model.items, amounts, outcome,
        currency=plan.currency, horizon=plan.horizon_months,
        base_pays=best.money.payback_month is not None, labels=_labels(inputs, model.items),
    )  # fmt: skip
    base_npv = str(best.money.npv)
    return Uncertainty(
        option=best.key,
        currency=plan.currency,
        horizon_months=plan.horizon_months,
        base=UncertaintyBase(
            npv=base_npv, saving=str(best.money.saving), payback_month=best.money.payback_month
        ),
        one_way=found,
        tornado=ranges.tornado(found, base_npv),
        montecarlo=odds,
    )


def _amounts(evaluation: Evaluation, items: list[ranges.Uncertain]) -> dict[str, Any]:
    """What factor 1 is in money for the inputs that are amounts: today's bill (month 1),
    each leading tier's monthly price, the one-time costs the plan enters."""
    plan, prices = evaluation.inputs.plan, evaluation.inputs.prices
    bill = plan.baseline.monthly
    if bill is None:
        bill = Decimal(evaluation.comparison.baseline.monthly[0])
    options = evaluation.comparison.options
    carried = options[0].one_time_items if options else {}  # the best option's (issue 21)
    out = {
        "baseline_monthly": breakeven.Amount(Decimal(bill), breakeven.MONTH),
        "one_time": breakeven.Amount(
            sum((Decimal(carried.get(k, 0)) for k in ("migration", "retraining", "other")),
                Decimal(0)),
            breakeven.ONCE,
        ),
    }  # fmt: skip
    for item in items:
        if item.name.startswith("price:"):
            slug = item.name.split(":", 1)[1]
            out[item.name] = breakeven.Amount(prices.monthly(slug), breakeven.MONTH)
    return out


def _labels(inputs: EngineInputs, items: list[ranges.Uncertain]) -> dict[str, Any]:
    """A tier's price as its title says it ("the price of InMotion Extreme · monthly")."""
    return {
        item.name: msg("uncertainty.price", tier=inputs.prices.title(item.name.split(":", 1)[1]))
        for item in items
        if item.name.startswith("price:")
    }


def uncertainty(
    plan: schema.Plan,
    *,
    as_of: dt.date | None = None,
    generation: Generation | None = None,
    seed: int = montecarlo.SEED,
) -> Uncertainty:
    """`uncertainty_of(evaluate(plan))`, cached per plan, data generation, date and seed:
    the model itself (pickled by Django's cache)."""
    return cached(
        f"uncertainty-v{UNCERTAINTY_VERSION}-{seed}",
        plan,
        lambda day, gen: uncertainty_of(evaluate(plan, as_of=day, generation=gen), seed=seed),
        as_of=as_of,
        generation=generation,
    )
