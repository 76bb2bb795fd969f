"""The editor's tier search: an index of the offered tiers, built once per data generation
in this process, answering a typed query with at most `LIMIT` tiers, best first.

A 20,000-option datalist is not usable (nor quick to send), so the tier inputs ask
`/plans/tiers?q=…` as the reader types. Every word of the query must occur in a tier's
text (slug, provider, name, region, pricing model, kind, vCPUs, cores, RAM, monthly price,
CPU model with its vendor and generation, GPU model): "EPYC", "4545P" or "Genoa" find the
tiers with that processor. The tiers
whose slug starts with the query come first, then those where every word starts a word of
theirs, then the rest, each group in catalog (slug) order. A scan of plain strings with
`in` is a few milliseconds at 20,000 tiers: no inverted index is needed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

import pandas as pd
from django.conf import settings
from django.core.cache import cache
from django.utils import translation

from catalog import cpus, pricing_models
from catalog import selectors as catalog_selectors
from catalog.pricing import catalog_frame
from changes.memo import kept
from changes.selectors import Generation, current_generation
from common.django.clock import today
from planner.web import data as web_data

LIMIT = 30
MAX_QUERY = 100
# At most this many offered tiers, the editor's datalist holds them all (the browser
# filters it as the reader types); above it, the list is filled by the search.
FULL_LIST_MAX = 500

SHARED_SECONDS = 7 * 24 * 3600
_WORD = re.compile(r"[^0-9a-z]+")
_SEP = "\x1f"  # ASCII unit separator: in no tier's slug, label or text (else not shared)


class Entry(NamedTuple):
    """A named tuple, not a dataclass: a process reading the index from the shared cache
    makes 20,000 of them, in a fifth of a frozen dataclass's time."""

    slug: str
    label: str
    text: str  # " word word …": lower case, each word after a space
    pricing_model: str = ""  # for the pricing filter (`with_pricing`)


@dataclass(frozen=True)
class Found:
    results: list[tuple[str, str]]  # (slug, label), best first
    total: int  # every tier that matched, beyond the ones returned


def entry(slug: str, label: str, fields: Iterable[object], pricing_model: str = "") -> Entry:
    """A tier's searchable text: each field's words as written and split at punctuation."""
    words: dict[str, None] = {}
    for value in (slug, label, *fields):
        for token in str(value).lower().split():
            words[token] = None
            for piece in _WORD.split(token):
                if piece:
                    words[piece] = None
    return Entry(slug, label, " " + " ".join(words), pricing_model)


def with_pricing(entries: list[Entry], wanted: str) -> list[Entry]:
    """The entries of one pricing model or group (`catalog.pricing_models`): "savings_plan"
    keeps every savings plan, "reserved_3y_all_upfront" that model alone."""
    return [e for e in entries if pricing_models.matches(e.pricing_model, wanted)]


def search(entries: list[Entry], query: str, limit: int = LIMIT) -> Found:
    """The tiers matching every word of `query`, slug prefixes first, then word prefixes."""
    query = query.strip().lower()[:MAX_QUERY]
    terms = query.split()
    if not terms:
        return Found([(e.slug, e.label) for e in entries[:limit]], len(entries))
    starts = [" " + t for t in terms]
    groups: tuple[list[Entry], list[Entry], list[Entry]] = ([], [], [])
    for e in entries:
        text = e.text
        if not all(t in text for t in terms):
            continue
        if e.slug.startswith(query):
            groups[0].append(e)
        elif all(s in text for s in starts):
            groups[1].append(e)
        else:
            groups[2].append(e)
    ranked = [*groups[0], *groups[1], *groups[2]]
    return Found([(e.slug, e.label) for e in ranked[:limit]], len(ranked))


def index(generation: Generation | None = None) -> list[Entry]:
    """The offered tiers' entries for this language, data generation and date: from this
    process, else from the shared cache (where the control worker put it after a price
    sync, `warm`), else built (seconds at 20,000 tiers) and shared."""
    generation = generation or current_generation()
    language = translation.get_language() or "en"
    # Kept: bench/memo_pays.py: 0.46 s to build at 2,018 tiers, 6.8 s at 20,000; 0.01 ms kept.
    # Behind it the shared cache, where the control worker put it after a price sync.
    day = today().isoformat()
    if not generation.number:  # generation 0's key is not unique to the data
        return _build(language)
    shared = (generation.key, language, day)
    return kept(
        generation, "web.tier_search", (language, day), lambda: _shared(shared, language), most=4
    )


def _shared(key: tuple[str, str, str], language: str) -> list[Entry]:
    """Shared as one string per field (the pricing model too: the picker filters by it),
    the entries' values joined by a unit separator: a process that did not build the index
    unpickles four strings and splits them, several times quicker than 80,000 small
    strings (bench/tier_search.py, the first search after a sync)."""
    name = "tier-index-3:" + ":".join(key)
    shared = cache.get(name)
    if shared is not None:
        count, columns = shared
        if not count:
            return []
        return list(map(Entry._make, zip(*(c.split(_SEP) for c in columns), strict=True)))
    entries = _build(language)
    if not any(_SEP in value for e in entries for value in e):
        columns = tuple(_SEP.join(column) for column in zip(*entries, strict=True))
        cache.set(name, (len(entries), columns), SHARED_SECONDS)
    return entries


def warm(generation: Generation) -> None:
    """Build today's index in every language into the shared cache (a catalog warmer)."""
    for language, _ in settings.LANGUAGES:
        with translation.override(language):
            index(generation)


def _build(language: str) -> list[Entry]:
    frame = catalog_frame(today())
    models = catalog_selectors.pricing_model_labels()
    entries = []
    for row in frame.itertuples():
        label = web_data.tier_label(row, language, models)
        fields = (row.provider, row.name, row.region, row.pricing_model, row.kind,
                  *_specs(row))  # fmt: skip
        entries.append(entry(row.slug, label, fields, row.pricing_model))
    return entries


def _specs(row) -> list[str]:
    """The specs a reader may search by beyond the label: the CPU model with its vendor and
    generation ("AMD", "Genoa"), the GPU model, the physical cores."""
    model = row.cpu_model if isinstance(row.cpu_model, str) else ""
    found = [model, cpus.vendor(model), cpus.generation(model)]
    if isinstance(row.gpu_model, str):
        found.append(row.gpu_model)
    if not pd.isna(row.cores) and row.cores:
        found.append(f"{int(row.cores)} cores")
    return [text for text in found if text]
