"""When an option pays back, said as a message: the rule the engine's payback labels follow.

Its own module so the answer's models (`planner.compute.answer`, which read a share frozen
before messages) and `tco` (which builds on those models) both say it. Pure: no Django.
"""

from __future__ import annotations

from decimal import Decimal

from common.messages import Message, msg

BEYOND = "not within the horizon"  # the label of an option still gaining at the horizon's end


def payback_message(
    month: int | None, one_time: Decimal | int, label: str | None = None, horizon: int = 0
) -> Message:
    """The payback label's message (the labels `tco.compute` writes: the same rule)."""
    if not month:
        if label == BEYOND:
            return msg("engine.payback_beyond", months=horizon)
        return msg("engine.payback_never")
    if month == 1:
        return msg("engine.payback_immediately" if one_time == 0 else "engine.payback_first_period")
    return msg("engine.payback_month", month=month)
