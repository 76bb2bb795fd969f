"""The one per-process memo of what is computed from the data, kept for one data generation.

Beside the shared cache (Django's, Redis in production), which holds answers and pages
under keys with the generation in them, a process keeps here what is too big or too hot
to fetch from it on every request: the catalog frame of 20,000 tiers (~20 MB, seconds to
build), the tier index plan validation reads, the editor's choices, the hottest pages.
`bench/memo_pays.py` measures what each saves; the figure stands beside each use.

Everything here belongs to one data generation: an entry asked for under another
generation's key drops every entry of the old one, so nothing kept can outlive the data
it was computed from, and no test has anything to forget (a rolled-back write's change
row had its own random token). Generation 0 (no change recorded: a key not unique to the
data) is never kept. Each use names itself and how many entries it keeps (the oldest
goes first); an entry may also expire after `seconds` (a page showing live state).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

from changes.selectors import Generation

_lock = threading.Lock()
_generation: str | None = None
_kept: dict[str, OrderedDict[Hashable, tuple[float | None, Any]]] = {}


def kept[T](
    generation: Generation,
    name: str,
    key: Hashable,
    compute: Callable[[], T],
    *,
    most: int,
    seconds: float | None = None,
) -> T:
    """`compute()`, or what it gave for `key` earlier in this generation (in `name`'s
    entries, at most `most` of them; for at most `seconds` when given)."""
    if not generation.number:
        return compute()
    global _generation
    now = time.monotonic()
    with _lock:
        if _generation != generation.key:
            _generation = generation.key
            _kept.clear()
        entries = _kept.setdefault(name, OrderedDict())
        found = entries.get(key)
        if found is not None and (found[0] is None or found[0] > now):
            entries.move_to_end(key)
            return found[1]
    value = compute()  # outside the lock: another thread may compute the same meanwhile
    with _lock:
        if _generation == generation.key:
            entries = _kept.setdefault(name, OrderedDict())
            entries[key] = (None if seconds is None else now + seconds, value)
            entries.move_to_end(key)
            while len(entries) > most:
                entries.popitem(last=False)
    return value


def drop() -> None:
    """Forget everything kept: for bench scripts timing uncached work (tests need not: a
    new generation is a new key)."""
    global _generation
    with _lock:
        _generation = None
        _kept.clear()
