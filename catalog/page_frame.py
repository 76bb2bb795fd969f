"""The catalog page's frame (the catalog frame with its derived columns and the filter's
choices), kept per data generation twice: in this process (a few, newest first) and in
the shared cache (Django's cache: Redis in production), so that a frame one process built
serves every process.

Building it at 20,000 tiers takes seconds (the price query, the currency conversion, the
CPU columns); reading it back from the cache takes tens of milliseconds. After a price
feed writes, the control worker builds the frames readers ask for first (`warm`: today,
in the catalog's own currencies and in each of `CATALOG_WARM_CURRENCIES`), so no manager
pays the cold cost (issue 28). Other warmers (the plans' tier picker) register with
`register_warmer` and run after these: the catalog never imports the plans.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
from django.conf import settings
from django.core.cache import cache

from catalog import cpus
from catalog.pricing import catalog_frame, currencies_with_rates
from changes.memo import kept
from changes.selectors import Generation, current_generation
from common.django import clock
from common.units import HOURS_PER_MONTH
from estimates import scores

logger = logging.getLogger(__name__)
_FRAMES_KEPT = 8  # a few dates and currencies; each frame of 20,000 tiers is ~20 MB
SHARED_SECONDS = 7 * 24 * 3600  # a generation's frames outlive no week
_WARMERS: list[Callable[[Generation], None]] = []


@dataclass(frozen=True)
class PageFrame:
    frame: pd.DataFrame
    currencies: list[str]
    providers: list[str]
    regions: list[str]
    choices: dict[str, list[str]]


def page_frame(as_of: dt.date, currency: str | None, retired: bool) -> PageFrame:
    """The frame for this data generation, date, currency and retired switch: kept in this
    process (bench/memo_pays.py: 0.31 s to build at 2,018 tiers, 4.7 s at 20,000; 0.02 ms
    kept), else read from the shared cache (tens of ms), else built and shared."""
    generation = current_generation()
    key = (generation.key, as_of, currency, retired)
    return kept(
        generation,
        "catalog.page_frame",
        key[1:],
        lambda: _shared(generation, key, as_of, currency, retired),
        most=_FRAMES_KEPT,
    )


def _shared(
    generation: Generation, key: tuple, as_of: dt.date, currency: str | None, retired: bool
) -> PageFrame:
    # Generation 0 (no change recorded) is not shared: its key is not unique to the data.
    if not generation.number:
        return _build(as_of, currency, retired)
    shared = _shared_key(key)
    packed = cache.get(shared)
    if isinstance(packed, _Packed):
        return packed.unpack()
    entry = _build(as_of, currency, retired)
    cache.set(shared, _Packed.pack(entry), SHARED_SECONDS)
    return entry


@dataclass(frozen=True)
class _Packed:
    """A page frame as the shared cache holds it, quick to read in a process that has not
    built it (the first request after a sync): each column of Python objects (the exact
    `Decimal` prices, dates, labels) as its distinct values and one integer code per row,
    each text column dictionary-encoded (Arrow). Unpickling 20,000 `Decimal`s costs
    milliseconds a column, their few distinct values and an array of codes almost nothing,
    and the pickle is half the size: at 20,000 tiers the read went from about 60 ms to 25
    (bench/catalog_page.py, the first request after a sync). `unpack` gives back the
    same values, dtypes, column order and attrs (tests/test_catalog_cache_warmup.py)."""

    entry: PageFrame  # its frame without the packed columns
    columns: list[str]
    objects: dict[str, tuple[list, np.ndarray]]
    texts: dict[str, tuple[pa.ChunkedArray, pd.StringDtype]]

    @classmethod
    def pack(cls, entry: PageFrame) -> _Packed:
        frame = entry.frame
        objects = {
            column: _factorize(frame[column].tolist())
            for column in frame.columns
            if frame[column].dtype == object
        }
        texts = {
            column: (frame[column].array._pa_array.dictionary_encode(), frame[column].dtype)
            for column in frame.columns
            if isinstance(frame[column].array, pd.arrays.ArrowStringArray)
        }
        rest = frame.drop(columns=[*objects, *texts])
        rest.attrs = dict(frame.attrs)
        return cls(
            entry=PageFrame(rest, entry.currencies, entry.providers, entry.regions, entry.choices),
            columns=list(frame.columns),
            objects=objects,
            texts=texts,
        )

    def unpack(self) -> PageFrame:
        rest = self.entry.frame
        index = rest.index
        restored = {
            column: pd.Series(_objects(values)[codes], index=index, dtype=object)
            for column, (values, codes) in self.objects.items()
        }
        for column, (encoded, dtype) in self.texts.items():
            decoded = pa.chunked_array(
                [chunk.dictionary_decode() for chunk in encoded.chunks],
                type=encoded.type.value_type,  # an empty catalog has no chunk to say it
            )
            array = pd.arrays.ArrowStringArray(decoded)
            restored[column] = pd.Series(array, index=index, dtype=dtype)
        columns = {c: restored[c] if c in restored else rest[c] for c in self.columns}
        frame = pd.DataFrame(columns, index=index, copy=False)
        frame.attrs = dict(rest.attrs)
        entry = self.entry
        return PageFrame(frame, entry.currencies, entry.providers, entry.regions, entry.choices)


def _factorize(values: list) -> tuple[list, np.ndarray]:
    """The distinct values (kept apart by type and repr: Decimal("1.0") is not "1.00", nor
    None NaN) and each row's index into them."""
    seen: dict[tuple[type, str], int] = {}
    distinct: list = []
    codes = np.empty(len(values), dtype=np.int32)
    for row, value in enumerate(values):
        key = (type(value), repr(value))
        code = seen.get(key)
        if code is None:
            code = seen[key] = len(distinct)
            distinct.append(value)
        codes[row] = code
    return distinct, codes


def _objects(values: list) -> np.ndarray:
    array = np.empty(len(values), dtype=object)
    array[:] = values
    return array


def _shared_key(key: tuple) -> str:
    generation, as_of, currency, retired = key
    return f"catalog-page-frame:{generation}:{as_of.isoformat()}:{currency or '-'}:{int(retired)}"


def _cpu_labels(frame: pd.DataFrame) -> dict[str, pd.Series]:
    """The CPU each row shows: the offer's, else what public runs saw on that server type
    (the shipped score table, `estimates.scores`), and what the runs saw where it differs
    from the offer's."""
    table = scores.load()
    labels = [
        scores.tier_cpu_label(p, n, c, table)
        for p, n, c in zip(frame["provider"], frame["name"], frame["cpu_model"], strict=True)
    ]
    index = frame.index
    return {
        "cpu_shown": pd.Series([x.shown for x in labels], index=index, dtype=object),
        "cpu_runs_saw": pd.Series([x.runs_saw for x in labels], index=index, dtype=object),
        "cpu_from_runs": pd.Series([x.from_runs for x in labels], index=index, dtype=bool),
    }


def _build(as_of: dt.date, currency: str | None, retired: bool) -> PageFrame:
    frame = catalog_frame(as_of, currency or None, include_retired=retired)
    models, attrs = frame["cpu_model"].fillna(""), dict(frame.attrs)
    frame = frame.assign(
        cpu_vendor=models.map(cpus.vendor).astype(object),
        cpu_generation=models.map(cpus.generation).astype(object),
        avx512=frame["cpu_flags"].fillna("").map(cpus.has_avx512).astype(bool),
        **_cpu_labels(frame),
        gpu_label=frame["gpu_model"].fillna("").astype(object),
        hourly=frame["monthly"] / float(HOURS_PER_MONTH),
    )
    frame.attrs = attrs

    def values(column: str) -> list[str]:
        return sorted({v for v in frame[column] if v})

    return PageFrame(
        frame=frame,
        currencies=currencies_with_rates(as_of),
        providers=values("provider"),
        regions=values("region"),
        choices={
            "cpu_vendor": values("cpu_vendor"),
            "cpu_generation": values("cpu_generation"),
            "gpu_model": values("gpu_label"),
        },
    )


def register_warmer(warmer: Callable[[Generation], None]) -> None:
    """Run `warmer(generation)` after the catalog's frames are warm (an app's ready())."""
    if warmer not in _WARMERS:
        _WARMERS.append(warmer)


def warm_currencies() -> tuple[str, ...]:
    return tuple(getattr(settings, "CATALOG_WARM_CURRENCIES", ("EUR", "USD")))


def warm() -> dict[str, float]:
    """Build today's frames for the current data generation into the shared cache: the
    page as it opens (no currency, retired hidden) and in each warm currency, then the
    registered warmers. Returns the seconds each took (for the log and the bench)."""
    generation = current_generation()
    took: dict[str, float] = {}
    today = clock.today()
    for currency in (None, *warm_currencies()):
        started = time.perf_counter()
        page_frame(today, currency, False)
        took[f"catalog:{currency or 'own'}"] = round(time.perf_counter() - started, 3)
    for warmer in _WARMERS:
        started = time.perf_counter()
        try:
            warmer(generation)
        except Exception:  # a warmer that fails leaves its cache cold, nothing worse
            logger.exception("cache warmer %s failed", warmer)
        took[getattr(warmer, "__qualname__", str(warmer))] = round(time.perf_counter() - started, 3)
    logger.info("catalog caches warmed for generation %s: %s", generation.key, took)
    return took
