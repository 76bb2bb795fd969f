"""Redis as a cache and never as a dependency: when Redis is down, the site runs uncached.

Django's RedisCache lets redis-py's ConnectionError (and timeouts) through, so a
stopped Redis turned every page that reads the cache into an HTML 500. Here a read
that fails is a miss, a write that fails is dropped, and each is logged (at most
once a minute a process, so an outage does not flood the log). `incr` raises
`CacheUnavailable`, a ValueError as Django's contract has for a missing key, so
code written for that contract carries on, while code that must know (the API's
rate limiter, which then counts in the process) can tell the two apart.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)
WARN_EVERY_SECONDS = 60.0


class CacheUnavailable(ValueError):
    """The cache could not be reached: the value was neither read nor changed."""


class ReusedClientRedisCacheClient(RedisCacheClient):
    """Django's Redis cache client, keeping one `redis.Redis` per connection pool.

    Django builds a new `redis.Redis` for every cache call, and building one fills its
    table of response callbacks: about a fifth of a millisecond, several times a page.
    A `redis.Redis` holds no connection of its own (it borrows from the pool for each
    command), so one per pool serves every call, in every thread.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


# After a failure the cache is skipped (a miss, a dropped write) for this long, then tried
# again: a hung Redis (its reads time out) costs one request a socket timeout per interval,
# not every cache call of every request (issue 29, item 4).
BREAKER_SECONDS = 10.0


class TolerantRedisCache(RedisCache):
    """RedisCache whose failures degrade to misses and dropped writes, logged, with a
    circuit breaker: after one failure, no call reaches Redis for BREAKER_SECONDS."""

    _last_warning = 0.0
    _skip_until = 0.0  # per process: every thread's calls wait on the same Redis

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusedClientRedisCacheClient

    def try_again_now(self) -> None:
        """Close the breaker: the next call goes to Redis (a readiness probe must ask it)."""
        TolerantRedisCache._skip_until = 0.0

    def _failed(self, operation: str, exc: Exception) -> None:
        now = time.monotonic()
        TolerantRedisCache._skip_until = now + BREAKER_SECONDS
        if now - TolerantRedisCache._last_warning >= WARN_EVERY_SECONDS:
            TolerantRedisCache._last_warning = now
            logger.warning("cache unavailable, running uncached (%s): %s", operation, exc)
        else:
            logger.debug("cache unavailable (%s): %s", operation, exc)

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        if _skipping():
            return default
        try:
            return super().get(key, default, version)
        except RedisError as exc:
            self._failed("get", exc)
            return default

    def get_many(self, keys: Any, version: int | None = None) -> dict[Any, Any]:
        if _skipping():
            return {}
        try:
            return super().get_many(keys, version)
        except RedisError as exc:
            self._failed("get_many", exc)
            return {}

    def has_key(self, key: Any, version: int | None = None) -> bool:
        if _skipping():
            return False
        try:
            return super().has_key(key, version)
        except RedisError as exc:
            self._failed("has_key", exc)
            return False

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version=None) -> bool:
        if _skipping():
            return False
        try:
            return super().add(key, value, timeout, version)
        except RedisError as exc:
            self._failed("add", exc)
            return False

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version=None) -> None:
        if _skipping():
            return
        try:
            super().set(key, value, timeout, version)
        except RedisError as exc:
            self._failed("set", exc)

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version=None) -> list:
        if _skipping():
            return list(data)
        try:
            return super().set_many(data, timeout, version)
        except RedisError as exc:
            self._failed("set_many", exc)
            return list(data)  # Django's contract: the keys that were not stored

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version=None) -> bool:
        if _skipping():
            return False
        try:
            return super().touch(key, timeout, version)
        except RedisError as exc:
            self._failed("touch", exc)
            return False

    def delete(self, key: Any, version: int | None = None) -> bool:
        if _skipping():
            return False
        try:
            return super().delete(key, version)
        except RedisError as exc:
            self._failed("delete", exc)
            return False

    def delete_many(self, keys: Any, version: int | None = None) -> None:
        if _skipping():
            return
        try:
            super().delete_many(keys, version)
        except RedisError as exc:
            self._failed("delete_many", exc)

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        if _skipping():
            raise CacheUnavailable("cache skipped after a recent failure")
        try:
            return super().incr(key, delta, version)
        except RedisError as exc:
            self._failed("incr", exc)
            raise CacheUnavailable(str(exc)) from exc

    def clear(self) -> None:
        if _skipping():
            return
        try:
            super().clear()
        except RedisError as exc:
            self._failed("clear", exc)


def _skipping() -> bool:
    """The breaker is open: a call failed less than BREAKER_SECONDS ago."""
    return time.monotonic() < TolerantRedisCache._skip_until
