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
