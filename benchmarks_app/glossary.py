# ruff: noqa: RUF001, RUF003  (× and · in the explanations, as a reader sees the formulas)
"""The benchmark jargon a manager meets, each term with one sentence that explains it.

Metric names (`cell_trees_per_s`), their units, and the symbols of the scaling rules
(X(k), M/M/c) appear on the benchmarks page, the run page and the plan's provenance
pop-ups; the pages show the sentence beside the term (`<abbr title>`, a short list of
the terms used), in the reader's language.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

METRICS: dict[str, Promise] = {
    "cell_trees_per_s": _(
        "cell-trees per second: how many cells (row × feature) a training passes through per "
        "second, counted once per tree; a training of R rows, F features and T trees takes "
        "R·F·T ÷ this figure."
    ),
    "fits_per_s": _(
        "model fits per second: models trained per second at the profile's own rows and "
        "features (a grid search of G candidates with K folds is G·K fits)."
    ),
    "input_gb_per_s": _(
        "input GB per second: gigabytes of Parquet input a feature-engineering run reads and "
        "transforms per second."
    ),
    "trials_per_hour": _(
        "trials per hour: hyperparameter-search trials finished per hour with P trial "
        "processes at once."
    ),
    "requests_per_s": _("requests per second: single predictions served per second."),
    "samples_per_s": _(
        "samples per second: training samples a small neural network processes per second "
        "(one epoch passes every sample once)."
    ),
    "gflops_f64": _(
        "GFLOP per second: billions of double-precision operations per second in a dense "
        "matrix multiply; tests the CPU's vector units (AVX2, AVX-512)."
    ),
    "triad_gb_per_s": _(
        "triad GB per second: memory bandwidth, measured by the STREAM triad over arrays "
        "larger than the caches."
    ),
    "read_gb_per_s": _("read GB per second: sequential reading from the disk."),
}
UNITS = {
    "cell-trees/s": "cell_trees_per_s",
    "model fits/s": "fits_per_s",
    "trials/h": "trials_per_hour",
    "samples/s": "samples_per_s",
    "GFLOP/s": "gflops_f64",
}
SYMBOLS: dict[str, Promise] = {
    "X(k)": _(
        "X(k): the profile's metric measured with k threads on that host; a job's time is "
        "its amount of work ÷ X(k)."
    ),
    "X(P)": _("X(P): trials per hour with P trial processes running at once."),
    "M/M/c": _(
        "M/M/c: the standard queue model (random arrivals, random service times, c workers); "
        "it gives the fewest workers c that keep the 99th-percentile response time within "
        "the bound."
    ),
    "M/G/c": _(
        "M/G/c: the same queue with the measured service times instead of assumed ones, "
        "simulated to check the M/M/c figure."
    ),
}


def metric(name: str) -> str:
    """What a metric name means ('' for one without an entry)."""
    return str(METRICS.get(name, ""))


def unit(text: str) -> str:
    """What a metric's unit means, by the metric it measures ('' for a plain unit)."""
    return metric(UNITS.get(text, ""))


def symbols_in(texts: Iterable[str]) -> list[tuple[str, str]]:
    """(symbol, what it means) for each symbol the texts use, in the glossary's order."""
    joined = " ".join(texts)
    return [(symbol, str(said)) for symbol, said in SYMBOLS.items() if symbol in joined]
