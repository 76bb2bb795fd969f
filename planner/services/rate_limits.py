"""Per-user limits on the expensive requests: the uncertainty endpoints (issue 29, item 7).

Each new seed of the sensitivity and odds misses the cache and costs seconds (10,000
Monte Carlo draws and the one-way table through the engine): web pages, CSV exports and
the API share one budget per user, `UNCERTAINTY_RATE_LIMIT_PER_MINUTE` (default 30) a
fixed minute, counted in the cache (every process), or in the process while the cache is
unavailable, as the API's own limit is (`planner.api.auth`).
"""

from __future__ import annotations

import threading
import time

from django.conf import settings
from django.core.cache import cache

from common.django.cache import CacheUnavailable

WINDOW_SECONDS = 60
_local: dict[str, int] = {}
_lock = threading.Lock()


def uncertainty_limit() -> int:
    return int(getattr(settings, "UNCERTAINTY_RATE_LIMIT_PER_MINUTE", 30))


def seconds_to_next_window(now: float | None = None) -> int:
    now = time.time() if now is None else now
    return max(1, WINDOW_SECONDS - int(now) % WINDOW_SECONDS)


def allow_uncertainty(user_id: int) -> bool:
    """Count one uncertainty request of `user_id`; False once over the minute's limit."""
    window = int(time.time() // WINDOW_SECONDS)
    key = f"uncertainty-rate:{user_id}:{window}"
    try:
        count = _count_in_cache(key)
    except CacheUnavailable:
        with _lock:
            for old in [k for k in _local if not k.endswith(f":{window}")]:
                del _local[old]
            count = _local[key] = _local.get(key, 0) + 1
    return count <= uncertainty_limit()


def _count_in_cache(key: str) -> int:
    cache.add(key, 0, timeout=WINDOW_SECONDS + 5)
    try:
        return cache.incr(key)
    except CacheUnavailable:
        raise
    except ValueError:  # expired between add and incr: this call opens a new window
        cache.set(key, 1, timeout=WINDOW_SECONDS + 5)
        return 1
