"""CPU vendor and generation of a tier, read from its free-text CPU model.

Feeds and hand entry name processors as the provider writes them ("Intel Xeon Platinum
8375C (Ice Lake)", "AMD EPYC 7R13 Processor", "AWS Graviton3 Processor"). The catalog page
filters on vendor and generation; both are empty where the text does not say.
"""

from __future__ import annotations

import re

VENDORS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("Intel", re.compile(r"\bintel\b|\bxeon\b|\bcore i\d", re.I)),
    ("AMD", re.compile(r"\bamd\b|\bepyc\b|\bryzen\b", re.I)),
    ("AWS Graviton", re.compile(r"graviton", re.I)),
    ("Ampere", re.compile(r"ampere", re.I)),
)

# Named generations first (the feeds often name them), then model numbers: Xeon Scalable
# 8/6/5/4/3 + digit of the generation, EPYC 7xx1…7xx3 and 9xx4/9xx5.
_NAMED = (
    "Skylake", "Cascade Lake", "Ice Lake", "Sapphire Rapids", "Emerald Rapids",
    "Granite Rapids", "Broadwell", "Haswell", "Naples", "Rome", "Milan", "Genoa",
    "Bergamo", "Turin", "Graviton4", "Graviton3E", "Graviton3", "Graviton2", "Altra Max",
    "Altra",
)  # fmt: skip
_XEON = {"1": "Skylake", "2": "Cascade Lake", "3": "Ice Lake", "4": "Sapphire Rapids",
         "5": "Emerald Rapids", "6": "Granite Rapids"}  # fmt: skip
_EPYC_7 = {"1": "Naples", "2": "Rome", "3": "Milan"}
_EPYC_9 = {"4": "Genoa", "5": "Turin"}


def vendor(cpu_model: str | None) -> str:
    text = cpu_model or ""
    return next((name for name, pattern in VENDORS if pattern.search(text)), "")


def generation(cpu_model: str | None) -> str:
    text = cpu_model or ""
    for name in _NAMED:
        if re.search(rf"\b{re.escape(name)}\b", text, re.I):
            return name
    if match := re.search(r"\bxeon\b.*?\b[3-9](\d)\d\d[a-z]*\b", text, re.I):
        return _XEON.get(match.group(1), "")
    if match := re.search(r"\bepyc\b\s+7\w\w(\d)\b", text, re.I):
        return _EPYC_7.get(match.group(1), "")
    if match := re.search(r"\bepyc\b\s+9\w\w(\d)\b", text, re.I):
        return _EPYC_9.get(match.group(1), "")
    if re.search(r"graviton", text, re.I):
        return "Graviton"
    return ""


def has_avx512(cpu_flags: str | None) -> bool:
    return "avx512" in (cpu_flags or "").lower()
