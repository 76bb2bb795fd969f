"""Which one-time costs of a switch an option carries (docs/design.md, "One-time costs
belong to options"; issue 21, item 2).

The plan enters migration work, months of running both and re-validating models once;
they are the cost of moving the work. An option that moves it to another provider or
another server carries them; an option on the baseline's own provider and instance family
(a reservation, a savings plan or spot of the same instance: nothing moves) carries none.
Each cost can be overridden per option (`Candidate.migration`, `.running_both`,
`.retraining`: "charged" or "not_charged"; absent: this rule). Where the baseline's
provider and family are unknown (a quoted spend without `baseline.runs_on`), every option
moves. Owned servers always move. "Other one-time costs" stay with every option.

Pure: plain strings in, a `OneTimeCosts` out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from planner.compute.answer import OneTimeCosts

COSTS = ("migration", "running_both", "retraining")
CHARGED, NOT_CHARGED = "charged", "not_charged"
OVERRIDES = (CHARGED, NOT_CHARGED)


@dataclass(frozen=True)
class Host:
    """Where a tier runs, as the rule compares it: provider and instance family."""

    provider: str
    family: str

    @classmethod
    def of(cls, provider: str | None, name: str | None) -> Host | None:
        if not provider or not name:
            return None
        return cls(provider.strip().casefold(), instance_family(provider, name))


_AZURE_SIZE = re.compile(r"^(standard_)?([a-z]+)\d+(-\d+)?", re.IGNORECASE)


def instance_family(provider: str, name: str) -> str:
    """The instance family of a tier's name: AWS "c5.4xlarge" → "c5"; Google Cloud
    "e2-standard-2" → "e2-standard"; Azure "Standard_D2als_v7" → "standard_dals_v7" (the
    size's digits dropped); any other (a dedicated server) its whole name."""
    p, n = provider.strip().casefold(), name.strip().casefold()
    if p == "aws" and "." in n:
        return n.split(".", 1)[0]
    if p in ("gcp", "google cloud", "google") and "-" in n:
        return n.rsplit("-", 1)[0]
    if p == "azure":
        return _AZURE_SIZE.sub(lambda m: (m.group(1) or "") + m.group(2), n, count=1)
    return n


def one_time_costs_for(
    option: Sequence[Host | None],
    baseline: Host | None,
    overrides: Mapping[str, str | None] | None = None,
) -> OneTimeCosts:
    """The one-time costs of an option whose parts run on `option` (one Host per part;
    None for a part whose host is unknown, an owned server has none) against the baseline's
    host. An option stays when it has parts and every one is on the baseline's provider
    and instance family; staying carries no migration, running both or re-validation,
    moving carries all three; `overrides` ({cost: "charged" | "not_charged" | None}) win."""
    stays = None if baseline is None else bool(option) and all(h == baseline for h in option)
    charged = set() if stays else set(COSTS)
    overridden = set()
    for cost, said in (overrides or {}).items():
        if said is None:
            continue
        if cost not in COSTS or said not in OVERRIDES:
            raise ValueError(f"one-time override {cost}={said!r}")
        overridden.add(cost)
        (charged.add if said == CHARGED else charged.discard)(cost)
    return OneTimeCosts.model_construct(
        charged=[c for c in COSTS if c in charged],
        not_charged=[c for c in COSTS if c not in charged],
        stays=stays,
        overridden=[c for c in COSTS if c in overridden],
    )
