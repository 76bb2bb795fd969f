"""common.gcpause: the collector is off inside, on again after the outermost block, and
never turned on when it was off before."""

import gc

import pytest

from common.gcpause import paused


def test_paused_nests_and_restores_the_collector():
    assert gc.isenabled()
    with paused():
        assert not gc.isenabled()
        with paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer block still holds it
    assert gc.isenabled()


def test_paused_restores_after_an_error_and_leaves_an_off_collector_off():
    with pytest.raises(ValueError), paused():
        raise ValueError
    assert gc.isenabled()
    gc.disable()
    try:
        with paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


class Node:
    """An object of a cycle (reference counting alone never frees it)."""

    def __init__(self) -> None:
        self.me = self


def test_what_a_block_leaves_alive_is_frozen_and_a_frozen_cycle_is_freed_as_the_heap_grows():
    import weakref

    with paused():
        pass  # the base: this process's frozen heap after a block
    with paused():
        cycle = Node()
    gone = weakref.ref(cycle)
    assert gc.is_tracked(cycle) and gc.get_freeze_count() > 0 and gc.isenabled()
    del cycle
    gc.collect()  # the collector's own passes skip frozen objects
    assert gone() is not None
    # A block that leaves a quarter more of the heap alive: the full pass, frozen included.
    with paused():
        kept = [[] for _ in range(gc.get_freeze_count() // 3 + 1000)]
    assert gone() is None
    assert gc.get_freeze_count() >= len(kept)
