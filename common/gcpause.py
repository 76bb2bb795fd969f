"""The cyclic garbage collector paused while one computation allocates its many objects.

An evaluation over a large catalog makes a few million short-lived objects (messages,
dictionaries, Decimals) beside a process that keeps the catalog frame and the evidence
in memory. The collector's generational passes are triggered by allocations, and each
full pass walks the whole heap, kept data included: at 20,000 tiers they were about half
an uncached answer's time (bench/api_scale.py, the same request with the collector on
and off). Nearly nothing an evaluation makes is cyclic, so reference counting frees it;
the few cycles (pandas' internals) wait for the collector, which runs again as soon as
the outermost paused block ends.

`paused()` nests, and is shared by threads: the collector runs again when the last block
that paused it ends. It never enables a collector that was off before the first block
began. Pure: no Django.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0
_was_enabled = False


@contextmanager
def paused() -> Iterator[None]:
    global _depth, _was_enabled
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                gc.enable()
