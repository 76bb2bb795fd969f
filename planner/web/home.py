"""The home page: a per-process memo of the whole page in front of its three panels,
which are cached HTML fragments (the plan list, the catalog's freshness and the benchmark
targets).

Each fragment is rendered without the request (no CSRF token, session or user in it) from
the `planner/home.html` partial of the same name, and cached under a key that holds
everything it shows, so a cached fragment is never out of date:

- freshness: the data generation, the language and the day (the catalog frame is dated);
- targets: the generation and the language, and a short lifetime: a heartbeat and a run
  that starts write no change (only a run that ends does), so "online" and a running
  run's state may lag by up to `TARGETS_SECONDS`;
- plans: the owner, the generation ("fresh" compares a plan's generation with it), the
  language, and a digest of each plan's shown fields (name, last change, the figures last
  viewed): an edit, a rename or a view shows on the next request.

The page around them (`base.html`: the user's name, the language menu, the CSRF token) is
kept whole in this process for `PAGE_SECONDS` (the targets panel's lifetime), under a key
that holds what the fragments' keys hold (the reader, the generation, the language, the
day, and the plan rows themselves, read again with every request: one plain query) and
what the page adds (the user's name and staff flag, the address asked for). Its CSRF
token is a placeholder that each request replaces with its own token, so one session's
token is never served to another; a page with messages to show is never kept.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from typing import Any

from django.contrib import messages
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.cache import cache
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

from benchmarks_app import selectors as bench_selectors
from changes.memo import kept
from changes.selectors import Generation
from common.django import clock
from common.messages import Message
from planner.models import Plan
from planner.services import plans as services
from planner.web import dashboard
from planner.web import data as web_data

FRESHNESS_SECONDS = 24 * 3600  # keyed by the data generation and the day as well
TARGETS_SECONDS = 5
PLANS_SECONDS = 3600
TEMPLATE = "planner/home.html"
PLAN_FIELDS = ("code", "name", "updated", "seen_generation", "seen_figures")
PAGE_SECONDS = TARGETS_SECONDS  # the page shows the targets panel
PAGES_KEPT = 256
# Stands for the CSRF token in a kept page; each request puts its own token in its place.
# Random, so no text a user writes (a plan's name) can be taken for it; kept pages never
# leave the process, so each process may have its own.
CSRF_PLACEHOLDER = f"csrf-{secrets.token_hex(16)}"


def page(request: HttpRequest, generation: Generation) -> str:
    """The home page's HTML for this request: from this process's memo when it holds it."""
    user = request.user
    if len(messages.get_messages(request)):
        return _render(request, generation, get_token(request))  # shown once: never kept
    key = (generation.key, user.pk, user.get_username(), user.is_staff,
           translation.get_language(), request.get_full_path(), clock.today().isoformat(),
           services.plan_rows(user, PLAN_FIELDS) if user.is_authenticated else None)  # fmt: skip
    # Kept in this process: bench/memo_pays.py, 7.0 ms rendered from the shared cache's
    # fragments vs 0.8 ms kept at 2,018 tiers (12.5 vs 7.1 ms at 20,000).
    html = kept(generation, "web.home_page", key,
                lambda: _render(request, generation, CSRF_PLACEHOLDER),
                most=PAGES_KEPT, seconds=PAGE_SECONDS)  # fmt: skip
    return html.replace(CSRF_PLACEHOLDER, get_token(request))


def _render(request: HttpRequest, generation: Generation, csrf_token: str) -> str:
    context = {"fragments": fragments(request.user, generation), "csrf_token": csrf_token}
    return render_to_string(TEMPLATE, context, request=request)


def fragments(user: AbstractBaseUser | Any, generation: Generation) -> dict[str, SafeString]:
    """{panel: its HTML} for this reader, from the cache where it holds them (one lookup)."""
    language = translation.get_language() or "en"
    base = f"{language}:{generation.key}"
    builders = {f"home-freshness:{base}:{clock.today().isoformat()}": ("freshness", _freshness)}
    if user.is_authenticated:
        plans = list(Plan.objects.owned_by(user).only(*PLAN_FIELDS))
        builders[f"home-targets:{base}"] = ("targets", _targets)
        builders[f"home-plans:{user.pk}:{base}:{_digest(plans)}"] = (
            "plans",
            lambda: _plans(plans, generation),
        )
    found = cache.get_many(list(builders))
    out: dict[str, SafeString] = {}
    for key, (name, build) in builders.items():
        html = found.get(key)
        if html is None:
            html = render_to_string(f"{TEMPLATE}#{name}", build())
            cache.set(key, html, _SECONDS[name])
        out[name] = mark_safe(html)  # our own template's output
    return out


_SECONDS = {"freshness": FRESHNESS_SECONDS, "targets": TARGETS_SECONDS, "plans": PLANS_SECONDS}


def _freshness() -> dict[str, Any]:
    return {"freshness": web_data.catalog_freshness()}


def _targets() -> dict[str, Any]:
    return {"targets": bench_selectors.targets_with_last_run()}


def _plans(plans: list[Plan], generation: Generation) -> dict[str, Any]:
    # A plan whose figures rest on an older generation is evaluated only when its cell
    # asks (htmx, plan_figures), never here.
    rows = [
        {"plan": plan, "fresh": plan.seen_generation == generation.number,
         "figures": shown_figures(plan.seen_figures)}
        for plan in plans
    ]  # fmt: skip
    return {"plans": rows}


def _digest(plans: list[Plan]) -> str:
    """What the plan list shows of each plan, hashed: any change makes a new key."""
    shown = [
        [str(p.code), p.name, p.updated.isoformat(), p.seen_generation, p.seen_figures]
        for p in plans
    ]
    text = json.dumps(shown, sort_keys=True, default=str)
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def shown_figures(figures: dict[str, Any] | None) -> dict[str, Any] | None:
    """A plan's stored figures (`views.seen_figures`) as the figure text reads them."""
    if not figures:
        return None
    if not figures.get("option"):
        return {"currency": figures["currency"], "option": None}
    return {"currency": figures["currency"], "option": Message.from_json(figures["option"]),
            "saving_per_month": dashboard.dec(figures["saving_per_month"]),
            "payback": Message.from_json(figures["payback"])}  # fmt: skip
