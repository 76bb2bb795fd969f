"""The one registry of message codes and their English texts, marked for translation.

Each code maps to a `Text`: an English template with `%(name)s` placeholders, and for a
sentence that depends on a count, its plural and the parameter that holds the count.
`N_` and `NP_` only mark the texts: `manage.py makemessages` (planner's override) passes
them to xgettext as keywords, so the German catalogue gets every text here. Pages render
a message with `common.django.message_render.render` in the reader's language and formats; the
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
    "schema.plain_decimal": N_(
        "write %(value)s as a plain decimal (like 0.25), without an exponent"
    ),
    "schema.max_length": N_("at most %(n)s characters"),
    "schema.max_items": N_("at most %(n)s items"),
    "schema.nul": N_("must not contain a NUL character"),
    "schema.surrogate": N_("must not contain a lone UTF-16 surrogate"),
    "schema.unknown_tier": N_("unknown tier '%(tier)s'"),
    "schema.tier_key": N_("a tier key: lowercase letters, digits, '.' and '-'"),
    "schema.currency_code": N_("expected a 3-letter ISO 4217 code such as USD"),
    "schema.unknown_currency": N_(
        "no exchange rate for %(currency)s: a plan can be shown in %(known)s"
    ),
    "schema.unknown_value": N_("unknown value %(value)s; one of %(choices)s"),
    "schema.one_of": N_("give exactly one of %(a)s or %(b)s"),
    "schema.matched_needs_tiers": N_(
        "matched sizing needs the baseline's machines by tier: take the baseline from a bill"
    ),
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
    "schema.form.unknown_currency": N_(
        "There is no exchange rate for %(currency)s: choose one of %(known)s."
    ),
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
    # A bound said with its unit counted ("at least 1 server") or as a percentage.
    "schema.form.at_least_amount": N_("Must be at least %(amount)s."),
    "schema.form.at_most_amount": N_("Must be at most %(amount)s."),
    "schema.form.above_amount": N_("Must be above %(amount)s."),
    "schema.form.percent": N_("%(value)s %%"),
    "schema.form.count.servers": NP_("%(count)s server", "%(count)s servers", "count"),
    "schema.form.count.months": NP_("%(count)s month", "%(count)s months", "count"),
    "schema.form.count.rows": NP_("%(count)s row", "%(count)s rows", "count"),
    "schema.form.count.features": NP_("%(count)s feature", "%(count)s features", "count"),
    "schema.form.count.trees": NP_("%(count)s tree", "%(count)s trees", "count"),
    "schema.form.count.folds": NP_("%(count)s fold", "%(count)s folds", "count"),
    "schema.form.count.trials": NP_("%(count)s trial", "%(count)s trials", "count"),
    "schema.form.count.samples": NP_("%(count)s sample", "%(count)s samples", "count"),
    "schema.form.count.epochs": NP_("%(count)s epoch", "%(count)s epochs", "count"),
    "schema.form.count.combinations": NP_(
        "%(count)s combination", "%(count)s combinations", "count"
    ),
    "schema.form.baseline_missing": N_(
        "Enter today's monthly spend, or the tier and number of servers you run today."
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
    # a tier as people tell it apart (the titles of options): "AWS c5.4xlarge · reserved 3 y"
    "engine.tier_of_provider": N_("%(provider)s %(tier)s"),
    "engine.tier_title": N_("%(tier)s · %(model)s"),
    "engine.tier_title_region": N_("%(tier)s · %(model)s · %(region)s"),
    "engine.pricing_on_demand": N_("on-demand"),
    "engine.pricing_spot": N_("spot"),
    "engine.pricing_reserved_1y": N_("reserved 1 y"),
    "engine.pricing_reserved_3y": N_("reserved 3 y"),
    "engine.pricing_fixed_monthly": N_("monthly"),
    # staying on the baseline's instance with a cloud commitment (issue 27)
    "engine.option_stay_reserved": N_("Stay and commit: %(tier)s, %(years)s-year reservation"),
    "engine.option_stay_savings_plan": N_("Stay and commit: %(tier)s, %(years)s-year savings plan"),
    "engine.option_stay_committed_use": N_(
        "Stay and commit: %(tier)s, %(years)s-year committed use"
    ),
    "engine.option_stay_spot": N_("Stay on spot: %(tier)s"),
    "engine.commitment_break_even": N_(
        "beats on-demand from month %(month)s; loses to on-demand below %(share)s utilisation"
    ),
    "engine.commitment_never_beats": N_("never beats on-demand at these prices"),
    "engine.commitment_no_on_demand": N_(
        "no on-demand price of this instance in the catalog to weigh it against"
    ),
    "engine.commitment_spot": N_(
        "interruptions: %(share)s of work re-run (range %(low)s to %(high)s; %(source)s)"
    ),
    "engine.interruption_aggregator": N_("interruption frequency %(bucket)s, ec2instances.info"),
    "engine.interruption_assumption": N_("the planner's assumption, no published figure"),
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
    "engine.capacity_carries": N_("carries the work every month"),
    "engine.capacity_cannot_carry": N_(
        "cannot carry the work from month %(month)s: %(tier)s needs %(need)s servers, the "
        "fixed count is %(count)s"
    ),
    "engine.capacity_not_checked": N_(
        "capacity not checked: no measured run or estimate for %(tier)s"
    ),
    "engine.capacity_not_checked_owned": N_(
        "capacity not checked: owned servers have no catalog specs to size against"
    ),
    "engine.headline_none_carries": N_(
        "No option with a fixed count carries the work over the horizon: see the counts that would."
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
    "engine.payback_beyond": N_("not within %(months)s months"),
    "engine.too_large": N_(
        "takes this plan's figures past %(value)s a month or in total, the largest amount "
        "the planner computes"
    ),
    "engine.too_many_servers": N_(
        "takes this plan past %(value)s servers of one tier in a month, the largest count "
        "the planner computes"
    ),
    # the headline, one sentence each
    "engine.headline_none": N_("No option could be sized or priced."),
    "engine.headline_move_beats_commitment": N_(
        "Against staying and committing: %(move)s costs %(difference)s less over %(months)s "
        "months than %(commitment)s."
    ),
    "engine.headline_commitment_beats_move": N_(
        "Against staying and committing: %(commitment)s costs %(difference)s less over "
        "%(months)s months than %(move)s."
    ),
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
    "engine.headline_published_estimate": N_(
        "Its capacity is an estimate from published CPU scores, not a measurement: see its "
        "band and how good such estimates are."
    ),
    "engine.headline_unconfirmed": N_("Its price is an unconfirmed quote."),
    "engine.headline_not_entered": N_("Not entered yet: %(items)s."),
    "engine.cost_migration": N_("migration"),
    "engine.cost_running_both": N_("running both"),
    "engine.cost_retraining": N_("retraining"),
    # the baseline's source
    "engine.baseline_quoted": N_("quoted by the manager"),
    # no figure: what evidence is missing, and each way forward with what it costs
    "engine.missing_summary": NP_(
        "No figure yet: %(count)s tier has none for this workload, so no server count can "
        "be worked out; below: why, and the cheapest way to a figure.",
        "No figure yet: %(count)s tiers have none for this workload, so no server count can "
        "be worked out; below: why, and the cheapest way to a figure.",
        "count",
    ),
    "engine.missing_tier": N_("%(tier)s: no benchmark run of %(classes)s yet."),
    "engine.missing_tier_other": N_("%(tier)s: %(reason)s"),
    "engine.ways_forward": N_("Ways forward, and what each costs:"),
    # the cheapest way to a figure for one tier, by what it lacks (planner.web.evidence._way)
    "engine.gap_memory": N_(
        "No benchmark run changes this: the working set does not fit the tier's memory."
    ),
    "engine.gap_not_carried": N_(
        "No benchmark run is missing: on its figure the tier cannot carry this workload as "
        "the plan asks."
    ),
    "engine.gap_specs": N_(
        "The way to a figure: its vCPU count and RAM in the catalog (staff enter them); it "
        "is then estimated like the other tiers."
    ),
    "engine.gap_cpu": N_(
        "Cheapest way to a figure: a run file of %(profiles)s from a server with %(cpu)s "
        "(the stand-alone runner, %(low)s to %(high)s minutes), imported on the Benchmarks "
        "page."
    ),
    "engine.gap_tier_cpu": N_(
        "Cheapest way to a figure: a run file of %(profiles)s from a server of this tier "
        "(the stand-alone runner, %(low)s to %(high)s minutes), imported on the Benchmarks "
        "page."
    ),
    "engine.gap_first_run": N_(
        "Cheapest way to a figure: one run of %(profiles)s on any server (the stand-alone "
        "runner, %(low)s to %(high)s minutes), its run file imported on the Benchmarks page; "
        "every tier whose CPU the public scores cover is then estimated from it."
    ),
    "engine.way_suite": N_(
        "Run the standard benchmark suite on %(target)s, the server linked to this tier: "
        "%(low)s to %(high)s minutes of its time%(dropped)s."
    ),
    "engine.way_suite_unlinked": N_(
        "Run the standard benchmark suite on a server of this tier: no benchmark target "
        "is linked to it yet; the suite takes %(low)s to %(high)s minutes%(dropped)s."
    ),
    # inside the suite's way forward, after its minutes (benchmarks_app.estimate.suite_range)
    "engine.suite_threads_dropped": N_(
        " (thread counts above its %(cpus)s CPUs are left out: %(threads)s)"
    ),
    "engine.way_speed_factor": N_(
        "Declare a speed factor against a measured tier, naming its source (a published "
        "benchmark or a vendor's figure): a few minutes, and the figures are marked as estimates."
    ),
    "engine.way_fixed_count": N_(
        "Switch the candidate to a fixed count of servers: no benchmark needed, but the count "
        "is your own figure, not sized to the workload."
    ),
    # the same ways said to a visitor of a shared plan, who can only read them
    "engine.ways_forward_shared": N_(
        "What would give a figure, and what each costs (the plan's owner can do any of these):"
    ),
    "engine.way_suite_shared": N_(
        "The standard benchmark suite run on %(target)s, the server linked to this tier: "
        "%(low)s to %(high)s minutes of its time%(dropped)s."
    ),
    "engine.way_suite_unlinked_shared": N_(
        "The standard benchmark suite run on a server of this tier (none is linked to it "
        "yet): %(low)s to %(high)s minutes%(dropped)s."
    ),
    "engine.way_speed_factor_shared": N_(
        "A speed factor against a measured tier, declared with its source (a published "
        "benchmark or a vendor's figure): a few minutes; the figures are then marked as "
        "estimates."
    ),
    "engine.way_fixed_count_shared": N_(
        "A fixed count of servers for the candidate: no benchmark needed, but the count is "
        "then the owner's own figure, not sized to the workload."
    ),
    # the next run worth making (docs/design.md, "The next run worth making")
    "next_runs.settles": N_("Decides between %(best)s and %(other)s in %(share)s of the draws."),
    "next_runs.cost_hourly": N_(
        "About %(hours)s hours of the profile's time budget at %(hourly)s an hour: %(cost)s."
    ),
    "next_runs.cost_monthly": N_(
        "Billed by the month: at least one month's rent, %(cost)s (the run itself takes about "
        "%(hours)s hours)."
    ),
    "next_runs.cost_own": N_(
        "Your own server (today's): no rent; the run takes about %(hours)s hours."
    ),
    "next_runs.bring_back": N_(
        'Copy the file home and import it naming the tier (or "Import a run file" on the '
        "benchmarks page, naming the tier):"
    ),
    # a workload the plan left unnamed, as the reasons name it: "CPU inference #2"
    "engine.workload_numbered": N_("%(kind)s #%(n)s"),
    "engine.declare_speed_factor": N_("Declare a speed factor for %(tier)s"),
    "engine.speed_factor_run_instead": N_(
        "Only staff declare speed factors. You can start the benchmark suite yourself:"
    ),
    "engine.speed_factor_ask_staff": N_(
        "Only staff declare speed factors: ask one, or run the stand-alone runner on a "
        "server of this tier and give staff its run file to import."
    ),
    "engine.open_benchmarks": N_("Open the benchmarks page"),
    # accounts staff make for colleagues (planner.services.accounts)
    "accounts.invite_staff_only": N_("only staff can invite a colleague"),
    "accounts.username_taken": N_("the user name %(username)s is taken"),
    "accounts.email_taken": N_("an account with the address %(email)s exists already"),
    "engine.target_choice": N_("Benchmark target"),
    "engine.link_and_run": N_("Link the target to %(tier)s and queue its standard suite"),
    "engine.suite_queued": NP_(
        "%(count)s run queued on %(target)s for %(tier)s.",
        "%(count)s runs queued on %(target)s for %(tier)s.",
        "count",
    ),
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
_BENCHMARKS: dict[str, Text] = {
    # A result that contradicts its neighbours in a thread sweep (benchmarks_app.consistency).
    "benchmarks.result_drops": N_(
        "%(threads)s threads measured %(factor)s times less than %(fewer)s: this result "
        "contradicts its neighbours (other load on the host, throttling or a fault?); run it "
        "again before relying on it"
    ),
    "benchmarks.result_jumps": N_(
        "%(threads)s threads measured %(factor)s times more than %(fewer)s, more than the "
        "added threads can give: this result contradicts its neighbours; run it again before "
        "relying on it"
    ),
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
    # Why a run failed or was cancelled (benchmarks_app.lifecycle, execution, services).
    "benchmarks.run_harness_error": N_("harness error: %(error)s"),
    "benchmarks.run_skipped_missing": N_("skipped: %(modules)s not installed on %(host)s"),
    "benchmarks.run_skipped": N_("skipped: %(why)s"),
    "benchmarks.run_failed_at": N_("at %(threads)s threads: %(why)s"),
    "benchmarks.run_cancelled": N_("cancelled"),
    "benchmarks.run_cancelled_before_start": N_("cancelled by %(who)s before it started"),
    "benchmarks.run_cancelled_while_running": N_("cancelled by %(who)s while running"),
    "benchmarks.a_user": N_("a user"),
    "benchmarks.run_summary_incomplete": N_(
        "the runner's summary is incomplete or not finite: %(summary)s"
    ),
    "benchmarks.run_worker_restarted": N_("worker restarted while the run was running"),
    "benchmarks.run_worker_lost": N_("worker process lost: %(error)s"),
    "benchmarks.run_worker_vanished": N_(
        "worker vanished: no heartbeat from %(target)s since %(since)s"
    ),
    "benchmarks.never": N_("never"),
    "benchmarks.run_expired": N_(
        "expired: target %(target)s offline since %(since)s, longer than %(limit)s s"
    ),
    "benchmarks.run_broker_unreachable": N_("could not reach the task broker: %(error)s"),
    "benchmarks.child_time_limit": N_("over its time limit of %(limit)s s (process group killed)"),
    "benchmarks.child_failed": N_("runner failed"),
    "benchmarks.child_exit": N_("runner exited with code %(exit_code)s: %(line)s"),
    "benchmarks.child_no_output": N_("no output"),
    # What a runner child reports (benchmarks_app.runners).
    "benchmarks.runner_threads_below_one": N_("threads must be ≥ 1 (got %(threads)s)"),
    "benchmarks.runner_not_installed": N_("%(modules)s not installed: profile %(profile)s skipped"),
    "benchmarks.runner_bad_library": N_(
        "%(runner)s library must be %(first)s or %(second)s, not %(value)s"
    ),
    "benchmarks.runner_bad_mode": N_("sklearn mode must be %(first)s or %(second)s, not %(value)s"),
    "benchmarks.runner_bad_read_method": N_(
        "method must be auto, o_direct or fadvise, not %(value)s"
    ),
    "benchmarks.runner_block_alignment": N_(
        "block_kib must be a multiple of 4 (O_DIRECT alignment)"
    ),
    "benchmarks.runner_no_direct_io": N_("O_DIRECT refused on this filesystem: %(error)s"),
    # A run's progress (benchmarks_app.lifecycle, repetition, the runner harness).
    "benchmarks.step_fingerprint": N_("collecting the hardware fingerprint"),
    "benchmarks.step_starting": N_("starting"),
    "benchmarks.step_at_threads": N_("threads=%(threads)s %(step)s"),
    "benchmarks.step_setup": N_("setup"),
    "benchmarks.step_warmup": N_("warm-up %(done)s/%(of)s"),
    "benchmarks.step_repetition": N_("rep %(done)s/%(of)s"),
    "benchmarks.step_done": N_("done: %(stop_reason)s"),
    "benchmarks.step_invalid": N_("invalid: %(why)s"),
    "benchmarks.step_skipped": N_("skipped: %(why)s"),
    "benchmarks.step_error": N_("error: %(why)s"),
    # Why a run does not start (benchmarks_app.services, runners.validation_messages).
    # A target linked to a tier whose listed specs differ (benchmarks_app.hardware_match)
    "benchmarks.link_vcpus_differ": N_(
        "target %(target)s has %(cpus)s CPUs but tier %(tier)s lists %(vcpus)s vCPUs: its "
        "runs would size the tier from other hardware"
    ),
    "benchmarks.link_cpu_differs": N_(
        "the CPU of target %(target)s is %(host_cpu)s but tier %(tier)s lists %(tier_cpu)s: "
        "its runs would size the tier from another processor"
    ),
    "benchmarks.target_imported_only": N_(
        "target %(target)s is known only from imported runs: no worker serves it"
    ),
    "benchmarks.target_no_hardware": N_(
        "target %(target)s has not reported its hardware yet (is its worker up?)"
    ),
    "benchmarks.unknown_scale": N_("unknown scale %(scale)s: choose %(choices)s"),
    "benchmarks.profile_problem": N_("profile %(profile)s: %(problem)s"),
    "benchmarks.time_limit_not_positive": N_("the time limit must be positive"),
    "benchmarks.suite_profile_refused": N_("%(profile)s: %(problem)s"),
    "benchmarks.no_profiles_loaded": N_("no profiles loaded: run `manage.py load_profiles`"),
    "benchmarks.no_such_scale": N_("Profile %(profile)s has no %(scale)s scale."),
    "benchmarks.param_not_positive": N_("%(param)s must be positive (got %(value)s)."),
    "benchmarks.params_not_positive": N_(
        "%(param)s must hold only positive numbers (got %(value)s)."
    ),
    "benchmarks.no_thread_counts": N_("No thread counts to run."),
    "benchmarks.thread_count_not_whole": N_(
        "Thread count %(value)s must be a positive whole number."
    ),
    "benchmarks.threads_over_cpus": N_(
        "%(threads)s threads exceed this host's %(usable)s usable CPUs."
    ),
    "benchmarks.time_budget_not_positive": N_("time_budget_s must be positive (got %(value)s)."),
    "benchmarks.dataset_over_ram": N_(
        "The %(scale)s dataset needs about %(need)s GB of memory at %(threads)s threads, "
        "more than %(percent)s%% of this host's %(ram)s GiB RAM."
    ),
    "benchmarks.data_over_disk": N_(
        "The %(scale)s data files need %(need)s GB of disk, but %(workdir)s has %(free)s GB free."
    ),
    # Profile content and files (benchmarks_app.profiles_loader, profile_text).
    "benchmarks.profile_not_object": N_("a profile is a JSON object"),
    "benchmarks.profile_missing_key": N_("missing %(key)s"),
    "benchmarks.profile_bad_name": N_("name: lowercase letters, digits and '-'"),
    "benchmarks.profile_bad_class": N_("workload_class must be one of %(choices)s"),
    "benchmarks.profile_bad_runner": N_("runner: a module name under benchmarks_app.runners"),
    "benchmarks.profile_bad_version": N_("version must be X.Y.Z"),
    "benchmarks.profile_bad_metric": N_("metric needs name and unit"),
    "benchmarks.profile_bad_metric_label": N_("metric.label: a text"),
    "benchmarks.profile_scales_not_object": N_("scales must be an object"),
    "benchmarks.profile_scale_missing": N_("scales.%(scale)s missing"),
    "benchmarks.profile_scale_threads": N_(
        "scales.%(scale)s.threads: a list of positive whole numbers"
    ),
    "benchmarks.profile_scale_budget": N_(
        "scales.%(scale)s.time_budget_s: a positive number of seconds"
    ),
    "benchmarks.profile_not_an_object": N_("%(key)s must be an object"),
    "benchmarks.profile_i18n_not_object": N_(
        "i18n: an object of languages, each with its translated fields"
    ),
    "benchmarks.profile_i18n_language": N_(
        "%(where)s: a language code in lowercase letters, e.g. de"
    ),
    "benchmarks.profile_i18n_entries": N_("%(where)s: an object of translated fields"),
    "benchmarks.profile_i18n_field": N_("%(where)s: only %(fields)s are translated"),
    "benchmarks.profile_i18n_text": N_("%(where)s: a text that is not empty"),
    "benchmarks.profile_file_invalid": N_("%(file)s: %(problems)s"),
    "benchmarks.profile_file_not_json": N_(
        "%(file)s: %(error)s: line %(line)s column %(column)s (char %(char)s)"
    ),
    "benchmarks.profile_file_unreadable": N_("%(file)s: %(error)s"),
    "benchmarks.profile_edit_unchanged": N_("nothing changed"),
    # Run files (benchmarks_app.run_files).
    "benchmarks.runfile_not_a_run_file": N_("not a run file (expected format %(format)s)"),
    "benchmarks.runfile_version": N_(
        "unsupported run file version %(version)s (this reads %(reads)s)"
    ),
    "benchmarks.runfile_missing": N_("missing %(key)s"),
    "benchmarks.runfile_rows": N_("%(key)s must be a list of at most %(most)s rows"),
    "benchmarks.runfile_no_content": N_("profile content: missing"),
    "benchmarks.runfile_bad_content": N_("profile content: %(problems)s"),
    "benchmarks.semicolon_list": N_("%(first)s; %(rest)s"),
    "benchmarks.runfile_hash_mismatch": N_(
        "the profile content does not match its hash: the file was altered"
    ),
    "benchmarks.runfile_profile_disagrees": N_("profile name/version disagree with the content"),
    "benchmarks.runfile_no_target_name": N_("target name missing"),
    "benchmarks.runfile_no_host_name": N_("target host name missing"),
    "benchmarks.runfile_bad_id": N_("run id is not a UUID"),
    "benchmarks.runfile_bad_scale": N_("run scale %(scale)s is not one of the profile's scales"),
    "benchmarks.runfile_not_ended": N_(
        "only ended runs (succeeded, failed, cancelled) can be imported"
    ),
    "benchmarks.runfile_no_fingerprint": N_("run fingerprint missing"),
    "benchmarks.runfile_bad_time": N_("run %(key)s is not a date-time"),
    "benchmarks.runfile_no_created_at": N_("run created_at missing"),
    "benchmarks.runfile_summary_threads": N_(
        "summary %(index)s: threads must be a positive whole number"
    ),
    "benchmarks.runfile_summary_twice": N_("summary %(index)s: %(threads)s threads appear twice"),
    "benchmarks.runfile_summary_numbers": N_(
        "summary %(index)s: n, median, min, max, mean and cv must be finite numbers"
    ),
    "benchmarks.runfile_measurement": N_(
        "measurement %(index)s: needs threads of a summary, repetition, value, seconds"
    ),
    "benchmarks.runfile_already_here": N_("run %(run)s is already here"),
    "benchmarks.runfile_profile_differs": N_(
        "profile %(profile)s here has other content than the run's: "
        "the two installations edited it differently"
    ),
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
    # benchmarks_app.tier_links: a user who is not staff names a tier for a confirmed host.
    "benchmarks.link_kept": N_(
        "the host stays linked to tier %(tier)s, as staff confirmed (you named %(asked)s): "
        "ask staff to change the link"
    ),
    "benchmarks.on_tier": N_("tier %(tier)s"),
    # Queued runs reconciled and runs cancelled from the command line (lifecycle, cancel_run).
    "benchmarks.run_not_picked_up": N_(
        "not picked up: sent %(sends)s times to target %(target)s, online and idle, "
        "and no worker took it"
    ),
    "benchmarks.run_waited_too_long": N_("waited for target %(target)s longer than %(limit)s s"),
    "benchmarks.command_line_user": N_("%(user)s on the command line"),
}

# The catalog: imports, prices, exchange rates (catalog).
_CATALOG: dict[str, Text] = {
    # Where a problem is in a catalog file, and the problem (catalog.io.records, formats).
    "catalog.at_line": N_("line %(line)s"),
    "catalog.azure_specs_not_in_table": N_("not in the Azure VM size table of %(date)s"),
    "catalog.at_header": N_("header"),
    "catalog.at_file": N_("file"),
    "catalog.issue_line": N_("line %(line)s: %(why)s"),
    "catalog.issue_line_field": N_("line %(line)s, field %(field)s: %(why)s"),
    "catalog.issue_header": N_("header: %(why)s"),
    "catalog.issue_file": N_("file: %(why)s"),
    "catalog.issue_file_field": N_("file, field %(field)s: %(why)s"),
    "catalog.issue_record": N_("%(where)s: %(why)s"),
    "catalog.issue_record_field": N_("%(where)s, field %(field)s: %(why)s"),
    "catalog.duplicate_price": N_(
        "duplicate of %(first)s: one price per (slug, effective_from) (%(slug)s, %(date)s)"
    ),
    "catalog.duplicate_rate": N_("duplicate of %(first)s: one %(source)s→%(target)s rate per date"),
    "catalog.bad_record_kind": N_("%(value)s is neither 'price' nor 'rate'"),
    "catalog.tier_differs": N_("differs from %(first)s for the same tier %(slug)s"),
    "catalog.nul_byte": N_("contains a NUL byte"),
    "catalog.required": N_("required"),
    "catalog.too_long": N_("%(length)s characters, at most %(limit)s"),
    "catalog.unknown_pricing_model": N_("unknown pricing model %(value)s (one of %(choices)s)"),
    "catalog.unknown_kind": N_("unknown kind %(value)s (one of %(choices)s)"),
    "catalog.unknown_unit": N_("unknown unit %(value)s (one of %(choices)s)"),
    "catalog.unknown_currency": N_("unknown currency %(value)s (one of %(choices)s)"),
    "catalog.not_a_number": N_("%(value)s is not a number"),
    "catalog.not_finite": N_("%(value)s is not a finite number"),
    "catalog.negative": N_("%(value)s is negative"),
    "catalog.not_plain_digits": N_("%(value)s: write plain digits with an optional '.'"),
    "catalog.too_many_places": N_("%(value)s: more than %(places)s decimal places"),
    "catalog.too_many_digits": N_("%(value)s: more than %(digits)s digits before the point"),
    "catalog.not_whole": N_("%(value)s is not a whole number"),
    "catalog.not_boolean": N_("%(value)s: write true or false"),
    "catalog.not_boolean_or_empty": N_("%(value)s: write true or false (or leave empty)"),
    "catalog.not_a_date": N_("%(value)s is not a date written YYYY-MM-DD"),
    "catalog.not_a_real_date": N_("%(value)s is not a real date"),
    "catalog.not_a_url": N_("%(value)s is not a URL"),
    "catalog.empty_on_price": N_("must be empty on a price record"),
    "catalog.empty_on_rate": N_("must be empty on a rate record"),
    "catalog.bad_slug": N_("%(value)s: use lowercase letters, digits, '.' and '-'"),
    "catalog.rate_not_above_zero": N_("must be above 0"),
    "catalog.same_currencies": N_("must differ from rate_from"),
    "catalog.file_too_big": N_("%(size)s bytes is over the limit of %(limit)s bytes"),
    "catalog.file_empty": N_("the file is empty"),
    "catalog.import_busy": N_(
        "another import of the catalog was being written: nothing of this file was "
        "imported; try again in a moment"
    ),
    "catalog.not_utf8": N_("not UTF-8 text"),
    "catalog.row_short": N_(
        "has %(fields)s fields, the header has %(header)s (no %(first_missing)s onwards)"
    ),
    "catalog.row_long": N_("has %(fields)s fields, the header has %(header)s"),
    "catalog.unreadable_csv": N_("unreadable CSV: %(error)s"),
    "catalog.no_rows": N_("the file has a header but no rows"),
    "catalog.columns_missing": N_("missing column(s): %(columns)s"),
    "catalog.columns_unknown": N_("unknown column(s): %(columns)s"),
    "catalog.columns_repeated": N_("repeated column(s): %(columns)s"),
    "catalog.not_json_object": N_("expected a JSON object"),
    "catalog.must_be": N_("must be %(value)s"),
    "catalog.keys_unknown": N_("unknown key(s): %(keys)s"),
    "catalog.not_a_list": N_("must be a list"),
    "catalog.not_an_object": N_("must be an object"),
    "catalog.field_missing": N_("missing"),
    "catalog.field_unknown": N_("unknown field"),
    "catalog.not_a_scalar": N_("must be a string, number, boolean or null"),
    "catalog.nothing_in_file": N_("the file holds no prices or exchange rates"),
    # What an import holds and changes (catalog.io.changes, catalog.defaults).
    "catalog.import_summary": N_(
        "%(tiers)s tiers, %(prices)s prices, %(rates)s exchange rates: %(new_tiers)s new tiers, "
        "%(changed_tiers)s changed tiers, %(new_prices)s new prices, "
        "%(new_rates)s new exchange rates"
    ),
    "catalog.default_summary": N_(
        "%(tiers)s tiers, %(prices)s prices, %(rates)s exchange rates: %(new)s new"
    ),
    "catalog.default_summary_updated": N_(
        "%(tiers)s tiers, %(prices)s prices, %(rates)s exchange rates: %(new)s new, "
        "%(updated)s tiers updated"
    ),
    # Prices in another currency (catalog.pricing).
    "catalog.no_rate": N_("no %(source)s→%(target)s rate on or before %(date)s"),
    "catalog.price_out_of_range": N_(
        "price row %(price)s of %(tier)s holds %(field)s %(value)s, beyond what its column "
        "holds (below %(limit)s): the tier is left out until the row is corrected or deleted"
    ),
}

# A tier's commitment alternatives that the catalog lacks (catalog.commitments, issue 27).
_COMMITMENTS: dict[str, Text] = {
    "catalog.no_reserved_rate": N_(
        "No %(years)s-year reservation price for %(tier)s in the catalog: no rate is made up."
    ),
    "catalog.no_savings_plan_rate": N_(
        "No %(years)s-year savings plan price for %(tier)s in the catalog: no rate is made up."
    ),
    "catalog.no_committed_use_rate": N_(
        "No %(years)s-year committed use price for %(tier)s in the catalog: no rate is made up."
    ),
    "catalog.no_spot_rate": N_("No spot price for %(tier)s in the catalog: no rate is made up."),
}

# Price feeds: downloads, refusals, refused rows, summaries (catalog.feeds).
_FEEDS: dict[str, Text] = {
    "feeds.http_status": N_("The server answered HTTP %(status)s for %(url)s."),
    "feeds.network": N_("The download of %(url)s failed after %(attempts)s attempts: %(error)s"),
    "feeds.offline_dns": N_(
        "The network is unreachable: the name %(host)s could not be looked up "
        "(%(attempts)s attempts), so %(url)s was not downloaded. Nothing changed; connect "
        "this machine, or sync from a downloaded copy with --file."
    ),
    "feeds.offline_route": N_(
        "The network is unreachable: there is no route to %(host)s (%(attempts)s attempts), "
        "so %(url)s was not downloaded. Nothing changed; connect this machine, or sync from "
        "a downloaded copy with --file."
    ),
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
    "feeds.too_many_pages": N_(
        "The feed still links to another page after %(count)s pages (%(url)s): refused as a "
        "link loop or an unexpected size."
    ),
    "feeds.azure_more_pages": N_(
        "The file's last page links to a further page (%(url)s): a saved copy must hold every page."
    ),
    "feeds.azure_specs_joined": NP_(
        "vCPUs and RAM of %(count)s size come from %(source)s (as of %(date)s).",
        "vCPUs and RAM of %(count)s sizes come from %(source)s (as of %(date)s).",
        "count",
    ),
    "feeds.azure_specs_unknown": NP_(
        "%(count)s size is not in the sized table, so its vCPUs and RAM stay unknown: %(sizes)s.",
        "%(count)s sizes are not in the sized table, so their vCPUs and RAM stay unknown: "
        "%(sizes)s.",
        "count",
    ),
    "feeds.hetzner_net_prices": N_(
        "Hetzner auction prices are monthly prices in EUR before VAT and without the IPv4 "
        "address, which is charged on top; billed by the hour, a month never costs more."
    ),
    "feeds.import_interrupted": N_("The import was interrupted (%(reason)s) before it finished."),
    "feeds.import_orphaned": N_(
        "The import's process ended before it finished: still running after %(hours)s hours."
    ),
    "feeds.import_failed": N_(
        "The import stopped on an unexpected error and changed nothing: %(error)s"
    ),
    "feeds.implausible": N_(
        "%(where)s, %(key)s: %(value)s is outside the plausible bounds (%(bound)s)."
    ),
    "feeds.duplicate_rate": N_(
        "%(where)s: the rate of %(quote)s on %(date)s is given a second time."
    ),
    "feeds.key_too_long": N_(
        "%(where)s, %(key)s: %(length)s characters make a tier key longer than %(limit)s."
    ),
    "feeds.currency_mismatch": N_(
        "%(where)s, %(key)s: %(found)s, but the feed for %(scope)s is priced in %(expected)s."
    ),
    "feeds.cut_off": N_(
        "The file ends in the middle of line %(line)s, without its line break: it was cut off."
    ),
    "feeds.history_starts_late": N_(
        "The history starts on %(first)s, not on %(expected)s: the file is incomplete."
    ),
    "feeds.aws_zone": N_(
        "%(region)s is a Local or Wavelength Zone, not a Region: zones are imported only "
        "when asked for (sync_prices aws --zones)."
    ),
    "feeds.azure_hosts_left_out": NP_(
        "%(count)s Dedicated Host price was left out: a host is not a VM size.",
        "%(count)s Dedicated Host prices were left out: a host is not a VM size.",
        "count",
    ),
    "feeds.unsupported_format": N_(
        "This file is %(found)s, not a format the %(source)s feed reads: it reads %(formats)s."
    ),
    "feeds.superseded": NP_(
        "%(count)s price of this day from an earlier snapshot of the same feed was replaced "
        "by this newer one's (version %(version)s).",
        "%(count)s prices of this day from an earlier snapshot of the same feed were replaced "
        "by this newer one's (version %(version)s).",
        "count",
    ),
    # Savings plans and GCP (issue 27).
    "feeds.sp_no_operation": NP_(
        "%(count)s Savings Plan rate names no operation: joined to its EC2 usage type alone "
        "(BoxUsage: Linux, shared tenancy).",
        "%(count)s Savings Plan rates name no operation: joined to their EC2 usage types alone "
        "(BoxUsage: Linux, shared tenancy).",
        "count",
    ),
    "feeds.sp_unjoined": NP_(
        "%(count)s usage type has Savings Plan rates but no EC2 on-demand tier of this region "
        "in the catalog (import the EC2 feed first): left out, nothing made up: %(usage)s.",
        "%(count)s usage types have Savings Plan rates but no EC2 on-demand tier of this region "
        "in the catalog (import the EC2 feed first): left out, nothing made up: %(usage)s.",
        "count",
    ),
    "feeds.gcp_shapes_joined": NP_(
        "vCPUs and memory of %(count)s machine type come from %(source)s (as of %(date)s).",
        "vCPUs and memory of %(count)s machine types come from %(source)s (as of %(date)s).",
        "count",
    ),
    "feeds.gcp_unpriced": NP_(
        "%(count)s machine type lacks a per-vCPU or per-GiB price in this region: left out: "
        "%(types)s.",
        "%(count)s machine types lack a per-vCPU or per-GiB price in this region: left out: "
        "%(types)s.",
        "count",
    ),
    "feeds.gcp_more_pages": N_(
        "The file's last page has a nextPageToken (%(token)s): a saved copy must hold every page."
    ),
    "feeds.gcp_converted": N_(
        "Prices in %(currency)s converted to %(target)s at the ECB reference rates of %(date)s "
        "(1 EUR = %(rate)s %(currency)s, %(target_rate)s %(target)s)."
    ),
    "feeds.gcp_no_rate": N_(
        "No ECB reference rate for %(currency)s on or before %(date)s in the catalog: import "
        "the ECB feed first."
    ),
    "feeds.summary": N_(
        "new tiers: %(new_tiers)s, changed prices: %(changed_prices)s, unchanged: "
        "%(unchanged)s, retired: %(retired)s, refused rows: %(refused_rows)s"
    ),
}

# Plans and shares as stored (planner.services).
_SERVICES: dict[str, Text] = {}

# Fit quality, owned hardware, sensitivity and the odds of paying back (issue 12).
_FINANCE: dict[str, Text] = {
    "fitgate.fallback": N_(
        "the %(fit)s fit of %(host)s has R² %(r2)s, below the %(threshold)s threshold: sized "
        "from the %(threads)s threads measured, not predicted at %(tier_threads)s"
    ),
    "fitgate.poor_fit_no_fallback": N_(
        "not measured at %(threads)s threads on %(host)s (measured: %(measured)s), and its "
        "%(fit)s fit has R² %(r2)s, below the %(threshold)s threshold: no figure"
    ),
    # owned servers (planner/compute/owned.py)
    "owned.option_label": NP_("%(count)s owned server", "%(count)s owned servers", "count"),
    "owned.runs_past_life": N_(
        "no replacement is bought: the servers run past their %(years)s-year service life "
        "(fully depreciated from month %(month)s)"
    ),
    "owned.replaced": N_(
        "replacement servers are bought at the end of each service life (months %(months)s)"
    ),
    "sensitivity.break_even_bill": N_(
        "the switch stops paying back within %(months)s months if the cloud bill falls below "
        "%(amount)s a month"
    ),
    "sensitivity.break_even_option": N_(
        "the switch stops paying back within %(months)s months if the option's cost rises "
        "above %(amount)s a month"
    ),
    "sensitivity.break_even_one_time": N_(
        "the switch stops paying back within %(months)s months if the one-time costs rise "
        "above %(amount)s"
    ),
    "sensitivity.no_break_even_money": N_("no break-even between low and high"),
    "sensitivity.option_monthly": N_("the option's monthly cost"),
    "sensitivity.no_break_even": N_(
        "no break-even between %(low)s and %(high)s: payback is undiscounted"
    ),
    "owned.payback_by_resale": N_(
        "pays back only because of the %(resale)s resale in month %(month)s"
    ),
    # uncertain inputs (planner/compute/uncertainty.py) and the Monte Carlo
    "uncertainty.baseline_monthly": N_("today's monthly bill"),
    "uncertainty.price": N_("the price of %(tier)s"),
    "uncertainty.fx": N_("the exchange rate"),
    "uncertainty.batch_volume": N_("batch runs a month"),
    "uncertainty.rps": N_("requests a second"),
    "uncertainty.throughput": N_("measured throughput (%(kind)s)"),
    "uncertainty.throughput_estimate": N_(
        "estimated throughput (%(kind)s, band from published scores)"
    ),
    "uncertainty.monthly_growth": N_("monthly growth"),
    "uncertainty.annual_discount_rate": N_("the discount rate"),
    "uncertainty.one_time": N_("the one-time costs"),
    "uncertainty.owned_purchase_price": N_("the owned servers' purchase price"),
    "uncertainty.owned_kwh_price": N_("the electricity price"),
    "uncertainty.owned_pue": N_("the PUE (facility ÷ IT power)"),
    "uncertainty.owned_colocation": N_("colocation"),
    "uncertainty.owned_resale": N_("the resale value"),
    "uncertainty.owned_lifetime": N_("the service life (whole years)"),
    "uncertainty.utilisation_target": N_("the utilisation target"),
    "uncertainty.spot_interruption_aggregator": N_(
        "the share of spot work re-run after interruptions (ec2instances.info: %(bucket)s)"
    ),
    "uncertainty.spot_interruption_assumption": N_(
        "the share of spot work re-run after interruptions (the planner's assumption)"
    ),
    "uncertainty.break_even": N_(
        "the switch stops paying back within %(months)s months when %(input)s is at %(value)s "
        "of the base case"
    ),
    "uncertainty.break_even_rate": N_(
        "the switch stops paying back within %(months)s months when %(input)s is %(value)s"
    ),
    "uncertainty.no_break_even": N_("no break-even for %(input)s between %(low)s and %(high)s"),
    "uncertainty.a_month": N_("%(amount)s a month"),
    "uncertainty.of_base": N_("%(share)s of the base case"),
    "uncertainty.stops_above": N_(
        "the switch stops paying back within %(months)s months if %(input)s rises above %(value)s"
    ),
    "uncertainty.stops_below": N_(
        "the switch stops paying back within %(months)s months if %(input)s falls below %(value)s"
    ),
    "uncertainty.starts_at_least": N_(
        "the switch pays back within %(months)s months only if %(input)s is at least %(value)s"
    ),
    "uncertainty.starts_at_most": N_(
        "the switch pays back within %(months)s months only if %(input)s is at most %(value)s"
    ),
    "montecarlo.never": N_("never"),
    "montecarlo.beyond": N_("not within %(months)s months"),
    "montecarlo.month": N_("month %(month)s"),
    "montecarlo.pays_back": N_(
        "pays back within %(months)s months in %(share)s of %(draws)s draws"
    ),
    "montecarlo.recorded": N_(
        "seed %(seed)s, %(draws)s draws, NumPy %(numpy)s; inputs drawn independently"
    ),
}

# The bill importer (bills/): what it refuses, where, and what it says about a bill's data.
_BILLS = {
    "bills.file.empty": N_("%(file)s is empty"),
    "bills.file.no_rows": N_("%(file)s has a header but no rows"),
    "bills.file.truncated": N_("%(file)s ends part-way through line %(line)s: a truncated file?"),
    "bills.file.nul": N_("%(file)s holds a NUL byte on line %(line)s"),
    "bills.file.long_line": N_(
        "%(file)s line %(line)s is longer than any export writes "
        "(a cell over %(limit)s characters?)"
    ),
    "bills.file.bad_parquet": N_("%(file)s is not a readable Parquet file: %(reason)s"),
    "bills.file.unreadable": N_("%(file)s could not be read as CSV: %(reason)s"),
    "bills.file.wrong_kind": N_(
        "%(file)s is not a cost export (it starts with %(what)s); read here: %(kinds)s"
    ),
    "bills.header.unknown_version": N_(
        "%(file)s looks like a cost export (%(kind)s) of a version not read here: "
        "no column %(columns)s"
    ),
    "bills.cell.too_long": N_(
        "%(file)s line %(line)s, column %(column)s: a cell over %(limit)s characters"
    ),
    "bills.cell.nul": N_("%(file)s line %(line)s, column %(column)s: a NUL byte"),
    "bills.value.not_number": N_(
        "%(file)s line %(line)s, column %(column)s: %(value)s is not a number"
    ),
    "bills.value.not_date": N_(
        "%(file)s line %(line)s, column %(column)s: %(value)s is not a date"
    ),
    "bills.value.no_date": N_("%(file)s line %(line)s, column %(column)s: no date"),
    "bills.value.missing": N_("%(file)s line %(line)s: no %(column)s"),
    "bills.value.negative_quantity": N_(
        "%(file)s line %(line)s, column %(column)s: a negative quantity"
    ),
    "bills.value.bad_currency": N_(
        "%(file)s line %(line)s: %(value)s is not a currency code (three letters, ISO 4217)"
    ),
    "bills.currency.no_rate": N_(
        "%(file)s line %(line)s: no exchange rate from %(currency)s to %(target)s on or before "
        "%(date)s; a bill in several currencies needs the rates of its charge dates"
    ),
    "bills.period.overlap": N_(
        "%(file)s overlaps bill %(bill)s (%(provider)s account %(account)s, %(month)s) without "
        "covering the same period: delete that bill first or import an export of its period"
    ),
    "bills.import.same": N_("%(file)s is already imported as bill %(bill)s: nothing changed"),
    "bills.import.replaced": N_("%(file)s replaces bill %(bill)s, an export of the same period"),
    "bills.import.done": N_("%(file)s imported as bill %(bill)s: %(rows)s rows in %(lines)s lines"),
    "bills.upload.missing": N_("no file: send the export as the request body or a form field"),
    "bills.upload.too_large": N_("the file is larger than %(limit)s bytes"),
    "bills.upload.bad_chunk": N_(
        "the upload of %(file)s was interrupted (a piece went missing): choose the file again"
    ),
    "bills.flag.effective_zero": N_(
        "%(rows)s usage rows have a zero effective cost beside a billed cost (first on line "
        "%(line)s): their billed cost is used"
    ),
    "bills.flag.effective_rounded": N_(
        "%(rows)s usage rows have an effective cost rounded to whole units (first on line "
        "%(line)s): their billed cost is used"
    ),
    "bills.flag.effective_missing": N_(
        "%(rows)s rows give no effective (amortised) cost (first on line %(line)s): their "
        "billed cost is used"
    ),
    "bills.flag.list_missing": N_(
        "%(rows)s rows give no list cost (first on line %(line)s): their billed cost stands "
        "in for it"
    ),
    "bills.flag.list_below_billed": N_(
        "%(rows)s rows have a list cost below the billed cost (first on line %(line)s): kept "
        "as given"
    ),
    "bills.flag.correction": N_(
        "%(rows)s rows correct an earlier period (first on line %(line)s): kept as given, in "
        "the day they are charged"
    ),
    "bills.flag.tags_capped": N_(
        "%(rows)s rows carry tag sets beyond the first 1000 distinct ones (first on line "
        "%(line)s): kept without tags"
    ),
    "bills.flag.converted": N_(
        "%(currency)s amounts converted to %(target)s at ECB rates of each charge date "
        "(rate rows %(rates)s)"
    ),
    "bills.flag.views_apart": N_(
        "an %(other)s export of the same account and month is bill %(bill)s: the two are "
        "never added together"
    ),
    "bills.plan.not_found": N_("you have no bill %(bill)s: choose one of your imported bills"),
    "bills.plan.no_lines": N_(
        "bill %(bill)s (%(name)s) has no compute usage lines with these choices: the baseline "
        "would be 0"
    ),
    "bills.plan.no_trend": N_(
        "%(name)s covers %(months)s month(s) of these lines: a trend needs two or more, so "
        "enter the monthly growth yourself"
    ),
    "bills.plan.baseline": N_(
        "From bill %(name)s (%(kind)s, %(start)s – %(end)s): %(lines)s compute usage lines, "  # noqa: RUF001
        "%(monthly)s a month at the bill's effective cost"
    ),
    "bills.plan.baseline_shared": N_(
        "From the owner's bill (%(kind)s, %(start)s – %(end)s): %(lines)s compute usage "  # noqa: RUF001
        "lines, %(monthly)s a month at the bill's effective cost"
    ),
    "bills.plan.tier_line": N_(
        "%(count)s × %(instance_type)s in %(region)s (hours a month: %(hours)s): %(monthly)s"  # noqa: RUF001
    ),
    "bills.plan.unmatched": N_(
        "%(instance_type)s in %(region)s (%(provider)s): no catalog tier, %(monthly)s a month "
        "kept in the baseline"
    ),
    "bills.plan.growth": N_(
        "Monthly growth %(growth)s from the bill's trend, months %(first)s – %(last)s"  # noqa: RUF001
    ),
    "bills.plan.more_lines": N_(
        "and %(count)s more instance-type lines, %(monthly)s a month (the API lists them all)"
    ),
    "bills.plan.baseline_private": N_(
        "From the owner's bill: %(monthly)s a month at the bill's effective cost"
    ),
    "bills.plan.matched": N_(
        "Options counted to carry what these machines carry: %(capacity)s times the "
        "workloads' first month"
    ),
    "matched.note": N_(
        "Counted to carry what the bill's machines carry: %(capacity)s times the workloads' "
        "first month; one %(tier)s server carries %(share)s times"
    ),
    "matched.no_capacity": N_(
        "No speed figure for the bill's tiers %(tiers)s: the options are sized to the "
        "workloads, not to the bill's machines"
    ),
    "matched.no_tiers": N_(
        "The bill's lines name no catalog tier: the options are sized to the workloads, not "
        "to the bill's machines"
    ),
    "bills.plan.deleted": N_("Bill %(bill)s, which this baseline was taken from, is deleted"),
    # the cloud's commitments weighed against a bill baseline (issue 27)
    "bills.commitments.tier": N_(
        "%(count)s × %(instance_type)s in %(region)s: %(monthly)s a month on your bill"  # noqa: RUF001
    ),
    "bills.commitments.break_even": N_(
        "from your bill: beats what you pay now from month %(month)s; loses to it below "
        "%(share)s utilisation"
    ),
    "bills.commitments.never_beats": N_(
        "from your bill: never beats what you pay now for this instance"
    ),
    "bills.commitments.spot": N_(
        "from your bill: spot, with %(share)s of the work re-run after interruptions"
    ),
    "bills.commitments.saving": N_("%(monthly)s a month at your bill's count; saves %(saving)s"),
    "bills.commitments.includes_committed": N_(
        "%(share)s of this instance's hours on the bill already ran under a reservation or "
        "savings plan: the bill's cost includes those discounts, so a saving here comes on top"
    ),
    "bills.commitments.committed_unpriced": N_(
        "those committed hours carry no cost on this bill (the commitment is paid elsewhere: "
        "an upfront purchase, or an actual-cost view): the bill understates what they cost"
    ),
    "bills.commitments.includes_spot": N_(
        "%(share)s of this instance's hours on the bill already ran on spot: the bill's cost "
        "includes that discount"
    ),
    "bills.commitments.no_rate": N_("no rate in the catalog: none is made up"),
    "bills.commitments.no_slots": N_(
        "%(tier)s: the catalog has no commitment or spot prices of this instance to weigh"
    ),
    "bills.commitments.more": N_(
        "and %(count)s more instance types, %(monthly)s a month, not weighed here"
    ),
    "bills.commitments.other_currency": N_(
        "The bill is in %(bill)s and the plan in %(plan)s: the cloud's commitments are not "
        "weighed against the bill (set the plan's currency to the bill's)"
    ),
    # The two sides said by their sign: a negative saving read as "saves -$332.10" is a
    # misreading waiting to happen, so a dearer side says "costs … more".
    "bills.commitments.vs_move": N_(
        "Against staying and committing: %(move)s %(move_said)s against the whole bill; the "
        "bill's weighed instances, each at its cheapest reservation or savings plan, "
        "%(commit_said)s."
    ),
    "bills.commitments.move_saves": N_("saves %(amount)s a month"),
    "bills.commitments.move_costs_more": N_("costs %(amount)s a month more"),
    "bills.commitments.commit_saves": N_("save %(amount)s a month"),
    "bills.commitments.commit_costs_more": N_("would cost %(amount)s a month more"),
    "bills.commitments.today_utilisation": N_("utilisation of your commitments: %(value)s"),
    "bills.commitments.today_coverage": N_("coverage of eligible usage: %(value)s"),
    "bills.commitments.today_unused": N_("unused commitment spend: %(value)s"),
    "bills.commitments.today_negotiated_savings": N_("negotiated savings: %(value)s"),
    "bills.commitments.today_commitment_savings": N_("commitment savings: %(value)s"),
    "bills.commitments.today_none": N_("the bill gives no commitment figures (%(reason)s)"),
}

# Estimates from published scores (benchmarks_app.estimate_selectors, .evidence).
_ESTIMATES: dict[str, Text] = {
    "estimates.no_cpu": N_("%(reason)s; no estimate either: the catalog names no CPU for %(tier)s"),
    "estimates.not_covered": N_(
        "%(reason)s; no estimate either: no public score covers %(cpu)s nor another model "
        "of its family"
    ),
    "estimates.no_reference_run": N_(
        "%(reason)s; no estimate either: no host has a standard or full run of %(class)s "
        "to scale from"
    ),
    "estimates.reference_cpu_unknown": N_(
        "%(reason)s; no estimate either: the measured host %(host)s has no CPU score (no "
        "known model and no stress-ng figure)"
    ),
    "estimates.no_score_in_common": N_(
        "%(reason)s; no estimate either: %(cpu)s and the measured hosts share no score"
    ),
    "estimates.label_published": N_(
        "estimate from published scores (%(dataset)s): %(tier_cpu)s against %(ref_cpu)s "
        "measured on %(host)s, score ratio %(ratio)s, thread scaling %(scaling)s, band "
        "%(low)s to %(high)s times the figure"
    ),
    "estimates.label_same_cpu": N_(
        "estimate: measured on the same CPU model (%(tier_cpu)s) on %(host)s, scaled to "
        "the tier's threads (%(scaling)s), band %(low)s to %(high)s times the figure"
    ),
    "estimates.label_offer_cpu": N_("offer: %(offered)s; runs saw %(seen)s"),
    # kept for answers frozen before 2026-12-04 (a share's copy); new ones say the next
    "estimates.label_neighbour": N_(
        "no public score for %(cpu)s: its nearest neighbour %(row)s stands in"
    ),
    "estimates.label_no_public_row": N_(
        "no public row covers %(cpu)s: a nearest-neighbour estimate, %(neighbour)s "
        "standing in for it (band widened)"
    ),
    "estimates.label_family": N_(
        "%(cpu)s is only a family label: the band spans its family's models"
    ),
}

TEXTS: dict[str, Text] = {
    **_COMMON, **_SCHEMA, **_ENGINE, **_CAPACITY, **_BENCHMARKS, **_CATALOG, **_FEEDS,
    **_SERVICES, **_FINANCE, **_COMMITMENTS, **_ESTIMATES, **_BILLS,
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
