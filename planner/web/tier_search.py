"""The editor's tier search: an index of the offered tiers, built once per data generation
and shared between processes, answering a typed query with at most `LIMIT` tiers, best
first.

A 20,000-option datalist is not usable (nor quick to send), so the tier inputs ask
`/plans/tiers?q=…` as the reader types. Every word of the query must occur in a tier's
text (slug, provider, name, region, pricing model, kind, vCPUs, cores, RAM, monthly price,
CPU model with its vendor and generation, GPU model): "EPYC", "4545P" or "Genoa" find the
tiers with that processor. The tiers
whose slug starts with the query come first, then those where every word starts a word of
theirs, then the rest, each group in catalog (slug) order.

The index is columns of UTF-8 bytes (slugs, labels, texts) and the pricing models as
codes, searched as bytes with NumPy: a substring of valid UTF-8 is found in the bytes
exactly where it is in the text, and only the labels returned are decoded. Issue 28: the
first search after a sync, in a process that did not build the index, reads it from the
shared cache (where the control worker put it, `warm`) as compressed blobs and searches
them as they are: decoding 6 MB of non-ASCII text and making 20,000 named tuples was most
of that search's cost (bench/tier_search.py prints it beside the warm searches).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np
import pandas as pd
import pyarrow as pa
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
# Zstandard at level 9 (Arrow's codec): the 3.9 MB of texts at 20,000 tiers become 0.22 MB,
# which the file cache's zlib stores nearly as is (0.9 ms to inflate) and which
# decompresses in 5 ms; as LZ4 (0.76 MB) zlib found more to squeeze and took 35 ms to
# inflate it, more than the search (medians of 7, measured 2026-12-04 on this 2-core machine
# under load; bench/tier_search.py shows the effect on the first search).
# Level 9 takes 0.7 s to compress, on the control worker; 19 took 55 s.
_CODEC, _LEVEL = "zstd", 9
_LABEL_CHUNK = 512


class Column(NamedTuple):
    """One text column of the index: its values' UTF-8 bytes one after another, each but
    the last followed by a newline, and where each value ends. Values are cut by their
    ends, never split at the newline (a label may hold one); a text holds none (its words
    are joined by spaces), so no word found runs from one tier's text into the next."""

    data: bytes
    ends: np.ndarray  # one a value (int32 where it fits: half the bytes to share)

    @classmethod
    def of(cls, values: list[str]) -> Column:
        encoded = [v.encode() for v in values]
        lengths = np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded))
        ends = np.cumsum(lengths + 1) - 1  # each value's newline after it
        data = b"\n".join(encoded)
        return cls(data, ends.astype(np.int32) if len(data) < 2**31 else ends)

    def starts(self) -> np.ndarray:
        return np.concatenate(([0], self.ends[:-1] + 1))[: len(self.ends)].astype(np.int64)

    def value(self, row: int) -> str:
        return self.data[_start(self.ends, row) : int(self.ends[row])].decode()


@dataclass(frozen=True, eq=False)
class Index:
    """The offered tiers in catalog (slug) order, as columns of bytes: searched with NumPy
    over the bytes (no object a tier), and only the rows returned decoded."""

    slugs: Column
    labels: Column | LabelChunks
    texts: Column  # " word word …": lower case, each word after a space
    models: list[str]  # the distinct pricing models (for `with_pricing`) …
    model_codes: np.ndarray  # … and each row's index into them
    only: np.ndarray | None = None  # the rows a pricing filter kept

    @classmethod
    def of(cls, rows: list[tuple[str, str, str, str]]) -> Index:
        """From (slug, label, text, pricing model) rows in catalog order."""
        columns = [list(c) for c in zip(*rows, strict=True)] or [[], [], [], []]
        slugs, labels, texts, pricing = columns
        models = sorted(set(pricing))
        code = {m: i for i, m in enumerate(models)}
        codes = np.fromiter((code[m] for m in pricing), dtype=np.int32, count=len(pricing))
        return cls(Column.of(slugs), Column.of(labels), Column.of(texts), models, codes)

    def __len__(self) -> int:
        return len(self.model_codes) if self.only is None else int(self.only.sum())

    def rows(self) -> list[tuple[str, str, str, str]]:
        """(slug, label, text, pricing model) of each row kept, for tests and checks."""
        kept = range(len(self.model_codes)) if self.only is None else np.flatnonzero(self.only)
        return [(self.slugs.value(i), self.labels.value(i), self.texts.value(i),
                 self.models[self.model_codes[i]]) for i in kept]  # fmt: skip

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Index) and self.rows() == other.rows()

    __hash__ = None  # type: ignore[assignment]


@dataclass(frozen=True)
class Found:
    results: list[tuple[str, str]]  # (slug, label), best first
    total: int  # every tier that matched, beyond the ones returned


def tier_text(slug: str, label: str, fields: Iterable[object]) -> str:
    """A tier's searchable text: each field's words as written and split at punctuation."""
    words: dict[str, None] = {}
    for value in (slug, label, *fields):
        for token in str(value).lower().split():
            words[token] = None
            for piece in _WORD.split(token):
                if piece:
                    words[piece] = None
    return " " + " ".join(words)


def with_pricing(index: Index, wanted: str) -> Index:
    """The tiers of one pricing model or group (`catalog.pricing_models`): "savings_plan"
    keeps every savings plan, "reserved_3y_all_upfront" that model alone."""
    codes = [i for i, model in enumerate(index.models) if pricing_models.matches(model, wanted)]
    only = np.isin(index.model_codes, codes)
    return replace(index, only=only if index.only is None else only & index.only)


def search(index: Index, query: str, limit: int = LIMIT) -> Found:
    """The tiers matching every word of `query`, slug prefixes first, then word prefixes."""
    query = query.strip().lower()[:MAX_QUERY]
    count = len(index.model_codes)
    kept = np.ones(count, dtype=bool) if index.only is None else index.only
    terms = [t.encode() for t in query.split()]
    if not terms:
        return Found(_results(index, np.flatnonzero(kept)[:limit]), int(kept.sum()))
    matched, starting = kept.copy(), kept.copy()
    text = np.frombuffer(index.texts.data, dtype=np.uint8)
    for term in terms:
        found = _occurrences(text, term)
        rows = np.searchsorted(index.texts.ends, found, side="right")
        inside = np.zeros(count, dtype=bool)
        inside[rows] = True
        at_start = np.zeros(count, dtype=bool)
        at_start[rows[text[found - 1] == 0x20]] = True  # each text begins with a space
        matched &= inside
        starting &= at_start
    first = _starts_with(index.slugs, query.encode(), matched)
    ranked = np.concatenate((np.flatnonzero(first),
                             np.flatnonzero(matched & starting & ~first),
                             np.flatnonzero(matched & ~starting & ~first)))  # fmt: skip
    return Found(_results(index, ranked[:limit]), int(matched.sum()))


def _occurrences(data: np.ndarray, term: bytes) -> np.ndarray:
    """Where `term` starts in `data`: the places of its first byte, narrowed byte by byte."""
    width = len(term)
    if width > len(data):
        return np.empty(0, dtype=np.int64)
    found = np.flatnonzero(data[: len(data) - width + 1] == term[0])
    for offset in range(1, width):
        found = found[data[found + offset] == term[offset]]
    return found


def _starts_with(column: Column, prefix: bytes, among: np.ndarray) -> np.ndarray:
    """Which of the rows `among` has a value starting with `prefix`."""
    data = np.frombuffer(column.data, dtype=np.uint8)
    starts = column.starts()
    result = among & ((column.ends - starts) >= len(prefix))
    for offset, byte in enumerate(prefix):
        where = np.flatnonzero(result)
        result[where] = data[starts[where] + offset] == byte
    return result


def _results(index: Index, rows: Iterable[int]) -> list[tuple[str, str]]:
    return [(index.slugs.value(int(i)), index.labels.value(int(i))) for i in rows]


def index(generation: Generation | None = None) -> Index:
    """The offered tiers' index for this language, data generation and date: from this
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


def _shared(key: tuple[str, str, str], language: str) -> Index:
    """Shared as the columns' bytes (compressed, `_CODEC`), their ends and the pricing codes:
    what a process reads back is what it searches, nothing to split or decode. The labels,
    a third of the bytes and only shown for the rows a search returns, in chunks of
    `_LABEL_CHUNK` rows, each decompressed when a row of it is first shown."""
    name = "tier-index-7:" + ":".join(key)
    shared = cache.get(name)
    if shared is not None:
        (slugs, texts), (label_ends, label_chunks), models, codes = shared
        codec = pa.Codec(_CODEC)
        slugs, texts = (
            Column(codec.decompress(blob, decompressed_size=size, asbytes=True), ends)
            for size, blob, ends in (slugs, texts)
        )
        return Index(slugs, LabelChunks(label_ends, label_chunks), texts, models, codes)
    built = _build(language)
    codec = pa.Codec(_CODEC, _LEVEL)
    columns = tuple(
        (len(c.data), codec.compress(c.data, asbytes=True), c.ends)
        for c in (built.slugs, built.texts)
    )
    labels = built.labels
    chunks = []
    for first in range(0, len(labels.ends), _LABEL_CHUNK):
        last = min(first + _LABEL_CHUNK, len(labels.ends)) - 1
        data = labels.data[_start(labels.ends, first) : int(labels.ends[last])]
        chunks.append((len(data), codec.compress(data, asbytes=True)))
    shared = (columns, (labels.ends, chunks), built.models, built.model_codes)
    cache.set(name, shared, SHARED_SECONDS)
    return built


class LabelChunks:
    """The labels as read back from the shared cache: compressed in chunks of rows, each
    decompressed the first time one of its labels is shown (a race decompresses it twice,
    no harm)."""

    def __init__(self, ends: np.ndarray, chunks: list[tuple[int, bytes]]) -> None:
        self.ends = ends
        self._chunks = chunks
        self._open: dict[int, bytes] = {}

    def value(self, row: int) -> str:
        chunk = row // _LABEL_CHUNK
        data = self._open.get(chunk)
        if data is None:
            size, blob = self._chunks[chunk]
            data = pa.Codec(_CODEC).decompress(blob, decompressed_size=size, asbytes=True)
            self._open[chunk] = data
        base = _start(self.ends, chunk * _LABEL_CHUNK)
        return data[_start(self.ends, row) - base : int(self.ends[row]) - base].decode()


def _start(ends: np.ndarray, row: int) -> int:
    return int(ends[row - 1]) + 1 if row else 0


def warm(generation: Generation) -> None:
    """Build today's index in every language into the shared cache (a catalog warmer)."""
    for language, _ in settings.LANGUAGES:
        with translation.override(language):
            index(generation)


def _build(language: str) -> Index:
    frame = catalog_frame(today())
    models = catalog_selectors.pricing_model_labels()
    rows = []
    for row in frame.itertuples():
        label = web_data.tier_label(row, language, models)
        fields = (row.provider, row.name, row.region, row.pricing_model, row.kind,
                  *_specs(row))  # fmt: skip
        rows.append((row.slug, label, tier_text(row.slug, label, fields), row.pricing_model))
    return Index.of(rows)


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
