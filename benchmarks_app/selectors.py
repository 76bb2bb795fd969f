"""Reads for the planner and the pages: which measurement sizes a plan, and how.

Rules (DESIGN): the latest succeeded run at `standard` or `full` scale of the
profile's newest X.Y on the target (or on any target linked to the tier) wins;
`smoke` never sizes anything. The value at the asked thread count is the measured
median when that count was measured, else the same host's scaling fit's
prediction, labelled with the fit and how far it extrapolates.
"""

from django.db.models import Q, QuerySet

from . import scaling
from .evidence import METRICS, BestMeasurement, NoMeasurement
from .models import Profile, ProfileVersion, Run, Scale, Summary, Target

SIZING_SCALES = (Scale.STANDARD, Scale.FULL)


def best_measurement(profile_class: str, target_or_tier, threads: int) -> BestMeasurement:
    """What the planner reads. `profile_class` is a workload class ("gbm") or, to pin
    one library, a profile name ("gbm-lightgbm"); among a class's profiles the most
    recent qualifying run wins. Raises NoMeasurement with the reason."""
    if threads < 1:
        raise NoMeasurement("thread count must be at least 1")
    targets, where = _targets(target_or_tier)
    run = winning_run(profile_class, targets, where)
    summaries = list(run.summaries.all())
    by_threads = {s.threads: s for s in summaries}
    if threads in by_threads:
        return _evidence(run, by_threads[threads], threads, by_threads[threads].median)
    host = run.target.name
    fit = scaling.best_fit([s.threads for s in summaries], [s.median for s in summaries], host=host)
    measured = ", ".join(str(s.threads) for s in summaries)
    if not fit.enough:
        raise NoMeasurement(
            f"{threads} threads were not measured on {host} (measured: {measured}) "
            f"and no fit is possible: {fit.reason}"
        )
    prediction = scaling.predict(fit, threads, host=host)
    nearest = min(summaries, key=lambda s: abs(s.threads - threads))
    return _evidence(
        run,
        nearest,
        threads,
        prediction.value,
        fit=fit.model,
        extrapolation=prediction.label,
        fit_extra={"fit_params": fit.params, "fit_r2": fit.r2, "fit_rel_error": fit.rel_error},
    )


def measurements_on(target_or_tier) -> list[BestMeasurement]:
    """Every measured point of each class's winning run (for the planner's evidence lists)."""
    targets, where = _targets(target_or_tier)
    found = []
    classes = Profile.objects.values_list("workload_class", flat=True).distinct()
    for profile_class in sorted(set(classes)):
        try:
            run = winning_run(profile_class, targets, where)
        except NoMeasurement:
            continue
        found += [_evidence(run, s, s.threads, s.median) for s in run.summaries.all()]
    return found


def winning_run(profile_class: str, targets: QuerySet, where: str) -> Run:
    versions = list(
        ProfileVersion.objects.filter(
            Q(profile__workload_class=profile_class) | Q(profile__name=profile_class)
        )
        .select_related("profile")
        .order_by("profile_id", "-major", "-minor", "-patch")
    )
    if not versions:
        raise NoMeasurement(f"no benchmark profile of class {profile_class!r}")
    newest: dict[int, ProfileVersion] = {}
    for version in versions:
        newest.setdefault(version.profile_id, version)
    same_series = Q()
    for version in newest.values():
        same_series |= Q(
            profile_version__profile_id=version.profile_id,
            profile_version__major=version.major,
            profile_version__minor=version.minor,
        )
    runs = Run.objects.filter(status=Run.Status.SUCCEEDED, target__in=targets)
    run = (
        runs.filter(same_series, scale__in=SIZING_SCALES, summaries__isnull=False)
        .select_related("profile_version__profile", "target")
        .prefetch_related("summaries")
        .order_by("-finished_at", "-created_at")
        .first()
    )
    if run is None:
        raise NoMeasurement(_why_none(profile_class, runs, same_series, newest, where))
    return run


def _why_none(profile_class: str, runs: QuerySet, same_series: Q, newest: dict, where: str) -> str:
    series = ", ".join(f"{v.profile.name} {v.series}" for v in newest.values())
    classes = Q(profile_version__profile_id__in=list(newest))
    if runs.filter(same_series, scale=Scale.SMOKE).exists():
        return (
            f"only smoke runs of {series} on {where}: smoke results never size a plan; "
            "run the standard or full scale"
        )
    if runs.filter(classes, scale__in=SIZING_SCALES).exists():
        return (
            f"runs on {where} are of older profile versions; the current {series} has none "
            "(results compare only within the same X.Y)"
        )
    return f"no succeeded standard or full run of {profile_class} ({series}) on {where}"


def _targets(target_or_tier) -> tuple[QuerySet, str]:
    if isinstance(target_or_tier, Target):
        return Target.objects.filter(pk=target_or_tier.pk), f"target {target_or_tier.name}"
    if isinstance(target_or_tier, str):
        return Target.objects.filter(name=target_or_tier), f"target {target_or_tier}"
    # A catalog tier: any target a staff member linked to it.
    return Target.objects.filter(tier=target_or_tier), f"tier {target_or_tier}"


def _evidence(
    run: Run,
    summary: Summary,
    threads: int,
    value: float,
    *,
    fit: str | None = None,
    extrapolation: str | None = None,
    fit_extra: dict | None = None,
) -> BestMeasurement:
    content = run.profile_version.content
    profile = run.profile_version.profile
    metric_name, unit = METRICS.get(profile.workload_class, ("", ""))
    metric = content.get("metric") or {}
    extra = dict(summary.extra)
    rule = content.get("scaling_rule") or {}
    if "trusted_range" in rule:
        extra.setdefault("trusted_range", rule["trusted_range"])
    if "text" in rule:
        extra.setdefault("scaling_rule", rule["text"])
    extra |= fit_extra or {}
    return BestMeasurement(
        profile_class=profile.workload_class,
        metric=metric.get("name", metric_name),
        unit=metric.get("unit", unit),
        value=float(value),
        threads=threads,
        measured=fit is None,
        run_id=str(run.pk),
        host=run.target.name,
        cpu_model=str(run.fingerprint.get("cpu_model") or ""),
        profile_name=profile.name,
        profile_version=run.profile_version.version,
        scale=run.scale,
        measured_at=run.finished_at or run.created_at,
        fit=fit,
        extrapolation=extrapolation,
        extra=extra,
    )


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
