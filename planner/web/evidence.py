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
    way: Message | None = None  # the cheapest way to a figure for this tier (`_way`)

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
    cheapest = _Cheapest(contents)
    out = []
    for n in no_number:
        tier, targets = tiers.get(n.tier), linked.get(n.tier, [])
        entry = _tier(n, title(n.tier), tier, targets, suite(tier, targets), ways)
        entry.way = _way(n.reasons, tier, targets, entry.ways[0], cheapest)
        out.append(entry)
    summary = msg("engine.missing_summary", count=len(out))
    return Missing(summary, out, suite(None, []), all_targets, read_only=read_only)


# What a reason's codes say is missing (`_gap`), most decisive first: no run helps where
# the working set does not fit the box or the tier's figure cannot carry the workload (a
# deadline, a p99 bound), the catalog lacks the tier's vCPUs, no public score
# covers its CPU (a run file from a server with it), no host has a run to scale from (one
# run anywhere estimates every covered tier).
GAPS = (
    ("memory", {"capacity.must_fit_one_box"}),
    (
        "not_carried",
        {
            "capacity.deadline_missed",
            "capacity.own_p99_over_bound",
            "capacity.no_workers_meet_bound",
        },
    ),
    ("specs", {"capacity.specs_unknown", "benchmarks.tier_without_vcpus"}),
    ("cpu", {"estimates.not_covered", "estimates.no_score_in_common"}),
    ("tier_cpu", {"estimates.no_cpu"}),
    ("first_run", {"estimates.no_reference_run", "estimates.reference_cpu_unknown"}),
)


def _codes(message: Any) -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(message, Message):
        yield message.code, message.params
        for value in message.params.values():
            yield from _codes(value)


def _gap(reasons: list[Message]) -> tuple[str, dict[str, Any]]:
    """What the reasons say the tier lacks (a `GAPS` name, and the parameters of the
    message that said it); ("", {}) where none of them says."""
    found = {code: params for r in reasons for code, params in _codes(r)}
    for name, codes in GAPS:
        for code in codes & found.keys():
            return name, found[code]
    return "", {}


class _Cheapest:
    """One run per missing class: of the profiles a reason names (its `series`), the one
    with the smallest standard budget, named in the reader's language, and its time."""

    def __init__(self, contents: list[dict]) -> None:
        self.contents = {c["name"]: c for c in contents if "standard" in c.get("scales", {})}

    def pick(self, reasons: list[Message]) -> list[dict]:
        chosen: dict[str, dict] = {}
        for _code, params in (p for r in reasons for p in _codes(r)):
            series = params.get("series")
            names = [getattr(ref, "name", ref) for ref in series or ()]
            found = [self.contents[n] for n in names if n in self.contents]
            if found:
                best = min(found, key=lambda c: c["scales"]["standard"].get("time_budget_s", 0))
                chosen.setdefault(best["name"], best)
        return list(chosen.values())

    def way(self, code: str, chosen: list[dict], cpus: int | None, **params: Any) -> Message:
        language = translation.get_language()
        # " + ": a profile's title may hold a comma of its own
        names = " + ".join(
            profile_text.shown(c, "title", language).text or c["name"] for c in chosen
        )
        return suite_message(code, suite_range(chosen, "standard", cpus), profiles=names, **params)


def _way(
    reasons: list[Message], tier: Any, targets: list[Any], suite_way: Message, cheapest: _Cheapest
) -> Message:
    """The cheapest way to a figure for one tier, said once beside its reasons."""
    gap, params = _gap(reasons)
    if gap == "memory":
        return msg("engine.gap_memory")
    if gap == "not_carried":
        return msg("engine.gap_not_carried")
    if gap == "specs":
        return msg("engine.gap_specs")
    chosen = cheapest.pick(reasons)
    if targets or not chosen:  # a server of the tier is linked: measure the tier itself
        return suite_way
    cpus = getattr(tier, "vcpus", None)
    if gap == "cpu" and params.get("cpu"):
        return cheapest.way("engine.gap_cpu", chosen, cpus, cpu=params["cpu"])
    if gap in ("cpu", "tier_cpu"):
        return cheapest.way("engine.gap_tier_cpu", chosen, cpus)
    if gap == "first_run":
        return cheapest.way("engine.gap_first_run", chosen, None)
    return suite_way


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
    else:  # its reasons follow, said once
        said = msg("common.text", text=f"{title}:" if entry.reasons else title)
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
