"""Reads for the planner and the pages: which measurement sizes a plan, and how.

Rules (docs/design.md, "Evidence selection"): the latest succeeded run at `standard`
or `full` scale of the profile's newest X.Y on the target (or on any target linked to
the tier) wins; `smoke` never sizes anything. The value at the asked thread count is
the measured median when that count was measured, else the same host's scaling fit's
prediction, labelled with the fit and how far it extrapolates. Where nothing
qualifies, `NoMeasurement` says why, as a message.

`best_measurements(tiers, classes)` answers every (tier, class) a plan needs at once,
in a fixed number of queries however large the catalog: the profiles' current
versions, the succeeded runs on linked targets (slim rows, the winners picked here),
then the winners' summaries and repetitions. Each answer carries its run's whole
sweep (`BestMeasurement.sweep`): the repetitions per thread count and the scaling fit
with its quality.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Collection, Container, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery, TextField
from django.db.models.functions import Cast

from catalog.models import Tier
from common.messages import Message, ProfileRef, TierRef, msg

from . import scaling
from .evidence import METRICS, BestMeasurement, NoMeasurement, Sweep
from .findings import TIER, Findings, Held, Why
from .models import (
    Measurement,
    Profile,
    ProfileVersion,
    Run,
    Scale,
    Summary,
    Target,
    WorkloadClass,
)
from .visibility import viewer

SIZING_SCALES = (Scale.STANDARD, Scale.FULL)
Found = BestMeasurement | NoMeasurement
_NEVER = dt.datetime.min.replace(tzinfo=dt.UTC)


def best_measurement(profile_class: str, target_or_tier, threads: int) -> BestMeasurement:
    """What the planner reads. `profile_class` is a workload class ("gbm") or, to pin
    one library, a profile name ("gbm-lightgbm"); among a class's profiles the most
    recent qualifying run wins. Raises NoMeasurement with the reason."""
    if threads < 1:
        raise NoMeasurement(msg("benchmarks.threads_below_one"))
    runs, where = _targets(target_or_tier)
    found = _Selection([profile_class], runs, {""}).answer("", profile_class, threads, where)
    if not isinstance(found, BestMeasurement):
        raise NoMeasurement(found)
    return found


def best_measurements(
    tiers: Iterable[str], classes: Iterable[str], *, vcpus: Mapping[str, int | None] | None = None
) -> Findings:
    """`measured_batch`'s findings alone."""
    return measured_batch(tiers, classes, vcpus=vcpus)[0]


def measured_batch(
    tiers: Iterable[str], classes: Iterable[str], *, vcpus: Mapping[str, int | None] | None = None
) -> tuple[Findings, HostRuns | None]:
    """The best measurement of each (tier, class) at the tier's thread count, or the reason
    there is none, in at most six queries whatever the number of tiers.

    `vcpus`: the thread count of tiers the caller has at hand (its catalog rows); the
    others are looked up in one query, and a tier not found is "not in the catalog".

    Most tiers of a large catalog have no linked run: each class's reason for them is one
    shape (`findings.Why`, "… on tier TIER"), filled in with the tier when read; only the
    tiers with a run of their own (or only smoke runs, or only older versions) are
    answered one by one.

    With them, every host's runs that may serve the estimates as references (`HostRuns`,
    read once for both: the winners are among them); None where nothing was asked.
    """
    slugs, classes = list(dict.fromkeys(tiers)), list(dict.fromkeys(classes))
    found = Findings(slugs, classes)
    if not slugs or not classes:
        return found, None
    counts = vcpus or {}
    # The tiers without a thread count (a handful, or none): one pass over the tiers (a
    # loop sorting every tier into "with" and "without" was 6 ms of 15 at 20,000 tiers).
    lacking = [slug for slug in slugs if not counts.get(slug)]
    if missing := [slug for slug in lacking if slug not in counts]:
        read = Tier.objects.filter(slug__in=missing).values_list("slug", "vcpus")
        counts = {**counts, **dict(read)}
        lacking = [slug for slug in lacking if not counts.get(slug)]
    uncounted: dict[str, list[int]] = {}  # reason code → the positions of its tiers
    for slug in lacking:
        code = "tier_not_in_catalog" if slug not in counts else "tier_without_vcpus"
        uncounted.setdefault(code, []).append(found.at[slug])
    linked = Q(target__tier__isnull=False) & counted(viewer())
    within = _Counted(found.at, set(lacking))
    selection = _Selection(classes, linked, within, by_tier=True, hosts=True)
    where = Why("benchmarks.on_tier", {"tier": TIER})
    # One reason for all the classes of a tier not in the catalog or without vCPUs.
    said = [(Why(f"benchmarks.{code}", {"tier": TIER}), at) for code, at in uncounted.items()]
    for cls in classes:
        column = found.column(cls)
        column[:] = [selection.why_none(None, cls, where)] * len(slugs)
        for why, at in said:
            for i in at:
                column[i] = why
        for slug in selection.groups(cls):
            column[found.at[slug]] = selection.answer(slug, cls, int(counts[slug]), where)
    return found, selection.hosts


class _Counted:
    """The asked tiers with a thread count: what the selection's few run rows are checked
    against (not a set of every tier's key)."""

    def __init__(self, asked: Collection[str], lacking: Collection[str]) -> None:
        self.asked, self.lacking = asked, lacking

    def __contains__(self, slug: object) -> bool:
        return slug in self.asked and slug not in self.lacking

    def __len__(self) -> int:  # none left: the selection reads no runs
        return len(self.asked) - len(self.lacking)


def counted(user_id: int | None, run: str = "") -> Q:
    """The runs that size `user_id`'s plans (None: everyone's): confirmed runs on a confirmed
    tier link, and the user's own imports whatever their link's state. `run`: the path to
    the run from the queried model ("run__" from a summary)."""
    shared = Q(**{f"{run}confirmed": True, f"{run}target__tier_confirmed": True})
    return shared | Q(**{f"{run}created_by_id": user_id}) if user_id is not None else shared


def pending_importers() -> frozenset[int]:
    """The users with imported runs that count only for them so far (one query)."""
    found = Run.objects.filter(Q(confirmed=False) | Q(target__tier_confirmed=False),
                               created_by__isnull=False)  # fmt: skip
    return frozenset(found.values_list("created_by_id", flat=True).distinct())


def measurements_on(target_or_tier) -> list[BestMeasurement]:
    """Every measured point of each class's winning run (for the planner's evidence lists)."""
    runs, _where = _targets(target_or_tier)
    classes = sorted(set(Profile.objects.values_list("workload_class", flat=True)))
    selection = _Selection(classes, runs, {""})
    found = []
    for profile_class in classes:
        loaded = selection.winner("", profile_class)
        if loaded is not None:
            found += [loaded.evidence(s, s.threads, s.median) for s in loaded.summaries]
    return found


def _targets(target_or_tier) -> tuple[Q, Message]:
    """The runs a lookup reads (as a filter) and where they are, for the reasons."""
    if isinstance(target_or_tier, Target):
        where = msg("benchmarks.on_target", name=target_or_tier.name)
        return Q(target=target_or_tier), where
    if isinstance(target_or_tier, str):
        return Q(target__name=target_or_tier), msg("benchmarks.on_target", name=target_or_tier)
    # A catalog tier: any target a staff member linked to it.
    return Q(target__tier=target_or_tier), msg(
        "benchmarks.on_tier", tier=TierRef(str(target_or_tier))
    )


# --- picking the winning runs ------------------------------------------------------------


@dataclass(frozen=True)
class _RunRow:
    """A succeeded run as the selection first sees it: enough to rank, nothing more."""

    pk: object
    group: str
    profile_id: int
    series: tuple[int, int]
    scale: str
    finished_at: dt.datetime | None
    created_at: dt.datetime
    has_summaries: bool


class _Run(NamedTuple):
    """A winning run as a figure reads it: plain values from one row of its summaries'
    query (not a `Run` with its profile version, profile and target: building those model
    instances for every summary row, and decoding their JSON each time, was half of the
    evidence read's queries at 2,018 tiers)."""

    pk: object
    scale: str
    finished_at: dt.datetime | None
    created_at: dt.datetime
    host: str  # its target's name
    profile_name: str
    workload_class: str
    version: str  # X.Y.Z
    content: dict  # the profile version's
    fingerprint: dict


class _Summary:
    """One thread count of a winning run: its median, and its `extra` as text, decoded when
    a figure first needs it (`_Loaded.extra`)."""

    __slots__ = ("decoded", "extra_text", "median", "threads")

    def __init__(self, threads: int, median: float, extra_text: str | None) -> None:
        self.threads, self.median, self.extra_text = threads, median, extra_text
        self.decoded: dict | None = None


# The columns `_summary_rows` reads: a summary's, then its run's (the JSON ones as text,
# decoded once per run).
_SUMMARY_COLUMNS = (
    "run_id", "threads", "median", "extra_text", "run__scale", "run__finished_at",
    "run__created_at", "run__target__name", "run__profile_version__profile__name",
    "run__profile_version__profile__workload_class", "run__profile_version__version",
    "content_text", "fingerprint_text",
)  # fmt: skip


def _summary_rows(summaries: QuerySet[Summary]) -> dict[object, tuple[_Run, list[_Summary]]]:
    """{run id: (the run, its summaries by thread count)} of the runs these summaries
    belong to, in the order the runs first appear: one query, plain rows."""
    rows = (
        summaries.annotate(
            extra_text=Cast("extra", output_field=TextField()),
            content_text=Cast("run__profile_version__content", output_field=TextField()),
            fingerprint_text=Cast("run__fingerprint", output_field=TextField()),
        )
        .order_by("threads")
        .values_list(*_SUMMARY_COLUMNS)
    )
    out: dict[object, tuple[_Run, list[_Summary]]] = {}
    for run_id, threads, median, extra, *run in rows:
        found = out.get(run_id)
        if found is None:
            *plain, content, fingerprint = run
            made = _Run(run_id, *plain, _json(content), _json(fingerprint))
            found = out[run_id] = (made, [])
        found[1].append(_Summary(threads, median, extra))
    return out


def _json(text: str | None) -> dict:
    """A JSON column read as text (a database's JSON null or none: {})."""
    return json.loads(text) if text else {}


class _Loaded:
    """A winning run with its summaries (by thread count) and its sweep."""

    def __init__(self, run: _Run, summaries: list[_Summary], repetitions: dict) -> None:
        self.run = run
        self.summaries = sorted(summaries, key=lambda s: s.threads)
        self.by_threads = {s.threads: s for s in self.summaries}
        medians = {s.threads: s.median for s in self.summaries}
        self.sweep = Sweep(str(run.pk), run.host, medians, repetitions)
        # Why no fit serves a thread count, said once for every tier of that count: one
        # Message, which a comparison then puts into words once.
        self.no_fit: dict[int, Message] = {}

    def evidence(self, summary: _Summary, threads: int, value: float, **fit) -> BestMeasurement:
        extra = self.extra(summary)
        return _evidence(self.run, summary, extra, threads, value, sweep=self.sweep, **fit)

    def extra(self, summary: _Summary) -> dict:
        """The summary's `extra`, decoded when a figure first needs it: an inference run's
        service-time samples are most of the bytes a selection reads, and a run that
        sizes none of its tiers (no thread count of theirs measured, no fit) never needs
        them."""
        if summary.decoded is None:
            summary.decoded = json.loads(summary.extra_text) if summary.extra_text else {}
        return summary.decoded


class _Selection:
    """The winning run of each (group, class): a group is one tier's linked targets
    (`by_tier`) or, for a single lookup, all the runs `runs` selects (group "")."""

    def __init__(
        self,
        classes: list[str],
        runs: Q,
        groups: Container[str],
        *,
        by_tier: bool = False,
        hosts: bool = False,
    ) -> None:
        self.series = _current_series(classes)
        # Every host's runs that may size or serve as a reference (`HostRuns`): the batch
        # reads its winners' summaries from them, and the estimates their references.
        self.hosts = HostRuns(self.series) if hosts else None
        self._current = {
            cls: (
                {(v.profile_id, v.major, v.minor) for v in versions},
                {v.profile_id for v in versions},
            )
            for cls, versions in self.series.items()
        }
        profile_ids = {v.profile_id for versions in self.series.values() for v in versions}
        rows = _run_rows(runs, profile_ids, by_tier) if profile_ids and groups else []
        self.winners: dict[tuple[str, str], object] = {}
        self.smoke: set[tuple[str, str]] = set()  # only smoke runs of the current X.Y
        self.older: set[tuple[str, str]] = set()  # sizing runs of other versions only
        for row in rows:
            if row.group in groups:
                self._rank(row)
        self.loaded = _load(set(self.winners.values()), self.hosts)
        self._refs: dict[str, list[ProfileRef]] = {}

    def _rank(self, row: _RunRow) -> None:
        """Rows come newest first: the first qualifying one of a (group, class) wins."""
        for cls, (current, profiles) in self._current.items():
            if row.profile_id not in profiles:
                continue
            key = (row.group, cls)
            same_series = (row.profile_id, *row.series) in current
            if same_series and row.scale in SIZING_SCALES and row.has_summaries:
                self.winners.setdefault(key, row.pk)
            elif same_series and row.scale == Scale.SMOKE:
                self.smoke.add(key)
            if row.scale in SIZING_SCALES:
                self.older.add(key)

    def winner(self, group: str, profile_class: str) -> _Loaded | None:
        run_id = self.winners.get((group, profile_class))
        return None if run_id is None else self.loaded[run_id]

    def groups(self, profile_class: str) -> set[str]:
        """The groups whose answer for the class is not the class's plain "no sizing run"
        (a winner, only smoke runs, only older versions)."""
        keys = (*self.winners, *self.smoke, *self.older)
        return {group for group, cls in keys if cls == profile_class}

    def answer(self, group: str, profile_class: str, threads: int, where: Message | Why) -> Held:
        """The figure, or the reason there is none (a `Why` where `where` is one)."""
        run_id = self.winners.get((group, profile_class))
        if run_id is None:
            return self.why_none(group, profile_class, where)
        loaded = self.loaded[run_id]
        summary = loaded.by_threads.get(threads)
        if summary is not None:
            return loaded.evidence(summary, threads, summary.median)
        return _predicted(loaded, threads)

    def why_none(
        self, group: str | None, profile_class: str, where: Message | Why
    ) -> Message | Why:
        """Why the group has no winning run of the class (group None: none of its runs
        counts at all): a message, or its shape where `where` names no tier yet."""
        versions = self.series[profile_class]
        if not versions:
            return msg("benchmarks.no_profile", **{"class": repr(profile_class)})
        series = self._refs.get(profile_class)
        if series is None:  # one list for every tier's reason
            series = self._refs[profile_class] = [ProfileRef(v.name, v.series) for v in versions]
        key = (group, profile_class)
        if key in self.smoke:
            return Why.of("benchmarks.only_smoke_runs", {"series": series, "where": where})
        if key in self.older:
            return Why.of("benchmarks.only_older_versions", {"series": series, "where": where})
        params = {"class": profile_class, "series": series, "where": where}
        return Why.of("benchmarks.no_sizing_run", params)


class _Version(NamedTuple):
    """A profile's newest version, as the selection reads it."""

    profile_id: int
    major: int
    minor: int
    name: str  # the profile's
    workload_class: str

    @property
    def series(self) -> str:  # as `ProfileVersion.series`
        return f"{self.major}.{self.minor}"


def _current_series(classes: list[str]) -> dict[str, list[_Version]]:
    """Each class's (or pinned profile name's) profiles at their newest version: one query."""
    versions = (
        ProfileVersion.objects.filter(
            Q(profile__workload_class__in=classes) | Q(profile__name__in=classes)
        )
        .order_by("profile_id", "-major", "-minor", "-patch")
        .values_list("profile_id", "major", "minor", "profile__name", "profile__workload_class")
    )
    newest: dict[int, _Version] = {}
    for row in versions:
        if row[0] not in newest:
            newest[row[0]] = _Version(*row)
    return {
        cls: [v for v in newest.values() if cls in (v.workload_class, v.name)] for cls in classes
    }


def _run_rows(runs: Q, profile_ids: set[int], by_tier: bool) -> list[_RunRow]:
    """The succeeded runs of these profiles that `runs` selects, newest first: one query."""
    succeeded = Run.objects.evidence().filter(runs, status=Run.Status.SUCCEEDED)
    rows = (
        succeeded.filter(profile_version__profile_id__in=profile_ids)
        .annotate(has_summaries=Exists(Summary.objects.filter(run=OuterRef("pk"))))
        .values_list(
            "pk", "target__tier__slug", "profile_version__profile_id", "profile_version__major",
            "profile_version__minor", "scale", "finished_at", "created_at", "has_summaries",
        )
    )  # fmt: skip
    found = [
        _RunRow(pk, (slug or "") if by_tier else "", pid, (major, minor), scale, finished,
                created, has)
        for pk, slug, pid, major, minor, scale, finished, created, has in rows
    ]  # fmt: skip
    # The latest finished first (a run with no finish time last), then the latest created.
    return sorted(found, key=lambda r: (r.finished_at or _NEVER, r.created_at), reverse=True)


class HostRuns:
    """Every host's succeeded standard or full runs of the asked classes' current X.Y that
    count for the viewer (confirmed, or the viewer's own imports whatever their tier link),
    with their summaries (`_summary_rows`): read once, when first asked (one query).

    The estimates' reference runs are each host's newest of these; a batch's winning runs
    are among them too (a linked target's counted run counts here), so one query serves
    both: one query fewer, ~1-1.5 ms of a 13 ms evidence read at 2,018 tiers (most of a
    query's cost here is the ORM's building and compiling it, not the database's)."""

    def __init__(self, series: Mapping[str, list[_Version]]) -> None:
        self.versions = sorted(
            {(v.profile_id, v.major, v.minor) for vs in series.values() for v in vs}
        )
        self._rows: dict[object, tuple[_Run, list[_Summary]]] | None = None

    def rows(self) -> dict[object, tuple[_Run, list[_Summary]]]:
        if self._rows is None:
            self._rows = _summary_rows(self._summaries()) if self.versions else {}
        return self._rows

    def _summaries(self) -> QuerySet[Summary]:
        version = "run__profile_version__"
        current = Q()
        for profile_id, major, minor in self.versions:
            current |= Q(**{f"{version}profile_id": profile_id, f"{version}major": major,
                            f"{version}minor": minor})  # fmt: skip
        user = viewer()
        # An unconfirmed import counts for its importer's plans only.
        confirmed = (
            Q(run__confirmed=True) | Q(run__created_by_id=user) if user else Q(run__confirmed=True)
        )
        return Summary.objects.filter(
            current,
            confirmed,
            run__status=Run.Status.SUCCEEDED,
            run__scale__in=SIZING_SCALES,
            run__retired_at__isnull=True,
        )


def _load(run_ids: set, hosts: HostRuns | None = None) -> dict[object, _Loaded]:
    """The winning runs with their summaries (from `hosts` where given, else one query)
    and repetitions (one query)."""
    if not run_ids:
        return {}
    runs = {}
    if hosts is not None:
        rows = hosts.rows()
        runs = {run_id: rows[run_id] for run_id in run_ids if run_id in rows}
    if missing := run_ids - runs.keys():  # (with `hosts`: one confirmed or retired meanwhile)
        runs |= _summary_rows(Summary.objects.filter(run_id__in=missing))
    repetitions: dict[object, dict[int, list[float]]] = {}
    measured = (
        Measurement.objects.filter(run_id__in=run_ids, warmup=False)
        .order_by("threads", "repetition")
        .values_list("run_id", "threads", "value")
    )
    for run_id, threads, value in measured:
        repetitions.setdefault(run_id, {}).setdefault(threads, []).append(value)
    return {
        run_id: _Loaded(run, summaries, repetitions.get(run_id, {}))
        for run_id, (run, summaries) in runs.items()
    }


def _predicted(loaded: _Loaded, threads: int) -> BestMeasurement | Message:
    """The same host's fit at an unmeasured thread count, or why there is none."""
    fit = loaded.sweep.fit
    host = loaded.run.host
    if not fit.enough:
        said = loaded.no_fit.get(threads)
        if said is None:
            measured = [s.threads for s in loaded.summaries]
            said = loaded.no_fit[threads] = msg(
                "benchmarks.not_measured_no_fit", threads=threads, host=host, measured=measured,
                reason=_as_message(fit.reason),
            )  # fmt: skip
        return said
    prediction = scaling.predict(fit, threads, host=host)
    nearest = min(loaded.summaries, key=lambda s: abs(s.threads - threads))
    return loaded.evidence(
        nearest,
        threads,
        prediction.value,
        fit=fit.model,
        extrapolation=prediction.label,
        fit_extra={"fit_params": fit.params, "fit_r2": fit.r2, "fit_rel_error": fit.rel_error},
    )


def _as_message(reason: Message | str) -> Message:
    """A fit's reason, a message already or (until the fits say messages) English words."""
    return reason if isinstance(reason, Message) else msg("common.text", text=str(reason))


def _evidence(
    run: _Run,
    summary: _Summary,
    summary_extra: dict,
    threads: int,
    value: float,
    *,
    fit: str | None = None,
    extrapolation: str | None = None,
    fit_extra: dict | None = None,
    sweep: Sweep | None = None,
) -> BestMeasurement:
    content = run.content
    metric_name, unit = METRICS.get(run.workload_class, ("", ""))
    metric = content.get("metric") or {}
    extra = dict(summary_extra)
    rule = content.get("scaling_rule") or {}
    if "trusted_range" in rule:
        extra.setdefault("trusted_range", rule["trusted_range"])
    if "text" in rule:
        extra.setdefault("scaling_rule", rule["text"])
    extra |= fit_extra or {}
    return BestMeasurement(
        profile_class=run.workload_class,
        metric=metric.get("name", metric_name),
        unit=metric.get("unit", unit),
        value=float(value),
        threads=threads,
        measured=fit is None,
        run_id=str(run.pk),
        host=run.host,
        cpu_model=str(run.fingerprint.get("cpu_model") or ""),
        profile_name=run.profile_name,
        profile_version=run.version,
        scale=run.scale,
        measured_at=run.finished_at or run.created_at,
        fit=fit,
        extrapolation=extrapolation,
        extra=extra,
        sweep=sweep,
    )


# --- a run's sweep and fits (the run page) -----------------------------------------------


def sweep(run: Run) -> tuple[list[int], list[float]]:
    summaries = sorted(run.summaries.all(), key=lambda s: s.threads)
    return [s.threads for s in summaries], [s.median for s in summaries]


def fits_for(run: Run) -> list[scaling.Fit]:
    """Amdahl and USL on the run's sweep (each may say it has too few points)."""
    threads, values = sweep(run)
    if not threads or any(v <= 0 for v in values):
        return []
    host = run.target.name
    return [
        scaling.fit_amdahl(threads, values, host=host),
        scaling.fit_usl(threads, values, host=host),
    ]


# --- what the plans' pages read of targets and profiles ----------------------------------


def targets_with_last_run() -> list[dict]:
    """Each benchmark target with its tier and newest run (one query for the runs)."""
    newest = Run.objects.filter(target=OuterRef("pk")).order_by("-created_at").values("pk")[:1]
    targets = list(Target.objects.select_related("tier").annotate(last_run_id=Subquery(newest)))
    runs = Run.objects.for_listing().in_bulk([t.last_run_id for t in targets if t.last_run_id])
    return [
        {"target": t, "alive": t.is_alive(), "last_run": runs.get(t.last_run_id)} for t in targets
    ]


def targets_with_tiers() -> list[Target]:
    """Every target with its linked tier, by name (the staff action's choices)."""
    return list(Target.objects.select_related("tier").order_by("name"))


def standard_run_seconds(target_ids: Iterable[int]) -> dict[int, dict[str, float]]:
    """{target id: {profile name: seconds of its newest succeeded standard run there}}: the
    host's own measured time, for the suite's range (one query)."""
    runs = (
        Run.objects.filter(
            target_id__in=list(target_ids),
            scale=Scale.STANDARD,
            status=Run.Status.SUCCEEDED,
            started_at__isnull=False,
            finished_at__isnull=False,
        )
        .order_by("finished_at")
        .values_list("target_id", "profile_version__profile__name", "started_at", "finished_at")
    )
    out: dict[int, dict[str, float]] = {}
    for target_id, name, started, finished in runs:  # the newest last, so it stays
        out.setdefault(target_id, {})[name] = (finished - started).total_seconds()
    return out


def all_targets() -> QuerySet[Target]:
    """Every target, for a choice field."""
    return Target.objects.all()


def newest_profile_contents() -> dict[str, dict]:
    """{profile name: its newest version's content} (one query)."""
    newest: dict[str, dict] = {}
    versions = ProfileVersion.objects.select_related("profile").order_by(
        "profile_id", "-major", "-minor", "-patch"
    )
    for version in versions:
        newest.setdefault(version.profile.name, version.content)
    return newest


def workload_class_labels() -> dict[str, Any]:
    """{workload class key: its (lazily translated) label}."""
    return dict(WorkloadClass.choices)
