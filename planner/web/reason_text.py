# ruff: noqa: RUF001  (en dash and times sign in the engine wording, as a manager reads it)
"""Why a tier has no figure, and how far a prediction reaches, in the reader's language.

The engine, the capacity model and the benchmark selectors explain themselves in English
(the JSON API keeps that wording); the pages say each known form in the reader's language,
as `planner.web.dashboard.note_text` does for the engine's notes. A form not known here is
shown as it is.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils import formats, translation
from django.utils.translation import gettext as _

from common import formatting


def _english() -> bool:
    return (translation.get_language() or "en").split("-")[0] == "en"


def _n(text: str) -> str:
    """A number the engine wrote in English ("1.50", "1024"), in the reader's language."""
    try:
        value = Decimal(text)
    except InvalidOperation:
        return text
    if not value.is_finite() or "e" in text.lower():
        return text  # "1e+03" from a :g format reads the same in both languages
    places = len(text.partition(".")[2])
    return formatting.number(value, places, translation.get_language() or "en")


def _day(text: str) -> str:
    try:
        return formats.date_format(dt.date.fromisoformat(text), "SHORT_DATE_FORMAT")
    except ValueError:
        return text


def _where(text: str) -> str:
    """The selectors' "target <name>" or "tier <slug>"."""
    kind, _space, name = text.partition(" ")
    if kind == "target" and name:
        return _("target %(name)s") % {"name": name}
    if kind == "tier" and name:
        return _("tier %(tier)s") % {"tier": name}
    return text


def _needs(text: str) -> str:
    known = {
        "the profile's rows and features (R₀, F₀)": _("the profile's rows and features (R₀, F₀)"),
        "the profile's single-thread trial length t₀": _(
            "the profile's single-thread trial length t₀"
        ),
    }
    return known.get(text, text)


_WHERE = r"((?:target|tier) .+)"

_REASONS: list[tuple[re.Pattern[str], Any]] = [
    # planner/engine.py
    (
        re.compile(r"no price in the catalog on or before the plan's date"),
        lambda m: _("no price in the catalog on or before the plan's date"),
    ),
    (
        re.compile(
            r"GPU-hours need the tier's GPU count, which the catalog lacks; give instance hours"
        ),
        lambda m: _(
            "GPU-hours need the tier's GPU count, which the catalog lacks; give instance hours"
        ),
    ),
    # catalog/pricing.py (a tier left out for want of an exchange rate)
    (
        re.compile(r"no (\S+)→(\S+) rate on or before (\S+)"),
        lambda m: (
            _("no %(source)s→%(target)s rate on or before %(date)s")
            % {"source": m[1], "target": m[2], "date": _day(m[3])}
        ),
    ),
    # planner/capacity.py
    (
        re.compile(r"specs unknown: the tier lists no vCPU count or RAM"),
        lambda m: _("specs unknown: the tier lists no vCPU count or RAM"),
    ),
    (
        re.compile(r"(.+); the speed factor's reference (\S+) has none either"),
        lambda m: (
            _("%(reason)s; the speed factor's reference %(tier)s has none either")
            % {"reason": _say(m[1]), "tier": m[2]}
        ),
    ),
    (
        re.compile(r"no (\S+) measurement on a target linked to this tier"),
        lambda m: _("no %(class)s measurement on a target linked to this tier") % {"class": m[1]},
    ),
    (
        re.compile(r"the inference measurement has no service times"),
        lambda m: _("the inference measurement has no service times"),
    ),
    (
        re.compile(r"the (\S+) measurement lacks (.+)"),
        lambda m: (
            _("the %(class)s measurement lacks %(what)s") % {"class": m[1], "what": _needs(m[2])}
        ),
    ),
    (
        re.compile(
            r"the measured service times' own p99 \((\S+) ms\) exceeds the (\S+) ms bound: "
            r"no number of workers meets it"
        ),
        lambda m: (
            _(
                "the measured service times' own p99 (%(p99)s ms) exceeds the %(bound)s ms "
                "bound: no number of workers meets it"
            )
            % {"p99": _n(m[1]), "bound": _n(m[2])}
        ),
    ),
    (
        re.compile(r"no number of workers meets the (\S+) ms p99 bound"),
        lambda m: _("no number of workers meets the %(bound)s ms p99 bound") % {"bound": _n(m[1])},
    ),
    (
        re.compile(
            r"one job takes (\S+) h on one server at (\S+) threads, over its (\S+) h deadline, "
            r"and a (\S+) job does not split across servers"
        ),
        lambda m: (
            _(
                "one job takes %(hours)s h on one server at %(threads)s threads, over its "
                "%(deadline)s h deadline, and a %(kind)s job does not split across servers"
            )
            % {"hours": _n(m[1]), "threads": _n(m[2]), "deadline": _n(m[3]), "kind": m[4]}
        ),
    ),
    (
        re.compile(r"working set (\S+) GiB must fit one box; the tier has (\S+) GiB"),
        lambda m: (
            _("working set %(need)s GiB must fit one box; the tier has %(ram)s GiB")
            % {"need": _n(m[1]), "ram": _n(m[2])}
        ),
    ),
    # planner/services.py (looking measurements up)
    (
        re.compile(r"tier (\S+) is not in the catalog"),
        lambda m: _("tier %(tier)s is not in the catalog") % {"tier": m[1]},
    ),
    (
        re.compile(r"specs unknown: tier (\S+) lists no vCPU count to measure at"),
        lambda m: (
            _("specs unknown: tier %(tier)s lists no vCPU count to measure at") % {"tier": m[1]}
        ),
    ),
    # benchmarks_app/selectors.py and the scaling fits
    (
        re.compile(r"thread count must be at least 1"),
        lambda m: _("thread count must be at least 1"),
    ),
    (
        re.compile(
            r"(\d+) threads were not measured on (.+) \(measured: ([^)]*)\) "
            r"and no fit is possible: (.+)"
        ),
        lambda m: (
            _(
                "%(threads)s threads were not measured on %(host)s (measured: %(measured)s) "
                "and no fit is possible: %(reason)s"
            )
            % {"threads": _n(m[1]), "host": m[2], "measured": m[3], "reason": _say(m[4])}
        ),
    ),
    (
        re.compile(r"not enough points: (\S+) needs ≥ (\d+) distinct thread counts, got (\d+)"),
        lambda m: (
            _("not enough points: %(model)s needs ≥ %(need)s distinct thread counts, got %(got)s")
            % {"model": m[1], "need": m[2], "got": m[3]}
        ),
    ),
    (
        re.compile(r"no benchmark profile of class ('.*'|\".*\")"),
        lambda m: _("no benchmark profile of class %(class)s") % {"class": m[1]},
    ),
    (
        re.compile(
            rf"only smoke runs of (.+?) on {_WHERE}: smoke results never size a plan; "
            r"run the standard or full scale"
        ),
        lambda m: (
            _(
                "only smoke runs of %(series)s on %(where)s: smoke results never size a plan; "
                "run the standard or full scale"
            )
            % {"series": m[1], "where": _where(m[2])}
        ),
    ),
    (
        re.compile(
            rf"runs on {_WHERE} are of older profile versions; the current (.+) has none "
            r"\(results compare only within the same X\.Y\)"
        ),
        lambda m: (
            _(
                "runs on %(where)s are of older profile versions; the current %(series)s has "
                "none (results compare only within the same X.Y)"
            )
            % {"where": _where(m[1]), "series": m[2]}
        ),
    ),
    (
        re.compile(rf"no succeeded standard or full run of (\S+) \((.*)\) on {_WHERE}"),
        lambda m: (
            _("no succeeded standard or full run of %(class)s (%(series)s) on %(where)s")
            % {"class": m[1], "series": m[2], "where": _where(m[3])}
        ),
    ),
    # benchmarks_app/scaling.py: how far a fit's prediction reaches
    (
        re.compile(r"interpolated within the measured (\d+)–(\d+) threads"),
        lambda m: (
            _("interpolated within the measured %(low)s–%(high)s threads")
            % {"low": _n(m[1]), "high": _n(m[2])}
        ),
    ),
    (
        re.compile(r"extrapolated (\S+)× beyond the largest measured (\d+) threads"),
        lambda m: (
            _("extrapolated %(times)s× beyond the largest measured %(high)s threads")
            % {"times": _n(m[1]), "high": _n(m[2])}
        ),
    ),
    (
        re.compile(r"extrapolated (\S+)× below the smallest measured (\d+) threads"),
        lambda m: (
            _("extrapolated %(times)s× below the smallest measured %(low)s threads")
            % {"times": _n(m[1]), "low": _n(m[2])}
        ),
    ),
]


def _known(text: str) -> str | None:
    for pattern, say in _REASONS:
        if match := pattern.fullmatch(text):
            return say(match)
    return None


def _say(text: str) -> str:
    """A known form translated; "<workload>: <known form>" with its problem translated."""
    if (said := _known(text)) is not None:
        return said
    # A workload's name may itself hold ": ": try each split, the shortest name first.
    at = text.find(": ")
    while at != -1:
        if (said := _known(text[at + 2 :])) is not None:
            return f"{text[:at]}: {said}"
        at = text.find(": ", at + 1)
    return text


def reason_text(text: str) -> str:
    """Why a tier (or a workload on it) has no figure, in the reader's language.

    The engine's English is the source: in English, and for a message of a form not
    known here, the text comes back as it is.
    """
    if not text or _english():
        return text
    return _say(str(text))


def extrapolation_text(text: str | None) -> str:
    """A fit's label (interpolated or extrapolated, and how far) in the reader's language."""
    return reason_text(text or "")
