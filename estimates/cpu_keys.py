"""A CPU's model key, read from the free text feeds, offers and fingerprints give.

The same processor is written many ways: "Intel(R) Xeon(R) Platinum 8275CL CPU @ 3.00GHz"
(lscpu), "Intel Xeon Platinum 8275CL" (an AWS offer's physicalProcessor), "INTEL XEON
PLATINUM 8573C", "Intel Xeon 8375C (Ice Lake)", "AMD EPYC 7R13 Processor", "AMD EPYC 4545P
16-Core Processor". `cpu_key` reduces each to one key ("xeon-8275cl", "epyc-7r13",
"epyc-4545p") and says whether the text names a model or only a family: "AMD EPYC",
"Intel Xeon CPU @ 2.20GHz" (GCP hides the model), "AMD EPYC-Milan Processor", "Intel Xeon
Family", "Intel Skylake E5 2686 v5" and "Intel Core Processor (Haswell, no TSX)" are family
labels, whose speed spreads over every model of the family.

`family` groups models whose nearest neighbour may stand in for them, said as such (the
EPYC 4545P, which no public row covers, has the EPYC 4345P and 4245P as neighbours).

Hand-written regular expressions: no maintained library maps CPU marketing names to model
keys (py-cpuinfo reads the local CPU only).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class CpuKey:
    key: str  # "" when the text names no CPU at all
    exact: bool  # True: a model; False: only a family label
    family: str  # neighbours share it ("epyc-4", "xeon-8", "neoverse-v2"); "" when unknown
    text: str = ""  # what was read

    def __bool__(self) -> bool:
        return bool(self.key)


NONE = CpuKey("", False, "")

_NOISE = re.compile(
    r"\((?:r|tm)\)|\bcpu\b|@\s*[\d.]+\s*ghz|\bprocessor\b|\b\d+-core\b|\b\d+\s+core\s+\d+\s+mhz\b",
    re.I,
)
_XEON_TIERS = r"(?:platinum|gold|silver|bronze|scalable)"
_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    # Xeon E5/E7 with version ("E5-2686 v4", AWS "Intel Skylake E5 2686 v5")
    (re.compile(r"\b(e[357])[\s-]?(\d{4}[a-z]?)\s*(v\d)\b", re.I), "xeon-{0}-{1}{2}"),
    # Xeon E-2288G, W-3235
    (re.compile(r"\bxeon\b.*?\b([ew])-(\d{4}[a-z]*)\b", re.I), "xeon-{0}-{1}"),
    # Xeon 6 ("6975P-C"), Xeon Scalable ("Platinum 8275CL", "8375C", "8488C", "6455B")
    (
        re.compile(rf"\bxeon\b\s*(?:{_XEON_TIERS}\s*)?(\d{{4}}[a-z+]*(?:-[a-z])?)\b", re.I),
        "xeon-{0}",
    ),
    # EPYC 7R13, 9R14, 4545P, 9V45, 7B13
    (re.compile(r"\bepyc\b\s+(\d[0-9a-z]{3}[a-z]*)\b", re.I), "epyc-{0}"),
    (re.compile(r"\bryzen\b\s*(?:\d\s+)?(?:pro\s+)?(\d{4}[a-z0-9]*)\b", re.I), "ryzen-{0}"),
    (re.compile(r"\bcore\b\s*(i[3579])[\s-](\d{4,5}[a-z]*)\b", re.I), "core-{0}-{1}"),
    (re.compile(r"\bgraviton\s*(\d+e?)\b", re.I), "graviton{0}"),
    (re.compile(r"\bneoverse[\s-]([nv]\d)\b", re.I), "neoverse-{0}"),
    (re.compile(r"\bcortex[\s-](a\d+)\b", re.I), "cortex-{0}"),
    (re.compile(r"\bampere\b.*?\baltra\s*max\b", re.I), "ampere-altra-max"),
    (re.compile(r"\bampere\b.*?\baltra\b", re.I), "ampere-altra"),
)
_GENERATIONS = (
    "skylake", "cascade ?lake", "ice ?lake", "sapphire ?rapids", "emerald ?rapids",
    "granite ?rapids", "broadwell", "haswell", "ivy ?bridge", "naples", "rome", "milan",
    "genoa", "bergamo", "turin",
)  # fmt: skip
_FAMILIES = (
    (re.compile(r"\bepyc\b", re.I), "epyc"),
    (re.compile(r"\bxeon\b", re.I), "xeon"),
    (re.compile(r"\bintel\b", re.I), "intel"),
    (re.compile(r"\bamd\b", re.I), "amd"),
)


def _family_of(key: str) -> str:
    """Neighbours' group: the key up to its model number's first digit ("epyc-4545p" →
    "epyc-4", "xeon-8275cl" → "xeon-8", "xeon-e5-2686v4" → "xeon-e5-2"); ARM cores
    stand alone."""
    match = re.match(r"^(.*?-)([a-z]?\d)", key)
    if key.startswith(("neoverse", "graviton", "cortex", "ampere")) or not match:
        return key
    return match.group(1) + match.group(2)


@functools.lru_cache(maxsize=4096)  # a catalog names a few hundred CPUs over many tiers
def cpu_key(text: str | None) -> CpuKey:
    """The model key of `text`, or its family label (`exact` False), or `NONE`."""
    raw = (text or "").strip()
    if not raw:
        return NONE
    clean = re.sub(r"\s+", " ", _NOISE.sub(" ", raw)).strip()
    for pattern, form in _RULES:
        if match := pattern.search(clean):
            key = form.format(*(g.lower() for g in match.groups()))
            key = key.replace("+", "plus")
            # AWS writes "Intel Skylake E5 2686 v5": a made-up label for a custom part.
            exact = not re.search(r"\bskylake\s+e5\b", clean, re.I)
            return CpuKey(key, exact, _family_of(key), raw)
    generation = (
        next((g for g in _GENERATIONS if re.search(rf"\b{g}\b", clean, re.I)), "")
        .replace(" ", "")
        .replace("?", "")
    )
    for pattern, name in _FAMILIES:
        if pattern.search(clean):
            gen = re.sub(r"[ ?]", "", generation)
            key = f"{name}-{gen}" if gen else name
            return CpuKey(key, False, key, raw)
    return NONE


@functools.lru_cache(maxsize=4096)
def display(text: str | None) -> str:
    """The model as a page shows it: the text without lscpu's noise ("Intel Xeon Platinum
    8275CL"), or "" when there is none."""
    return re.sub(r"\s+", " ", _NOISE.sub(" ", text or "")).strip()
