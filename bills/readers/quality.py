"""Data quality said, not hidden: per row, which cost figure is trusted and which flag
says why another was used. Pure: no Django.

`cost` is the figure a plan would take (the amortised, commitment-aware cost): the
export's effective cost where it is usable, else the billed cost, the flag naming that
fallback. `billed`, `effective` and `list` stay as the file gave them, so their sums
match the file's."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

_EPS = 1e-9


def _flag(mask: pa.Array) -> pa.Array:
    return pc.cast(pc.fill_null(mask, False), pa.int8())


def judged(
    billed: pa.Array,
    effective: pa.Array,
    listed: pa.Array,
    charge_category: pa.Array,
    pricing_category: pa.Array,
    charge_class: pa.Array,
    quantity: pa.Array | None = None,
) -> dict[str, pa.Array]:
    billed = pc.fill_null(billed, 0.0)
    usage = pc.fill_null(pc.equal(charge_category, "Usage"), False)
    committed = pc.fill_null(pc.equal(pricing_category, "Committed"), False)
    plain_usage = pc.and_(usage, pc.invert(committed))
    nonzero_billed = pc.greater(pc.abs(billed), _EPS)
    missing = pc.is_null(effective)
    eff = pc.fill_null(effective, 0.0)
    zero = pc.and_(pc.and_(plain_usage, nonzero_billed), pc.less(pc.abs(eff), _EPS))
    whole = pc.less(pc.abs(pc.subtract(eff, pc.round(eff))), _EPS)
    billed_whole = pc.less(pc.abs(pc.subtract(billed, pc.round(billed))), _EPS)
    rounded = pc.and_(
        pc.and_(plain_usage, pc.invert(zero)),
        pc.and_(pc.and_(whole, pc.invert(billed_whole)), pc.greater(pc.abs(eff), _EPS)),
    )
    rounded = pc.and_(rounded, pc.invert(missing))
    zero = pc.and_(zero, pc.invert(missing))
    use_billed = pc.or_(pc.or_(missing, zero), rounded)
    cost = pc.if_else(use_billed, billed, eff)
    list_missing = pc.or_(
        pc.is_null(listed),
        pc.and_(pc.less(pc.abs(pc.fill_null(listed, 0.0)), _EPS), nonzero_billed),
    )
    list_below = pc.and_(
        pc.invert(list_missing), pc.less(pc.fill_null(listed, 0.0), pc.subtract(billed, 1e-6))
    )
    correction = pc.fill_null(pc.equal(charge_class, "Correction"), False)
    if quantity is not None:  # a usage reversal: negative quantity at a negative cost
        reversal = pc.and_(pc.less(quantity, 0), pc.less(billed, 0))
        correction = pc.or_(correction, pc.fill_null(reversal, False))
    return {
        "cost": cost,
        "effective_zero": _flag(zero),
        "effective_rounded": _flag(rounded),
        "effective_missing": _flag(missing),
        "list_missing": _flag(pc.and_(list_missing, nonzero_billed)),
        "list_below_billed": _flag(list_below),
        "correction": _flag(correction),
    }
