"""The engine's inputs, read from the catalog and the runs in a bounded number of queries.

- prices: `catalog.pricing.catalog_frame(as_of, plan.currency)` (two queries), with the
  engine's `Prices` view of it;
- the offered tiers' declared speed factors (one query, `factor_index`); their thread
  counts and CPUs from the catalog frame (`tier_cpus`); the offered tiers' keys
  (`tier_index`, one query) only where a plan names a tier (its validation) or a tier
  with no price;
- measurements: `benchmarks_app.selectors.measured_batch` for every (tier, workload
  class) the plan needs, at the tier's thread count, in one batch (four queries: the
  profiles' versions, the linked runs, every host's current runs with their summaries,
  the winners' repetitions); where none, an estimate from published scores
  (`benchmarks_app.estimate_selectors`, its reference runs from the same hosts' runs: no
  more queries), else the reason the tier gets no number: a `Findings` that keeps
  a reason per cause and class and says each tier's when read (`benchmarks_app.findings`).

Each read is kept in this process for the data generation it was made at (and the
date, for prices): the generation changes with every write that can change a figure,
so a kept read is never out of date (`changes.memo`).
"""

from __future__ import annotations

import datetime as dt
import functools
import json
from collections.abc import Container, Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any

import pandas as pd
from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder

from benchmarks_app import estimate_selectors
from benchmarks_app.estimate_selectors import estimate_into
from benchmarks_app.evidence import BestMeasurement, NoMeasurement
from benchmarks_app.findings import Findings
from benchmarks_app.selectors import measured_batch, pending_importers
from benchmarks_app.visibility import evidence_of, viewer
from catalog import commitments as cloud_commitments
from catalog import interruptions as spot_interruptions
from catalog.models import ExchangeRate, Price, Tier
from catalog.pricing import catalog_frame, values_columns
from changes.memo import kept
from changes.selectors import Generation, current_generation
from common.django.clock import today
from planner.compute import capacity, engine, fitgate, schema
from planner.compute import commitments as stay
from planner.models import SpeedFactor

Found = BestMeasurement | NoMeasurement


def plain(value: Any) -> Any:
    """JSON-able plain data (Decimal → str, dates → ISO) from whatever the engine returns."""
    return json.loads(json.dumps(value, cls=DjangoJSONEncoder))


def generation_or_current(generation: Generation | None) -> Generation:
    return generation if generation is not None else current_generation()


def plan_currencies(generation: Generation | None = None) -> frozenset[str]:
    """The currencies a plan can be shown in, as the editor offers them: the catalog's
    prices' own and every one a dated exchange rate names (USD for an empty catalog); read
    once per data generation and day (one query)."""
    generation = generation_or_current(generation)
    day = today()
    compute = lambda: _read_currencies(day)  # noqa: E731
    return kept(generation, "services.plan_currencies", day.isoformat(), compute, most=4)


def _read_currencies(day: dt.date) -> frozenset[str]:
    """One query: the prices' currencies and both sides of every rate dated by `day`."""
    rates = ExchangeRate.objects.filter(date__lte=day).order_by()
    codes = (
        Price.objects.order_by().values_list("currency")
        .union(rates.values_list("from_currency"), rates.values_list("to_currency"))
        .order_by()  # the union's own: the models' default orderings are not allowed in it
    )  # fmt: skip
    return frozenset(code for (code,) in codes) or frozenset({"USD"})


# --- the offered tiers ----------------------------------------------------------------------


@dataclass(frozen=True)
class TierIndex:
    """The offered (not retired) tiers' keys: one set for the generation, not a copy per
    request (20,000 tiers are a millisecond to copy). Plan validation reads it only when a
    plan names a tier (`OfferedTiers`). A tier's thread count and CPU are not kept here:
    the evidence read takes them from the catalog frame it is priced on (`tier_cpus`); nor
    the speed factors (`factor_index`)."""

    offered: frozenset[str]


def tier_index(generation: Generation | None = None) -> TierIndex:
    """The offered tiers, read once per data generation: one query."""
    generation = generation_or_current(generation)
    # Kept: read by validations that name tiers; bench/memo_pays.py: 7 ms a read at 2,018
    # tiers, 69 ms at 20,000, 0.001 ms kept (when it still held every tier's thread count,
    # CPU and speed factor).
    return kept(generation, "inputs.tier_index", (), _read_index, most=1)


def _read_index() -> TierIndex:
    """Every offered tier's key, in no order (a set is made of them; the model's ordering
    was a sort the database did for nothing), read as a column (`pricing.values_columns`:
    no row tuple through Django's iterator)."""
    offered = Tier.objects.filter(retired=False).order_by().values_list("slug")
    [slugs] = values_columns(offered) or [[]]
    return TierIndex(frozenset(slugs))


class OfferedTiers(AbstractSet[str]):
    """The offered tiers' keys (`tier_index(generation).offered`) as plan validation asks
    for them: read when first asked, so a plan that names no tier (a workload-sized one)
    is validated without reading every tier's key (~1.2 ms CPU at 2,018 tiers; the index
    it read before, with every tier's thread count, CPU and speed factor, sorted, was
    ~4.3 ms of bench/api_scale.py's uncached request)."""

    def __init__(self, generation: Generation) -> None:
        self.generation = generation
        self._offered: frozenset[str] | None = None

    def _keys(self) -> frozenset[str]:
        if self._offered is None:  # once for the plan's tiers (generation 0 keeps nothing)
            self._offered = tier_index(self.generation).offered
        return self._offered

    def __contains__(self, slug: object) -> bool:
        return slug in self._keys()

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys())

    def __len__(self) -> int:
        return len(self._keys())


def offered_tiers(generation: Generation | None = None) -> OfferedTiers:
    """The tier keys a new plan may name (every tier still offered), read when asked."""
    return OfferedTiers(generation_or_current(generation))


# A SpeedFactor row as `factor_index` keeps it (its tier's slug apart).
_FACTOR_FIELDS = {
    "relative_to": "relative_to__slug",
    "factor": "factor",
    "unit": "unit",
    "source": "source",
    "author": "author",
    "date": "date",
}


def factor_index(generation: Generation | None = None) -> dict[str, dict[str, Any]]:
    """The offered tiers' declared speed factors (a handful: staff declare them), each as
    plain data (`SpeedFactor.to_plain`) by its tier: one query, kept per data generation
    (read by every evaluation; ~0.4 ms a read at 2,018 tiers)."""
    generation = generation_or_current(generation)
    return kept(generation, "inputs.factor_index", (), _read_factors, most=1)


def _read_factors() -> dict[str, dict[str, Any]]:
    named = SpeedFactor.objects.filter(tier__retired=False).values_list(
        "tier__slug", *_FACTOR_FIELDS.values()
    )
    return {
        slug: _factor_row(slug, dict(zip(_FACTOR_FIELDS, factor, strict=True)))
        for slug, *factor in named
    }


def _factor_row(slug: str, values: dict[str, Any]) -> dict[str, Any]:
    return {"tier": slug, **values, "factor": float(values["factor"])}


def _factors_of(
    slugs: Iterable[str],
    factors: Mapping[str, dict[str, Any]],
    priced: Container[str],
    generation: Generation,
) -> list[dict[str, Any]]:
    """The declared speed factors of `slugs`: the offered tiers' (`factors`), and for a
    tier no longer offered (a stored plan may name one) from one more query. A tier
    `priced` (in the catalog frame: its tiers are offered) is not looked up in the tier
    index, so a plan of priced tiers never reads it."""
    slugs = list(slugs)
    rows = [factors[s] for s in slugs if s in factors]
    if unpriced := [s for s in slugs if s not in priced and s not in factors]:
        offered = tier_index(generation).offered
        if retired := [s for s in unpriced if s not in offered]:
            found = SpeedFactor.objects.filter(tier__slug__in=retired).select_related(
                "tier", "relative_to"
            )
            rows += [row.to_plain() for row in found]
    return rows


def speed_factors(rows: Iterable[dict[str, Any]]) -> dict[str, capacity.SpeedFactor]:
    """The engine's view of declared speed factors, keyed by the tier they describe."""
    return {
        row["tier"]: capacity.SpeedFactor(
            relative_to=row["relative_to"],
            factor=float(row["factor"]),
            unit=row["unit"],
            source=row["source"],
            author=row["author"],
            date=row["date"],
        )
        for row in rows
    }


# --- prices --------------------------------------------------------------------------------


@dataclass(frozen=True)
class PricedCatalog:
    frame: pd.DataFrame
    prices: engine.Prices  # its memos serve every evaluation of the same frame


def priced_catalog(as_of: dt.date, currency: str, generation: Generation) -> PricedCatalog:
    """`catalog_frame(as_of, currency)` and its `engine.Prices`, kept per generation and date.

    pandas copy-on-write keeps a kept frame unchanged by whatever a caller does with it.
    """

    def read() -> PricedCatalog:
        frame = catalog_frame(as_of, currency)
        return PricedCatalog(frame, engine.Prices(frame, currency))

    # Kept: bench/memo_pays.py: 175 ms to build at 2,018 tiers, 1.7 s at 20,000; 0.001 ms
    # kept (and ~20 MB: too big to fetch from the shared cache each time).
    return kept(generation, "inputs.priced_catalog", (as_of, currency), read, most=4)


# --- what the plan names -------------------------------------------------------------------


def plan_tiers(plan: schema.Plan) -> list[str]:
    """Tier keys the plan names (baseline, commitments, candidate parts), in order."""
    slugs = [plan.baseline.tier] if plan.baseline.tier else []
    slugs += [c.tier for c in plan.baseline.commitments if c.tier]
    slugs += [part.tier for candidate in plan.candidates for part in candidate.parts]
    return list(dict.fromkeys(slugs))


def candidate_tiers(plan: schema.Plan, frame: pd.DataFrame) -> list[str]:
    """Tiers the model may size: the candidates' parts, or every tier when none are given."""
    if not plan.candidates:
        return [str(s) for s in frame["slug"].tolist()]
    slugs = [part.tier for c in plan.candidates for part in c.parts]
    if plan.baseline.sizing == "matched":  # the bill's tiers are sized too (issue 25)
        slugs += [t.tier for t in plan.baseline.tiers or ()]
    return list(dict.fromkeys(slugs))


def workload_classes(plan: schema.Plan) -> list[str]:
    kinds = (w.kind for w in plan.workloads if w.kind != "deep_learning")
    return list(dict.fromkeys(kinds))


# --- measurements --------------------------------------------------------------------------


def best_measurements(
    slugs: Iterable[str],
    classes: Iterable[str],
    *,
    generation: Generation | None = None,
    frame: pd.DataFrame | None = None,
) -> Findings:
    """The best measurement of each (tier, class) at the tier's thread count, or the
    reason there is none; kept per data generation (the engine only reads them).
    `frame`: the catalog frame the plan is priced on, where the tiers' thread counts and
    CPUs are read (`tier_cpus`); the same figures with or without it."""
    generation = generation_or_current(generation)
    slugs, classes = list(dict.fromkeys(slugs)), list(dict.fromkeys(classes))
    factors = factor_index(generation)

    min_r2 = fit_min_r2()
    scope = evidence_scope(generation)

    def read() -> Findings:
        with evidence_of(scope):
            return _read()

    def _read() -> Findings:
        vcpus, cpus = tier_cpus(slugs, frame)
        found, hosts = measured_batch(slugs, classes, vcpus=vcpus)
        for slug, cls, figure in list(found.figures()):
            if (gated := fitgate.gate(figure, min_r2)) is not figure:
                found.put(slug, cls, gated)
        # The ladder's lower rungs where no run measures the tier: an estimate from
        # published scores (never over a staff member's declared speed factor).
        estimate_into(found, factors, cpus, vcpus, hosts)
        return found

    key = (tuple(slugs), tuple(classes), min_r2, scope)
    # Kept: bench/memo_pays.py: a workload-sized plan's evidence was 38 ms to read at 2,018
    # tiers, 0.5 s at 20,000 (now ~11 / ~31 ms CPU, bench/api_scale.py's evidence phase);
    # ~1 ms kept at 20,000 (the key). Handed out as it is (a `Findings` is only read, no
    # copy), and compact: a reason per cause and class, not per tier
    # (benchmarks_app/findings.py).
    return kept(generation, "inputs.best_measurements", key, read, most=32)


_CPU_COLUMNS = ("slug", "vcpus", "provider", "name", "cpu_model")


def tier_cpus(
    slugs: Iterable[str], frame: pd.DataFrame | None = None
) -> tuple[dict[str, int | None], dict[str, tuple[str, str, str]]]:
    """Each tier's thread count and (provider, name, CPU model), for the evidence read
    (`measured_batch`, `estimate_into`): those of every tier `frame` holds (a catalog
    frame: every priced tier's, as read with its price), and of the tiers among `slugs` it
    does not hold (a plan may name a tier with no price, or a retired one) from one query
    (none when the frame holds them all). A tier not in the catalog is in neither.

    From the frame, not from the tier index: the frame is read for the same request
    anyway (~0.7 ms CPU at 2,018 tiers for these columns and dictionaries; the index's
    read of them, sorted, was most of its ~4.3 ms)."""
    vcpus: dict[str, int | None] = {}
    cpus: dict[str, tuple[str, str, str]] = {}
    if frame is not None and len(frame):
        tiers, counts, providers, names, models = (frame[c].tolist() for c in _CPU_COLUMNS)
        counts = [None if count is pd.NA else count for count in counts]  # Int64's missing
        vcpus = dict(zip(tiers, counts, strict=True))
        cpus = dict(zip(tiers, zip(providers, names, models, strict=True), strict=True))
    if lacking := [slug for slug in slugs if slug not in vcpus]:
        for tier in estimate_selectors.tier_cpus(lacking).values():
            vcpus[tier.slug] = tier.vcpus
            cpus[tier.slug] = (tier.provider, tier.name, tier.cpu_model)
    return vcpus, cpus


def evidence_scope(generation: Generation | None = None) -> int | None:
    """The viewer (`benchmarks_app.visibility`) when runs count for them that do not count
    for everyone (their own imports not yet confirmed by staff), else None: the figures
    everyone shares, cached once for all."""
    user = viewer()
    if user is None:
        return None
    generation = generation_or_current(generation)
    pending = kept(generation, "inputs.pending_importers", (), pending_importers, most=1)
    return user if user in pending else None


def fit_min_r2() -> float:
    """The R² below which a same-host fit sizes nothing (`PLANNER_FIT_MIN_R2`)."""
    return float(getattr(settings, "PLANNER_FIT_MIN_R2", fitgate.DEFAULT_MIN_R2))


# --- all of it -----------------------------------------------------------------------------


@dataclass
class EngineInputs:
    plan: schema.Plan
    as_of: dt.date
    frame: pd.DataFrame
    measurements: Mapping[tuple[str, str], Found]  # a `Findings` (only read)
    speed_factors: dict[str, capacity.SpeedFactor]
    speed_factor_rows: list[dict[str, Any]] = field(default_factory=list)
    prices: engine.Prices | None = None
    generation: Generation | None = None
    commitments: stay.Alternatives | None = None  # the baseline tier's cloud alternatives
    # spot tiers' published interruption ranges (catalog.interruptions), by slug
    interruptions: dict[str, stay.Interruption] = field(default_factory=dict)


def interruption_ranges(plan: schema.Plan, frame: pd.DataFrame) -> dict[str, stay.Interruption]:
    """The spot tiers' interruption ranges from `PLANNER_SPOT_INTERRUPTIONS_FILE`, the plan's
    allowance as their base (the engine's figures stay the plan's)."""
    path = getattr(settings, "PLANNER_SPOT_INTERRUPTIONS_FILE", None)
    found = _buckets(str(path)) if path else {}
    rate = plan.spot_interruption_allowance
    return {
        slug: stay.Interruption(r.low, rate, r.high, "aggregator", r.bucket)
        for slug, r in spot_interruptions.ranges_for(frame, found).items()
    }


@functools.lru_cache(maxsize=2)
def _buckets(path: str) -> dict[tuple[str, str], str]:
    return spot_interruptions.read(path)


def commitment_alternatives(
    frame: pd.DataFrame, slug: str | None, interruptions: dict[str, stay.Interruption] | None = None
) -> stay.Alternatives | None:
    """The baseline tier's commitment and spot alternatives as the engine's plain data
    (`catalog.commitments.alternatives`); None for a quoted baseline."""
    if slug is None:
        return None
    slots = tuple(
        stay.Slot(a.group, a.years, a.slug, a.pricing_model, a.missing)
        for a in cloud_commitments.alternatives(frame, slug)
    )
    return stay.Alternatives(
        slug, cloud_commitments.on_demand_of(frame, slug), slots, dict(interruptions or {})
    )


def gather(
    plan: schema.Plan, *, as_of: dt.date | None = None, generation: Generation | None = None
) -> EngineInputs:
    generation = generation_or_current(generation)
    as_of = as_of or today()
    catalog = priced_catalog(as_of, plan.currency, generation)
    slugs = candidate_tiers(plan, catalog.frame)
    factor_rows = _factors_of(slugs, factor_index(generation), catalog.prices, generation)
    # A speed factor's reference tier needs its own measurement looked up too.
    looked_up = list(dict.fromkeys(slugs + [row["relative_to"] for row in factor_rows]))
    measurements = best_measurements(
        looked_up, workload_classes(plan), generation=generation, frame=catalog.frame
    )
    interruptions = interruption_ranges(plan, catalog.frame)
    return EngineInputs(
        plan=plan,
        as_of=as_of,
        frame=catalog.frame,
        measurements=measurements,
        speed_factors=speed_factors(factor_rows),
        speed_factor_rows=[plain(row) for row in factor_rows],
        prices=catalog.prices,
        generation=generation,
        commitments=commitment_alternatives(catalog.frame, plan.baseline.tier, interruptions),
        interruptions=interruptions,
    )
