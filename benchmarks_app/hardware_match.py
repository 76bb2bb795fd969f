"""Does a benchmark target's hardware match the catalog tier it is linked to?

A target's runs size the tier it is linked to, so linking a 2-vCPU VM to a 32-vCPU tier
(or an Intel box to an EPYC tier) makes every figure of that tier wrong in silence. This
compares the target's hardware fingerprint with the tier's listed specs and returns one
message per difference (code and typed parameters, never a sentence): the admin's link,
the staff action beside a tier without a figure and a run-file import all say them.

Pure: a fingerprint mapping and anything with the tier's `slug`, `name`, `vcpus` and
`cpu_model`; an unknown value on either side is no difference (nothing to compare).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Protocol

from catalog.cpus import vendor
from common.messages import Message, TierRef, msg


class TierSpecs(Protocol):
    slug: str
    name: str
    vcpus: int | None
    cpu_model: str


# Words that carry digits but name no model: "16-Core", "@ 2.90GHz", "(R)".
_NOT_MODEL = re.compile(r"\d+\s*-?\s*cores?\b|@?\s*\d+(?:\.\d+)?\s*[gm]hz\b|\(r\)|\(tm\)", re.I)
_TOKEN = re.compile(r"\b[A-Z]*\d[A-Z0-9]*\b")


def model_numbers(cpu_model: str | None) -> set[str]:
    """The model numbers a CPU name holds: "AMD EPYC 4545P 16-Core Processor" → {"4545P"},
    "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz" → {"8375C"}; empty for a generic name
    a VM may pass ("AMD EPYC", "Common KVM processor")."""
    text = _NOT_MODEL.sub(" ", (cpu_model or "").upper())
    return {token for token in _TOKEN.findall(text) if len(token) >= 3}


def cpus_differ(host_model: str | None, tier_model: str | None) -> bool:
    """True when both names are known and name different processors: by model number where
    both give one, else by vendor where both say one."""
    if not (host_model and tier_model):
        return False
    host, tier = model_numbers(host_model), model_numbers(tier_model)
    if host and tier:
        return not host & tier
    host_vendor, tier_vendor = vendor(host_model), vendor(tier_model)
    return bool(host_vendor and tier_vendor and host_vendor != tier_vendor)


def host_cpus(fingerprint: Mapping[str, Any]) -> int | None:
    """The host's hardware threads (vCPUs), or the CPUs it may use where that is unknown."""
    count = fingerprint.get("hardware_threads") or fingerprint.get("usable_cpus")
    return int(count) if isinstance(count, int | float) and count > 0 else None


def tier_mismatches(target: str, fingerprint: Mapping[str, Any], tier: TierSpecs) -> list[Message]:
    """What differs between target `target`'s hardware and `tier`'s listed specs; empty
    when nothing known differs."""
    ref = TierRef(tier.slug, tier.name)
    found: list[Message] = []
    cpus = host_cpus(fingerprint)
    if cpus is not None and tier.vcpus and cpus != tier.vcpus:
        found.append(msg("benchmarks.link_vcpus_differ", target=target, cpus=cpus, tier=ref,
                         vcpus=int(tier.vcpus)))  # fmt: skip
    model = fingerprint.get("cpu_model")
    if cpus_differ(model, tier.cpu_model):
        found.append(msg("benchmarks.link_cpu_differs", target=target, host_cpu=str(model),
                         tier=ref, tier_cpu=tier.cpu_model))  # fmt: skip
    return found
