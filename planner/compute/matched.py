# ruff: noqa: RUF002, RUF003  (math notation: ×, ÷, Σ, ⌈⌉)
"""Sizing the options to the capacity of the baseline's machines (issue 25, item 4).

A baseline taken from a bill knows its machines by catalog tier (`baseline.tiers`: the
bill's hours a month ÷ 730 per tier). With `baseline.sizing: "matched"` every sized
option is counted so that it carries what those machines carry, not what the plan's
workloads need:

- a tier's **share**: the part of the plan's month-1 work one server of it carries at
  the utilisation target, vCPUs ÷ threads needed (`capacity.CapacityTable`: the same
  measured or estimated speed evidence that sizes the options, docs/design.md "Sizing
  rules" and "Speed estimates");
- the baseline's **capacity** = Σ over its tiers of count × share (1.0: exactly the
  plan's work);
- an option's servers in month m = max(1, ⌈capacity × (1+g)^(m−1) ÷ its share⌉): the
  bill's machines grow with the plan's growth, as its monthly figure does.

No figure is invented: a baseline tier with no share (no measurement and no estimate, not
in the catalog frame, no CPU work to carry) leaves the capacity unknown, and the options
are then sized to the workloads, the message saying which tiers; an option's tier with no
share has no number, as it would without matching. The bill's lines with no catalog tier
are not in the capacity (their money stays in the baseline's monthly figure).

Pure: it reads only the plan, the capacity tables and the tiers' names it is given.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import numpy as np

from common.messages import Message, Number, msg
from planner.compute import bounds
from planner.compute.capacity import EPS, CapacityTable
from planner.compute.schema import Plan

MATCHED = "matched"
FIGURES = ("sized", "estimate")


def shares(table: CapacityTable) -> np.ndarray:
    """Per row: the share of the plan's month-1 work one server carries (NaN: no figure)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        share = table.vcpus / table.threads_needed[:, 0]
    ok = np.isin(table.status, FIGURES) & np.isfinite(share) & (share > 0)
    return np.where(ok, share, np.nan)


@dataclass
class Matched:
    """The baseline's capacity and, where it is known, every sized row's servers."""

    capacity: float | None  # in the plan's month-1 work; None: a baseline tier has no figure
    tiers: list[dict[str, Any]] = field(default_factory=list)  # each baseline tier said
    missing: list[str] = field(default_factory=list)  # baseline tiers with no figure
    estimated: bool = False  # a baseline tier's figure is an estimate
    servers: np.ndarray | None = None  # N × H over the options' table rows

    def said(self) -> dict[str, Any]:
        """The answer's `baseline.matched` (plain data)."""
        return {
            "sizing": MATCHED,
            "capacity": None if self.capacity is None else _places(self.capacity, 4),
            "tiers": self.tiers,
            "missing": list(self.missing),
            "figure": "estimate" if self.estimated else "measured",
        }

    def note(self, tier_ref: Any, share: float | None) -> Message:
        if self.capacity is None and not self.missing:
            return msg("matched.no_tiers")
        if self.capacity is None:
            return msg("matched.no_capacity", tiers=", ".join(self.missing))
        return msg("matched.note", tier=tier_ref, capacity=Number(Decimal(str(self.capacity)), 2),
                   share=Number(Decimal(str(share or 0)), 3))  # fmt: skip


def _places(value: float, places: int) -> str:
    return str(Decimal(str(value)).quantize(Decimal(1).scaleb(-places)))


def matched(
    plan: Plan,
    table: CapacityTable | None,
    size: Callable[[Sequence[str]], CapacityTable],
    known: Callable[[str], bool],
) -> Matched | None:
    """The matched sizing of `plan`, or None where the plan does not ask for it.

    `table`: the options' capacity table; `size(slugs)` sizes the baseline's tiers the same
    way (the same workloads, evidence and utilisation); `known(slug)`: the tier is in the
    catalog frame."""
    baseline = plan.baseline
    if baseline.sizing != MATCHED:
        return None
    tiers = list(baseline.tiers or ())
    slugs = sorted({t.tier for t in tiers if known(t.tier)})
    base = size(slugs) if slugs else None
    share = shares(base) if base is not None else np.zeros(0)
    out = Matched(capacity=0.0)
    for t in tiers:
        row = base.row_of.get(t.tier) if base is not None else None
        value = float(share[row]) if row is not None else float("nan")
        said = {"tier": t.tier, "count": str(t.count), "share": None, "carries": None,
                "figure": None}  # fmt: skip
        if np.isfinite(value):
            estimate = str(base.status[row]) == "estimate"  # type: ignore[union-attr]
            out.estimated |= estimate
            carries = float(t.count) * value
            out.capacity = (out.capacity or 0.0) + carries
            said |= {"share": _places(value, 4), "carries": _places(carries, 4),
                     "figure": "estimate" if estimate else "measured"}  # fmt: skip
        else:
            out.missing.append(t.tier)
        out.tiers.append(said)
    if out.missing or not tiers:
        out.capacity = None
        return out
    if table is not None:
        per = shares(table)
        with np.errstate(divide="ignore", invalid="ignore"):
            need = np.ceil(out.capacity * table.growth[None, :] / per[:, None] - EPS)
        need = np.where(np.isfinite(need), np.maximum(need, 1), 0)
        out.servers = bounds.servers(np.maximum.accumulate(need, axis=1))
    return out


def annotate(found: Matched, options: Sequence[Any], table: CapacityTable | None,
             ref: Callable[[str], Any]) -> None:  # fmt: skip
    """Each option with a sized part says how it was counted (the engine's OptionResult:
    `parts[].mode`, `parts[].tier`, `notes`, `figure`)."""
    per = shares(table) if table is not None else np.zeros(0)
    for option in options:
        for part in option.parts:
            if part.mode != "sized":
                continue
            row = table.row_of.get(part.tier) if table is not None else None
            value = float(per[row]) if row is not None and np.isfinite(per[row]) else None
            option.notes.append(found.note(ref(part.tier), value))
            if found.capacity is not None and found.estimated and option.figure == "measured":
                option.figure = "estimate"
