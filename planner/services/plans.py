"""The database side of plans: gather the engine's inputs, save plans, freeze shares.

The engine (`planner.compute.engine`) is pure: it takes a parsed plan, a catalog frame,
measurements and speed factors and returns a `Comparison`. This module is the
only place that reads `catalog` and `benchmarks_app` for it:

- prices: `catalog.pricing.catalog_frame(as_of, plan.currency)`;
- measurements: `benchmarks_app.selectors.best_measurement(class, tier, threads)`
  for each candidate tier and each workload class, at the tier's thread count;
  `NoMeasurement` is kept as the reason the tier gets no number;
- speed factors: the staff-declared `SpeedFactor` rows.

A share freezes those inputs (price rows and measurements by id and value) with the
plan and its results, so it reads the same after prices change; `recompute_snapshot`
evaluates the same plan on today's prices and runs and says what moved.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import pandas as pd
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models, transaction

from benchmarks_app.evidence import BestMeasurement, NoMeasurement
from benchmarks_app.selectors import best_measurement
from catalog.models import ExchangeRate, Price, Tier
from catalog.pricing import catalog_frame
from common.clock import today
from common.values import same_value
from planner.compute import capacity, engine, schema
from planner.models import Plan, Share, SpeedFactor

SNAPSHOT_VERSION = 1
# A response lists the cheapest options only; "options_total" says how many there were.
OPTIONS_LIMIT = 50


def plain(value: Any) -> Any:
    """JSON-able plain data (Decimal → str, dates → ISO) from whatever the engine returns."""
    return json.loads(json.dumps(value, cls=DjangoJSONEncoder))


# --- validation --------------------------------------------------------------------------


def known_tiers() -> set[str]:
    """Tier keys a new plan may name: every tier still offered."""
    return set(Tier.objects.filter(retired=False).values_list("slug", flat=True))


def parse(data: Any, *, check_tiers: bool = True) -> schema.Plan:
    """Validate a decoded JSON plan; raises `schema.PlanValidationError`."""
    return schema.parse_plan(data, known_tiers=known_tiers() if check_tiers else None)


def parse_body(body: bytes) -> schema.Plan:
    return schema.parse_plan_json(body, known_tiers=known_tiers())


# --- gathering the engine's inputs -----------------------------------------------------


@dataclass
class EngineInputs:
    plan: schema.Plan
    as_of: dt.date
    frame: pd.DataFrame
    measurements: dict[tuple[str, str], BestMeasurement | NoMeasurement]
    speed_factors: dict[str, capacity.SpeedFactor]
    speed_factor_rows: list[dict[str, Any]] = field(default_factory=list)


def plan_tiers(plan: schema.Plan) -> list[str]:
    """Tier keys the plan names (baseline, commitments, candidate parts), in order."""
    slugs = [plan.baseline.tier] if plan.baseline.tier else []
    slugs += [c.tier for c in plan.baseline.commitments if c.tier]
    slugs += [part.tier for candidate in plan.candidates for part in candidate.parts]
    return list(dict.fromkeys(slugs))


def candidate_tiers(plan: schema.Plan, frame: pd.DataFrame) -> list[str]:
    """Tiers the model may size: the candidates' parts, or every tier when none are given."""
    if not plan.candidates:
        return [str(s) for s in frame["slug"]]
    return list(dict.fromkeys(part.tier for c in plan.candidates for part in c.parts))


def workload_classes(plan: schema.Plan) -> list[str]:
    kinds = (w.kind for w in plan.workloads if w.kind != "deep_learning")
    return list(dict.fromkeys(kinds))


def speed_factors(factor_rows) -> dict[str, capacity.SpeedFactor]:
    """The engine's view of declared speed factors, keyed by the tier they describe."""
    return {
        row.tier.slug: capacity.SpeedFactor(
            relative_to=row.relative_to.slug,
            factor=float(row.factor),
            unit=row.unit,
            source=row.source,
            author=row.author,
            date=row.date,
        )
        for row in factor_rows
    }


def gather(plan: schema.Plan, *, as_of: dt.date | None = None) -> EngineInputs:
    as_of = as_of or today()
    frame = catalog_frame(as_of, plan.currency)
    slugs = candidate_tiers(plan, frame)
    factor_rows = list(
        SpeedFactor.objects.filter(tier__slug__in=slugs).select_related("tier", "relative_to")
    )
    # A speed factor's reference tier needs its own measurement looked up too.
    looked_up = list(dict.fromkeys(slugs + [row.relative_to.slug for row in factor_rows]))
    measurements = best_measurements(looked_up, workload_classes(plan))
    factors = speed_factors(factor_rows)
    return EngineInputs(
        plan=plan,
        as_of=as_of,
        frame=frame,
        measurements=measurements,
        speed_factors=factors,
        speed_factor_rows=[plain(row.to_plain()) for row in factor_rows],
    )


def best_measurements(
    slugs: Iterable[str], classes: Iterable[str]
) -> dict[tuple[str, str], BestMeasurement | NoMeasurement]:
    """best_measurement for each (tier, class) at the tier's thread count, or the reason none."""
    classes = list(classes)
    found: dict[tuple[str, str], BestMeasurement | NoMeasurement] = {}
    if not classes:
        return found
    tiers = {tier.slug: tier for tier in Tier.objects.filter(slug__in=list(slugs))}
    for slug in slugs:
        tier = tiers.get(slug)
        for cls in classes:
            if tier is None:
                found[slug, cls] = NoMeasurement(f"tier {slug} is not in the catalog")
            elif not tier.vcpus:
                found[slug, cls] = NoMeasurement(
                    f"specs unknown: tier {slug} lists no vCPU count to measure at"
                )
            else:
                try:
                    found[slug, cls] = best_measurement(cls, tier, tier.vcpus)
                except NoMeasurement as exc:
                    found[slug, cls] = exc
    return found


# --- evaluating --------------------------------------------------------------------------


@dataclass
class Evaluation:
    inputs: EngineInputs
    comparison: Any  # planner.compute.engine.Comparison

    def to_dict(self, *, fx_rows: FxRows | None = None) -> dict[str, Any]:
        """`fx_rows`: `exchange_rate_rows` or a caller's memo of it."""
        comparison = plain(self.comparison.to_dict(limit=OPTIONS_LIMIT))
        return with_provenance(comparison, fx_rows=fx_rows)


FxRows = Callable[[str | None, str], list[dict[str, Any]]]


def evaluate(plan: schema.Plan, *, as_of: dt.date | None = None) -> Evaluation:
    inputs = gather(plan, as_of=as_of)
    comparison = engine.compare(
        inputs.plan,
        inputs.frame,
        inputs.measurements,
        speed_factors=inputs.speed_factors,
        as_of=inputs.as_of,
    )
    return Evaluation(inputs, comparison)


# --- provenance: where each figure of a comparison comes from ---------------------------
#
# The engine puts a price row on every part and a measurement basis on every sized
# workload. This adapter lifts them to where the figures are: each option, its
# capacity, the baseline, the headline, price/performance rows and exchange rates,
# so a reader (or the API's provenance test) finds the source of any number by
# walking up to the nearest object with a "provenance" (or "price"/"basis").

ONE_TIME_INPUTS = {
    "migration": ["one_time.migration_hours", "one_time.migration_rate"],
    "retraining": ["one_time.retraining"],
    "other": ["one_time.other"],
}


def with_provenance(comparison: dict[str, Any], *, fx_rows: FxRows | None = None) -> dict[str, Any]:
    plan = comparison["plan"]
    for option in comparison["options"]:
        _option_provenance(option, plan)
    comparison["baseline"]["provenance"] = _baseline_provenance(comparison["baseline"], plan)
    headline = comparison["headline"]
    headline["provenance"] = {"option": headline["best"]} if headline.get("best") else {}
    prices = {p["tier"]: p["price"] for o in comparison["options"] for p in o["parts"]}
    for row in comparison.get("price_performance", []):
        if row["tier"] in prices:
            row["price"] = prices[row["tier"]]
    _fx_provenance(comparison.get("fx", []), fx_rows or exchange_rate_rows)
    return comparison


def _bases(capacity_result: dict[str, Any] | None) -> tuple[list[dict], list[dict]]:
    runs, estimates = [], []
    for workload in (capacity_result or {}).get("workloads", []):
        basis = workload.get("basis") or {}
        if "run_id" in basis:
            runs.append(basis)
        elif "estimate" in basis:
            estimates.append(basis["estimate"])
    return runs, estimates


def _option_provenance(option: dict[str, Any], plan: dict[str, Any]) -> None:
    runs, estimates = [], []
    fits: list[bool] = []
    for part in option["parts"]:
        cap = part.get("capacity")
        part_runs, part_estimates = _bases(cap)
        if cap is not None:
            cap["provenance"] = {
                "tier": part["tier"],
                "runs": part_runs,
                "estimates": part_estimates,
            }
            if cap.get("fits_in_ram") is not None:
                fits.append(bool(cap["fits_in_ram"]))
        if part["mode"] == "sized":
            runs += part_runs
            estimates += part_estimates
    entered = []
    for item, amount in option.get("one_time_items", {}).items():
        if item in ONE_TIME_INPUTS and Decimal(amount):
            entered += ONE_TIME_INPUTS[item]
    monthly = plan.get("monthly") or {}
    entered += [f"monthly.{k}" for k in ("egress", "other") if Decimal(monthly.get(k) or 0)]
    option["servers"] = sum(
        p["servers_by_month"][0] for p in option["parts"] if p["servers_by_month"]
    )
    option["fits_in_ram"] = None if not fits else all(fits)
    option["provenance"] = {
        "prices": [part["price"] for part in option["parts"]],
        "runs": runs,
        "estimates": estimates,
        "entered": entered,
    }


def _baseline_provenance(baseline: dict[str, Any], plan: dict[str, Any]) -> dict[str, Any]:
    given = plan["baseline"]
    entered = ["baseline.monthly"] if given.get("monthly") is not None else []
    prices = [baseline["price"]] if "price" in baseline else []
    for i, commitment in enumerate(given.get("commitments") or []):
        if commitment.get("monthly") is not None:
            entered.append(f"baseline.commitments[{i}].monthly")
    return {"prices": prices, "entered": entered}


def _fx_provenance(rates: list[dict[str, Any]], fx_rows: FxRows) -> None:
    for entry in rates:
        entry["rows"] = fx_rows(entry.get("date"), entry["into"])


def exchange_rate_rows(date: str | None, currency: str) -> list[dict[str, Any]]:
    """The exchange rates of `date` into or out of `currency`, as provenance rows."""
    rows = ExchangeRate.objects.filter(date=date).filter(
        models.Q(to_currency=currency) | models.Q(from_currency=currency)
    )
    return [
        {
            "rate_id": row.pk,
            "from": row.from_currency,
            "to": row.to_currency,
            "rate": str(row.rate),
            "date": row.date.isoformat(),
            "source": row.source,
        }
        for row in rows
    ]


# --- plans -------------------------------------------------------------------------------


def plan_create(*, owner, plan: schema.Plan) -> Plan:
    """Store a validated plan in its canonical form (defaults filled in, amounts as strings)."""
    inputs = schema.plan_to_dict(plan)
    return Plan.objects.create(owner=owner, name=plan.name, inputs=inputs)


def plan_for(user, code: Any) -> Plan | None:
    """The user's own plan by its UUID; None for anyone else's, a bad UUID, or none."""
    return Plan.objects.owned_by(user).filter(code=code).first()


def plan_duplicate(plan: Plan, *, owner=None, name: str | None = None) -> Plan:
    """A copy of the plan's inputs as a new plan (scenario compare starts from one)."""
    return plan.duplicate(owner=owner, name=name)


def stored_plan(plan: Plan) -> schema.Plan:
    """The stored inputs parsed again, not checked against today's catalog (a tier may
    have been retired since; the engine then says it is no longer offered)."""
    return schema.parse_plan(plan.inputs, known_tiers=None)


# --- shares ------------------------------------------------------------------------------


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


def snapshot_of(evaluation: Evaluation) -> dict[str, Any]:
    return {
        "snapshot_version": SNAPSHOT_VERSION,
        "engine_version": engine.ENGINE_VERSION,
        "as_of": evaluation.inputs.as_of.isoformat(),
        "inputs": schema.plan_to_dict(evaluation.inputs.plan),
        "prices": price_rows(evaluation),
        "measurements": measurement_rows(evaluation),
        "speed_factors": evaluation.inputs.speed_factor_rows,
        "results": evaluation.to_dict(),
    }


@transaction.atomic
def share_create(*, plan: Plan, user, as_of: dt.date | None = None) -> Share:
    evaluation = evaluate(stored_plan(plan), as_of=as_of)
    return Share.objects.create(plan=plan, snapshot=snapshot_of(evaluation), created_by=user)


def share_revoke(share: Share) -> None:
    share.revoke()


def shared(token: str) -> Share | None:
    """A live share by its token; revoked and unknown alike give None."""
    if not token or len(token) > 64:
        return None
    return Share.objects.live().filter(token=token).select_related("plan").first()


# --- today's figures beside a snapshot ------------------------------------------------------


def recompute_snapshot_inputs(share: Share, *, as_of: dt.date | None = None) -> dict[str, Any]:
    """The shared plan evaluated on `as_of`'s prices and runs (default today), and what
    changed since the snapshot: price rows, measurements, tiers no longer offered or
    retired, and every figure that moved (by option key, not by position)."""
    frozen = share.snapshot
    evaluation = evaluate(schema.parse_plan(frozen["inputs"], known_tiers=None), as_of=as_of)
    now = snapshot_of(evaluation)
    return {"as_of": now["as_of"], "snapshot": now, "diff": snapshot_diff(frozen, now)}


def snapshot_diff(then: Mapping[str, Any], now: Mapping[str, Any]) -> dict[str, Any]:
    tiers_then = {row["tier"] for row in then["prices"]}
    offered_now = {row["tier"] for row in now["prices"]}
    retired = Tier.objects.filter(slug__in=tiers_then, retired=True).values_list("slug", flat=True)
    return {
        "as_of": {"then": then["as_of"], "now": now["as_of"]},
        "prices": _changed_rows(then["prices"], now["prices"], key=("tier",)),
        "measurements": _changed_rows(
            then["measurements"], now["measurements"], key=("tier", "profile_class")
        ),
        "no_longer_offered": sorted(tiers_then - offered_now),
        "retired": sorted(retired),
        "figures": figure_changes(
            _without(then["results"], "as_of"), _without(now["results"], "as_of")
        ),
    }


def _without(data: Mapping[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != key}


def _changed_rows(then: list[dict], now: list[dict], *, key: tuple[str, ...]) -> list[dict]:
    before = {tuple(row[k] for k in key): row for row in then}
    after = {tuple(row[k] for k in key): row for row in now}
    return [
        {**dict(zip(key, k, strict=True)), "then": before.get(k), "now": after.get(k)}
        for k in sorted(set(before) | set(after))
        if before.get(k) != after.get(k)
    ]


def _keyed(items: list[Any]) -> dict[str, Any] | None:
    """A list of objects with a "key" (options) or "tier" as a dict, else None."""
    for field_name in ("key", "tier"):
        if items and all(isinstance(i, Mapping) and field_name in i for i in items):
            keyed = {str(i[field_name]): i for i in items}
            if len(keyed) == len(items):
                return keyed
    return None


def figure_changes(then: Any, now: Any, path: str = "") -> list[dict[str, Any]]:
    """Every figure that differs between two result trees, by path ("options[key].money.total").

    Lists of objects are matched by their "key" (or "tier"), so a change of rank is
    not a change of every figure; a list of plain values (a monthly series) that
    differs is one change.
    """
    if isinstance(then, Mapping) and isinstance(now, Mapping):
        out = []
        # "messages" restate the sentence fields beside them: not figures (and a share
        # frozen before they existed has none, which is no change).
        for k in sorted((set(then) | set(now)) - {"messages"}, key=str):
            out += figure_changes(then.get(k), now.get(k), f"{path}.{k}" if path else str(k))
        return out
    if isinstance(then, list) and isinstance(now, list):
        a, b = _keyed(then), _keyed(now)
        if a is not None and b is not None:
            out = []
            for k in sorted(set(a) | set(b)):
                out += figure_changes(a.get(k), b.get(k), f"{path}[{k}]")
            return out
        if len(then) == len(now) and any(isinstance(i, Mapping) for i in then + now):
            out = []
            for i, (x, y) in enumerate(zip(then, now, strict=True)):
                out += figure_changes(x, y, f"{path}[{i}]")
            return out
    if same_value(then, now):
        return []
    return [{"path": path, "then": then, "now": now}]
