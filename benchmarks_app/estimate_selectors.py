# ruff: noqa: RUF002  (the multiplication sign in the notes)
"""Estimates for (tier, class) pairs no run measures: the evidence ladder's lower rungs.

1. measured on this tier (`selectors.best_measurements`: not here);
2. measured on the same CPU model: a host whose CPU model key is the tier's;
3. estimated from published scores (`estimates.model`): the nearest measured host's run ×
   the ratio of single-thread scores × the library's thread-scaling curve, with its band;
4. none, with the reason (a `NoMeasurement`, its message saying why no estimate).

Reads: every host's winning run per class with its summaries (one query, or none where a
batch read the hosts' runs already: `selectors.HostRuns`) and, unless the caller has them,
the asked tiers' provider, name and CPU (one query); the rest is pure.
`estimate_into` fills a whole plan's `Findings`, its reasons kept as shapes shared by
every tier of one cause (`benchmarks_app.findings`).
"""

from __future__ import annotations

import math
from collections.abc import Container, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np
from django.db.models import Exists, OuterRef, Q

from catalog.models import Tier
from estimates import model

from .evidence import BestMeasurement
from .findings import TIER, Findings, Held, Why
from .models import ProfileVersion, Run, Summary
from .selectors import _NEVER, SIZING_SCALES, HostRuns, _Loaded, _Run, _Summary, _summary_rows
from .visibility import viewer


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
    )
    return references_of(_summary_rows(summaries), classes)


def references_of(
    runs: Mapping[object, tuple[_Run, list[_Summary]]], classes: Iterable[str]
) -> dict[str, list[Reference]]:
    """Each class's winning run on every host, from the hosts' runs (`reference_runs`' rows,
    or `selectors.HostRuns`' which a batch read already)."""
    newest = sorted(
        runs.values(),
        key=lambda found: (found[0].finished_at or _NEVER, found[0].created_at),
        reverse=True,
    )
    asked = set(classes)  # `reference_runs`' classes, in whatever order: the same references
    winners: dict[tuple[str, str], tuple[_Run, list[_Summary]]] = {}
    for found in newest:
        run = found[0]
        for cls in {run.workload_class, run.profile_name} & asked:
            winners.setdefault((run.host, cls), found)
    out: dict[str, list[Reference]] = {}
    for (host, cls), (run, group) in sorted(winners.items(), key=lambda item: item[0]):
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


def estimate_into(
    found: Findings,
    skip: Container[str] = (),
    cpus: Mapping[str, tuple[str, str, str]] | None = None,
    vcpus: Mapping[str, int | None] | None = None,
    hosts: HostRuns | None = None,
) -> None:
    """An estimate for every pair of `found` without a figure whose tier is not in `skip`
    (the tiers with a declared speed factor), in place: an estimate, or the reason there is
    none kept as its shape (`findings.Why`: "… CPU … on tier TIER", wrapping the reason
    for no measurement). `cpus` (provider, name, CPU model) and `vcpus`: the tiers the
    caller has at hand (the tier index); the others are read in one query. `hosts`: the
    hosts' runs the batch that filled `found` read (`selectors.measured_batch`), where the
    references are taken from (else one query).

    Everything here is shared, tier by tier only positions are written: a tier's CPU side
    per (provider, name, CPU model), an estimate or its reason per (side, class, thread
    count), a reason's shape per (reason for no measurement, side or outcome). At 20,000
    tiers a pair-by-pair reading made some 40,000 reasons (and their messages)."""
    slugs, columns = found.slugs, [(cls, found.column(cls)) for cls in found.classes]
    wanted = [
        cls for cls, column in columns
        if any(not isinstance(v, BestMeasurement) and s not in skip
               for s, v in zip(slugs, column, strict=True))
    ]  # fmt: skip
    if not wanted:
        return
    references = references_of(hosts.rows(), wanted) if hosts else reference_runs(wanted)
    cpus, vcpus = cpus or {}, vcpus or {}
    if lacking := [s for s in slugs if s not in cpus or s not in vcpus]:
        read = tier_cpus(lacking)
        cpus = {**cpus, **{s: (t.provider, t.name, t.cpu_model) for s, t in read.items()}}
        vcpus = {**vcpus, **{s: t.vcpus for s, t in read.items()}}
    columns = [(cls, column) for cls, column in columns if cls in wanted]
    # The tiers to estimate, grouped by CPU side and thread count: a group's tiers get the
    # same estimate, or the same reason for none around each one's reason for no
    # measurement (a catalog's tiers make a few dozen groups).
    rows = [(i, cpu, count) for i, s in enumerate(slugs)
            if (count := vcpus.get(s)) and (cpu := cpus.get(s)) and s not in skip]  # fmt: skip
    keys = model.side_keys([cpu for _i, cpu, _count in rows])
    sides: dict[tuple, model.Side | model.Unknown] = {}  # by `model.side_key`
    groups: dict[tuple, list[int]] = {}  # the positions of its tiers by (side key, count)
    for (i, cpu, count), key in zip(rows, keys, strict=True):
        group = groups.get((key, count))
        if group is None:
            group = groups[key, count] = []
            if key not in sides:
                sides[key] = tier_side(TierCpu("", *cpu, count))
        group.append(i)
    shapes: dict[tuple[int, int], Held] = {}  # by (id of the reason for none, of the cause)
    shared: dict[tuple[int, int], tuple] = {}
    for (key, count), at in groups.items():
        side = sides[key]
        for cls, column in columns:
            if isinstance(side, model.Unknown):  # most tiers of a large catalog
                cause: object = side
            else:
                cause = _outcome(int(count), side, references.get(cls, []), cls, shared)
            if isinstance(cause, BestMeasurement):
                for i in at:
                    if not isinstance(column[i], BestMeasurement):
                        column[i] = cause
                continue
            # Most of a group's tiers hold one reason (the class's "no sizing run … on
            # tier TIER"): its shape is kept at hand.
            last, shaped = _NONE, None
            for i in at:
                reason = column[i]
                if reason is last:
                    column[i] = shaped
                elif not isinstance(reason, BestMeasurement):
                    shape = shapes.get((id(reason), id(cause)))
                    if shape is None:
                        shape = shapes[id(reason), id(cause)] = _shape(reason, cause)
                    last, shaped = reason, shape
                    column[i] = shape


_NONE = object()  # no reason seen yet


def _shape(reason: Held | None, cause: model.Unknown | tuple[str, dict]) -> Held:
    """Why a tier gets no estimate, around why it has no measurement (`reason`)."""
    if isinstance(cause, model.Unknown):  # the parameters in their order of old
        params = {"reason": reason, "cpu": cause.cpu, "tier": TIER}
        return Why.of(f"estimates.{cause.code}", params)
    code, params = cause
    return Why.of(f"estimates.{code}", {"reason": reason, **params})


def _outcome(
    n: int, side: model.Side, references: list[Reference], cls: str, shared: dict
) -> BestMeasurement | tuple[str, dict]:
    """The estimate at `n` threads on a known side, or why there is none (the reason's code
    and parameters, the reason for no measurement apart): a function of the side, `n`
    and the class alone."""
    usable = [r for r in references if isinstance(r.side, model.Side)]
    if not references:
        return "no_reference_run", {"class": cls}
    if not usable:
        return "reference_cpu_unknown", {"host": references[0].loaded.run.host}
    same = [r for r in usable if r.side.cpu_key == side.cpu_key and side.how != "family"]
    candidates = []
    for ref in same or usable:
        metric = model.common_metric(ref.side, side)
        if metric is not None:
            distance = abs(math.log(side.values[metric] / ref.side.values[metric]))
            candidates.append((distance, -max(ref.loaded.sweep.medians), ref))
    if not candidates:
        return "no_score_in_common", {"cpu": side.cpu}
    ref = min(candidates, key=lambda c: c[:2])[2]
    loaded = ref.loaded
    below = [k for k in loaded.sweep.medians if k <= n]
    k = max(below) if below else min(loaded.sweep.medians)
    if (id(ref), k) not in shared:
        fit = loaded.sweep.fit
        name = loaded.run.profile_name
        summary = loaded.by_threads[k]
        base = loaded.evidence(summary, k, summary.median)
        times = base.extra.get("service_times_s")
        times = np.asarray(times, float) if isinstance(times, list) else None
        shared[id(ref), k] = (model.curve_for(name, fit if fit.enough else None), base, times)
    curve, base, times = shared[id(ref), k]
    found = model.estimate(loaded.sweep.medians[k], k, ref.side, side, n, curve)
    if isinstance(found, model.Unknown):
        return found.code, {"cpu": side.cpu}
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
