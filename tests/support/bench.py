"""Builders for benchmark tests: profile content, targets and finished runs."""

import json
import time
from datetime import timedelta
from pathlib import Path

from django.utils import timezone

from benchmarks_app.models import Profile, ProfileVersion, Run, Summary, Target

SHIPPED = Path(__file__).resolve().parents[2] / "benchmarks_app" / "profiles"
TERMINAL = {"succeeded", "failed", "cancelled"}


def content(name: str = "toy-gbm", version: str = "1.0.0", **changes) -> dict:
    base = {
        "name": name,
        "workload_class": "gbm",
        "runner": "gbm",
        "version": version,
        "title": "Toy GBM",
        "metric": {"name": "cell_trees_per_s", "unit": "cell-trees/s", "higher_is_better": True},
        "params": {"library": "xgboost", "rows": 2000, "features": 10, "trees": 5},
        "scales": {
            "smoke": {"threads": [1, 2], "time_budget_s": 10},
            "standard": {"rows": 100000, "threads": [1, 2, 4, 8], "time_budget_s": 600},
            "full": {"rows": 1000000, "threads": [1, 2, 4, 8, 16, 32], "time_budget_s": 3600},
        },
        "repetition": {"warmup": 1, "min_reps": 3, "max_reps": 5, "cv_target": 0.05},
        "scaling_rule": {
            "text": "time per training = R·F·T / X(k)",
            "trusted_range": {"param": "rows", "min": 10000, "max": 10000000},
        },
        "requires": [],
    }
    base.update(changes)
    return base


def shipped(name: str) -> dict:
    return json.loads((SHIPPED / f"{name}.json").read_text())


def version(body: dict | None = None, source: str = "shipped") -> ProfileVersion:
    body = body or content()
    profile, _ = Profile.objects.get_or_create(
        name=body["name"], defaults={"workload_class": body["workload_class"]}
    )
    return ProfileVersion.objects.create(
        profile=profile, version=body["version"], content=body, source=source
    )


def fingerprint(**changes) -> dict:
    base = {
        "hostname": "testhost",
        "cpu_model": "Test CPU 9000",
        "physical_cores": 2,
        "hardware_threads": 4,
        "usable_cpus": 2,
        "ram_bytes": 8 * 2**30,
        "flags": ["avx2", "fma"],
    }
    base.update(changes)
    return base


def target(name: str = "here", *, online: bool = True, **fp) -> Target:
    return Target.objects.create(
        name=name,
        hostname=fp.get("hostname", "testhost"),
        fingerprint=fingerprint(**fp),
        online=online,
        last_seen=timezone.now() if online else None,
    )


def finished_run(
    pv: ProfileVersion,
    tgt: Target,
    points: dict[int, float],
    *,
    scale: str = "standard",
    status: str = "succeeded",
    age: timedelta = timedelta(0),
    extra: dict | None = None,
) -> Run:
    finished = timezone.now() - age
    run = Run.objects.create(
        profile_version=pv, content_hash=pv.content_hash, scale=scale, target=tgt,
        threads=sorted(points), status=status, progress=1.0, fingerprint=tgt.fingerprint,
        created_at=finished - timedelta(minutes=5), started_at=finished - timedelta(minutes=4),
        finished_at=finished,
    )  # fmt: skip
    for threads, value in points.items():
        Summary.objects.create(
            run=run, threads=threads, n=3, median=value, min=value * 0.98, max=value * 1.02,
            mean=value, cv=0.01, stop_reason="cv_met", peak_rss_bytes=100 * 2**20,
            extra=extra or {"rows": 2000, "features": 10, "trees": 5},
        )  # fmt: skip
    return run


def wait_for(predicate, timeout: float = 60, every: float = 0.2, message: str = ""):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := predicate():
            return value
        time.sleep(every)
    raise AssertionError(f"timed out after {timeout}s waiting for {message or predicate}")


def wait_over(run: Run, timeout: float = 90) -> Run:
    def over():
        run.refresh_from_db()
        return run.status in TERMINAL

    wait_for(over, timeout, message=f"run {run.pk} to end (last: {run.status} {run.step})")
    return run
