"""Reference runs shipped with the product, so that a fresh install has a measured host to
scale estimates from: run files of the standard profiles measured on a named machine
(its fingerprint in each file), under `reference_runs_data/`. `bootstrap` imports them, once;
their target's name starts with "reference-" and their executed-by says "reference run",
so every page and provenance names them as what they are."""

from __future__ import annotations

import json
from pathlib import Path

from .models import Run
from .run_files import import_run

FOLDER = Path(__file__).parent / "reference_runs_data"
PREFIX = "reference-"


def files(folder: Path = FOLDER) -> list[Path]:
    return sorted(folder.glob("*.json"))


def import_reference_runs(folder: Path = FOLDER) -> str:
    """Import the shipped reference runs not here yet; a one-line summary."""
    added, kept = 0, 0
    for path in files(folder):
        data = json.loads(path.read_text())
        if not data["target"]["name"].startswith(PREFIX):
            raise ValueError(f"{path.name}: a reference run's target must be named {PREFIX}…")
        if Run.objects.filter(pk=data["run"]["id"]).exists():
            kept += 1
            continue
        import_run(data)
        added += 1
    return f"{added} imported, {kept} already here ({len(files(folder))} shipped)"
