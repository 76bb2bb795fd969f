"""The manager's pages: home, plan editor with live results, charts, shares, compare, exports.

Thin: each view checks who may see what, validates through `PlanForm` (which is
the plan schema), calls `planner.services.plans` for everything that touches plans,
prices and runs, and hands `planner.web.dashboard`'s plain rows to a template. A plan
that is not the user's answers 404, exactly like one that does not exist.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import tempfile
import uuid
from collections.abc import Callable
from concurrent import futures
from pathlib import Path
from typing import Any

from celery import current_app
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import reswap
from pydantic import ValidationError

from catalog import pricing_models
from changes.memo import kept
from changes.selectors import Generation, changes_since, current_generation
from common.django import clock
from common.django.message_render import render as render_message
from planner.compute import montecarlo, schema
from planner.compute.answer import Answer
from planner.compute.uncertainty_answer import Uncertainty
from planner.models import Plan, Share
from planner.services import bills as bill_services
from planner.services import evaluation, health, inputs, rate_limits
from planner.services import next_runs as next_runs_service
from planner.services import plans as services
from planner.web import charts, dashboard, evidence, exports, formsets, tier_search
from planner.web import compare as plan_compare
from planner.web import data as web_data
from planner.web import home as home_page
from planner.web import next_runs as next_runs_view
from planner.web import uncertainty as uncertainty_view
from planner.web.forms import PlanForm

CHART_DATA_SECONDS = 24 * 3600  # a chart's data waits this long for its SVG request
CHART_SVG_SECONDS = 7 * 24 * 3600
EXPORT_COLUMNS = {
    "comparison": exports.COMPARISON_COLUMNS,
    "cumulative": exports.CUMULATIVE_COLUMNS,
    "sensitivity": exports.SENSITIVITY_COLUMNS,
    "odds": exports.ODDS_COLUMNS,
}
SHARED_PAGE_SECONDS = 3600  # also keyed by the data generation: a change shows at once
UNCERTAINTY_PLAN_SECONDS = 24 * 3600  # a deferred section's plan waits this long for its request
SEED_MAX = 2**32 - 1
logger = logging.getLogger(__name__)


def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness: the process answers. Says nothing of the database, cache or broker."""
    return JsonResponse({"ok": True})


@require_GET
def favicon(request: HttpRequest) -> FileResponse:
    """/favicon.ico, which browsers ask for whatever the page links: the static icon."""
    response = FileResponse((settings.BASE_DIR / "static" / "favicon.ico").open("rb"),
                            content_type="image/x-icon")  # fmt: skip
    response["Cache-Control"] = "public, max-age=86400"
    return response


def readyz(request: HttpRequest) -> JsonResponse:
    """Readiness: the database, the cache and the broker, each "ok" or "down"; 503 if any is.

    A down cache only slows the site (it runs uncached) but is reported all the same,
    so an operator sees it; the details go to the log, not to whoever asks.
    """
    # Redis may hang (paused, or its host unreachable): its probes run beside the request
    # and whatever has not answered within READY_TIMEOUT_S is "down" (issue 29, item 4).
    # Celery's current app is this thread's: handed to the probe's thread as it is.
    app = current_app._get_current_object()
    pending = {"cache": _probes.submit(_cache_ready),
               "broker": _probes.submit(_broker_ready, app)}  # fmt: skip
    parts = {"database": "ok" if _database_ready() else "down",
             "disk": "ok" if _disk_ready() else "down"}  # fmt: skip
    done, _late = futures.wait(pending.values(), timeout=READY_TIMEOUT_S)
    for name, future in pending.items():
        parts[name] = "ok" if future in done and future.result() else "down"
    ready = all(state == "ok" for state in parts.values())
    return JsonResponse({"ok": ready, **parts}, status=200 if ready else 503)


READY_TIMEOUT_S = 3.0
# A few threads for the Redis probes: a hung one holds its thread until its own socket
# timeout, and later probes queue behind it (answered "down" at the deadline all the same).
_probes = futures.ThreadPoolExecutor(max_workers=4, thread_name_prefix="readyz")


def _probe(name: str, check: Callable[[], bool]) -> bool:
    # A probe answers "down" for whatever goes wrong: it must never be the thing that fails.
    try:
        return check()
    except Exception:
        logger.warning("readiness: %s is down", name, exc_info=True)
        return False


def _database_ready() -> bool:
    return _probe("database", health.database_answers)


def _cache_ready() -> bool:
    def check() -> bool:
        # The cache swallows its errors (a miss), so only a round trip tells; a probe asks
        # Redis itself, not the breaker that skips it after a failure (common.django.cache).
        if (try_again_now := getattr(cache, "try_again_now", None)) is not None:
            try_again_now()
        key, value = f"readyz:{uuid.uuid4().hex}", uuid.uuid4().hex
        cache.set(key, value, 10)
        found = cache.get(key)
        cache.delete(key)
        if found != value:
            logger.warning("readiness: the cache did not keep a value")
        return found == value

    return _probe("cache", check)


def _broker_ready(app: Any) -> bool:
    def check() -> bool:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, timeout=3)
        return True

    return _probe("broker", check)


DISK_PROBE_BYTES = 4096


def _disk_ready() -> bool:
    """var/ and the file cache's folder (without REDIS_URL) take a small write: a full or
    read-only disk is "down" (the site then runs uncached, but the operator must know)."""
    folders = {Path(settings.VAR_DIR)}
    default = settings.CACHES["default"]
    if default["BACKEND"].endswith("FileBasedCache"):
        folders.add(Path(default["LOCATION"]))

    def check() -> bool:
        for folder in folders:
            folder.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=folder, prefix=".readyz-") as probe:
                probe.write(b"\0" * DISK_PROBE_BYTES)
                probe.flush()
                os.fsync(probe.fileno())
        return True

    return _probe("disk", check)


def _language() -> str:
    return translation.get_language() or settings.LANGUAGE_CODE


# --- errors --------------------------------------------------------------------------


SHARE_URL_NAMES = ("shared", "shared-export")


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The site's own 404; at a share link's address it says the link may be revoked.

    A revoked link and one that never existed answer alike (the page tells nothing
    about which), but a visitor learns why a link that once worked no longer does.
    The page has no forms (the language menu and log-out need the request's CSRF token).
    """
    match = request.resolver_match
    context = {
        "share_link": bool(match and match.url_name in SHARE_URL_NAMES),
        "user": getattr(request, "user", None),
    }
    # Without the request: no CSRF token or path in it, so a missing plan and someone
    # else's (or a revoked link and an unknown one) answer with the same bytes.
    return HttpResponse(render_to_string("404.html", context), status=404)


# --- home ------------------------------------------------------------------------------


# What a change-log kind's first word names, for "changed since you last viewed it".
CHANGE_SUBJECTS = {"price": _lazy("price row"), "run": _lazy("benchmark run"),
                   "tier": _lazy("tier"), "exchangerate": _lazy("exchange rate"),
                   "speedfactor": _lazy("speed factor")}  # fmt: skip


def home(request: HttpRequest) -> HttpResponse:
    """The plan list and the two panels, as fragments cached per reader, language and data
    generation, in a page kept in this process with its CSRF token put in per request
    (`planner.web.home`)."""
    return HttpResponse(home_page.page(request, current_generation()))


def seen_figures(view: dashboard.Results) -> dict[str, Any]:
    """The headline's figures as stored with a plan: best option, monthly saving, payback."""
    best = view.best
    if best is None:
        return {"currency": view.currency, "option": None}
    saving = dashboard.dec(view.headline.saving_per_month) if best.saving > 0 else 0
    return {"currency": view.currency, "option": best.title.to_json(),
            "saving_per_month": str(saving), "payback": best.payback.to_json()}  # fmt: skip


@login_required
@require_GET
def plan_figures(request: HttpRequest, code: Any) -> HttpResponse:
    """The home page's cell for a plan whose data changed since it was last viewed: today's
    figures, the ones last seen, and which price rows or runs changed in between."""
    plan = _own_plan(request, code)
    generation = current_generation()
    context: dict[str, Any] = {"plan": plan, "was": home_page.shown_figures(plan.seen_figures)}
    try:
        parsed = services.stored_plan(plan)
        found = evaluation.answer(parsed, generation=generation)
    except schema.PlanValidationError:  # refused by the schema, or figures past a maximum
        return render(request, "planner/_plan_figures.html", {**context, "invalid": True})
    view = dashboard.results(found)
    context["figures"] = home_page.shown_figures(seen_figures(view))
    if context["was"] and _figure_text(context["was"]) == _figure_text(context["figures"]):
        # The data changed, but no figure the page shows did (a price the plan does not
        # use, an edit that leaves the same saving and payback): nothing to say.
        context["was"] = None
    if context["was"] and plan.seen_generation is not None:
        context["changes"] = [
            {"what": CHANGE_SUBJECTS.get(row.kind.split(".")[0], row.kind), "label": row.label,
             "at": row.at}
            for row in changes_since(plan.seen_generation, limit=5)
        ]  # fmt: skip
    return render(request, "planner/_plan_figures.html", context)


def _figure_text(figures: dict[str, Any] | None) -> str:
    """The figures as the home page's cell writes them, in the reader's language."""
    return render_to_string("planner/_plan_figure_text.html", {"f": figures}).strip()


# --- the editor ------------------------------------------------------------------------


def _own_plan(request: HttpRequest, code: Any) -> Plan:
    plan = services.plan_for(request.user, code)
    if plan is None:
        raise Http404
    return plan


def _form(request: HttpRequest, plan: dict[str, Any] | None, generation: Generation) -> PlanForm:
    options = web_data.form_options(generation)
    data = request.POST if request.method == "POST" else None
    parse = web_data.parser(generation)
    owner = request.user
    return PlanForm(data, plan=plan, parse=parse, language=_language(),
                    full_list_max=tier_search.FULL_LIST_MAX,
                    bills=bill_services.owner_bills(owner),
                    take_bill=lambda data: bill_services.take_from_bill(data, owner),
                    **options)  # fmt: skip


def results_context(answer: Answer) -> dict[str, Any]:
    """The results partial's context: rows, headline, chart URLs (their data cached), and the
    plan's inputs as the printed report lists them."""
    view = dashboard.results(answer)
    return view_context(view, answer.plan, dashboard.tier_titles(answer))


def view_context(
    view: dashboard.Results, plan: dict[str, Any] | None, titles: dict[str, str]
) -> dict[str, Any]:
    """`results_context` of a view (a live answer's, or a share's frozen one): `plan` the
    plan it was computed from, `titles` its tiers' titles by key."""
    return {
        "results": view,
        "chart_urls": chart_urls(view.charts),
        "plan_inputs": _printed_inputs(plan, view.currency, titles),
    }


def _printed_inputs(
    plan: dict[str, Any] | None, currency: str, titles: dict[str, str]
) -> list[plan_compare.InputRow]:
    """The inputs the figures rest on, by label and in the reader's formats (tiers by the
    titles the options give them, else, for a tier no option names, by the catalog's)."""
    if not plan:
        return []

    def title(slug: str) -> str:
        if slug not in titles:
            titles[slug] = _tier_titles(current_generation(), [currency])(slug)
        return titles[slug]

    return plan_compare.input_rows([plan], _language(), title)


def chart_urls(data: dict[str, dict[str, Any]]) -> dict[str, str]:
    language = _language()
    urls, entries = {}, {}
    for kind, chart in data.items():
        digest = charts.content_hash(kind, chart, language)
        # The key is the hash of the entry: writing it again changes nothing but its
        # lifetime (the drawn SVG has a key of its own), and all of them go in one trip.
        entries[f"chart-data:{digest}"] = (kind, chart, language)
        urls[kind] = reverse("chart", args=[kind, digest])
    if entries:
        cache.set_many(entries, CHART_DATA_SECONDS)
    return urls


# The lists of a plan as the refusal names them.
ROW_SECTIONS = {
    "candidate": _lazy("the options to compare"),
    "commitment": _lazy("the reserved terms still running"),
    "owned": _lazy("the servers bought"),
    "workload": _lazy("the workloads"),
}


def _too_many_rows(request: HttpRequest) -> HttpResponse | None:
    """A post with more rows than a plan holds is refused before any form is built (its
    cost would grow with the rows), with a short page that repeats none of them."""
    if request.method != "POST" or not (too_many := formsets.too_many_rows(request.POST)):
        return None
    context = {"too_many": too_many, "what": ROW_SECTIONS[too_many.section]}
    return HttpResponse(render_to_string("too_many_rows.html", context), status=400)


def _editor(
    request: HttpRequest, plan: Plan | None, start: dict[str, Any] | None = None
) -> HttpResponse:
    if refused := _too_many_rows(request):
        return refused
    generation = current_generation()  # read once: the form, its choices and the figures
    form = _form(request, plan.inputs if plan else start, generation)
    context: dict[str, Any] = {"form": form, "plan": plan}
    status = 200
    if request.method == "POST":
        figures = None
        if form.is_valid():
            try:
                figures = evaluation.answer(form.parsed, generation=generation)
            except schema.PlanValidationError as exc:  # figures past a maximum
                form.refuse(exc)
        if figures is not None:
            if request.POST.get("action") in SAVES and not request.htmx:
                try:
                    return _save(request, plan, form.parsed)
                except services.StalePlan as stale:
                    # Shown over the form as typed (bound to the post): nothing is lost.
                    context["conflict"] = stale.current
                    status = 409
            context.update(results_context(figures))
            context["uncertainty_url"] = uncertainty_url(request, form.parsed, figures)
            context["next_runs_url"] = next_runs_url(context["uncertainty_url"], figures)
        else:
            status = 400 if not request.htmx else 200
    elif plan is not None:
        context.update(_stored_results(request, plan, generation))
        if "results" in context:
            services.plan_viewed(plan, seen_figures(context["results"]), generation.number)
    if plan is not None:
        # The version this page's save starts from: the one it was opened at, kept through
        # a refused save (its "overwrite" button names the newer one).
        posted = request.POST.get("version") if request.method == "POST" else None
        context["version"] = posted if posted is not None else plan.version
    if (view := context.get("results")) and view.no_number:
        titles = _tier_titles(generation, [view.currency])
        dashboard.name_reasons(view, evidence.reader_names(titles))
        context["missing"] = evidence.missing(view.no_number, titles)
    if plan is not None:
        context["export_columns"] = EXPORT_COLUMNS
        context["shares"] = plan.shares.all()
        context["others"] = (
            Plan.objects.owned_by(request.user).exclude(pk=plan.pk).only("code", "name")
        )
        if not request.htmx and (original := _compared_with(request, plan)):
            context["comparison"] = compare_context(request, [original, plan])
    if request.htmx:
        response = render(request, "planner/plan_edit.html#results", context)
        if not context.get("results") and request.method == "POST":
            # An input being typed is not valid yet: keep the last good results on the
            # page (marked stale by static/js/plan_form.js), swap only the messages.
            reswap(response, "none")
        return response
    return render(request, "planner/plan_edit.html", context, status=status)


def _compared_with(request: HttpRequest, plan: Plan) -> Plan | None:
    """The plan named by `?compare=` (after "Duplicate as a scenario"), if it is the user's."""
    try:
        code = uuid.UUID(request.GET.get("compare") or "")
    except ValueError:
        return None
    original = services.plan_for(request.user, code)
    return original if original is not None and original.pk != plan.pk else None


def _stored_results(request: HttpRequest, plan: Plan, generation: Generation) -> dict[str, Any]:
    try:
        parsed = services.stored_plan(plan)
        figures = evaluation.answer(parsed, generation=generation)
    except schema.PlanValidationError:  # refused by the schema, or figures past a maximum
        return {"stored_invalid": True}
    at = uncertainty_url(request, parsed, figures)
    return {
        **results_context(figures),
        "uncertainty_url": at,
        "next_runs_url": next_runs_url(at, figures),
    }


# --- sensitivity and the odds of paying back: deferred beside the recompute ---------------


def uncertainty_url(request: HttpRequest, plan: schema.Plan, figures: Answer) -> str:
    """The address the results ask for their sensitivity and odds once shown (htmx, on load):
    the plan is kept under its content's digest for the reader who saw it; nothing is
    computed here, so the recompute costs what it did. No option: nothing to ask for."""
    if not figures.options:
        return ""
    stored = inputs.plain(schema.plan_to_dict(plan))
    digest = evaluation.content_digest(plan, stored)[:40]
    # add: one round trip, and an entry already there (the same plan typed again) stays.
    cache.add(f"uncertainty-plan:{request.user.pk}:{digest}",
              {"user": request.user.pk, "plan": stored}, UNCERTAINTY_PLAN_SECONDS)  # fmt: skip
    return reverse("plan-uncertainty", args=[digest])


def next_runs_url(uncertainty_at: str, figures: Answer) -> str:
    """The next runs' address beside the uncertainty's: the same kept plan (its digest);
    none where no option's figure rests on an estimate (nothing to rank)."""
    estimated = any(o.figure == "estimate" for o in figures.options)
    if not uncertainty_at or not estimated:
        return ""
    return reverse("plan-next-runs", args=[uncertainty_at.rstrip("/").rsplit("/", 1)[-1]])


def _seed(request: HttpRequest) -> int:
    given = request.GET.get("seed", "")
    if not given:
        return montecarlo.SEED
    if not given.isdigit() or int(given) > SEED_MAX:
        raise Http404
    return int(given)


@login_required
@require_GET
def plan_uncertainty(request: HttpRequest, digest: str) -> HttpResponse:
    """The sections "Which input decides the answer" and "The odds it pays back" of the
    plan the reader was just shown (`?seed=` another draw), from the evaluation module's
    cache (per plan, data generation, date and seed): computed once, then read."""
    entry = cache.get(f"uncertainty-plan:{request.user.pk}:{digest}")
    if entry is None or entry["user"] != request.user.pk:
        raise Http404
    seed = _seed(request)
    if refused := _over_uncertainty_limit(request):
        return refused
    plan = schema.parse_plan(entry["plan"], known_tiers=None)
    generation = current_generation()
    try:
        data = evaluation.uncertainty(plan, generation=generation, seed=seed)
    except Exception:  # the page keeps its answer; this section says it could not be worked out
        logger.exception("uncertainty of plan %s failed", digest)
        return render(request, "planner/_uncertainty.html", {"uncertainty_failed": True})
    figures = dashboard.results(evaluation.answer(plan, generation=generation))
    return render(request, "planner/_uncertainty.html", uncertainty_context(data, figures))


@login_required
@require_GET
def plan_next_runs(request: HttpRequest, digest: str) -> HttpResponse:
    """The section "The next run worth making" of the plan the reader was just shown (the
    plan kept for the uncertainty; the same per-user limit), from the cache of
    `planner.services.next_runs`."""
    entry = cache.get(f"uncertainty-plan:{request.user.pk}:{digest}")
    if entry is None or entry["user"] != request.user.pk:
        raise Http404
    if refused := _over_uncertainty_limit(request):
        return refused
    plan = schema.parse_plan(entry["plan"], known_tiers=None)
    try:
        answer = next_runs_service.api_answer(next_runs_service.next_runs(plan))
    except Exception:  # the page keeps its answer; this section says it could not be worked out
        logger.exception("next runs of plan %s failed", digest)
        return render(request, "planner/_next_runs.html", {"next_runs_failed": True})
    return render(request, "planner/_next_runs.html", {"next_runs": next_runs_view.view(answer)})


def _over_uncertainty_limit(request: HttpRequest) -> HttpResponse | None:
    """429 with Retry-After once the user's uncertainty requests this minute are spent."""
    if rate_limits.allow_uncertainty(request.user.pk):
        return None
    wait = rate_limits.seconds_to_next_window()
    text = _("Too many sensitivity and odds requests this minute: try again in %(seconds)s s.")
    response = HttpResponse(text % {"seconds": wait}, status=429,
                            content_type="text/plain; charset=utf-8")  # fmt: skip
    response["Retry-After"] = str(wait)
    return response


def uncertainty_context(found: Uncertainty | None, figures: dashboard.Results) -> dict[str, Any]:
    """The two sections' context from an uncertainty answer (or a share's frozen copy, read
    back); `figures`: the view of the answer it goes with."""
    titles = {row.key: row.title for row in figures.rows}
    shown = uncertainty_view.view(found, titles, uncertainty_view.fixed_count_options(figures))
    if shown is None:
        return {"uncertainty": None}
    if not shown.chart:
        return {"uncertainty": shown}
    wide = chart_urls({"tornado": shown.chart})["tornado"]
    narrow = chart_urls({"tornado": {**shown.chart, "narrow": True}})["tornado"]
    return {"uncertainty": shown, "tornado_url": wide, "tornado_narrow_url": narrow}


# "save" names the version the page was opened at; "overwrite" (offered when someone else
# saved in between) the version the refusal showed.
SAVES = ("save", "overwrite")


def _posted_version(request: HttpRequest) -> int | None:
    """The version a save starts from: a page without one (an old form) saves as before;
    one that is not a version matches none."""
    name = "overwrite_version" if request.POST.get("action") == "overwrite" else "version"
    given = request.POST.get(name)
    if given is None:
        return None
    return int(given) if given.isascii() and given.isdigit() and len(given) < 12 else -1


def _save(request: HttpRequest, plan: Plan | None, parsed: schema.Plan) -> HttpResponse:
    """Store the plan; `services.StalePlan` when someone else saved it since the page's
    version (the caller shows that over what was typed)."""
    if plan is None:
        plan = services.plan_create(owner=request.user, plan=parsed)
        messages.success(request, _("Plan saved."))
    else:
        services.plan_update(plan, parsed, expected_version=_posted_version(request))
        messages.success(request, _("Changes saved."))
    return redirect("plan-edit", code=plan.code)


@login_required
@require_GET
def tier_options(request: HttpRequest) -> HttpResponse:
    """The tiers matching `q`, best first: `<option>`s for the editor's datalist (htmx),
    else JSON. `pricing` keeps one pricing model or group ("savings_plan", "reserved")."""
    entries = tier_search.index()
    if pricing := request.GET.get("pricing", ""):
        if not pricing_models.is_known(pricing):
            error = _("Unknown pricing model or group %(value)s: use one of %(known)s.") % {
                "value": repr(pricing[:40]),
                "known": ", ".join(pricing_models.GROUPS),
            }
            return JsonResponse({"error": error, "field": "pricing"}, status=400)
        entries = tier_search.with_pricing(entries, pricing)
    found = tier_search.search(entries, request.GET.get("q", ""))
    if request.htmx:
        context = {"tier_options": found.results}
        return render(request, "planner/plan_edit.html#tier-options", context)
    results = [{"slug": slug, "label": label} for slug, label in found.results]
    return JsonResponse({"results": results, "total": found.total})


@login_required
def plan_new(request: HttpRequest) -> HttpResponse:
    """A new plan; `?bill=<id>` (the bill page's "Plan a move from this bill") starts it with
    its baseline from that bill's compute lines (the owner's bill only: another's is 404)."""
    start = None
    if request.method == "GET" and "bill" in request.GET:
        bill = bill_services.owned_bill(request.user, request.GET["bill"])
        if bill is None:
            raise Http404
        start = bill_services.plan_start(bill)
    return _editor(request, None, start)


@login_required
def plan_edit(request: HttpRequest, code: Any) -> HttpResponse:
    return _editor(request, _own_plan(request, code))


@login_required
@require_POST
def plan_duplicate(request: HttpRequest, code: Any) -> HttpResponse:
    original = _own_plan(request, code)
    copy = services.plan_duplicate(original, owner=request.user)
    messages.success(request, _("A copy to change: compare it with the original below."))
    return redirect(f"{reverse('plan-edit', args=[copy.code])}?compare={original.code}")


@login_required
@require_POST
def plan_delete(request: HttpRequest, code: Any) -> HttpResponse:
    plan = _own_plan(request, code)
    services.plan_delete(plan)
    messages.success(request, _("Plan deleted."))
    return redirect("home")


# --- charts ----------------------------------------------------------------------------


@require_GET
def chart(request: HttpRequest, kind: str, digest: str) -> HttpResponse:
    """One chart by the hash of what it draws: drawn once, then served from the cache.

    The hash is a capability like a share token: only a page that showed the
    figures hands it out, and it names the figures, never a plan.
    """
    if kind not in charts.KINDS:
        raise Http404
    svg = cache.get(f"chart-svg:{digest}")
    if svg is None:
        entry = cache.get(f"chart-data:{digest}")
        if entry is None or entry[0] != kind:
            raise Http404
        _kind, data, language = entry
        svg = charts.render(kind, data, language)
        cache.set(f"chart-svg:{digest}", svg, CHART_SVG_SECONDS)
    response = HttpResponse(svg, content_type="image/svg+xml")
    # The URL changes whenever the drawing would: browsers may keep it for good.
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    return response


# --- shares ----------------------------------------------------------------------------


@login_required
@require_POST
def share_create(request: HttpRequest, code: Any) -> HttpResponse:
    plan = _own_plan(request, code)
    include_bill = request.POST.get("include_bill") == "on"  # the owner's choice (issue 25)
    share = services.share_create(plan=plan, user=request.user, include_bill=include_bill)
    link = request.build_absolute_uri(reverse("shared", args=[share.token]))
    messages.success(request, _("Share link created: %(link)s") % {"link": link})
    return redirect("plan-edit", code=plan.code)


@login_required
@require_POST
def share_revoke(request: HttpRequest, code: Any, share_id: int) -> HttpResponse:
    plan = _own_plan(request, code)
    share = plan.shares.filter(pk=share_id).first()
    if share is None:
        raise Http404
    services.share_revoke(share)
    messages.success(request, _("Share link revoked: it now answers “not found”."))
    return redirect("plan-edit", code=plan.code)


def _live_share(token: str) -> Share:
    share = services.shared(token)
    if share is None:
        raise Http404  # revoked and unknown alike, so the answer tells nothing
    return share


@require_GET
def shared(request: HttpRequest, token: str) -> HttpResponse:
    """The frozen figures, and beside them the same plan on today's prices and runs.

    Anyone with the link reads it, so the page is cached whole by token, language
    and the generation of the data it rests on: a visit costs a lookup of the link
    (revoked answers 404 at once) until a price, rate, run or tier changes. It has
    no form and no CSRF token, so one visitor's page is every visitor's page;
    `?lang=de` switches the language (and remembers it in the language cookie).
    """
    generation = services.live_share_generation(token)
    if generation is None:
        raise Http404  # revoked and unknown alike, so the answer tells nothing
    chosen = request.GET.get("lang")
    if chosen in dict(settings.LANGUAGES):
        translation.activate(chosen)
    key = f"shared-page:{token}:{_language()}:{generation.key}:{clock.today().isoformat()}"

    def page() -> str:
        html = cache.get(key)
        if html is None:
            share = _live_share(token)
            # Rendered without the request: no CSRF token, session or user in the page.
            html = render_to_string("planner/shared.html", _shared_context(share, generation))
            cache.set(key, html, SHARED_PAGE_SECONDS)
        return html

    # The hottest shared pages kept in this process too: bench/memo_pays.py, 0.65 ms a
    # visit from the shared cache vs 0.28 ms kept at 2,018 tiers (6.6 vs 0.34 ms at 20,000).
    html = kept(generation, "web.shared_page", key, page, most=PAGES_KEPT)
    response = HttpResponse(html)
    if chosen in dict(settings.LANGUAGES):
        response.set_cookie(settings.LANGUAGE_COOKIE_NAME, chosen, samesite="Lax")
    return response


PAGES_KEPT = 64  # shared pages kept in this process


def _shared_context(share: Share, generation: Generation) -> dict[str, Any]:
    frozen = share.snapshot
    today = services.recompute_snapshot_inputs(share)
    diff = today["diff"]
    changed = bool(diff["figures"] or diff["prices"] or diff["measurements"] or diff["retired"])
    changed = changed or bool(diff["no_longer_offered"])
    retired = set(diff["retired"]) | set(diff["no_longer_offered"])
    kept = Answer.read(frozen["results"])  # as stored, possibly by an older version
    then = dashboard.results(kept)
    context = view_context(then, kept.plan, dashboard.tier_titles(kept))
    now = dashboard.results(Answer.read(today["snapshot"]["results"]))
    dashboard.mark_changes(context["results"], now, retired)
    if (view := context["results"]).no_number:
        # What is missing, said to a visitor: the ways forward as the owner's, no action.
        titles = _tier_titles(generation, [view.currency])
        dashboard.name_reasons(view, evidence.reader_names(titles))
        context["missing"] = evidence.missing(view.no_number, titles, read_only=True)
    # Only a snapshot with changes lists tiers (a retired one counts as a change).
    tier_name = _snapshot_tier_names(kept, generation) if changed else None
    return {
        **context,
        "share": share,
        "plan_name": frozen["inputs"].get("name") or "",
        "frozen_as_of": _date(frozen.get("as_of")),
        "changed": changed,
        "diff": _named_diff(diff, tier_name) if tier_name else diff,
        "retired": sorted(tier_name(slug) for slug in retired) if tier_name else [],
        "today": now if changed else None,
        "today_as_of": _date(today["as_of"]),
        "export_columns": EXPORT_COLUMNS,
        **_frozen_uncertainty(frozen, then),
        "next_runs": next_runs_view.view(frozen.get("next_runs"), read_only=True),
    }


def _snapshot_tier_names(frozen: Answer, generation: Generation) -> Callable[[str], str]:
    """A tier of a snapshot (its answer, read back) by the title its options gave it, else
    by today's catalog title (a visitor reads titles, not tier keys)."""
    titles = dashboard.tier_titles(frozen)
    today = _tier_titles(generation, [frozen.currency or "USD"])

    def name(slug: str) -> str:
        if slug not in titles:
            titles[slug] = today(slug)
        return titles[slug]

    return name


def _named_diff(diff: dict[str, Any], tier_name: Callable[[str], str]) -> dict[str, Any]:
    """The changes since the snapshot as a visitor reads them: tiers by title, workload
    classes by label, effective dates as dates (the page formats them)."""
    classes = evidence.reader_names(tier_name).classes

    def row(entry: dict[str, Any]) -> dict[str, Any]:
        out = {**entry, "title": tier_name(entry["tier"])}
        if "profile_class" in entry:
            out["class_label"] = classes.get(entry["profile_class"], entry["profile_class"])
        for when in ("then", "now"):
            if entry.get(when) and entry[when].get("effective_from"):
                out[when] = {**entry[when], "effective_day": _date(entry[when]["effective_from"])}
        return out

    return {
        **diff,
        "prices": [row(p) for p in diff["prices"]],
        "measurements": [row(m) for m in diff["measurements"]],
    }


def _frozen_uncertainty(frozen: dict[str, Any], view: dashboard.Results) -> dict[str, Any]:
    """The sensitivity and odds frozen with the share (`view`: its frozen answer's); a
    share from before they were kept says so instead."""
    kept = _kept_uncertainty(frozen.get("uncertainty"))
    if kept is None:
        return {"uncertainty_missing": True}
    return uncertainty_context(kept, view)


def _kept_uncertainty(data: Any) -> Uncertainty | None:
    """A share's frozen sensitivity and odds, read back; None where the share has none, or
    keeps them in a form this version cannot read (a field it lacks): the page then says
    they are not part of the snapshot, never an error."""
    if data is None:
        return None
    try:
        return Uncertainty.read(data)
    except ValidationError:
        logger.warning("share: frozen uncertainty in an unreadable form", exc_info=True)
        return None


def _date(value: str | None) -> dt.date | None:
    return dt.date.fromisoformat(value) if value else None


# --- exports ---------------------------------------------------------------------------


def _csv(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_GET
def plan_export(request: HttpRequest, code: Any, what: str) -> HttpResponse:
    plan = _own_plan(request, code)
    parsed = services.stored_plan(plan)
    view = dashboard.results(evaluation.answer(parsed))
    if what in exports.UNCERTAINTY_EXPORTS:
        seed = _seed(request)
        if refused := _over_uncertainty_limit(request):
            return refused
        found = evaluation.uncertainty(parsed, seed=seed)
        return _export_uncertainty(found, view, what, f"plan-{plan.code}")
    return _export(view, what, f"plan-{plan.code}")


@require_GET
def shared_export(request: HttpRequest, token: str, what: str) -> HttpResponse:
    share = _live_share(token)
    stem = f"shared-{share.created_at:%Y%m%d}"
    view = dashboard.results(Answer.read(share.snapshot["results"]))
    if what in exports.UNCERTAINTY_EXPORTS:
        frozen = _kept_uncertainty(share.snapshot.get("uncertainty"))
        if frozen is None:
            raise Http404  # shared before the sensitivity was kept with a share
        return _export_uncertainty(frozen, view, what, stem)
    return _export(view, what, stem)


def _export(view: dashboard.Results, what: str, stem: str) -> HttpResponse:
    if what == "comparison":
        return _csv(exports.comparison_csv(view), f"{stem}-comparison.csv")
    if what == "cumulative":
        return _csv(exports.cumulative_csv(view), f"{stem}-cumulative.csv")
    raise Http404


def _export_uncertainty(
    found: Uncertainty, view: dashboard.Results, what: str, stem: str
) -> HttpResponse:
    titles = {row.key: row.label for row in view.rows}
    if what == "sensitivity":
        text = exports.sensitivity_csv(found, view, titles)
        return _csv(text, f"{stem}-sensitivity.csv")
    return _csv(exports.odds_csv(found, titles), f"{stem}-odds.csv")


# --- scenario compare ------------------------------------------------------------------


@login_required
@require_GET
def compare(request: HttpRequest) -> HttpResponse:
    """Two to four of the user's plans side by side (`?plan=…&plan=…`, or `?a=…&b=…`)."""
    codes = request.GET.getlist("plan")
    chosen = bool(codes)  # from the page's chooser: one plan only asks for more
    codes = codes or [request.GET.get("a") or "", request.GET.get("b") or ""]
    plans = [_own_plan(request, code) for code in dict.fromkeys(codes)]
    if len(plans) < 2 and not chosen:
        raise Http404  # a plan against itself
    context = compare_context(request, plans[: plan_compare.MAX_PLANS])
    context["too_many"] = len(plans) > plan_compare.MAX_PLANS
    return render(request, "planner/compare.html", context)


def compare_context(request: HttpRequest, plans: list[Plan]) -> dict[str, Any]:
    """The comparison of `plans` (in that order) as the compare page and the editor show it."""
    generation = current_generation()
    sides = [
        dashboard.results(evaluation.answer(services.stored_plan(plan), generation=generation))
        for plan in plans
    ]
    names = [plan.name or _("Unnamed plan") for plan in plans]
    inputs = [plan.inputs for plan in plans]
    chart = plan_compare.chart_data(names, sides) if len(plans) > 1 else None
    chosen = {plan.pk for plan in plans}
    return {
        "columns": [
            {"plan": plan, "name": name, "results": side}
            for plan, name, side in zip(plans, names, sides, strict=True)
        ],
        "summary": plan_compare.summary_rows(sides),
        "inputs": plan_compare.input_rows(
            inputs, _language(), _tier_titles(generation, [side.currency for side in sides])
        ),
        "chart_urls": chart_urls({"compare": chart}) if chart else {},
        "currencies_differ": len({side.currency for side in sides}) > 1,
        "choices": [
            {"plan": p, "chosen": p.pk in chosen}
            for p in Plan.objects.owned_by(request.user).only("code", "name")
        ],
        "max_plans": plan_compare.MAX_PLANS,
    }


def _tier_titles(generation: Generation, currencies: list[str]) -> Callable[[str], str]:
    """A tier's title as the options name it ("AWS c5.4xlarge · spot"); its key if unknown.

    From the catalog frames the plans were just evaluated on (cached), in their currencies.
    """

    def title(slug: str) -> str:
        for currency in dict.fromkeys(currencies):
            prices = inputs.priced_catalog(clock.today(), currency, generation).prices
            if slug in prices:
                return render_message(prices.title(slug))
        return slug

    return title
