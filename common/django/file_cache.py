"""The file cache (no REDIS_URL) as tolerant as the Redis one: a full disk or a folder it
cannot write is a miss or a dropped write, logged, never a 500 (issue 29, item 6).

Django's FileBasedCache lets OSError through (ENOSPC on a full disk, EACCES, EROFS), so
the rate limiter, the session read and every cached page answered 500. As
`common.django.cache.TolerantRedisCache` does for Redis, a read that fails is a miss, a write
that fails is dropped, and `incr` raises `CacheUnavailable` (the API's rate limiter then
counts in the process).

Its entries are written smaller and cheaper than Django's (`_packed`): Zstandard at level 1
(Arrow's codec; pyarrow is a dependency already) instead of zlib, and bytes (an answer's
JSON, what the API returns) as they are rather than pickled. bench/api_scale.py, this
2-core machine, CPU: the workload-sized answer at 2,018 tiers is 4.3 MB of JSON; its write
took 10.5 ms (zlib level 1 alone 7.3 ms, 151 KB on disk) and now takes ~2.5 ms (zstd 1.2
ms, 60 KB); reading it back inflates in 0.6 ms, not 3.2. Entries of this format are named
`*.zst.djcache`, so this code never reads Django's zlib entries and Django's never reads
these (a rollback finds no entry it cannot read); `clear` and the culling count both.
"""

from __future__ import annotations

import glob
import logging
import os
import pickle
import time
from typing import Any

import pyarrow as pa
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.filebased import FileBasedCache

from common.django.cache import WARN_EVERY_SECONDS, CacheUnavailable

logger = logging.getLogger(__name__)


# A key missing this soon after a failed write may be one the disk refused (`add` drops
# it): `incr` then says the cache is unavailable rather than "not found".
RECENT_FAILURE_SECONDS = 10.0


class TolerantFileBasedCache(FileBasedCache):
    cache_suffix = ".zst.djcache"  # this module's format (`_packed`), never Django's
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
        expiry = self.get_backend_timeout(timeout)
        file.write(pickle.dumps(expiry, self.pickle_protocol))
        file.write(_packed(value, self.pickle_protocol))

    def _list_cache_files(self) -> list[str]:
        """This format's entries and Django's (written before it): both are culled and
        cleared."""
        return [
            os.path.join(self._dir, name) for name in glob.glob("*.djcache", root_dir=self._dir)
        ]

    def _read(self, key: Any, version: int | None) -> Any:
        """The entry's value, `_MISSING` where there is none, it expired or it cannot be
        read back (a torn or foreign file: a miss, never a 500)."""
        try:
            with open(self._key_to_file(key, version), "rb") as f:
                if self._is_expired(f):
                    return _MISSING
                return _unpacked(f.read())
        except FileNotFoundError:
            return _MISSING
        except (_Unreadable, pickle.UnpicklingError) as exc:  # the entry, or its expiry
            logger.debug("file cache entry unreadable, a miss: %s", exc)
            return _MISSING

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        try:
            found = self._read(key, version)
        except OSError as exc:
            self._failed("get", exc)
            return default
        return default if found is _MISSING else found

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
        # Django's reads its own zlib entries: read back and written again here.
        try:
            found = self._read(key, version)
            if found is _MISSING:
                return False
            FileBasedCache.set(self, key, found, timeout, version)
            return True
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


# --- the entries' format -------------------------------------------------------------------

_FORMAT = b"PZ1"  # then the kind, the codec, and (compressed) the size before compression
_BYTES, _PICKLED = b"b", b"p"
_ZSTD, _PLAIN = b"z", b"-"
# Below this many bytes an entry is stored as it is (a rate-limit count, a session flag):
# compressing it saves nothing and costs a codec call.
_SMALL = 512
_LEVEL = 1  # zstd's fast level: 60 KB for the 4.3 MB answer above, 1.2 ms
_MISSING = object()


class _Unreadable(Exception):
    """An entry this format cannot read back."""


def _packed(value: Any, protocol: int) -> bytes:
    """An entry's bytes after its expiry: `_FORMAT`, kind, codec, [size,] data."""
    if type(value) is bytes:
        kind, data = _BYTES, value
    else:
        kind, data = _PICKLED, pickle.dumps(value, protocol)
    if len(data) < _SMALL:
        return b"".join((_FORMAT, kind, _PLAIN, data))
    body = pa.Codec("zstd", compression_level=_LEVEL).compress(data, asbytes=True)
    return b"".join((_FORMAT, kind, _ZSTD, len(data).to_bytes(8, "little"), body))


def _unpacked(blob: bytes) -> Any:
    if blob[:3] != _FORMAT or len(blob) < 5:
        raise _Unreadable("not an entry of this format")
    kind, codec, data = blob[3:4], blob[4:5], memoryview(blob)[5:]
    if codec == _ZSTD:
        size = int.from_bytes(data[:8], "little")
        try:
            data = pa.Codec("zstd").decompress(data[8:], decompressed_size=size, asbytes=True)
        except (OSError, ValueError, pa.ArrowException) as exc:  # a torn or damaged frame
            raise _Unreadable(f"zstd: {exc}") from exc
    elif codec != _PLAIN:
        raise _Unreadable(f"unknown codec {codec!r}")
    if kind == _BYTES:
        return bytes(data)
    if kind != _PICKLED:
        raise _Unreadable(f"unknown kind {kind!r}")
    try:
        return pickle.loads(data)
    except (pickle.UnpicklingError, EOFError, ValueError) as exc:
        raise _Unreadable(f"pickle: {exc}") from exc
