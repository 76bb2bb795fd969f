"""Runs as JSON files, so measurements taken on a real server (say a 16-core EPYC)
can be brought into any installation, labelled with the host they came from.

A file holds the profile content and its hash, the target (name, host name,
fingerprint), the run, its summaries and its measurements. Import is all or
nothing, and refuses a run id it already has and content that does not match its
hash.
"""

import math
import uuid
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from changes.services import quiet, record

from .models import (
    Measurement,
    Profile,
    ProfileVersion,
    Run,
    Summary,
    Target,
    content_hash,
)
from .profiles_loader import validate_content

FORMAT, FORMAT_VERSION = "planner-run", 1
SUMMARY_NUMBERS = ("median", "min", "max", "mean", "cv")
MAX_ROWS = 100_000


class ImportRefused(ValueError):
    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def export_run(run: Run) -> dict:
    if not run.is_over:
        raise ValueError(f"run {run.pk} is still {run.status}: export it when it has ended")
    version = run.profile_version
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "exported_at": timezone.now().isoformat(),
        "profile": {
            "name": version.profile.name,
            "version": version.version,
            "content_hash": version.content_hash,
            "content": version.content,
        },
        "target": {
            "name": run.target.name,
            "hostname": run.source_host or run.target.hostname,
            "fingerprint": run.target.fingerprint,
        },
        "run": {
            "id": str(run.pk),
            "scale": run.scale,
            "status": run.status,
            "reason": run.reason,
            "threads": run.threads,
            "content_hash": run.content_hash,
            "executed_by": run.executed_by,
            "fingerprint": run.fingerprint,
            "created_at": _iso(run.created_at),
            "started_at": _iso(run.started_at),
            "finished_at": _iso(run.finished_at),
        },
        "summaries": [
            {
                "threads": s.threads,
                "n": s.n,
                "median": s.median,
                "min": s.min,
                "max": s.max,
                "mean": s.mean,
                "cv": s.cv,
                "stop_reason": s.stop_reason,
                "outliers": s.outliers,
                "peak_rss_bytes": s.peak_rss_bytes,
                "runtime": s.runtime,
                "extra": s.extra,
            }
            for s in run.summaries.all()
        ],
        "measurements": [
            {
                "threads": m.threads,
                "repetition": m.repetition,
                "warmup": m.warmup,
                "value": m.value,
                "seconds": m.seconds,
            }
            for m in run.measurements.all()
        ],
    }


def _number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _count(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def problems_in(data: object) -> list[str]:
    """Everything wrong with a run file's shape, in words (no database needed)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return [f"not a run file (expected format {FORMAT!r})"]
    if data.get("version") != FORMAT_VERSION:
        return [
            f"unsupported run file version {data.get('version')!r} (this reads {FORMAT_VERSION})"
        ]
    problems = []
    for key in ("profile", "target", "run"):
        if not isinstance(data.get(key), dict):
            problems.append(f"missing {key!r}")
    for key in ("summaries", "measurements"):
        if not isinstance(data.get(key), list) or len(data[key]) > MAX_ROWS:
            problems.append(f"{key!r} must be a list of at most {MAX_ROWS} rows")
    if problems:
        return problems
    profile, target, run = data["profile"], data["target"], data["run"]
    content = profile.get("content")
    if not isinstance(content, dict) or (issues := validate_content(content)):
        return [f"profile content: {'; '.join(issues) if content else 'missing'}"]
    actual = content_hash(content)
    if profile.get("content_hash") != actual or run.get("content_hash") != actual:
        problems.append("the profile content does not match its hash: the file was altered")
    if (profile.get("name"), profile.get("version")) != (content["name"], content["version"]):
        problems.append("profile name/version disagree with the content")
    if not isinstance(target.get("name"), str) or not target["name"].strip():
        problems.append("target name missing")
    if not isinstance(target.get("hostname"), str) or not target["hostname"].strip():
        problems.append("target host name missing")
    problems += _run_problems(run, content)
    problems += _row_problems(data["summaries"], data["measurements"])
    return problems


def _run_problems(run: dict, content: dict) -> list[str]:
    problems = []
    try:
        uuid.UUID(str(run.get("id")))
    except ValueError:
        problems.append("run id is not a UUID")
    if run.get("scale") not in content["scales"]:
        problems.append(f"run scale {run.get('scale')!r} is not one of the profile's scales")
    if run.get("status") not in (Run.Status.SUCCEEDED, Run.Status.FAILED, Run.Status.CANCELLED):
        problems.append("only ended runs (succeeded, failed, cancelled) can be imported")
    if not isinstance(run.get("fingerprint"), dict):
        problems.append("run fingerprint missing")
    for key in ("created_at", "started_at", "finished_at"):
        if run.get(key) is not None and parse_datetime(str(run[key])) is None:
            problems.append(f"run {key} is not a date-time")
    if run.get("created_at") is None:
        problems.append("run created_at missing")
    return problems


def _row_problems(summaries: list, measurements: list) -> list[str]:
    problems = []
    seen = set()
    for i, s in enumerate(summaries):
        if not isinstance(s, dict) or not (_count(s.get("threads")) and s["threads"] >= 1):
            problems.append(f"summary {i}: threads must be a positive whole number")
            continue
        if s["threads"] in seen:
            problems.append(f"summary {i}: {s['threads']} threads appear twice")
        seen.add(s["threads"])
        if not _count(s.get("n")) or not all(_number(s.get(k)) for k in SUMMARY_NUMBERS):
            problems.append(f"summary {i}: n, median, min, max, mean and cv must be finite numbers")
    for i, m in enumerate(measurements):
        ok = isinstance(m, dict) and m.get("threads") in seen and _count(m.get("repetition"))
        if not (ok and _number(m.get("value")) and _number(m.get("seconds"))):
            problems.append(
                f"measurement {i}: needs threads of a summary, repetition, value, seconds"
            )
            if len(problems) > 20:
                break
    return problems


@transaction.atomic
def import_run(data: dict) -> Run:
    if problems := problems_in(data):
        raise ImportRefused(problems)
    run_data = data["run"]
    if Run.objects.filter(pk=run_data["id"]).exists():
        raise ImportRefused([f"run {run_data['id']} is already here"])
    with quiet():  # its version, target and run are one change, recorded below
        run = _import(data, run_data)
    record("run.imported", run, label=f"run {run.pk}")
    return run


def _import(data: dict, run_data: dict) -> Run:
    version = _profile_version(data["profile"])
    target = _target(data["target"])
    run = Run.objects.create(
        id=run_data["id"],
        profile_version=version,
        content_hash=version.content_hash,
        scale=run_data["scale"],
        target=target,
        threads=[s["threads"] for s in data["summaries"]] or run_data.get("threads") or [],
        status=run_data["status"],
        reason=str(run_data.get("reason") or ""),
        progress=1.0 if run_data["status"] == Run.Status.SUCCEEDED else 0.0,
        executed_by=str(run_data.get("executed_by") or "")[:255],
        fingerprint=run_data["fingerprint"],
        created_at=parse_datetime(run_data["created_at"]),
        started_at=_when(run_data.get("started_at")),
        finished_at=_when(run_data.get("finished_at")),
        imported=True,
        source_host=target.hostname,
    )
    Summary.objects.bulk_create(
        Summary(
            run=run,
            threads=s["threads"],
            n=s["n"],
            median=s["median"],
            min=s["min"],
            max=s["max"],
            mean=s["mean"],
            cv=s["cv"],
            stop_reason=str(s.get("stop_reason") or "")[:32],
            outliers=s.get("outliers") or [],
            peak_rss_bytes=s.get("peak_rss_bytes"),
            runtime=s.get("runtime") or {},
            extra=s.get("extra") or {},
        )
        for s in data["summaries"]
    )
    Measurement.objects.bulk_create(
        Measurement(
            run=run,
            threads=m["threads"],
            repetition=m["repetition"],
            warmup=bool(m.get("warmup")),
            value=m["value"],
            seconds=m["seconds"],
        )
        for m in data["measurements"]
    )
    return run


def _when(value: str | None) -> datetime | None:
    return parse_datetime(value) if value else None


def _profile_version(profile: dict) -> ProfileVersion:
    content = profile["content"]
    known = ProfileVersion.objects.filter(
        profile__name=content["name"], content_hash=content_hash(content)
    ).first()
    if known:
        return known
    owner, _ = Profile.objects.get_or_create(
        name=content["name"],
        defaults={"workload_class": content["workload_class"], "title": content.get("title", "")},
    )
    if owner.versions.filter(version=content["version"]).exists():
        raise ImportRefused([
            f"profile {content['name']} {content['version']} here has other content than the "
            "run's: the two installations edited it differently"
        ])  # fmt: skip
    return ProfileVersion.objects.create(
        profile=owner, version=content["version"], content=content,
        source=ProfileVersion.Source.IMPORTED,
    )  # fmt: skip


def _target(target: dict) -> Target:
    """The file's node, or `name@host` when a different host here already has that name."""
    hostname = target["hostname"].strip()
    name = target["name"].strip().lower()
    existing = Target.objects.filter(name=name).first()
    if existing and existing.hostname != hostname:
        name = f"{name}@{hostname}".lower()
        existing = Target.objects.filter(name=name).first()
    if existing:
        return existing
    return Target.objects.create(
        name=name[:120], hostname=hostname, fingerprint=target.get("fingerprint") or {},
        online=False, imported=True,
    )  # fmt: skip
