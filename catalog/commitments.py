"""The cloud's own alternatives to a tier: the same instance bought with a commitment, or spot.

`alternatives(frame, slug)` looks in a catalog frame (catalog.pricing.catalog_frame, in one
currency) for the tiers of the same provider, instance name and region as `slug` and,
for each slot the provider sells (AWS: reserved and savings plan, 1 and 3 years, and spot;
Azure: reserved and savings plan, 1 and 3 years, and spot; Google Cloud: committed use 1
and 3 years, and spot), picks the one with the lowest effective hourly price (upfront
spread over the term + hourly) among the slot's purchase options. A slot with no price in
the catalog comes back without a tier and with a message that says so: no rate is ever
made up. A spot tier may be keyed without a region (hand-entered: `aws-c5.4xlarge-spot`):
one with no region counts for every region of its instance.

The engine's commitment options (docs/design.md, "Commitment alternatives") are built from
these; this module only reads the frame.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from catalog.pricing_models import group_of
from common.messages import Message, TierRef, msg

# (group, years) slots a provider sells; years 0 for spot.
SLOTS: dict[str, tuple[tuple[str, int], ...]] = {
    "AWS": (("reserved", 1), ("reserved", 3), ("savings_plan", 1), ("savings_plan", 3),
            ("spot", 0)),
    "Microsoft Azure": (("reserved", 1), ("reserved", 3), ("savings_plan", 1),
                        ("savings_plan", 3), ("spot", 0)),
    "Google Cloud": (("committed_use", 1), ("committed_use", 3), ("spot", 0)),
}  # fmt: skip
MISSING = {
    "reserved": "catalog.no_reserved_rate",
    "savings_plan": "catalog.no_savings_plan_rate",
    "committed_use": "catalog.no_committed_use_rate",
    "spot": "catalog.no_spot_rate",
}


@dataclass(frozen=True)
class Alternative:
    group: str  # reserved, savings_plan, committed_use, spot
    years: int  # 1 or 3; 0 for spot
    slug: str | None  # the cheapest tier of the slot, None where the catalog has none
    pricing_model: str | None
    effective_hourly: float | None
    missing: Message | None  # why there is no tier, where there is none


def years_of(model: str) -> int:
    """`savings_plan_compute_3y_all_upfront` → 3; `spot` → 0."""
    return 3 if "_3y" in model else 1 if "_1y" in model else 0


def on_demand_of(frame: pd.DataFrame, slug: str) -> str | None:
    """The on-demand tier of the same provider, instance name and region as `slug` (the
    tier itself where it is on demand); None where the frame has none."""
    if slug not in set(frame["slug"]):
        return None
    row = frame.loc[frame["slug"] == slug].iloc[0]
    if row["pricing_model"] == "on_demand":
        return slug
    region = frame["region"].fillna("")
    same = frame.loc[(frame["provider"] == row["provider"]) & (frame["name"] == row["name"])
                     & (region == (row["region"] or ""))
                     & (frame["pricing_model"] == "on_demand")]  # fmt: skip
    return str(same.sort_values("slug")["slug"].iloc[0]) if not same.empty else None


def alternatives(frame: pd.DataFrame, slug: str) -> list[Alternative]:
    """The commitment and spot alternatives of the tier `slug` (empty for a tier that is
    not in the frame or whose provider sells none)."""
    if slug not in set(frame["slug"]):
        return []
    row = frame.loc[frame["slug"] == slug].iloc[0]
    slots = SLOTS.get(str(row["provider"]), ())
    if not slots:
        return []
    region = frame["region"].fillna("")
    same = frame.loc[(frame["provider"] == row["provider"]) & (frame["name"] == row["name"])
                     & ((region == row["region"]) | (region == ""))]  # fmt: skip
    groups = same["pricing_model"].map(group_of)
    years = same["pricing_model"].map(years_of)
    found = []
    for group, term in slots:
        pick = same.loc[(groups == group) & ((years == term) if group != "spot" else True)]
        if pick.empty:
            message = msg(MISSING[group], tier=TierRef(slug, str(row["name"])), years=term)
            found.append(Alternative(group, term, None, None, None, message))
            continue
        best = pick.sort_values(["effective_hourly", "slug"]).iloc[0]
        found.append(Alternative(group, term, str(best["slug"]), str(best["pricing_model"]),
                                 float(best["effective_hourly"]), None))  # fmt: skip
    return found
