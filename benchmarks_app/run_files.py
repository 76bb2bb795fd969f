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
from common.messages import Message, ProfileRef, msg, plain

from .models import (
    Measurement,
    Profile,
    ProfileVersion,
    Run,
    Summary,
    Target,
    as_message,
    content_hash,
)
from .profiles_loader import content_problems

FORMAT, FORMAT_VERSION = "planner-run", 1
SUMMARY_NUMBERS = ("median", "min", "max", "mean", "cv")
MAX_ROWS = 100_000


class ImportRefused(ValueError):
    """Nothing was imported: `messages` says why, `problems` the same in English."""

    def __init__(self, messages: list[Message | str]) -> None:
        self.messages = [as_message(m) for m in messages]
        self.problems = [plain(m) for m in self.messages]
        super().__init__("; ".join(self.problems))


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
            "reason_message": run.reason_message,  # read by installations that know it
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
    """Everything wrong with a run file's shape, in English (no database needed)."""
    return [plain(problem) for problem in run_file_problems(data)]


def run_file_problems(data: object) -> list[Message]:
    """Everything wrong with a run file's shape, as messages naming the place in the file."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return [msg("benchmarks.runfile_not_a_run_file", format=repr(FORMAT))]
    if data.get("version") != FORMAT_VERSION:
        version = repr(data.get("version"))
        return [msg("benchmarks.runfile_version", version=version, reads=FORMAT_VERSION)]
    problems = [
        msg("benchmarks.runfile_missing", key=repr(key))
        for key in ("profile", "target", "run")
        if not isinstance(data.get(key), dict)
    ]
    for key in ("summaries", "measurements"):
        if not isinstance(data.get(key), list) or len(data[key]) > MAX_ROWS:
            problems.append(msg("benchmarks.runfile_rows", key=repr(key), most=MAX_ROWS))
    if problems:
        return problems
    profile, target, run = data["profile"], data["target"], data["run"]
    content = profile.get("content")
    if not content:
        return [msg("benchmarks.runfile_no_content")]
    if issues := content_problems(content):
        return [msg("benchmarks.runfile_bad_content", problems=_semicolons(issues))]
    problems += _file_problems(profile, target, run, content)
    problems += _run_problems(run, content)
    problems += _row_problems(data["summaries"], data["measurements"])
    return problems


def _semicolons(messages: list[Message]) -> Message:
    """`a; b; c` as one message, each part still in the reader's language."""
    joined = messages[-1]
    for message in reversed(messages[:-1]):
        joined = msg("benchmarks.semicolon_list", first=message, rest=joined)
    return joined


def _file_problems(profile: dict, target: dict, run: dict, content: dict) -> list[Message]:
    problems = []
    actual = content_hash(content)
    if profile.get("content_hash") != actual or run.get("content_hash") != actual:
        problems.append(msg("benchmarks.runfile_hash_mismatch"))
    if (profile.get("name"), profile.get("version")) != (content["name"], content["version"]):
        problems.append(msg("benchmarks.runfile_profile_disagrees"))
    if not isinstance(target.get("name"), str) or not target["name"].strip():
        problems.append(msg("benchmarks.runfile_no_target_name"))
    if not isinstance(target.get("hostname"), str) or not target["hostname"].strip():
        problems.append(msg("benchmarks.runfile_no_host_name"))
    return problems


def _run_problems(run: dict, content: dict) -> list[Message]:
    problems = []
    try:
        uuid.UUID(str(run.get("id")))
    except ValueError:
        problems.append(msg("benchmarks.runfile_bad_id"))
    if run.get("scale") not in content["scales"]:
        problems.append(msg("benchmarks.runfile_bad_scale", scale=repr(run.get("scale"))))
    if run.get("status") not in (Run.Status.SUCCEEDED, Run.Status.FAILED, Run.Status.CANCELLED):
        problems.append(msg("benchmarks.runfile_not_ended"))
    if not isinstance(run.get("fingerprint"), dict):
        problems.append(msg("benchmarks.runfile_no_fingerprint"))
    for key in ("created_at", "started_at", "finished_at"):
        if run.get(key) is not None and parse_datetime(str(run[key])) is None:
            problems.append(msg("benchmarks.runfile_bad_time", key=key))
    if run.get("created_at") is None:
        problems.append(msg("benchmarks.runfile_no_created_at"))
    return problems


def _row_problems(summaries: list, measurements: list) -> list[Message]:
    problems = []
    seen = set()
    for i, s in enumerate(summaries):
        if not isinstance(s, dict) or not (_count(s.get("threads")) and s["threads"] >= 1):
            problems.append(msg("benchmarks.runfile_summary_threads", index=str(i)))
            continue
        if s["threads"] in seen:
            problems.append(
                msg("benchmarks.runfile_summary_twice", index=str(i), threads=s["threads"])
            )
        seen.add(s["threads"])
        if not _count(s.get("n")) or not all(_number(s.get(k)) for k in SUMMARY_NUMBERS):
            problems.append(msg("benchmarks.runfile_summary_numbers", index=str(i)))
    for i, m in enumerate(measurements):
        ok = isinstance(m, dict) and m.get("threads") in seen and _count(m.get("repetition"))
        if not (ok and _number(m.get("value")) and _number(m.get("seconds"))):
            problems.append(msg("benchmarks.runfile_measurement", index=str(i)))
            if len(problems) > 20:
                break
    return problems


@transaction.atomic
def import_run(data: dict, *, by=None) -> Run:
    """Import a run file. `by`: the user importing it on the page (None: a command or
    bootstrap). A user who is not staff imports a run that sizes only their own plans until
    staff confirm its host's tier link (`tier_links.confirm`)."""
    if problems := run_file_problems(data):
        raise ImportRefused(problems)
    run_data = data["run"]
    if Run.objects.filter(pk=run_data["id"]).exists():
        raise ImportRefused([msg("benchmarks.runfile_already_here", run=str(run_data["id"]))])
    with quiet():  # its version, target and run are one change, recorded below
        run = _import(data, run_data, by)
    record("run.imported", run, label=f"run {run.pk}")
    return run


def _import(data: dict, run_data: dict, by=None) -> Run:
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
        # Shown only when this installation knows its code (Run.reason_shown), else the text.
        reason_message=_object_or_none(run_data.get("reason_message")),
        progress=1.0 if run_data["status"] == Run.Status.SUCCEEDED else 0.0,
        executed_by=str(run_data.get("executed_by") or "")[:255],
        fingerprint=run_data["fingerprint"],
        created_at=parse_datetime(run_data["created_at"]),
        started_at=_when(run_data.get("started_at")),
        finished_at=_when(run_data.get("finished_at")),
        imported=True,
        created_by=by,
        confirmed=by is None or bool(by.is_staff),
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


def _object_or_none(value: object) -> dict | None:
    return value if isinstance(value, dict) else None


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
        profile = ProfileRef(content["name"], content["version"])
        raise ImportRefused([msg("benchmarks.runfile_profile_differs", profile=profile)])
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
