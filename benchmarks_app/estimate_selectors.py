# ruff: noqa: RUF002  (the multiplication sign in the notes)
"""Estimates for (tier, class) pairs no run measures: the evidence ladder's lower rungs.

1. measured on this tier (`selectors.best_measurements`: not here);
2. measured on the same CPU model: a host whose CPU model key is the tier's;
3. estimated from published scores (`estimates.model`): the nearest measured host's run ×
   the ratio of single-thread scores × the library's thread-scaling curve, with its band;
4. none, with the reason (kept as a `NoMeasurement`, its message saying why no estimate).

Reads: every host's winning run per class with its summaries (one query) and, unless the
caller has them, the asked tiers' provider, name and CPU (one query); the rest is
`estimates`, pure.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np
from django.db.models import Exists, OuterRef, Q, TextField
from django.db.models.functions import Cast

from catalog.models import Tier
from common.messages import Message, TierRef
from estimates import model

from .evidence import BestMeasurement, NoMeasurement
from .models import ProfileVersion, Run, Summary
from .selectors import _NEVER, SIZING_SCALES, _Loaded
from .visibility import viewer

Found = BestMeasurement | NoMeasurement


@dataclass(frozen=True)
class Reference:
    """A measured host's winning run of a class, with the host's scores."""

    loaded: _Loaded
    side: model.Side | model.Unknown


def reference_runs(classes: Iterable[str]) -> dict[str, list[Reference]]:
    """Each class's winning run on every host that has one (standard or full scale, the
    profile's current X.Y, the newest finished first), with its summaries: one query."""
    classes = list(dict.fromkeys(classes))
    profile = "run__profile_version__profile"
    newer = ProfileVersion.objects.filter(profile=OuterRef(profile)).filter(
        Q(major__gt=OuterRef("run__profile_version__major"))
        | Q(major=OuterRef("run__profile_version__major"),
            minor__gt=OuterRef("run__profile_version__minor"))
    )  # fmt: skip
    summaries = (
        Summary.objects.filter(
            Q(**{f"{profile}__workload_class__in": classes})
            | Q(**{f"{profile}__name__in": classes}),
            run__status=Run.Status.SUCCEEDED,
            run__scale__in=SIZING_SCALES,
            run__retired_at__isnull=True,
        )
        # An unconfirmed import is a reference for its importer's plans only (the tier
        # link does not matter here: any measured host is a reference).
        .filter(
            Q(run__confirmed=True) | Q(run__created_by_id=viewer())
            if viewer()
            else Q(run__confirmed=True)
        )
        .exclude(Exists(newer))
        .select_related("run__profile_version__profile", "run__target")
        .defer("extra", "runtime", "outliers", "run__threads", "run__target__fingerprint")
        .annotate(extra_text=Cast("extra", output_field=TextField()))
        .order_by("threads")
    )
    runs: dict[object, list[Summary]] = {}
    for summary in summaries:
        runs.setdefault(summary.run_id, []).append(summary)
    newest = sorted(
        runs.values(),
        key=lambda group: (group[0].run.finished_at or _NEVER, group[0].run.created_at),
        reverse=True,
    )
    winners: dict[tuple[str, str], list[Summary]] = {}
    for group in newest:
        run = group[0].run
        for summary in group:
            summary.run = run
        version = run.profile_version.profile
        for cls in {version.workload_class, version.name} & set(classes):
            winners.setdefault((run.target.name, cls), group)
    out: dict[str, list[Reference]] = {}
    for (host, cls), group in sorted(winners.items()):
        run = group[0].run
        own = run.fingerprint.get("speed_scores") or None
        side = model.host_side(str(run.fingerprint.get("cpu_model") or ""), host, own)
        out.setdefault(cls, []).append(Reference(_Loaded(run, group, {}), side))
    return out


class TierCpu(NamedTuple):
    """A tier's provider, name and CPU (a named tuple: the tier index makes one per
    offered tier, 20,000 at catalog scale, where a frozen dataclass cost 4x)."""

    slug: str
    provider: str
    name: str
    cpu_model: str
    vcpus: int | None


def tier_cpus(slugs: Iterable[str]) -> dict[str, TierCpu]:
    rows = Tier.objects.filter(slug__in=list(slugs)).values_list(
        "slug", "provider__name", "name", "cpu_model", "vcpus"
    )
    return {r[0]: TierCpu(*r) for r in rows}


def tier_side(tier: TierCpu) -> model.Side | model.Unknown:
    return model.cpu_side(tier.cpu_model, vendor=tier.provider, server=tier.name)


def estimates(
    missing: Mapping[tuple[str, str], NoMeasurement], tiers: Mapping[str, TierCpu] | None = None
) -> dict[tuple[str, str], Found]:
    """For each (tier, class) without a measurement: an estimate (a `BestMeasurement` with
    `measured` False and `extra["estimate"]`), or the reason there is none. `tiers`: the
    asked tiers' CPUs where the caller has them (else one query)."""
    if not missing:
        return {}
    references = reference_runs({cls for _slug, cls in missing})
    if tiers is None:
        tiers = tier_cpus({slug for slug, _cls in missing})
    sides: dict[tuple, model.Side | model.Unknown] = {}  # by `model.side_key`
    shared: dict[tuple[int, int], tuple] = {}  # what one reference run gives at k threads
    # An estimate is a function of the tier's side, its thread count and the class: tiers
    # of one side and count share the same (frozen) `BestMeasurement`, made once (a large
    # catalog offers the same server in many regions and pricing models).
    estimated: dict[tuple, Found] = {}
    # Each tier's side once, whatever the number of its classes (at 20,000 tiers the
    # key's look-ups were a sixth of the evidence read): None where it has no vCPUs.
    of_tier: dict[str, _Known | None] = {}
    out: dict[tuple[str, str], Found] = {}
    for (slug, cls), reason in missing.items():
        if slug in of_tier:
            known = of_tier[slug]
        else:
            known = of_tier[slug] = _side_of(tiers.get(slug), sides)
        if known is None:
            out[slug, cls] = reason
            continue
        if known.unknown is not None:  # most tiers of a large catalog: `_estimate`'s
            # first answer, made here (the same message, its parameters in the same order)
            why = {"reason": reason.message, "cpu": known.side.cpu, "tier": known.ref}
            out[slug, cls] = NoMeasurement(Message(known.unknown, why))
            continue
        key = (known.key, cls, known.tier.vcpus)
        found = estimated.get(key)
        if found is None:
            found = _estimate(known.tier, known.side, references.get(cls, []), reason, cls, shared)
            if isinstance(found, BestMeasurement):  # a reason names its tier: not shared
                estimated[key] = found
        out[slug, cls] = found
    return out


class _Known(NamedTuple):
    """A tier with vCPUs as the estimates read it: its CPU side (shared by `key`, the side's
    `model.side_key`), its reference (one for all its classes' reasons) and, where the side
    is unknown, the reason's code."""

    tier: TierCpu
    side: model.Side | model.Unknown
    key: tuple
    ref: TierRef
    unknown: str | None


def _side_of(tier: TierCpu | None, sides: dict[tuple, model.Side | model.Unknown]) -> _Known | None:
    """The tier as `estimates` reads it (its side shared by `model.side_key`), None without
    vCPUs."""
    if tier is None or not tier.vcpus:
        return None
    key = model.side_key(tier.cpu_model, vendor=tier.provider, server=tier.name)
    side = sides.get(key) or sides.setdefault(key, tier_side(tier))
    unknown = f"estimates.{side.code}" if isinstance(side, model.Unknown) else None
    return _Known(tier, side, key, TierRef(tier.slug), unknown)


def _why(reason: NoMeasurement, code: str, **params) -> NoMeasurement:
    return NoMeasurement(Message(f"estimates.{code}", {"reason": reason.message, **params}))


def _estimate(
    tier: TierCpu,
    side,
    references: list[Reference],
    reason: NoMeasurement,
    cls: str,
    shared: dict[tuple[int, int], tuple] | None = None,
) -> Found:
    """`shared`: the curve, reference point and service-time samples of each reference run
    at each thread count, kept while one call of `estimates` runs (thousands of tiers
    share a handful of references)."""
    if isinstance(side, model.Unknown):
        return _why(reason, side.code, cpu=side.cpu, tier=TierRef(tier.slug))
    usable = [r for r in references if isinstance(r.side, model.Side)]
    if not references:
        return _why(reason, "no_reference_run", **{"class": cls})
    if not usable:
        return _why(reason, "reference_cpu_unknown", host=references[0].loaded.run.target.name)
    same = [r for r in usable if r.side.cpu_key == side.cpu_key and side.how != "family"]
    candidates = []
    for ref in same or usable:
        metric = model.common_metric(ref.side, side)
        if metric is not None:
            distance = abs(math.log(side.values[metric] / ref.side.values[metric]))
            candidates.append((distance, -max(ref.loaded.sweep.medians), ref))
    if not candidates:
        return _why(reason, "no_score_in_common", cpu=side.cpu)
    ref = min(candidates, key=lambda c: c[:2])[2]
    loaded, n = ref.loaded, int(tier.vcpus)
    below = [k for k in loaded.sweep.medians if k <= n]
    k = max(below) if below else min(loaded.sweep.medians)
    shared = {} if shared is None else shared
    if (id(ref), k) not in shared:
        fit = loaded.sweep.fit
        name = loaded.run.profile_version.profile.name
        summary = loaded.by_threads[k]
        base = loaded.evidence(summary, k, summary.median)
        times = base.extra.get("service_times_s")
        times = np.asarray(times, float) if isinstance(times, list) else None
        shared[id(ref), k] = (model.curve_for(name, fit if fit.enough else None), base, times)
    curve, base, times = shared[id(ref), k]
    found = model.estimate(loaded.sweep.medians[k], k, ref.side, side, n, curve)
    if isinstance(found, model.Unknown):
        return _why(reason, found.code, cpu=side.cpu)
    said = found.to_dict()
    said["rung"] = "same_cpu_model" if same else "published_scores"
    said["reference"] = {"run_id": base.run_id, "host": base.host, "threads": k,
                         "value": base.value}  # fmt: skip
    extra = {**base.extra, "estimate": said}
    # An inference request's service time scales with one thread's speed.
    for key in SERVICE_TIMES:
        if isinstance(extra.get(key), (int, float)):
            extra[key] = extra[key] / found.ratio
    if times is not None:
        # An array, divided in NumPy (the same IEEE divisions): a run keeps tens of
        # thousands of samples, and every estimated tier had its own list of them.
        extra["service_times_s"] = times / found.ratio
    return replace(
        base, value=found.value, threads=n, measured=False, fit=None, extrapolation=None,
        extra=extra, sweep=None,
    )  # fmt: skip


SERVICE_TIMES = ("mean_s", "p50_s", "p99_s")
