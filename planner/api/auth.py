"""The JSON API's front door: who is calling, how much they may send, how often.

`api_endpoint(...)` wraps a function view and, in order:

1. refuses other HTTP methods (405);
2. authenticates: `Authorization: Bearer <key>` (an `ApiToken`), else the session;
   an invalid or revoked key is 401 even when a session is present, so a script
   never silently acts as whoever is logged in to the browser;
3. refuses anonymous callers unless the endpoint allows them (401);
4. limits the body (413) from CONTENT_LENGTH and from what is actually read, so a
   10 MB body is never buffered whole;
5. enforces CSRF for session-authenticated unsafe methods (403) — the view itself
   is csrf-exempt so that a valid token needs no CSRF cookie, the middleware's own
   check runs here instead;
6. counts the call against a per-user (per-IP for anonymous) fixed-window rate
   limit in the cache (429 with Retry-After); per process while the cache is down.

Every refusal is JSON: {"errors": {<field or "auth"/"body"/"rate">: [messages]}}.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt

from common.cache import CacheUnavailable
from planner.models import ApiToken

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
RATE_WINDOW_SECONDS = 60
TOUCH_EVERY_SECONDS = 60  # last_used_at is a hint, not an audit log: spare a write per call

View = Callable[..., HttpResponse]


def max_body_bytes() -> int:
    return int(settings.API_MAX_BODY_BYTES)


def rate_limit_per_minute() -> int:
    return int(getattr(settings, "API_RATE_LIMIT_PER_MINUTE", 120))


def error(status: int, field: str, *messages: str, **headers: str) -> JsonResponse:
    response = JsonResponse({"errors": {field: list(messages)}}, status=status)
    for name, value in headers.items():
        response[name.replace("_", "-")] = value
    return response


class _CsrfCheck(CsrfViewMiddleware):
    """The middleware's check, returning the reason instead of a rendered 403 page."""

    def _reject(self, request: HttpRequest, reason: str) -> str:  # type: ignore[override]
        return reason


def csrf_failure(request: HttpRequest) -> str | None:
    check = _CsrfCheck(lambda req: HttpResponse())
    check.process_request(request)
    reason = check.process_view(request, None, (), {})
    return reason if isinstance(reason, str) else None


def bearer_key(request: HttpRequest) -> str | None:
    header = request.META.get("HTTP_AUTHORIZATION", "")
    scheme, _, key = header.partition(" ")
    return key.strip() if scheme.lower() == "bearer" else None


def authenticate(request: HttpRequest) -> JsonResponse | None:
    """Set request.user / request.api_token from a bearer key; an error response if bad."""
    request.api_token = None  # type: ignore[attr-defined]
    if "HTTP_AUTHORIZATION" not in request.META:
        return None
    key = bearer_key(request)
    token = ApiToken.find(key) if key else None
    if token is None:
        request.user = AnonymousUser()
        return error(401, "auth", "invalid or revoked API token", WWW_Authenticate="Bearer")
    request.user = token.user
    request.api_token = token  # type: ignore[attr-defined]
    stale = token.last_used_at is None or (
        (timezone.now() - token.last_used_at).total_seconds() > TOUCH_EVERY_SECONDS
    )
    if stale:
        token.touch()
    return None


def read_body(request: HttpRequest) -> bytes | JsonResponse:
    """At most the limit plus one byte is ever read; more is a 413."""
    limit = max_body_bytes()
    too_big = error(413, "body", f"request body larger than {limit} bytes")
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return error(400, "body", "Content-Length is not a number")
    if declared > limit:
        return too_big
    body = request.read(limit + 1)
    return too_big if len(body) > limit else body


def _count_in_cache(key: str) -> int:
    """This call's number in the window, counted in the cache (shared by every process)."""
    cache.add(key, 0, timeout=RATE_WINDOW_SECONDS + 5)
    try:
        return cache.incr(key)
    except CacheUnavailable:
        raise
    except ValueError:  # expired between add and incr: this call opens a new window
        cache.set(key, 1, timeout=RATE_WINDOW_SECONDS + 5)
        return 1


# When the cache is down each process counts alone: the limit then holds per process
# (a caller spread over N processes gets up to N times it), which beats no limit at all.
_local_counts: dict[str, int] = {}
_local_lock = threading.Lock()


def _count_in_process(key: str, window: int) -> int:
    with _local_lock:
        for old in [k for k in _local_counts if not k.endswith(f":{window}")]:
            del _local_counts[old]
        _local_counts[key] = _local_counts.get(key, 0) + 1
        return _local_counts[key]


def rate_limited(request: HttpRequest) -> JsonResponse | None:
    limit = rate_limit_per_minute()
    now = time.time()
    window = int(now // RATE_WINDOW_SECONDS)
    who = (
        f"user:{request.user.pk}"
        if request.user.is_authenticated
        else f"ip:{request.META.get('REMOTE_ADDR', '')}"
    )
    key = f"api-rate:{who}:{window}"
    try:
        count = _count_in_cache(key)
    except CacheUnavailable:
        count = _count_in_process(key, window)
    if count <= limit:
        return None
    retry = str(max(1, RATE_WINDOW_SECONDS - int(now) % RATE_WINDOW_SECONDS))
    return error(
        429, "rate", f"more than {limit} API calls a minute; retry later", Retry_After=retry
    )


def api_endpoint(*methods: str, anonymous: bool = False) -> Callable[[View], View]:
    """Guard a JSON API view; the view finds the raw body in `request.api_body`."""

    def decorate(view: View) -> View:
        @csrf_exempt
        @functools.wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method not in methods:
                response = error(405, "method", f"use {', '.join(methods)}")
                response["Allow"] = ", ".join(methods)
                return response
            if refused := authenticate(request):
                return refused
            if not anonymous and not request.user.is_authenticated:
                return error(401, "auth", "log in or send an API token", WWW_Authenticate="Bearer")
            body = b""
            if request.method not in SAFE_METHODS:
                read = read_body(request)
                if isinstance(read, JsonResponse):
                    return read
                body = read
                if request.api_token is None and (reason := csrf_failure(request)):  # type: ignore[attr-defined]
                    return error(403, "auth", f"CSRF check failed: {reason}")
            if limited := rate_limited(request):
                return limited
            request.api_body = body  # type: ignore[attr-defined]
            return view(request, *args, **kwargs)

        return wrapped

    return decorate
