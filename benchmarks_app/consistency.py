"""Results that contradict their neighbours in a thread sweep, said as messages.

More threads may gain little, or even lose a little (contention, SMT siblings), but a
throughput that falls to less than half with more threads, or rises far beyond what
the added threads could give, says the host was busy, throttled or faulty while that
count ran (2 threads measured ten times slower than 1). Pure: the run page asks.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from common.messages import Message, Number, msg

DROP = 2.0  # more threads, less than 1/DROP of the throughput
JUMP = 1.5  # more threads, more than JUMP times the linear gain


def contradictions(
    points: Sequence[tuple[int, float]], higher_is_better: bool = True
) -> dict[int, Message]:
    """{thread count: why its result contradicts the sweep} for one host's sweep.

    Each count is held against the nearest smaller count not flagged itself, so one bad
    result is not the yardstick of the next.
    """
    ordered = sorted((k, v) for k, v in points if v and v > 0)
    found: dict[int, Message] = {}
    if not ordered:
        return found
    fewer, before = ordered[0]
    for threads, value in ordered[1:]:
        gain = value / before if higher_is_better else before / value
        if gain < 1 / DROP:
            found[threads] = msg("benchmarks.result_drops", threads=threads, fewer=fewer,
                                 factor=_factor(1 / gain))  # fmt: skip
        elif gain > JUMP * threads / fewer:
            found[threads] = msg("benchmarks.result_jumps", threads=threads, fewer=fewer,
                                 factor=_factor(gain))  # fmt: skip
        else:
            fewer, before = threads, value
    return found


def _factor(value: float) -> Number:
    return Number(Decimal(f"{value:.1f}"), 1) if value < 100 else Number(Decimal(round(value)), 0)
