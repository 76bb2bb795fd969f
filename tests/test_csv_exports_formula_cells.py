"""No CSV the product serves starts a cell with a formula, whoever named the plan or the tier.

The URLs are found from the URLconf: every pattern whose view can answer `text/csv`
must have a builder below, so an export added later is walked too (or this fails).
"""

from __future__ import annotations

import csv
import inspect
import io
import re
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from catalog.models import Tier
from planner.models import Plan, Share
from planner.services import plans as services
from planner.web.views import EXPORT_COLUMNS
from tests.support.dashboard import DEDICATED, login

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("two_tier_catalog")]

HOSTILE = ['=HYPERLINK("http://evil.example","x")', "@SUM(1+1)*cmd|' /C calc'!A0"]
OURS = ("planner", "catalog", "benchmarks_app", "common")
NUMBER = re.compile(r"^-?\d+(\.\d+)?$")


@dataclass
class World:
    plan: Plan
    share: Share
    owner: Client
    staff: Client
    anyone: Client


# How to reach each CSV URL, by URL name: (client, URL) pairs to fetch.
Builder = Callable[[World], list[tuple[Client, str]]]
CSV_URLS: dict[str, Builder] = {
    "plan-export": lambda w: [
        (w.owner, reverse("plan-export", args=[w.plan.code, what])) for what in EXPORT_COLUMNS
    ],
    "shared-export": lambda w: [
        (w.anyone, reverse("shared-export", args=[w.share.token, what])) for what in EXPORT_COLUMNS
    ],
    "admin:catalog_price_export": lambda w: [
        (w.staff, reverse("admin:catalog_price_export") + query) for query in ("", "?history=1")
    ],
    "catalog:export": lambda w: [
        (w.anyone, reverse("catalog:export") + query) for query in ("", "?per=hour&q=%3D")
    ],
}


@pytest.fixture
def world(owner, django_user_model) -> World:
    Tier.objects.filter(slug=DEDICATED).update(name=HOSTILE[0])
    parsed = services.parse(
        {
            "currency": "USD",
            "name": HOSTILE[1],
            "baseline": {"monthly": "480"},
            "candidates": [
                {"name": name, "parts": [{"tier": DEDICATED, "mode": "fixed", "count": 1}]}
                for name in HOSTILE
            ],
        }
    )
    plan = services.plan_create(owner=owner, plan=parsed)
    share = services.share_create(plan=plan, user=owner)
    admin = django_user_model.objects.create_superuser("admin", "admin@example.com", "pw-admin-1")
    return World(plan, share, login(owner), login(admin), Client())


# --- finding the views that can answer text/csv ---------------------------------------------


def url_patterns(
    patterns: list | None = None, namespace: str = ""
) -> Iterator[tuple[str, Callable]]:
    """(namespaced name, view) of every named URL pattern, admin's included."""
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from url_patterns(entry.url_patterns, inner)
        elif isinstance(entry, URLPattern) and entry.name:
            yield f"{namespace}{entry.name}", entry.callback


def _ours(obj: Any) -> bool:
    return (getattr(obj, "__module__", None) or "").split(".")[0] in OURS


def _codes(code: types.CodeType) -> Iterator[types.CodeType]:
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _codes(const)


def _entry_points(view: Callable) -> list[Callable]:
    """The project's functions behind a URL's callback (decorators and as_view() unwrapped)."""
    found: list[Callable] = []
    for obj in (inspect.unwrap(view), getattr(view, "view_class", None)):
        if isinstance(obj, type):
            found += [f for f in vars(obj).values() if inspect.isfunction(f) and _ours(f)]
        elif obj is not None:
            found.append(obj)
    return found


def answers_csv(view: Callable) -> bool:
    """Does the view, or any function of ours it calls by name, mention text/csv?"""
    queue, seen = _entry_points(view), set()
    while queue:
        func = queue.pop()
        owner = getattr(func, "__self__", None)
        func = getattr(func, "__func__", func)
        if not inspect.isfunction(func) or func in seen or not _ours(func):
            continue
        seen.add(func)
        codes = list(_codes(func.__code__))
        consts = [c for code in codes for c in code.co_consts if isinstance(c, str)]
        if any("text/csv" in c for c in consts):
            return True
        names = {n for code in codes for n in code.co_names}
        scopes = [func.__globals__, *(vars(k) for k in type(owner).__mro__ if owner is not None)]
        modules = [m for m in func.__globals__.values() if inspect.ismodule(m) and _ours(m)]
        scopes += [vars(m) for m in modules]
        for name in names:
            for scope in scopes:
                if inspect.isfunction(scope.get(name)):
                    queue.append(scope[name])
    return False


# --- the checks ------------------------------------------------------------------------------


def test_every_url_that_can_answer_csv_is_walked_by_this_test():
    csv_urls = {name for name, view in url_patterns() if answers_csv(view)}
    assert csv_urls == set(CSV_URLS), "add a builder to CSV_URLS for each CSV URL"


def test_the_finder_tells_a_csv_view_from_others():
    views = dict(url_patterns())
    assert answers_csv(views["shared-export"])  # text/csv two calls down
    assert not answers_csv(views["shared"]) and not answers_csv(views["home"])


@pytest.mark.parametrize("name", sorted(CSV_URLS))
def test_no_cell_of_a_csv_export_starts_a_formula(world, name):
    for client, url in CSV_URLS[name](world):
        response = client.get(url)
        assert response.status_code == 200, url
        assert response["Content-Type"].startswith("text/csv"), url
        cells = [c for row in csv.reader(io.StringIO(response.content.decode())) for c in row]
        formulas = [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")]
        assert [c for c in formulas if not NUMBER.match(c)] == [], url
        # The hostile names are there, neutralised: the export did carry them.
        assert any(c in ("'" + text for text in HOSTILE) for c in cells), url


def test_negative_amounts_stay_numbers(world, owner):
    dearer = {**world.plan.inputs, "baseline": {"monthly": "100"}}  # every option costs more
    plan = services.plan_create(owner=owner, plan=services.parse(dearer))
    response = world.owner.get(reverse("plan-export", args=[plan.code, "comparison"]))
    savings = [row["saving"] for row in csv.DictReader(io.StringIO(response.content.decode()))]
    assert any(s.startswith("-") and NUMBER.match(s) for s in savings), savings
