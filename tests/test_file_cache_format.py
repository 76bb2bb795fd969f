"""The file cache's entries (no REDIS_URL: `make run`'s default): written by
`common.django.file_cache` as Zstandard frames, bytes as they are; read back equal;
a torn or foreign file is a miss, never an error; Django's own zlib entries are never
read by it (another name) but are culled and cleared with its own."""

from __future__ import annotations

import json
import pickle
import time
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.cache.backends.filebased import FileBasedCache

from common.django.file_cache import TolerantFileBasedCache
from common.messages import Message, TierRef


@pytest.fixture
def cache(tmp_path: Path) -> TolerantFileBasedCache:
    return TolerantFileBasedCache(str(tmp_path / "cache"), {"KEY_PREFIX": "t"})


def answer_like(entries: int = 4000) -> bytes:
    """An answer's JSON: many entries alike but for their tier, as a large catalog's."""
    rows = [{"tier": f"aws-c5.{i}xlarge-copy-{i:04d}", "status": "no_figure",
             "reasons": ["no sizing run of gbm on tier x", "no estimate either"] * 3}
            for i in range(entries)]  # fmt: skip
    return json.dumps({"no_number": rows}).encode()


def entry_file(cache: TolerantFileBasedCache, key: str) -> Path:
    return Path(cache._key_to_file(key))


def test_values_read_back_equal(cache):
    values = {
        "answer": answer_like(),
        "small bytes": b'{"a": 1}',
        "empty bytes": b"",
        "count": 7,
        "decimals": {"monthly": [Decimal("1.10"), Decimal("2.20")] * 400},
        "message": Message(
            "capacity.label_estimate", {"factor": "1.5", "unit": "x", "tier": TierRef("aws-x", "X")}
        ),
        "text": "é" * 2000,
    }
    for key, value in values.items():
        cache.set(key, value, 60)
    for key, value in values.items():
        found = cache.get(key)
        assert found == value and type(found) is type(value), key


def test_an_answer_is_stored_compressed_and_bytes_unpickled(cache):
    data = answer_like()
    cache.set("answer", data, 60)
    stored = entry_file(cache, "answer").read_bytes()
    assert len(stored) < len(data) / 20, (len(stored), len(data))
    body = stored[len(pickle.dumps(time.time() + 60, pickle.HIGHEST_PROTOCOL)) :]
    assert body[:5] == b"PZ1bz"  # bytes as they are, zstd
    cache.set("count", 3, 60)
    count = entry_file(cache, "count").read_bytes()
    assert b"PZ1p-" in count  # a small pickle, stored as it is


@pytest.mark.parametrize("cut", [6, 20, -10])
def test_a_torn_entry_is_a_miss(cache, cut):
    cache.set("answer", answer_like(), 60)
    path = entry_file(cache, "answer")
    path.write_bytes(path.read_bytes()[:cut])
    assert cache.get("answer", "missed") == "missed"
    assert cache.touch("answer") is False


def test_a_damaged_frame_or_a_foreign_file_is_a_miss(cache):
    cache.set("answer", answer_like(), 60)
    path = entry_file(cache, "answer")
    stored = bytearray(path.read_bytes())
    stored[-40:-20] = b"\xff" * 20
    path.write_bytes(bytes(stored))
    assert cache.get("answer") is None
    path.write_bytes(b"not a cache file at all")
    assert cache.get("answer", 0) == 0


def test_expired_entries_are_misses(cache):
    cache.set("soon", answer_like(10), 1)
    path = entry_file(cache, "soon")
    assert cache.get("soon") is not None
    time.sleep(1.1)
    assert cache.get("soon") is None and not path.exists()


def test_touch_and_incr(cache):
    cache.set("answer", answer_like(), 1)
    assert cache.touch("answer", 60) is True
    time.sleep(1.1)
    assert cache.get("answer") == answer_like()
    assert cache.touch("nothing", 60) is False
    cache.set("hits", 1, 60)
    assert cache.incr("hits") == 2 and cache.get("hits") == 2


def test_djangos_own_entries_are_not_read_but_cleared(cache, tmp_path):
    django_cache = FileBasedCache(str(tmp_path / "cache"), {"KEY_PREFIX": "t"})
    django_cache.set("answer", b"Django's zlib entry", 60)
    assert cache.get("answer") is None  # another file: never read as this format
    cache.set("answer", b"this format's", 60)
    assert cache.get("answer") == b"this format's"
    assert django_cache.get("answer") == b"Django's zlib entry"  # and the reverse
    assert len(cache._list_cache_files()) == 2
    cache.clear()
    assert list((tmp_path / "cache").iterdir()) == []
