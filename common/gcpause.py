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

What the block leaves alive is frozen (`gc.freeze()`) as the collector comes back: an
answer's objects are freed by reference counting as the request ends, and what is kept
(the per-generation memos: the frame, the evidence) is long-lived; the collector's next
young pass walked all of it (~110 ms after an answer at 20,000 tiers, bench/api_scale.py,
and a full pass of ~140 ms every other request). A frozen cycle that becomes garbage is
collected by the full pass this module runs, frozen objects included, when the frozen heap
has grown by a quarter since the last such pass: CPython's own rule for its full passes
(garbage stays bounded by a quarter of the heap).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0
_was_enabled = False
_GROWTH = 1.25  # a full pass when the frozen heap has grown by a quarter (CPython's rule)
_frozen_after_full = 0  # the objects frozen after the last full pass (0: none run yet)


@contextmanager
def paused() -> Iterator[None]:
    global _depth, _was_enabled, _frozen_after_full
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
                gc.freeze()
                frozen = gc.get_freeze_count()
                if frozen > _frozen_after_full * _GROWTH:
                    if _frozen_after_full:  # not the first block: that sets the base
                        gc.unfreeze()
                        gc.collect()
                        gc.freeze()
                    _frozen_after_full = gc.get_freeze_count()
                gc.enable()
