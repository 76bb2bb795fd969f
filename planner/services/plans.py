"""Plans and shares: validation, the only writes of plans, frozen share links.

Evaluating a plan is `planner.services.evaluation` (the one evaluate path, cached by the
data generation); its inputs are read by `planner.services.inputs`. A share freezes
those inputs (price rows and measurements by id and value) with the plan and its
results, so it reads the same after prices change; `recompute_snapshot_inputs`
evaluates the same plan on today's prices and runs and says what moved.
"""

from __future__ import annotations

import datetime as dt
import functools
import uuid
from collections.abc import Mapping
from typing import Any

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from benchmarks_app.visibility import evidence_of
from catalog.models import Tier
from changes.selectors import Generation, generation_with
from common.values import same_value
from planner.compute import schema
from planner.models import Plan, Share
from planner.services import evaluation, next_runs
from planner.services import inputs as engine_inputs
from planner.services.bills import frozen_bill, shared_bill_aggregates, take_from_bill

# --- validation --------------------------------------------------------------------------


def known_tiers(generation: Generation | None = None) -> engine_inputs.OfferedTiers:
    """Tier keys a new plan may name: every tier still offered (kept per generation), read
    when first asked (a plan that names no tier never reads them)."""
    return engine_inputs.offered_tiers(generation)


def known_currencies(generation: Generation | None = None) -> frozenset[str]:
    """Currencies a new plan may be in: those it can be shown in (a rate or the catalog's)."""
    return engine_inputs.plan_currencies(generation)


def parse(
    data: Any, *, check_tiers: bool = True, generation: Generation | None = None
) -> schema.Plan:
    """Validate a decoded JSON plan; raises `schema.PlanValidationError`. `check_tiers`:
    against today's catalog (its offered tiers, and the currencies it can show)."""
    if not check_tiers:
        return schema.parse_plan(data)
    generation = engine_inputs.generation_or_current(generation)  # read once
    return schema.parse_plan(data, known_tiers=known_tiers(generation),
                             known_currencies=known_currencies(generation))  # fmt: skip


def parse_body(body: bytes, *, generation: Generation | None = None) -> schema.Plan:
    generation = engine_inputs.generation_or_current(generation)  # read once
    return schema.parse_plan_json(body, known_tiers=known_tiers(generation),
                                  known_currencies=known_currencies(generation))  # fmt: skip


def parse_owned(data: Any, owner: Any, *, generation: Generation | None = None) -> schema.Plan:
    """`parse`, with the baseline taken from `baseline.bill` when the plan names a bill of
    `owner`'s (`planner.services.bills`): its monthly is the bill's figure, whatever was
    sent; another user's bill is refused as not found, with every other problem."""
    data, refused = take_from_bill(data, owner)
    try:
        parsed = parse(data, generation=generation)
    except schema.PlanValidationError as exc:
        raise schema.PlanValidationError({**exc.details, **refused}) from None
    if refused:
        raise schema.PlanValidationError(refused)
    return parsed


# --- plans -------------------------------------------------------------------------------


def plan_create(*, owner, plan: schema.Plan) -> Plan:
    """Store a validated plan in its canonical form (defaults filled in, amounts as strings)."""
    stored = schema.plan_to_dict(plan)
    return Plan.objects.create(owner=owner, name=plan.name, inputs=stored)


class StalePlan(Exception):
    """The plan changed since the version a save started from: nothing was written.
    `current` is the plan as it is now (its `version` the one to name to overwrite it)."""

    def __init__(self, current: Plan) -> None:
        super().__init__(f"plan {current.code} is at version {current.version}")
        self.current = current


def plan_update(plan: Plan, parsed: schema.Plan, *, expected_version: int | None) -> Plan:
    """Store edited inputs (canonical form, as `plan_create`), if the plan is still at
    `expected_version` (None: whatever it is, for a caller that asked to overwrite);
    else `StalePlan`. The check and the write are one statement, so of two saves from the
    same version exactly one is stored. Returns the plan as stored (its new version)."""
    stored = schema.plan_to_dict(parsed)
    same = Plan.objects.filter(pk=plan.pk)
    if expected_version is not None:
        same = same.filter(version=expected_version)
    written = same.update(inputs=stored, name=parsed.name, updated=timezone.now(),
                          version=F("version") + 1)  # fmt: skip
    current = Plan.objects.get(pk=plan.pk)
    if not written:
        raise StalePlan(current)
    return current


def etag(plan: Plan) -> str:
    """The plan's version as an HTTP entity tag (strong: the inputs are the version's)."""
    return f'"{plan.version}"'


def version_of_etag(tag: str) -> int | None:
    """The version an If-Match names; None for "*" (any); -1 for none of ours."""
    tag = tag.strip()
    if tag == "*":
        return None
    inner = tag[1:-1] if len(tag) >= 2 and tag[0] == tag[-1] == '"' else ""
    return int(inner) if inner.isascii() and inner.isdigit() and len(inner) < 12 else -1


def plan_viewed(plan: Plan, figures: dict[str, Any], generation: int) -> None:
    """Remember what the owner was just shown. An update, not save(): viewing is not an
    edit, so `updated` stays and no change is recorded."""
    if plan.seen_generation == generation and plan.seen_figures == figures:
        return
    Plan.objects.filter(pk=plan.pk).update(seen_generation=generation, seen_figures=figures)
    plan.seen_generation, plan.seen_figures = generation, figures


def plan_for(user, code: Any) -> Plan | None:
    """The user's own plan by its UUID; None for anyone else's, a malformed id, or none
    (a malformed id answers like a missing plan)."""
    try:
        code = uuid.UUID(str(code))
    except ValueError:
        return None
    return Plan.objects.owned_by(user).filter(code=code).first()


def plan_rows(user, fields: tuple[str, ...]) -> tuple[tuple[Any, ...], ...]:
    """`fields` of each of the user's plans as the database gives them, in id order: one
    plain query (the home page keys its kept page on these rows, so every value is
    hashable: JSON as its text, also where the database would decode it)."""
    with connection.cursor() as cursor:
        cursor.execute(_plan_rows_sql(fields), [user.pk])
        return tuple(cursor.fetchall())


@functools.cache
def _plan_rows_sql(fields: tuple[str, ...]) -> str:
    q = connection.ops.quote_name
    column = {name: q(Plan._meta.get_field(name).column) for name in fields}
    json_fields = {f.name for f in Plan._meta.fields if f.get_internal_type() == "JSONField"}
    columns = ", ".join(
        f"CAST({column[name]} AS TEXT)" if name in json_fields else column[name] for name in fields
    )
    table = q(Plan._meta.db_table)
    return f"SELECT {columns} FROM {table} WHERE {q('owner_id')} = %s ORDER BY {q('id')}"


def plan_delete(plan: Plan) -> None:
    plan.delete()


def live_share_generation(token: str) -> Generation | None:
    """The data generation if `token` names a live share link, else None: one query.

    The same answer as `shared(token) is not None`, without loading the snapshot: a
    cached shared page costs this query and a cache lookup.
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


def plan_duplicate(plan: Plan, *, owner=None, name: str | None = None) -> Plan:
    """A copy of the plan's inputs as a new plan (scenario compare starts from one)."""
    return plan.duplicate(owner=owner, name=name)


def stored_plan(plan: Plan) -> schema.Plan:
    """The stored inputs parsed again, not checked against today's catalog (a tier may
    have been retired since; the engine then says it is no longer offered)."""
    return schema.parse_plan(plan.inputs, known_tiers=None)


# --- shares ------------------------------------------------------------------------------


def share_create(
    *, plan: Plan, user, as_of: dt.date | None = None, include_bill: bool = False
) -> Share:
    """Freeze the plan's snapshot with its sensitivity and odds of paying back (the same
    data generation and date), computed before the write so no lock waits on them.
    `include_bill`: the owner chose to show the bill's aggregates (name, period, lines)."""
    parsed = stored_plan(plan)
    generation = engine_inputs.generation_or_current(None)
    frozen = evaluation.snapshot(parsed, as_of=as_of, generation=generation)
    day = dt.date.fromisoformat(frozen["as_of"])
    frozen["uncertainty"] = evaluation.uncertainty(
        parsed, as_of=day, generation=generation
    ).model_dump()
    runs = next_runs.next_runs(parsed, as_of=day, generation=generation)
    if runs["runs"]:  # kept only where a run could change the answer (docs/design.md)
        frozen["next_runs"] = next_runs.api_answer(runs)
    if parsed.baseline.bill is not None:  # a bill is in a share as the plan's aggregates only
        frozen = shared_bill_aggregates(frozen, include_bill=include_bill)
    with transaction.atomic():
        return Share.objects.create(plan=plan, snapshot=frozen, created_by=user)


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
    plan = schema.parse_plan(frozen["inputs"], known_tiers=None)
    with evidence_of(share.plan.owner_id):  # the owner's figures, whoever follows the link
        now = evaluation.snapshot(plan, as_of=as_of)
    if plan.baseline.bill is not None:  # today's side as the share keeps it: no bill lines
        now = shared_bill_aggregates(now)
    now = frozen_bill(frozen, now)  # a share never reads the bill: its part is the snapshot's
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
