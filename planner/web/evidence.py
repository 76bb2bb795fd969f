"""When options have no figure: what evidence is missing, in plain words, and each way
forward with what it costs (a benchmark suite, a declared speed factor, a fixed count)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse

from benchmarks_app.models import Target, WorkloadClass
from benchmarks_app.services import standard_suite_seconds
from catalog.models import Tier
from common.messages import Message, msg

from . import dashboard


@dataclass
class MissingTier:
    slug: str
    title: str  # as the options name it: "AWS c5.4xlarge · spot"
    said: Message  # what is missing, in plain words
    ways: list[Message]
    speed_factor_url: str
    targets: list[Target] = field(default_factory=list)  # linked to the tier
    ways_heading: Message = field(default_factory=lambda: msg("engine.ways_forward"))

    @property
    def link_label(self) -> Message:
        return msg("engine.link_and_run", tier=self.title)

    @property
    def speed_factor_label(self) -> Message:
        return msg("engine.declare_speed_factor", tier=self.title)


@dataclass
class Missing:
    summary: Message
    tiers: list[MissingTier]
    suite_minutes: int
    all_targets: list[Target]  # the staff action's choices
    target_label: Message = field(default_factory=lambda: msg("engine.target_choice"))


def _classes(message: Any) -> Iterator[str]:
    """The workload classes a reason names, however deep it sits in other messages."""
    if isinstance(message, Message):
        if "class" in message.params:
            yield str(message.params["class"])
        for value in message.params.values():
            yield from _classes(value)


def _class_names(reasons: list[Message]) -> str:
    found = dict.fromkeys(c for r in reasons for c in _classes(r))
    labels = {value: label for value, label in WorkloadClass.choices}
    return ", ".join(str(labels.get(c, c)) for c in found)


def missing(no_number: list[dashboard.NoNumber], title: Callable[[str], str]) -> Missing | None:
    """What each tier without a figure lacks; None when every tier has one."""
    if not no_number:
        return None
    minutes = math.ceil(standard_suite_seconds() / 60)
    tiers = Tier.objects.in_bulk([n.tier for n in no_number], field_name="slug")
    linked: dict[str, list[Target]] = {}
    all_targets = list(Target.objects.select_related("tier").order_by("name"))
    for target in all_targets:
        if target.tier is not None:
            linked.setdefault(target.tier.slug, []).append(target)
    out = [_tier(n, title(n.tier), tiers.get(n.tier), linked.get(n.tier, []), minutes)
           for n in no_number]  # fmt: skip
    summary = msg("engine.missing_summary", count=len(out))
    return Missing(summary, out, minutes, all_targets)


def _tier(
    entry: dashboard.NoNumber, title: str, tier: Tier | None, targets: list[Target], minutes: int
) -> MissingTier:
    classes = _class_names(entry.reasons)
    if classes:
        said = msg("engine.missing_tier", tier=title, classes=classes)
    elif entry.reasons:
        said = msg("engine.missing_tier_other", tier=title, reason=entry.reasons[0])
    else:
        said = msg("common.text", text=title)
    if targets:
        suite = msg("engine.way_suite", target=targets[0].name, minutes=minutes)
    else:
        suite = msg("engine.way_suite_unlinked", minutes=minutes)
    ways = [suite, msg("engine.way_speed_factor"), msg("engine.way_fixed_count")]
    url = reverse("admin:planner_speedfactor_add")
    if tier is not None:
        url += f"?tier={tier.pk}"
    return MissingTier(entry.tier, title, said, ways, url, targets)
