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
    # Scaling fits and their predictions (benchmarks_app.scaling).
    "benchmarks.fit_too_few_points": N_(
        "not enough points: %(model)s needs ≥ %(need)s distinct thread counts, got %(got)s"
    ),
    "benchmarks.fit_interpolated": N_(
        "interpolated within the measured %(lo)s–%(hi)s threads"  # noqa: RUF001
    ),
    "benchmarks.fit_extrapolated_beyond": N_(
        "extrapolated %(factor)s× beyond the largest measured %(hi)s threads"  # noqa: RUF001
    ),
    "benchmarks.fit_extrapolated_below": N_(
        "extrapolated %(factor)s× below the smallest measured %(lo)s threads"  # noqa: RUF001
    ),
    "benchmarks.fit_unequal_points": N_("threads and throughput must be equal-length sequences"),
    "benchmarks.fit_bad_points": N_("threads must be ≥ 1 and throughput positive and finite"),
    "benchmarks.fit_other_host": N_(
        "a fit on %(fit_host)s never predicts another machine (%(host)s)"
    ),
    "benchmarks.fit_threads_below_one": N_("threads must be ≥ 1"),
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
