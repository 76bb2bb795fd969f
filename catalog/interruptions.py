"""Spot interruption rates from the ec2instances.info aggregator (issue 27, item 6).

ec2instances.info's instance records carry, per region and operating system, the Spot
Instance Advisor's interruption frequency as a bucket (`pricing[region].linux.
pct_interrupt`: "<5%", "5-10%", "10-15%", "15-20%", ">20%"). `buckets(records)` reads
the Linux buckets of one file (one record, as the reference mock holds, or a list, as
the site's `instances.json` does); `ranges_for(frame, found)` gives each spot tier of a
catalog frame its bucket's range, by instance name and region. A spot tier keyed without
a region takes the widest range over the regions the file names for its instance.

The file is the setting `PLANNER_SPOT_INTERRUPTIONS_FILE` (a path; unset: no tier has a
published figure and the planner's assumption is used, labelled as such). The open
bucket ">20%" has no upper end in the source: 0.20-0.30 is the planner's choice, said
in docs/design.md ("Commitment alternatives").
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import pandas as pd

RANGES: dict[str, tuple[Decimal, Decimal]] = {
    "<5%": (Decimal("0"), Decimal("0.05")),
    "5-10%": (Decimal("0.05"), Decimal("0.10")),
    "10-15%": (Decimal("0.10"), Decimal("0.15")),
    "15-20%": (Decimal("0.15"), Decimal("0.20")),
    ">20%": (Decimal("0.20"), Decimal("0.30")),
}


@dataclass(frozen=True)
class Rate:
    low: Decimal
    high: Decimal
    bucket: str  # the source's own words; several joined by " / " for a region-less tier


def buckets(records: Any) -> dict[tuple[str, str], str]:
    """{(instance type, region): bucket} of the Linux prices that name a known bucket."""
    out = {}
    for record in records if isinstance(records, list) else [records]:
        name = record.get("instance_type") if isinstance(record, dict) else None
        for region, prices in (record.get("pricing") or {}).items() if name else ():
            bucket = ((prices or {}).get("linux") or {}).get("pct_interrupt")
            if bucket in RANGES:
                out[(str(name), str(region))] = bucket
    return out


def read(path: str | Path | None) -> dict[tuple[str, str], str]:
    """`buckets` of the file at `path` ({} for none, or one that cannot be read)."""
    if not path:
        return {}
    try:
        return buckets(json.loads(Path(path).read_text(encoding="utf-8")))
    except (OSError, ValueError, AttributeError):
        return {}


def ranges_for(frame: pd.DataFrame, found: dict[tuple[str, str], str]) -> dict[str, Rate]:
    """{spot tier slug: its interruption range} for the frame's AWS spot tiers the file covers."""
    if not found:
        return {}
    spot = frame.loc[(frame["pricing_model"] == "spot") & (frame["provider"] == "AWS")]
    out = {}
    for slug, name, region in zip(spot["slug"], spot["name"], spot["region"].fillna(""),
                                  strict=True):  # fmt: skip
        if region:
            said = [found[(name, region)]] if (name, region) in found else []
        else:
            said = sorted({b for (n, _r), b in found.items() if n == name}, key=list(RANGES).index)
        if said:
            low = min(RANGES[b][0] for b in said)
            high = max(RANGES[b][1] for b in said)
            out[str(slug)] = Rate(low, high, " / ".join(said))
    return out
