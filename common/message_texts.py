"""The one registry of message codes and their English texts, marked for translation.

Each code maps to a `Text`: an English template with `%(name)s` placeholders, and for a
sentence that depends on a count, its plural and the parameter that holds the count.
`N_` and `NP_` only mark the texts: `manage.py makemessages` (planner's override) passes
them to xgettext as keywords, so the German catalogue gets every text here. Pages render
a message with `common.message_render.render` in the reader's language and formats; the
API gives `common.messages.plain()`, the English text in the stable formats it has always
used (ISO dates, plain decimals), beside the code and the parameters.

Pure: no Django, so the computation can build messages without any translation call.
Codes are `area.what`, stable once shipped: a test keeps every code's placeholders and
its German translation in step.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Text:
    singular: str
    plural: str | None = None
    count: str | None = None  # the parameter whose value picks singular or plural


def N_(singular: str) -> Text:
    return Text(singular)


def NP_(singular: str, plural: str, count: str) -> Text:
    return Text(singular, plural, count)


# One block per area, each kept by the code that says it; TEXTS joins them.
_COMMON = {
    "common.text": N_("%(text)s"),  # words from outside: a provider's, a user's, an OS error
}

# Plan schema and form validation (planner.compute.schema, planner.web.forms).
_SCHEMA: dict[str, Text] = {}

# The engine: options, notes, the headline, payback (planner.compute.engine, tco).
_ENGINE: dict[str, Text] = {}

# The capacity model and queueing (planner.compute.capacity, queueing).
_CAPACITY: dict[str, Text] = {}

# Benchmarks: evidence and its absence, fits, runs, profiles (benchmarks_app).
_BENCHMARKS: dict[str, Text] = {
    # benchmarks_app.selectors: why a tier gets no measurement (the English is the API's)
    "benchmarks.tier_not_in_catalog": N_("tier %(tier)s is not in the catalog"),
    "benchmarks.tier_without_vcpus": N_(
        "specs unknown: tier %(tier)s lists no vCPU count to measure at"
    ),
    "benchmarks.threads_below_one": N_("thread count must be at least 1"),
    "benchmarks.no_profile": N_("no benchmark profile of class %(class)s"),
    "benchmarks.only_smoke_runs": N_(
        "only smoke runs of %(series)s on %(where)s: smoke results never size a plan; "
        "run the standard or full scale"
    ),
    "benchmarks.only_older_versions": N_(
        "runs on %(where)s are of older profile versions; the current %(series)s has "
        "none (results compare only within the same X.Y)"
    ),
    "benchmarks.no_sizing_run": N_(
        "no succeeded standard or full run of %(class)s (%(series)s) on %(where)s"
    ),
    "benchmarks.not_measured_no_fit": N_(
        "%(threads)s threads were not measured on %(host)s (measured: %(measured)s) "
        "and no fit is possible: %(reason)s"
    ),
    "benchmarks.on_target": N_("target %(name)s"),
    "benchmarks.on_tier": N_("tier %(tier)s"),
}

# The catalog: imports, prices, exchange rates (catalog).
_CATALOG: dict[str, Text] = {}

# Plans and shares as stored (planner.services).
_SERVICES: dict[str, Text] = {}

TEXTS: dict[str, Text] = {
    **_COMMON, **_SCHEMA, **_ENGINE, **_CAPACITY, **_BENCHMARKS, **_CATALOG, **_SERVICES
}  # fmt: skip


_PLACEHOLDER = re.compile(r"%\((\w+)\)")


@functools.cache
def placeholders(code: str) -> frozenset[str]:
    text = TEXTS[code]
    found = set(_PLACEHOLDER.findall(text.singular))
    if text.plural:
        found |= set(_PLACEHOLDER.findall(text.plural))
    if text.count:
        found.add(text.count)
    return frozenset(found)
