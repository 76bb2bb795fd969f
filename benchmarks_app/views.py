"""Benchmark pages: profiles and targets, starting runs and suites, a live run page.

Thin: forms in, services/selectors called, templates out. The run and suite pages
serve their live part as a template partial to htmx and answer 286 once everything
has ended, which stops the polling.
"""

import json
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.text import capfirst
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HTMX_STOP_POLLING

from common.django.message_render import render as say

from . import charts, consistency, glossary, profile_text, selectors, tier_links
from .evidence import residual_spread
from .forms import ImportRunForm, StartRunForm, StartSuiteForm
from .models import Profile, ProfileVersion, Run, Suite, Target
from .run_files import ImportRefused, export_run, import_run
from .services import RunRefused, cancel_run, create_run, create_suite
from .time_left import remaining_s


def can_run(user) -> bool:
    return user.is_staff or user.has_perm("benchmarks_app.add_run")


def _require_runner(request: HttpRequest) -> None:
    if not can_run(request.user):
        raise PermissionDenied(_("Starting or cancelling benchmark runs needs permission."))


@login_required
@require_GET
def index(request: HttpRequest) -> HttpResponse:
    return _index(request)


def _index(request: HttpRequest, status: int = 200, **forms) -> HttpResponse:
    versions = Prefetch(
        "versions", ProfileVersion.objects.order_by("-major", "-minor", "-patch"), to_attr="ordered"
    )
    profiles = list(Profile.objects.prefetch_related(versions))
    language = get_language()
    for profile in profiles:
        profile.current = profile.ordered[0] if profile.ordered else None
        content = profile.current.content if profile.current else {}
        profile.words = profile_text.words(content, language)
        profile.metric_help = glossary.metric((content.get("metric") or {}).get("name", ""))
    now = timezone.now()
    targets = list(Target.objects.select_related("tier"))
    for target in targets:
        target.alive = target.is_alive(now)
    runs = list(Run.objects.for_listing()[:25])
    for run in runs:
        run.time_left = time_left_text(run, now)
    preselected = _only_target(targets)
    context = {
        "profiles": profiles,
        "terms": glossary.symbols_in(p.words["scaling_rule_text"].text for p in profiles),
        "targets": targets,
        "runs": runs,
        "can_run": can_run(request.user),
        "run_form": forms.get("run_form") or StartRunForm(initial=preselected),
        "suite_form": forms.get("suite_form") or StartSuiteForm(initial=preselected),
        "import_form": forms.get("import_form") or ImportRunForm(),
    }
    return render(request, "benchmarks_app/index.html", context, status=status)


def _only_target(targets: list[Target]) -> dict:
    """The forms' target, chosen already when one worker can run (an imported one cannot)."""
    runnable = [t for t in targets if not t.imported]
    return {"target": runnable[0].pk} if len(runnable) == 1 else {}


def time_left_text(run: Run, now) -> str:
    """ "about 12 minutes left" for a running run, from its budget and its pace; else ''."""
    if run.status != Run.Status.RUNNING or run.started_at is None:
        return ""
    scale = (run.profile_version.content.get("scales") or {}).get(run.scale) or {}
    elapsed = (now - run.started_at).total_seconds()
    seconds = remaining_s(elapsed, run.progress or 0.0, scale.get("time_budget_s"))
    if seconds is None:
        return _("past its time budget: finishing")
    if seconds < 60:
        return _("less than a minute left")
    minutes = round(seconds / 60)
    if minutes < 90:
        return ngettext("about %(count)s minute left", "about %(count)s minutes left",
                        minutes) % {"count": minutes}  # fmt: skip
    hours = number_format(seconds / 3600, decimal_pos=1, use_l10n=True)
    return _("about %(hours)s hours left") % {"hours": hours}


@login_required
@require_POST
def start_run(request: HttpRequest) -> HttpResponse:
    _require_runner(request)
    form = StartRunForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            run = create_run(
                version=data["profile"].current_version(), scale=data["scale"],
                target=data["target"], user=request.user, threads=data["threads"],
            )  # fmt: skip
        except RunRefused as exc:
            for problem in exc.messages:
                form.add_error(None, say(problem))
        else:
            return redirect("benchmarks:run", run_id=run.pk)
    return _index(request, status=400, run_form=form)


@login_required
@require_POST
def start_suite(request: HttpRequest) -> HttpResponse:
    _require_runner(request)
    form = StartSuiteForm(request.POST)
    if form.is_valid():
        try:
            started = create_suite(
                target=form.cleaned_data["target"], scale=form.cleaned_data["scale"],
                user=request.user,
            )  # fmt: skip
        except RunRefused as exc:
            for problem in exc.messages:
                form.add_error(None, say(problem))
        else:
            for name, problems in started.refused.items():
                messages.warning(request, f"{name}: {'; '.join(map(say, problems))}")
            return redirect("benchmarks:suite", suite_id=started.suite.pk)
    return _index(request, status=400, suite_form=form)


def _live(request: HttpRequest, template: str, context: dict, over: bool) -> HttpResponse:
    if request.htmx:
        status = HTMX_STOP_POLLING if over else 200  # htmx stops polling on 286
        return render(request, f"{template}#live", context, status=status)
    return render(request, template, context)


@login_required
@require_GET
def run_detail(request: HttpRequest, run_id) -> HttpResponse:
    run = get_object_or_404(
        Run.objects.select_related("profile_version__profile", "target__tier", "created_by"),
        pk=run_id,
    )
    summaries = list(run.summaries.all())
    content = run.profile_version.content
    language = get_language()
    metric = content.get("metric") or {}
    higher = metric.get("higher_is_better", True)
    contradicts = consistency.contradictions([(s.threads, s.median) for s in summaries], higher)
    for summary in summaries:
        summary.contradiction = contradicts.get(summary.threads)
    context = {
        "run": run,
        "words": profile_text.words(content, language, ("title", "metric.unit")),
        "metric_name": metric.get("name", ""),
        "metric_help": glossary.metric(metric.get("name", "")),
        "time_left": time_left_text(run, timezone.now()),
        "contradictions": list(contradicts.values()),
        "summaries": summaries,
        "can_run": can_run(request.user),
        "fits": _fits_with_spread(run, summaries) if run.is_over else [],
        "fit_min_r2": settings.PLANNER_FIT_MIN_R2,
        "other_series": run.profile_version.profile.versions.exclude(
            major=run.profile_version.major, minor=run.profile_version.minor
        ).exists(),
    }
    return _live(request, "benchmarks_app/run.html", context, run.is_over)


def _fits_with_spread(run: Run, summaries: list) -> list[tuple[Any, float | None]]:
    """Each fit beside its residual spread over the measured medians."""
    medians = {s.threads: s.median for s in summaries}
    return [(fit, residual_spread(fit, medians)) for fit in selectors.fits_for(run)]


@login_required
@require_GET
def suite_detail(request: HttpRequest, suite_id) -> HttpResponse:
    suite = get_object_or_404(Suite.objects.select_related("target"), pk=suite_id)
    runs = list(suite.runs.for_listing().order_by("created_at"))
    over = all(run.is_over for run in runs)
    context = {"suite": suite, "runs": runs, "over": over}
    return _live(request, "benchmarks_app/suite.html", context, over)


@login_required
@require_GET
def run_chart(request: HttpRequest, run_id) -> HttpResponse:
    run = get_object_or_404(
        Run.objects.select_related("profile_version__profile", "target"), pk=run_id
    )
    language = get_language() or "en"
    data = charts.chart_data(
        title=f"{run.profile_version} · {run.scale} · {run.host_label}",
        unit=profile_text.shown(run.profile_version.content, "metric.unit", language).text,
        points=[(s.threads, s.median, s.min, s.max) for s in run.summaries.all()],
        fits=selectors.fits_for(run),
        usable=run.fingerprint.get("usable_cpus") or 1,
    )
    key = f"bench-chart:{charts.content_key(data, language)}"
    svg = cache.get(key)
    if svg is None:
        svg = charts.scaling_svg(data, language)
        cache.set(key, svg, 24 * 3600)
    response = HttpResponse(svg, content_type="image/svg+xml")
    response["Cache-Control"] = "private, max-age=60"
    return response


@login_required
@require_POST
def run_cancel(request: HttpRequest, run_id) -> HttpResponse:
    _require_runner(request)
    run = get_object_or_404(Run, pk=run_id)
    if run.is_over:
        messages.info(request, _("The run had already ended."))
    else:
        cancel_run(run, request.user)
        messages.success(request, _("Cancel requested."))
    return redirect("benchmarks:run", run_id=run.pk)


@login_required
@require_GET
def run_export(request: HttpRequest, run_id) -> HttpResponse:
    run = get_object_or_404(
        Run.objects.select_related("profile_version__profile", "target"), pk=run_id
    )
    if not run.is_over:
        messages.error(request, _("A run can be exported once it has ended."))
        return redirect("benchmarks:run", run_id=run.pk)
    body = json.dumps(export_run(run), indent=1, sort_keys=True)
    response = HttpResponse(body, content_type="application/json")
    name = f"run-{run.profile_name}-{run.scale}-{run.target.name}-{str(run.pk)[:8]}.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
@require_POST
def run_import(request: HttpRequest) -> HttpResponse:
    # Anyone signed in: a run imported by a user who is not staff sizes their own plans
    # until staff confirm its host's tier (benchmarks_app.visibility).
    form = ImportRunForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            run = import_run(form.cleaned_data["file"], by=request.user)
        except ImportRefused as exc:
            for problem in exc.messages:
                form.add_error("file", say(problem))
        else:
            messages.success(
                request, _("Imported a run measured on %(host)s.") % {"host": run.source_host}
            )
            _say_tier(request, run, form.cleaned_data.get("tier") or "")
            return redirect("benchmarks:run", run_id=run.pk)
    return _index(request, status=400, import_form=form)


def _say_tier(request: HttpRequest, run: Run, slug: str) -> None:
    """Link the host to the named tier, warning of differences; else suggest tiers."""
    if slug:
        differences = tier_links.warnings(run, slug)
        if (kept := tier_links.link(run, slug, by=request.user)) is not None:
            messages.warning(request, say(kept))
            return
        messages.success(request, _("Linked the host to tier %(tier)s.") % {"tier": slug})
        if not request.user.is_staff:
            messages.info(request, _("The run sizes your own plans now, and other users' "
                                     "plans once staff confirm the link."))  # fmt: skip
        for difference in differences:  # as the admin's link says them
            messages.warning(request, capfirst(say(difference)))
        return
    found = tier_links.suggestions(run)
    if found:
        names = ", ".join(m.slug + ("" if m.same_vcpus else " (" + str(_("other vCPUs")) + ")")
                          for m in found)  # fmt: skip
        messages.info(request, _("Tiers with this host's CPU model: %(tiers)s. Link one to "
                                 "let the run size it.") % {"tiers": names})  # fmt: skip
    else:
        messages.info(request, _("No catalog tier has this host's CPU model; link one in the "
                                 "admin if you know which it is."))  # fmt: skip
