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
_ENGINE: dict[str, Text] = {
    # an option's label, built from its parts
    "engine.option_fixed": N_("%(count)s × %(tier)s"),  # noqa: RUF001
    "engine.option_instance_hours": N_("%(hours)s instance-hours a month of %(tier)s"),
    "engine.option_gpu_hours": N_("%(hours)s GPU-hours a month of %(tier)s"),
    "engine.option_dl_gpu_hours": N_("the deep-learning GPU-hours a month of %(tier)s"),
    "engine.option_plus": N_("%(first)s + %(rest)s"),
    # why a candidate cannot be priced
    "engine.no_price": N_("no price in the catalog on or before the plan's date"),
    "engine.gpu_hours_need_gpu_count": N_(
        "GPU-hours need the tier's GPU count, which the catalog lacks; give instance hours"
    ),
    # notes on an option
    "engine.note_deep_learning_stays": N_(
        "deep-learning work (%(hours)s GPU-hours a month) stays on GPUs and is not priced in "
        "this option; add a usage-based GPU part to price it"
    ),
    "engine.note_price_unconfirmed": N_(
        "%(tier)s: price unconfirmed (quoted, not from a dated source)"
    ),
    "engine.note_price_stale": N_("%(tier)s: price stale (effective %(date)s)"),
    "engine.note_ops_default": N_(
        "%(tier)s: operations at the published default of %(amount)s a server a year (%(source)s)"
    ),
    "engine.note_spot": N_(
        "%(tier)s: spot, %(share)s of work allowed for re-runs after interruptions"
    ),
    "engine.note_fixed_below_need": N_(
        "%(tier)s: the model needs up to %(need)s servers; the fixed count is %(count)s"
    ),
    "engine.note_min_term": N_(
        "%(tier)s: minimum term beyond the horizon, %(owed)s more months owed "
        "(charged in month %(month)s)"
    ),
    # payback, said as words (the API's payback_label keeps its English string)
    "engine.payback_immediately": N_("immediately"),
    "engine.payback_first_period": N_("within the first billing period"),
    "engine.payback_month": N_("month %(month)s"),
    "engine.payback_in_month": N_("in month %(month)s"),
    "engine.payback_never": N_("never"),
    # the headline, one sentence each
    "engine.headline_none": N_("No option could be sized or priced."),
    "engine.headline_stay": N_(
        "Staying is cheapest over %(months)s months: the best alternative, %(option)s, "
        "costs %(more)s more."
    ),
    "engine.headline_saves": N_(
        "%(option)s saves %(monthly)s a month (%(yearly)s a year) and pays back %(when)s."
    ),
    "engine.headline_saves_fraction": N_(
        "%(option)s saves %(monthly)s a month (%(yearly)s a year) and pays back %(when)s "
        "(%(fraction)s months)."
    ),
    "engine.headline_estimate": N_(
        "Its capacity is an estimate from a declared speed factor, not a measurement."
    ),
    "engine.headline_unconfirmed": N_("Its price is an unconfirmed quote."),
    "engine.headline_not_entered": N_("Not entered yet: %(items)s."),
    "engine.cost_migration": N_("migration"),
    "engine.cost_running_both": N_("running both"),
    "engine.cost_retraining": N_("retraining"),
    # the baseline's source
    "engine.baseline_quoted": N_("quoted by the manager"),
}

# The capacity model and queueing (planner.compute.capacity, queueing).
_CAPACITY: dict[str, Text] = {
    # why a tier gets no figure, or is ruled out
    "capacity.specs_unknown": N_("specs unknown: the tier lists no vCPU count or RAM"),
    "capacity.workload_reason": N_("%(workload)s: %(problem)s"),
    "capacity.no_measurement": N_("no %(class)s measurement on a target linked to this tier"),
    "capacity.reference_has_none": N_(
        "%(reason)s; the speed factor's reference %(tier)s has none either"
    ),
    "capacity.measurement_lacks": N_("the %(class)s measurement lacks %(what)s"),
    "capacity.needs_rows_features": N_("the profile's rows and features (R₀, F₀)"),
    "capacity.needs_trial_length": N_("the profile's single-thread trial length t₀"),
    "capacity.no_service_times": N_("the inference measurement has no service times"),
    "capacity.own_p99_over_bound": N_(
        "the measured service times' own p99 (%(p99)s ms) exceeds the %(bound)s ms bound: "
        "no number of workers meets it"
    ),
    "capacity.no_workers_meet_bound": N_("no number of workers meets the %(bound)s ms p99 bound"),
    "capacity.deadline_missed": N_(
        "one job takes %(hours)s h on one server at %(threads)s threads, over its "
        "%(deadline)s h deadline, and a %(kind)s job does not split across servers"
    ),
    "capacity.must_fit_one_box": N_(
        "working set %(need)s GiB must fit one box; the tier has %(ram)s GiB"
    ),
    # where a figure comes from, when it is not plainly measured
    "capacity.label_estimate": N_("estimate: %(factor)s %(unit)s against %(tier)s"),
    "capacity.label_predicted": N_("predicted by the %(fit)s fit of %(host)s"),
    "capacity.label_provisional": N_(
        "provisional: workers at the stability minimum, not simulated"
    ),
    "capacity.label_out_of_range": N_(
        "extrapolated: %(param)s %(given)s outside the profile's trusted range %(low)s–%(high)s"  # noqa: RUF001
    ),
    # deep learning is never sized onto CPU tiers
    "capacity.stays_on_gpu": N_(
        "%(task)s stays on GPUs: large-model fine-tuning, vision transformers from scratch "
        "and diffusion models are not sized onto CPU tiers"
    ),
    "capacity.task_llm_finetune": N_("llm finetune"),
    "capacity.task_vit_from_scratch": N_("vit from scratch"),
    "capacity.task_diffusion": N_("diffusion"),
    "capacity.task_other_deep_learning": N_("other deep learning"),
}

# Benchmarks: evidence and its absence, fits, runs, profiles (benchmarks_app).
_BENCHMARKS: dict[str, Text] = {}

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
