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
    # The safe JSON loader (common.safejson): what it refuses, and where.
    "common.json.malformed": N_("%(reason)s (line %(line)s, column %(column)s)"),
    "common.json.not_utf8": N_("not UTF-8 text at byte %(offset)s (line %(line)s)"),
    "common.json.too_deep": N_(
        "nested deeper than %(limit)s levels at %(path)s (line %(line)s, column %(column)s)"
    ),
    "common.json.duplicate_key": N_("%(path)s is given twice (line %(line)s, column %(column)s)"),
    "common.json.nul": N_(
        "a NUL character in the string at %(path)s (line %(line)s, column %(column)s)"
    ),
    "common.json.surrogate": N_(
        "a lone UTF-16 surrogate in the string at %(path)s (line %(line)s, column %(column)s)"
    ),
    "common.json.long_number": N_(
        "a number of more than %(limit)s digits at %(path)s (line %(line)s, column %(column)s)"
    ),
    "common.json.big_exponent": N_(
        "a number with an exponent beyond ±%(limit)s at %(path)s (line %(line)s, column %(column)s)"
    ),
    "common.json.constant": N_(
        "%(name)s is not a number this format accepts, at %(path)s "
        "(line %(line)s, column %(column)s)"
    ),
}

# Plan schema and form validation (planner.compute.schema, planner.web.forms).
_SCHEMA: dict[str, Text] = {
    # What the API says (`errors`, `error_details[].text`): the JSON a program sent.
    "schema.required": N_("required"),
    "schema.unknown_field": N_("unknown field"),
    "schema.expected_object": N_("expected an object, got %(got)s"),
    "schema.expected_list": N_("expected a list, got %(got)s"),
    "schema.expected_string": N_("expected a string, got %(got)s"),
    "schema.expected_integer": N_("expected an integer, got %(got)s"),
    "schema.expected_number": N_("expected a number, got %(got)s"),
    "schema.expected_decimal": N_("expected a decimal number, got %(value)s"),
    "schema.expected_bool": N_("expected true or false, got %(got)s"),
    "schema.not_finite": N_("must be a finite number"),
    "schema.at_least": N_("must be at least %(value)s %(unit)s"),
    "schema.above": N_("must be above %(value)s %(unit)s"),
    "schema.at_most": N_("must be at most %(value)s %(unit)s"),
    "schema.max_places": N_("at most %(n)s decimal places"),
    "schema.max_length": N_("at most %(n)s characters"),
    "schema.max_items": N_("at most %(n)s items"),
    "schema.nul": N_("must not contain a NUL character"),
    "schema.surrogate": N_("must not contain a lone UTF-16 surrogate"),
    "schema.unknown_tier": N_("unknown tier '%(tier)s'"),
    "schema.tier_key": N_("a tier key: lowercase letters, digits, '.' and '-'"),
    "schema.currency_code": N_("expected a 3-letter ISO 4217 code such as USD"),
    "schema.unknown_value": N_("unknown value %(value)s; one of %(choices)s"),
    "schema.one_of": N_("give exactly one of %(a)s or %(b)s"),
    "schema.migration_pair": N_("needed with the other migration field"),
    "schema.ops_rate": N_("needed with ops_hours_per_server"),
    "schema.count_for_fixed": N_("required for a fixed count"),
    "schema.count_only_fixed": N_("only for a fixed count, not mode %(mode)s"),
    "schema.usage_only": N_("usage hours only for mode 'usage', not %(mode)s"),
    "schema.usage_both": N_("give gpu_hours_per_month or instance_hours_per_month, not both"),
    "schema.no_parts": N_("at least one part"),
    "schema.cpu_workload": N_("at least one CPU workload is needed to size candidates"),
    "schema.usage_hours": N_(
        "a usage part with no hours takes the deep-learning workloads' GPU hours: none given"
    ),
    "schema.body_too_large": N_("at most %(limit)s bytes, got %(size)s"),
    "schema.malformed_json": N_("malformed JSON: %(reason)s"),
    # What a value was, in "expected a list, got %(got)s".
    "schema.got.null": N_("null"),
    "schema.got.boolean": N_("a boolean"),
    "schema.got.string": N_("a string"),
    "schema.got.list": N_("a list"),
    "schema.got.object": N_("an object"),
    "schema.got.number": N_("a number"),
    "schema.got.fraction": N_("a fraction"),
    # Units of the bounds ("must be at most 120 months"); "ms" reads alike in every language.
    "schema.unit.months": N_("months"),
    "schema.unit.per_year": N_("per year"),
    "schema.unit.share_of_threads": N_("share of threads"),
    "schema.unit.per_month": N_("per month"),
    "schema.unit.share_rerun": N_("share of work re-run"),
    "schema.unit.currency_month": N_("currency/month"),
    "schema.unit.currency_hour": N_("currency/hour"),
    "schema.unit.currency": N_("currency"),
    "schema.unit.servers": N_("servers"),
    "schema.unit.engineer_hours": N_("engineer hours"),
    "schema.unit.hours_server_month": N_("hours/server/month"),
    "schema.unit.gpu_hours_month": N_("GPU-hours/month"),
    "schema.unit.instance_hours_month": N_("instance-hours/month"),
    "schema.unit.hours": N_("hours"),
    "schema.unit.rows": N_("rows"),
    "schema.unit.features": N_("features"),
    "schema.unit.trees": N_("trees"),
    "schema.unit.combinations": N_("combinations"),
    "schema.unit.folds": N_("folds"),
    "schema.unit.gb_decimal": N_("GB (decimal)"),
    "schema.unit.trials": N_("trials"),
    "schema.unit.requests_s": N_("requests/s"),
    "schema.unit.samples": N_("samples"),
    "schema.unit.epochs": N_("epochs"),
    # What the plan editor says for the same problems: a manager typing into a form
    # (planner.web.forms.FORM_WORDING maps the codes above to these).
    "schema.form.required": N_("Required."),
    "schema.form.unknown_field": N_("Unknown field."),
    "schema.form.whole_number": N_("Enter a whole number."),
    "schema.form.number": N_("Enter a number."),
    "schema.form.not_finite": N_("Enter a finite number."),
    "schema.form.at_least": N_("Must be at least %(value)s %(unit)s."),
    "schema.form.above": N_("Must be above %(value)s %(unit)s."),
    "schema.form.at_most": N_("Must be at most %(value)s %(unit)s."),
    "schema.form.max_places": N_("At most %(n)s decimal places."),
    "schema.form.max_length": N_("At most %(n)s characters."),
    "schema.form.max_items": N_("At most %(n)s rows."),
    "schema.form.unknown_tier": N_("This tier is not offered in the catalog."),
    "schema.form.tier_key": N_("Choose a tier from the catalog."),
    "schema.form.currency_code": N_("A 3-letter currency code such as USD."),
    "schema.form.unknown_value": N_("Choose one of the offered values."),
    "schema.form.one_of": N_("Give the monthly amount or a tier, not both."),
    "schema.form.migration_pair": N_("Needed with the other migration field."),
    "schema.form.ops_rate": N_("Needed with the operations hours."),
    "schema.form.count_for_fixed": N_("Required for a fixed count."),
    "schema.form.count_only_fixed": N_("Only for a fixed count."),
    "schema.form.usage_only": N_("Usage hours only with usage-based sizing."),
    "schema.form.usage_both": N_("Give GPU-hours or instance-hours, not both."),
    "schema.form.cpu_workload": N_(
        "Describe at least one CPU workload, or give every candidate a fixed count: "
        "the model sizes servers from the work."
    ),
    "schema.form.usage_hours": N_(
        "A usage-based GPU option with no hours takes the deep-learning GPU hours: none given."
    ),
}

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
    # memory of gbm and sklearn jobs where the run records no ratio of its own
    "capacity.label_memory_estimate": N_(
        "estimate: memory at %(ratio)s GiB per GB of input, the factor this project measured "
        "for %(library)s at %(rows)s rows × %(features)s features; the run records none"  # noqa: RUF001
    ),
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
