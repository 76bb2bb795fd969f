"""The public speed data under ../shared/reference/speed (skipped where absent, failing in CI)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SPEED = ROOT.parent / "shared" / "reference" / "speed"
SPARECORES = "sparecores_inspector_scores.csv"
GBMPERF = "gbmperf_multicore_scaling.csv"


def speed_file(name: str) -> Path:
    path = SPEED / name
    if not path.is_file():
        message = f"public speed data {name} not found under {SPEED} (no ../shared here)"
        if os.getenv("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path
