"""When options have no figure: what evidence is missing, in plain words, and each way
forward with what it costs (a benchmark suite, a declared speed factor, a fixed count)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse
from django.utils import translation

from benchmarks_app import profile_text
from benchmarks_app import selectors as bench_selectors
from benchmarks_app.estimate import SuiteRange, suite_range
from catalog import selectors as catalog_selectors
from common.messages import Message, msg

from . import dashboard
from .fields import KIND_TITLES


@dataclass
class MissingTier:
    slug: str
    title: str  # as the options name it: "AWS c5.4xlarge · spot"
    said: Message  # what is missing, in plain words
    ways: list[Message]
    speed_factor_url: str
    targets: list[Any] = field(default_factory=list)  # linked to the tier
    reasons: list[Message] = field(default_factory=list)  # why no figure, no estimate either
    ways_heading: Message = field(default_factory=lambda: msg("engine.ways_forward"))

    @property
    def link_label(self) -> Message:
        return msg("engine.link_and_run", tier=self.title)

    @property
    def speed_factor_label(self) -> Message:
        return msg("engine.declare_speed_factor", tier=self.title)

    # Declaring a speed factor is the admin's (staff only): a reader who is not staff is
    # told the way they can take instead of being sent to "not authorized".
    @property
    def run_instead(self) -> Message:
        return msg("engine.speed_factor_run_instead")

    @property
    def ask_staff(self) -> Message:
        return msg("engine.speed_factor_ask_staff")

    @property
    def open_benchmarks(self) -> Message:
        return msg("engine.open_benchmarks")


@dataclass
class Missing:
    summary: Message
    tiers: list[MissingTier]
    suite: SuiteRange  # on a host of the catalog's typical size: the standard suite's range
    all_targets: list[Any]  # the staff action's choices
    target_label: Message = field(default_factory=lambda: msg("engine.target_choice"))
    read_only: bool = False  # a shared page: the ways said, no action offered


# The ways forward as said to the plan's owner, and to a visitor who can only read them.
WAYS = {
    False: ("engine.ways_forward", "engine.way_suite", "engine.way_suite_unlinked",
            "engine.way_speed_factor", "engine.way_fixed_count"),
    True: ("engine.ways_forward_shared", "engine.way_suite_shared",
           "engine.way_suite_unlinked_shared", "engine.way_speed_factor_shared",
           "engine.way_fixed_count_shared"),
}  # fmt: skip


def reader_names(tier_title: Callable[[str], str]) -> dashboard.Names:
    """What the reasons name by key, as the reader knows it, in the active language: tier
    titles (from `tier_title`), profile titles (each profile's newest version: one query),
    workload classes, and workload kinds by the editor's titles."""
    language = translation.get_language()
    newest = bench_selectors.newest_profile_contents()
    profiles = {
        name: profile_text.shown(content, "title", language).text or name
        for name, content in newest.items()
    }
    workloads = {kind: str(title) for kind, title in KIND_TITLES.items()}
    classes = {
        **workloads,
        **{k: str(v) for k, v in bench_selectors.workload_class_labels().items()},
    }
    return dashboard.Names(tier_title, profiles, classes, workloads)


def _classes(message: Any) -> Iterator[str]:
    """The workload classes a reason names, however deep it sits in other messages."""
    if isinstance(message, Message):
        if "class" in message.params:
            yield str(message.params["class"])
        for value in message.params.values():
            yield from _classes(value)


def _class_names(reasons: list[Message]) -> str:
    found = dict.fromkeys(c for r in reasons for c in _classes(r))
    labels = bench_selectors.workload_class_labels()
    return ", ".join(str(labels.get(c, c)) for c in found)


def missing(
    no_number: list[dashboard.NoNumber], title: Callable[[str], str], *, read_only: bool = False
) -> Missing | None:
    """What each tier without a figure lacks; None when every tier has one. `read_only`: for
    a visitor of a shared plan, the ways forward said as what the owner could do."""
    if not no_number:
        return None
    contents = list(bench_selectors.newest_profile_contents().values())
    tiers = catalog_selectors.tiers_by_slug(n.tier for n in no_number)
    linked: dict[str, list[Any]] = {}
    all_targets = bench_selectors.targets_with_tiers()
    for target in all_targets:
        if target.tier is not None:
            linked.setdefault(target.tier.slug, []).append(target)
    timed = bench_selectors.standard_run_seconds(t.pk for ts in linked.values() for t in ts)

    def suite(tier: Any, targets: list[Any]) -> SuiteRange:
        """On the linked server (its CPUs, its own earlier runs), else a server of the
        tier (its vCPUs, the profiles' budgets)."""
        if targets:
            return suite_range(contents, "standard", targets[0].usable_cpus,
                               timed.get(targets[0].pk))  # fmt: skip
        return suite_range(contents, "standard", getattr(tier, "vcpus", None))

    ways = WAYS[read_only]
    out = []
    for n in no_number:
        tier, targets = tiers.get(n.tier), linked.get(n.tier, [])
        out.append(_tier(n, title(n.tier), tier, targets, suite(tier, targets), ways))
    summary = msg("engine.missing_summary", count=len(out))
    return Missing(summary, out, suite(None, []), all_targets, read_only=read_only)


def suite_message(code: str, suite: SuiteRange, **params: Any) -> Message:
    """A way forward that runs the standard suite: its range in minutes, and the thread
    counts the server drops (above its CPUs)."""
    low, high = suite.minutes
    if suite.dropped and suite.cpus:
        dropped = msg("engine.suite_threads_dropped", cpus=suite.cpus,
                      threads=", ".join(str(k) for k in suite.dropped))  # fmt: skip
    else:
        dropped = msg("common.text", text="")
    return msg(code, low=low, high=high, dropped=dropped, **params)


def _tier(
    entry: dashboard.NoNumber,
    title: str,
    tier: Any,
    targets: list[Any],
    suite: SuiteRange,
    codes: tuple[str, ...],
) -> MissingTier:
    classes = _class_names(entry.reasons)
    if classes:
        said = msg("engine.missing_tier", tier=title, classes=classes)
    elif entry.reasons:
        said = msg("engine.missing_tier_other", tier=title, reason=entry.reasons[0])
    else:
        said = msg("common.text", text=title)
    heading, linked, unlinked, speed_factor, fixed_count = codes
    if targets:
        way = suite_message(linked, suite, target=targets[0].name)
    else:
        way = suite_message(unlinked, suite)
    ways = [way, msg(speed_factor), msg(fixed_count)]
    url = reverse("admin:planner_speedfactor_add")
    if tier is not None:
        url += f"?tier={tier.pk}"
    return MissingTier(
        entry.tier, title, said, ways, url, targets, list(entry.reasons), msg(heading)
    )
