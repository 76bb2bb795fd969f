"""Who is calling the API and how often: ninja auth classes and a throttle.

- `BearerKey`: `Authorization: Bearer <key>` (an `ApiToken`). Any Authorization header
  is a claim that is checked: an invalid or revoked key (or another scheme) is 401 even
  when a session is present, so a script never silently acts as whoever is logged in to
  the browser.
- `SessionUser`: a logged-in browser session; unsafe methods need the CSRF token, checked
  with ninja's `check_csrf` (Django's own middleware check). The refusal's reason comes
  back through Django's documented `CSRF_FAILURE_VIEW` (`csrf_failure` below), so it is
  the API's JSON 403 naming what was wrong.
- `anonymous`: lets the share reads through without either.
- `PerUserRate`: a per-user (per-IP for anonymous) fixed-window limit counted in the
  cache (429 with Retry-After); per process while the cache is down.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.views.csrf import csrf_failure as django_csrf_failure
from ninja.security import APIKeyCookie, HttpBearer
from ninja.throttling import BaseThrottle
from ninja.utils import check_csrf

from common.django.cache import CacheUnavailable
from planner.api.errors import Answered, ApiError, errors_response
from planner.models import ApiToken

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
RATE_WINDOW_SECONDS = 60
TOUCH_EVERY_SECONDS = 60  # last_used_at is a hint, not an audit log: spare a write per call
BAD_KEY = "invalid or revoked API token"
NO_CALLER = "log in or send an API token"


def rate_limit_per_minute() -> int:
    return int(getattr(settings, "API_RATE_LIMIT_PER_MINUTE", 120))


def unauthorized(message: str) -> ApiError:
    return ApiError(401, "auth", message, WWW_Authenticate="Bearer")


# --- API keys --------------------------------------------------------------------------


class BearerKey(HttpBearer):
    """`Authorization: Bearer <key>`; documented as the `bearerAuth` scheme."""

    def __call__(self, request: HttpRequest) -> Any:
        if "HTTP_AUTHORIZATION" not in request.META:
            return None  # no claim: the session (or nobody) is asked next
        scheme, _, key = request.META["HTTP_AUTHORIZATION"].partition(" ")
        if scheme.lower() != "bearer":
            raise unauthorized(BAD_KEY)
        return self.authenticate(request, key.strip())

    def authenticate(self, request: HttpRequest, token: str) -> Any:
        found = ApiToken.find(token) if token else None
        if found is None:
            request.user = AnonymousUser()
            raise unauthorized(BAD_KEY)
        request.user = found.user
        request.api_token = found  # type: ignore[attr-defined]
        stale = found.last_used_at is None or (
            (timezone.now() - found.last_used_at).total_seconds() > TOUCH_EVERY_SECONDS
        )
        if stale:
            found.touch()
        return found.user


# --- browser sessions --------------------------------------------------------------------

# Marks a request whose CSRF check the API runs, so that the failure view answers in JSON.
_API_CSRF = "planner_api_csrf_check"


class SessionUser(APIKeyCookie):
    """A logged-in session (the `sessionid` cookie); unsafe methods also need CSRF."""

    param_name = settings.SESSION_COOKIE_NAME

    def __init__(self) -> None:
        # ninja's own check answers a bare "CSRF check Failed"; ours keeps Django's reason.
        super().__init__(csrf=False)

    def authenticate(self, request: HttpRequest, key: str | None) -> Any:
        if not request.user.is_authenticated:
            return None
        if request.method not in SAFE_METHODS:
            setattr(request, _API_CSRF, True)
            if (refused := check_csrf(request)) is not None:
                raise Answered(refused)
        return request.user


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """settings.CSRF_FAILURE_VIEW: the API's JSON 403 for its own checks, Django's page
    for every other."""
    if getattr(request, _API_CSRF, False):
        return errors_response(403, "auth", f"CSRF check failed: {reason}")
    return django_csrf_failure(request, reason=reason)


def anonymous(request: HttpRequest) -> AnonymousUser:
    """The last auth of endpoints anyone may call (a truthy 'nobody')."""
    return AnonymousUser()


# --- the rate limit ----------------------------------------------------------------------


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


def _caller(request: HttpRequest) -> str:
    if request.user.is_authenticated:
        return f"user:{request.user.pk}"
    return f"ip:{request.META.get('REMOTE_ADDR', '')}"


def seconds_to_next_window(now: float | None = None) -> int:
    now = time.time() if now is None else now
    return max(1, RATE_WINDOW_SECONDS - int(now) % RATE_WINDOW_SECONDS)


class PerUserRate(BaseThrottle):
    """`API_RATE_LIMIT_PER_MINUTE` calls per caller and fixed minute."""

    def allow_request(self, request: HttpRequest) -> bool:
        window = int(time.time() // RATE_WINDOW_SECONDS)
        key = f"api-rate:{_caller(request)}:{window}"
        try:
            count = _count_in_cache(key)
        except CacheUnavailable:
            count = _count_in_process(key, window)
        return count <= rate_limit_per_minute()

    def wait(self) -> float:
        # Stateless (one throttle serves every request and thread): the window's end.
        return seconds_to_next_window()


def rate_limited() -> ApiError:
    limit = rate_limit_per_minute()
    return ApiError(
        429,
        "rate",
        f"more than {limit} API calls a minute; retry later",
        Retry_After=str(seconds_to_next_window()),
    )
