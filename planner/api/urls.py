"""The API's URLs: ninja's, each answering a method it does not take with the API's JSON 405.

Plan ids and tokens are matched as plain strings and checked in the view, so a malformed
id answers the same JSON 404 as someone else's plan.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.urls import URLPattern

from planner.api.errors import errors_response
from planner.api.views import api

app_name = "api"
METHOD_ORDER = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def method_not_allowed(allowed: list[str]) -> HttpResponse:
    response = errors_response(405, "method", f"use {', '.join(allowed)}")
    response["Allow"] = ", ".join(allowed)
    return response


def _json_405(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """ninja answers an unknown method with a plain-text 405 whose Allow header lists the
    methods in no fixed order: answer it as every other refusal, methods in a fixed order."""

    @functools.wraps(view)  # keeps ninja's csrf_exempt: the auth classes check CSRF
    def wrapped(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        response = view(request, *args, **kwargs)
        if isinstance(response, HttpResponseNotAllowed):
            given = {m.strip() for m in response["Allow"].split(",")}
            return method_not_allowed([m for m in METHOD_ORDER if m in given])
        return response

    return wrapped


def _patterns() -> list[URLPattern]:
    patterns, _app, _namespace = api.urls
    return [
        URLPattern(p.pattern, _json_405(p.callback), p.default_args, p.name)
        for p in patterns
        if isinstance(p, URLPattern) and p.name != "api-root"  # /api/v1/ itself: Django's 404
    ]


urlpatterns = _patterns()
