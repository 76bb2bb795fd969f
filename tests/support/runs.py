"""Real benchmark runs (tests/fixtures/runs/) brought in with `import_run`, as measured, or
as copies relinked to another target (labelled so: the copy's host name and executed-by
say whose measurement it is). The measured values are never changed."""

from __future__ import annotations

import copy
import json
import uuid
from pathlib import Path

from benchmarks_app.models import Run, Target
from benchmarks_app.run_files import import_run
from catalog.models import Tier

RUNS = Path(__file__).resolve().parents[1] / "fixtures" / "runs"
GBM_RUN = "gbm-xgboost-standard"
INFERENCE_RUN = "inference-tabular-standard"


def run_file(name: str) -> dict:
    return json.loads((RUNS / f"{name}.json").read_text())


def relinked(data: dict, target: str) -> dict:
    """A copy of a run file as if its measurements had been taken on `target`: a new run
    id, the target's own name; the host name and executed-by say it is a copy."""
    out = copy.deepcopy(data)
    original = out["run"]["id"]
    out["run"]["id"] = str(uuid.uuid5(uuid.UUID(original), target))
    out["run"]["executed_by"] = f"copy of run {original} relinked to {target}"[:255]
    out["target"]["name"] = target
    out["target"]["hostname"] = f"copy-of-{data['target']['hostname']}-for-{target}"
    return out


def import_copy(name: str, target: str, tier: Tier | None = None) -> Run:
    """The run file `name` imported as measured on `target`, linked to `tier` if given."""
    run = import_run(relinked(run_file(name), target))
    if tier is not None:
        linked = Target.objects.get(pk=run.target_id)
        linked.tier = tier
        linked.save()  # as the admin links a target: a recorded change
    return run
