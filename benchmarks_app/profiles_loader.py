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

from .models import (
    VERSION_RE,
    Profile,
    ProfileVersion,
    Scale,
    WorkloadClass,
    content_hash,
    parse_version,
)

SHIPPED_DIR = Path(__file__).resolve().parent / "profiles"
RUNNER_RE = r"^[a-z][a-z0-9_]*$"


def validate_content(content: object) -> list[str]:
    """Problems with a profile's content, in words; empty when it is usable."""
    if not isinstance(content, dict):
        return ["a profile is a JSON object"]
    problems = []
    for key in ("name", "workload_class", "runner", "version", "metric", "scales"):
        if key not in content:
            problems.append(f"missing {key!r}")
    if problems:
        return problems
    if not isinstance(content["name"], str) or not re.match(
        r"^[a-z0-9][a-z0-9-]*$", content["name"]
    ):
        problems.append("name: lowercase letters, digits and '-'")
    if content["workload_class"] not in WorkloadClass.values:
        problems.append(f"workload_class must be one of {', '.join(WorkloadClass.values)}")
    if not isinstance(content["runner"], str) or not re.match(RUNNER_RE, content["runner"]):
        problems.append("runner: a module name under benchmarks_app.runners")
    if not isinstance(content["version"], str) or not VERSION_RE.match(content["version"]):
        problems.append("version must be X.Y.Z")
    metric = content["metric"]
    if not isinstance(metric, dict) or not {"name", "unit"} <= metric.keys():
        problems.append("metric needs name and unit")
    problems += _scale_problems(content["scales"])
    for key in ("params", "repetition"):
        if not isinstance(content.get(key, {}), dict):
            problems.append(f"{key} must be an object")
    return problems


def _scale_problems(scales: object) -> list[str]:
    if not isinstance(scales, dict):
        return ["scales must be an object"]
    problems = []
    for name in Scale.values:
        scale = scales.get(name)
        if not isinstance(scale, dict):
            problems.append(f"scales.{name} missing")
            continue
        threads = scale.get("threads")
        if not (
            isinstance(threads, list)
            and threads
            and all(isinstance(k, int) and not isinstance(k, bool) and k > 0 for k in threads)
        ):
            problems.append(f"scales.{name}.threads: a list of positive whole numbers")
        budget = scale.get("time_budget_s")
        if not isinstance(budget, int | float) or isinstance(budget, bool) or budget <= 0:
            problems.append(f"scales.{name}.time_budget_s: a positive number of seconds")
    return problems


@dataclass
class LoadReport:
    added: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    invalid: list[str] = field(default_factory=list)

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
            report.invalid.append(f"{path.name}: {exc}")
            continue
        if problems := validate_content(content):
            report.invalid.append(f"{path.name}: {', '.join(problems)}")
            continue
        label = f"{content['name']} {content['version']}"
        outcome = store_version(content, source=ProfileVersion.Source.SHIPPED)
        {"added": report.added, "unchanged": report.unchanged, "conflict": report.conflicts}[
            outcome
        ].append(label)
    return report


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
    pass


@transaction.atomic
def edit_profile(base: ProfileVersion, content: dict, *, part: str, user) -> ProfileVersion:
    """A staff edit: `content` becomes a new version above the profile's newest.

    `part` is "patch" (same X.Y: results stay comparable) or "minor"/"major" (a
    change that makes earlier results incomparable).
    """
    newest = base.profile.current_version() or base
    content = {**content, "name": base.profile.name, "version": bump(newest.version, part)}
    if problems := validate_content(content):
        raise EditRefused("; ".join(problems))
    if content_hash({**content, "version": newest.version}) == newest.content_hash:
        raise EditRefused("nothing changed")
    store_version(content, source=ProfileVersion.Source.STAFF, user=user)
    return base.profile.versions.get(version=content["version"])
