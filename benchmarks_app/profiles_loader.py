"""Shipped profile files → ProfileVersion rows, and staff edits as new versions.

Rules: a file whose version is new adds a version; the same version with the same
content is a no-op; the same version with other content is reported and left
alone, so reloading never overwrites a staff edit or history a run points at.
"""

import re
from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction

from common import safejson
from common.messages import Message, msg, plain

from . import profile_text
from .models import (
    VERSION_RE,
    Profile,
    ProfileVersion,
    Scale,
    WorkloadClass,
    as_message,
    content_hash,
    parse_version,
)

SHIPPED_DIR = Path(__file__).resolve().parent / "profiles"
RUNNER_RE = r"^[a-z][a-z0-9_]*$"


def validate_content(content: object) -> list[str]:
    """Problems with a profile's content, in English; empty when it is usable."""
    return [plain(problem) for problem in content_problems(content)]


def content_problems(content: object) -> list[Message]:
    """Problems with a profile's content, as messages; empty when it is usable."""
    if not isinstance(content, dict):
        return [msg("benchmarks.profile_not_object")]
    problems = [
        msg("benchmarks.profile_missing_key", key=repr(key))
        for key in ("name", "workload_class", "runner", "version", "metric", "scales")
        if key not in content
    ]
    if problems:
        return problems
    if not isinstance(content["name"], str) or not re.match(
        r"^[a-z0-9][a-z0-9-]*$", content["name"]
    ):
        problems.append(msg("benchmarks.profile_bad_name"))
    if content["workload_class"] not in WorkloadClass.values:
        choices = list(WorkloadClass.values)
        problems.append(msg("benchmarks.profile_bad_class", choices=choices))
    if not isinstance(content["runner"], str) or not re.match(RUNNER_RE, content["runner"]):
        problems.append(msg("benchmarks.profile_bad_runner"))
    if not isinstance(content["version"], str) or not VERSION_RE.match(content["version"]):
        problems.append(msg("benchmarks.profile_bad_version"))
    problems += _metric_problems(content["metric"])
    problems += _scale_problems(content["scales"])
    for key in ("params", "repetition"):
        if not isinstance(content.get(key, {}), dict):
            problems.append(msg("benchmarks.profile_not_an_object", key=key))
    return problems + profile_text.problems(content.get("i18n"))


def _metric_problems(metric: object) -> list[Message]:
    if not isinstance(metric, dict) or not {"name", "unit"} <= metric.keys():
        return [msg("benchmarks.profile_bad_metric")]
    if not isinstance(metric.get("label", ""), str):
        return [msg("benchmarks.profile_bad_metric_label")]
    return []


def _scale_problems(scales: object) -> list[Message]:
    if not isinstance(scales, dict):
        return [msg("benchmarks.profile_scales_not_object")]
    problems = []
    for name in Scale.values:
        scale = scales.get(name)
        if not isinstance(scale, dict):
            problems.append(msg("benchmarks.profile_scale_missing", scale=name))
            continue
        threads = scale.get("threads")
        if not (
            isinstance(threads, list)
            and threads
            and all(isinstance(k, int) and not isinstance(k, bool) and k > 0 for k in threads)
        ):
            problems.append(msg("benchmarks.profile_scale_threads", scale=name))
        budget = scale.get("time_budget_s")
        if not isinstance(budget, int | float) or isinstance(budget, bool) or budget <= 0:
            problems.append(msg("benchmarks.profile_scale_budget", scale=name))
    return problems


@dataclass
class LoadReport:
    """What loading did, by "name X.Y.Z"; `invalid` in English (the commands), and the same
    as messages in `invalid_messages` (a page in the reader's language)."""

    added: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    invalid: list[str] = field(default_factory=list)
    invalid_messages: list[Message] = field(default_factory=list)

    def refuse(self, problem: Message) -> None:
        self.invalid.append(plain(problem))
        self.invalid_messages.append(problem)

    def __str__(self) -> str:
        parts = [f"{len(self.added)} added", f"{len(self.unchanged)} unchanged"]
        if self.conflicts:
            parts.append(f"{len(self.conflicts)} kept as edited ({'; '.join(self.conflicts)})")
        if self.invalid:
            parts.append(f"{len(self.invalid)} invalid ({'; '.join(self.invalid)})")
        return ", ".join(parts)


def load_shipped_profiles(directory: Path = SHIPPED_DIR) -> LoadReport:
    report = LoadReport()
    for path in sorted(directory.glob("*.json")):
        try:
            content = safejson.loads(path.read_bytes(), decimals=False)  # stored as JSON
        except (OSError, ValueError) as exc:
            report.refuse(_unreadable(path, exc))
            continue
        if problems := content_problems(content):
            report.refuse(msg("benchmarks.profile_file_invalid", file=path.name, problems=problems))
            continue
        label = f"{content['name']} {content['version']}"
        outcome = store_version(content, source=ProfileVersion.Source.SHIPPED)
        {"added": report.added, "unchanged": report.unchanged, "conflict": report.conflicts}[
            outcome
        ].append(label)
    return report


def _unreadable(path: Path, exc: Exception) -> Message:
    """The file and why: for JSON refused by the one safe loader (malformed, a duplicate
    key, NUL, too deep...) its own message, which names the line and column."""
    if isinstance(exc, safejson.JsonRefused):
        return msg("benchmarks.profile_file_unreadable", file=path.name, error=exc.message)
    return msg("benchmarks.profile_file_unreadable", file=path.name, error=str(exc))


@transaction.atomic
def store_version(content: dict, *, source: str, user=None) -> str:
    """Add `content` as a version of its profile: "added", "unchanged" or "conflict"."""
    profile, _ = Profile.objects.get_or_create(
        name=content["name"],
        defaults={"workload_class": content["workload_class"], "title": content.get("title", "")},
    )
    existing = profile.versions.filter(version=content["version"]).first()
    if existing is not None:
        return "unchanged" if existing.content_hash == content_hash(content) else "conflict"
    ProfileVersion.objects.create(
        profile=profile, version=content["version"], content=content, source=source,
        created_by=user,
    )  # fmt: skip
    newest = profile.current_version()
    if newest is not None and newest.version == content["version"]:
        # The profile row mirrors its newest version's class and title.
        profile.workload_class = content["workload_class"]
        profile.title = content.get("title", "")
        profile.save(update_fields=["workload_class", "title"])
    return "added"


def bump(version: str, part: str) -> str:
    major, minor, patch = parse_version(version)
    if part == "minor":
        return f"{major}.{minor + 1}.0"
    if part == "major":
        return f"{major + 1}.0.0"
    return f"{major}.{minor}.{patch + 1}"


class EditRefused(ValueError):
    """No new version: `messages` says why (str(): the same in English)."""

    def __init__(self, messages: list[Message | str]) -> None:
        self.messages = [as_message(m) for m in messages]
        super().__init__("; ".join(plain(m) for m in self.messages))


@transaction.atomic
def edit_profile(base: ProfileVersion, content: dict, *, part: str, user) -> ProfileVersion:
    """A staff edit: `content` becomes a new version above the profile's newest.

    `part` is "patch" (same X.Y: results stay comparable) or "minor"/"major" (a
    change that makes earlier results incomparable).
    """
    newest = base.profile.current_version() or base
    content = {**content, "name": base.profile.name, "version": bump(newest.version, part)}
    content = profile_text.without_stale_translations(base.content, content)
    if problems := content_problems(content):
        raise EditRefused(problems)
    if content_hash({**content, "version": newest.version}) == newest.content_hash:
        raise EditRefused([msg("benchmarks.profile_edit_unchanged")])
    store_version(content, source=ProfileVersion.Source.STAFF, user=user)
    return base.profile.versions.get(version=content["version"])
