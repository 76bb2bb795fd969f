"""The file cache (no REDIS_URL) as tolerant as the Redis one: a full disk or a folder it
cannot write is a miss or a dropped write, logged, never a 500 (issue 29, item 6).

Django's FileBasedCache lets OSError through (ENOSPC on a full disk, EACCES, EROFS), so
the rate limiter, the session read and every cached page answered 500. As
`common.django.cache.TolerantRedisCache` does for Redis, a read that fails is a miss, a write
that fails is dropped, and `incr` raises `CacheUnavailable` (the API's rate limiter then
counts in the process).
"""

from __future__ import annotations

import logging
import pickle
import time
import zlib
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.filebased import FileBasedCache

from common.django.cache import WARN_EVERY_SECONDS, CacheUnavailable

logger = logging.getLogger(__name__)


# A key missing this soon after a failed write may be one the disk refused (`add` drops
# it): `incr` then says the cache is unavailable rather than "not found".
RECENT_FAILURE_SECONDS = 10.0


class TolerantFileBasedCache(FileBasedCache):
    _last_warning = 0.0
    _last_failure = float("-inf")

    def _failed(self, operation: str, exc: OSError) -> None:
        now = time.monotonic()
        TolerantFileBasedCache._last_failure = now
        if now - TolerantFileBasedCache._last_warning >= WARN_EVERY_SECONDS:
            TolerantFileBasedCache._last_warning = now
            logger.warning("file cache unavailable, running uncached (%s): %s", operation, exc)
        else:
            logger.debug("file cache unavailable (%s): %s", operation, exc)

    def _write_content(self, file: Any, timeout: Any, value: Any) -> None:
        """Django's, at zlib's fastest level (1, not 6): a large catalog's answer is tens of
        MB of JSON; 42 MB of answers took 0.61 s at level 6 and 0.37 s at level 1 here
        (loaded 2-CPU VM), for 1.5 MB instead of 0.9 MB on disk. Read back as before."""
        expiry = self.get_backend_timeout(timeout)
        file.write(pickle.dumps(expiry, self.pickle_protocol))
        file.write(zlib.compress(pickle.dumps(value, self.pickle_protocol), 1))

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        try:
            return super().get(key, default, version)
        except OSError as exc:
            self._failed("get", exc)
            return default

    def has_key(self, key: Any, version: int | None = None) -> bool:
        try:
            return super().has_key(key, version)
        except OSError as exc:
            self._failed("has_key", exc)
            return False

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version=None) -> bool:
        try:
            return super().add(key, value, timeout, version)
        except OSError as exc:
            self._failed("add", exc)
            return False

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version=None) -> None:
        try:
            super().set(key, value, timeout, version)
        except OSError as exc:
            self._failed("set", exc)

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version=None) -> bool:
        try:
            return super().touch(key, timeout, version)
        except OSError as exc:
            self._failed("touch", exc)
            return False

    def delete(self, key: Any, version: int | None = None) -> bool:
        try:
            return super().delete(key, version)
        except OSError as exc:
            self._failed("delete", exc)
            return False

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        # BaseCache's incr is a get and a set: a dropped set must not pass for a count.
        value = self.get(key, version=version)
        if value is None:
            if time.monotonic() - TolerantFileBasedCache._last_failure < RECENT_FAILURE_SECONDS:
                raise CacheUnavailable("the file cache failed a write just now")
            raise ValueError(f"Key '{key}' not found")
        new = value + delta
        try:
            FileBasedCache.set(self, key, new, version=version)
        except OSError as exc:
            self._failed("incr", exc)
            raise CacheUnavailable(str(exc)) from exc
        return new

    def clear(self) -> None:
        try:
            super().clear()
        except OSError as exc:
            self._failed("clear", exc)
