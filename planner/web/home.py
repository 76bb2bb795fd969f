"""The home page's three panels as cached HTML fragments: the plan list, the catalog's
freshness and the benchmark targets.

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

The page shell around them (`base.html`: the CSRF token, the user's name) is rendered per
request, so one user's fragment never carries another's token.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

from changes.selectors import Generation
from common import clock
from common.messages import Message
from planner.models import Plan
from planner.web import dashboard
from planner.web import data as web_data

FRESHNESS_SECONDS = 24 * 3600  # keyed by the data generation and the day as well
TARGETS_SECONDS = 5
PLANS_SECONDS = 3600
TEMPLATE = "planner/home.html"
PLAN_FIELDS = ("code", "name", "updated", "seen_generation", "seen_figures")


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
    return {"targets": web_data.bench_targets()}


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
