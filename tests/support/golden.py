"""The golden answers (tests/golden/): every file that holds an answer, whatever froze it."""

from __future__ import annotations

import json
from pathlib import Path

GOLDEN = Path(__file__).resolve().parent.parent / "golden"


def golden_answers() -> list[tuple[str, dict]]:
    """Every golden file's answer, by the file's name: an evaluation's, a stored plan's, a
    share's ("results")."""
    out = []
    for path in sorted(GOLDEN.glob("*.json")):
        data = json.loads(path.read_bytes())
        found = data.get("results") or data.get("comparison") or data
        if "options" in found:
            out.append((path.stem, found))
    return out
