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
_BENCHMARKS: dict[str, Text] = {}

# The catalog: imports, prices, exchange rates (catalog).
_CATALOG: dict[str, Text] = {}

# Price feeds: downloads, refusals, refused rows, summaries (catalog.feeds).
_FEEDS: dict[str, Text] = {
    "feeds.http_status": N_("The server answered HTTP %(status)s for %(url)s."),
    "feeds.network": N_("The download of %(url)s failed after %(attempts)s attempts: %(error)s"),
    "feeds.content_type": N_(
        "%(url)s sent content of type %(found)s; expected one of: %(expected)s."
    ),
    "feeds.truncated": N_(
        "The download of %(url)s stopped after %(received)s of %(expected)s bytes."
    ),
    "feeds.too_large": N_("%(url)s is larger than the limit of %(limit)s bytes."),
    "feeds.unreadable_file": N_("%(path)s cannot be read: %(error)s"),
    "feeds.malformed_json": N_("Not valid JSON near byte %(offset)s: %(error)s"),
    "feeds.malformed_csv": N_("Line %(line)s is not valid CSV: %(error)s"),
    "feeds.not_utf8": N_("Line %(line)s is not UTF-8 text."),
    "feeds.missing_keys": N_("The feed's format changed: required keys are missing: %(keys)s."),
    "feeds.json_missing": N_("%(where)s lacks the required key %(key)s."),
    "feeds.json_value": N_("%(where)s, %(key)s: %(value)s is not a value this feed may hold."),
    "feeds.line_fields": NP_(
        "Line %(line)s has %(count)s field; the header has %(header)s.",
        "Line %(line)s has %(count)s fields; the header has %(header)s.",
        "count",
    ),
    "feeds.line_value": N_(
        "Line %(line)s, column %(column)s: %(value)s is not a value this feed may hold."
    ),
    "feeds.bad_preamble": N_(
        "Lines 1 to 5 are not the price list's metadata lines (FormatVersion, Disclaimer, "
        "Publication Date, Version, OfferCode)."
    ),
    "feeds.wrong_offer": N_("This is the offer file of %(found)s, not of %(expected)s."),
    "feeds.wrong_region": N_("This offer file is for %(found)s, not for %(expected)s."),
    "feeds.unknown_region": N_("%(region)s is not a region of the %(source)s feed."),
    "feeds.no_records": N_("The feed offers no prices or rates that this catalog keeps."),
    "feeds.row_count_fell": N_(
        "The feed offers %(count)s records, %(share)s fewer than the %(last)s of the last "
        "import on %(date)s; more than %(limit)s fewer is refused as an incomplete feed."
    ),
    "feeds.more_problems": NP_(
        "… and %(count)s more problem.", "… and %(count)s more problems.", "count"
    ),
    "feeds.already_imported": N_(
        "This file (SHA-256 %(sha256)s) is the one imported on %(date)s: nothing to do."
    ),
    "feeds.price_conflict": N_(
        "%(tier)s already has the price %(recorded)s from %(date)s; the feed's %(offered)s "
        "for the same day is not recorded (prices are never overwritten)."
    ),
    "feeds.rate_conflict": N_(
        "1 %(base)s = %(recorded)s %(quote)s is already recorded for %(date)s; the feed's "
        "%(offered)s is not recorded."
    ),
    "feeds.duplicate_offer": N_(
        "%(tier)s is offered twice in the feed (%(first)s and %(second)s) at different "
        "prices; neither is recorded."
    ),
    "feeds.aws_no_spot": N_(
        "AWS spot prices are not in the Price List bulk feed: spot tiers stay hand-entered."
    ),
    "feeds.skipped_currencies": N_(
        "Rates for %(codes)s were not imported: the catalog offers no such currency."
    ),
    "feeds.summary": N_(
        "new tiers: %(new_tiers)s, changed prices: %(changed_prices)s, unchanged: "
        "%(unchanged)s, retired: %(retired)s, refused rows: %(refused_rows)s"
    ),
}

# Plans and shares as stored (planner.services).
_SERVICES: dict[str, Text] = {}

TEXTS: dict[str, Text] = {
    **_COMMON, **_SCHEMA, **_ENGINE, **_CAPACITY, **_BENCHMARKS, **_CATALOG, **_FEEDS,
    **_SERVICES,
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
