"""Which catalog tier an imported run's host is: suggestions by CPU model and vCPUs, and the
differences worth a warning when the importer names a tier. Pure: the caller passes the
tiers (slug, provider, name, CPU text, vCPUs)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from . import scores
from .cpu_keys import cpu_key


@dataclass(frozen=True)
class TierRow:
    slug: str
    provider: str
    name: str
    cpu_model: str
    vcpus: int | None


@dataclass(frozen=True)
class Match:
    slug: str
    same_cpu: bool  # the host's CPU model key is the tier's (the offer's or what runs saw)
    same_vcpus: bool
    tier_cpu: str  # as shown
    differences: tuple[str, ...]  # cpu_differs | vcpus_differ | cpu_unknown


def tier_key(row: TierRow, table: scores.ScoreTable | None = None) -> tuple[str, str]:
    """(model key, shown name) of a tier's CPU: what public runs saw on its server type,
    else the offer's."""
    table = table or scores.load()
    seen = table.server(scores.vendor_of(row.provider), row.name or "")
    if seen is not None:
        return seen.cpu_key, seen.cpu_model
    key = cpu_key(row.cpu_model)
    return (key.key if key.exact else ""), row.cpu_model or ""


def compare(host_cpu: str | None, host_vcpus: int | None, row: TierRow, table=None) -> Match:
    host = cpu_key(host_cpu)
    key, shown = tier_key(row, table)
    differences = []
    if not host.exact or not key:
        differences.append("cpu_unknown")
    elif host.key != key:
        differences.append("cpu_differs")
    same_vcpus = bool(host_vcpus) and row.vcpus == host_vcpus
    if host_vcpus and row.vcpus and not same_vcpus:
        differences.append("vcpus_differ")
    same_cpu = bool(host.exact and key and host.key == key)
    return Match(row.slug, same_cpu, same_vcpus, shown, tuple(differences))


def suggest(
    host_cpu: str | None, host_vcpus: int | None, rows: Iterable[TierRow], limit: int = 5
) -> list[Match]:
    """Tiers with the host's CPU model, those with its vCPUs too first; none when the host
    names only a CPU family (a match would be a guess)."""
    table = scores.load()
    found = [compare(host_cpu, host_vcpus, row, table) for row in rows]
    found = [m for m in found if m.same_cpu]
    found.sort(key=lambda m: (not m.same_vcpus, m.slug))
    return found[:limit]
