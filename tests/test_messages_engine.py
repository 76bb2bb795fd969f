# ruff: noqa: RUF001, RUF003  (× and – in the engine's labels under test)
"""The engine and the capacity model say every sentence as a message: a code and typed
parameters, built by the real code path, whose English is the string the API gives."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from benchmarks_app.evidence import NoMeasurement
from common.messages import Message, Money, Number, Percent, TierRef, msg, plain
from planner.compute import tco
from planner.compute.capacity import SpeedFactor, size_tiers
from planner.compute.engine import compare
from planner.compute.message_fields import as_message, figure
from planner.compute.schema import (
    DeepLearningWorkload,
    FeaturesWorkload,
    GbmWorkload,
    HpoWorkload,
    InferenceWorkload,
    SklearnWorkload,
    parse_plan,
)
from tests.support.capacity import C5, EXTREME, GBM, measured, one, tiers
from tests.support.engine import AS_OF, C5_4X_SPOT, frame, tier
from tests.support.engine import EXTREME as EXTREME_ROW

P4D = tier("aws-p4d.24xlarge-us-east-1-spot", "8", "hour", kind="cloud_gpu", model="spot",
           vcpus=96, ram=1152, gpus=8)  # fmt: skip
HETZNER = tier("hetzner-ax-fsn1", "40", kind="dedicated", vcpus=16, ram=64, managed=False,
               min_term=48)  # fmt: skip
OLD = tier("old-box", "200", name="Old Box", kind="dedicated", vcpus=8, ram=16, managed=True)
OLD["stale"] = True
CATALOG = frame(EXTREME_ROW, P4D, HETZNER, OLD, C5_4X_SPOT)
GBM_PLAN = {"kind": "gbm", "trainings_per_month": 900, "rows": 10_000_000, "features": 100,
            "trees": 1000}  # fmt: skip
DL_PLAN = {"kind": "deep_learning", "task": "vit_from_scratch", "gpu_hours_per_month": 100}
EXTREME_REF = TierRef("inmotion-extreme", "Extreme Dedicated")


def run(**plan):
    data = {"currency": "USD", "baseline": {"monthly": 480}, "workloads": [GBM_PLAN]} | plan
    lookup = {("inmotion-extreme", "gbm"): measured("gbm", 1e9)}
    return compare(parse_plan(data), CATALOG, lookup, as_of=AS_OF)


def option(result, key: str):
    [found] = [o for o in result.options if o.key == key]
    return found


def notes(result, key: str) -> dict[str, Message]:
    return {n.code: n for n in option(result, key).notes}


# --- option labels --------------------------------------------------------------------------


def test_a_tier_option_is_labelled_by_the_tiers_name():
    label = option(run(), "tier:inmotion-extreme").label
    assert label == msg("common.text", text=EXTREME_REF)
    assert str(label) == "Extreme Dedicated"


def test_a_fixed_count_and_usage_parts_are_labelled_part_by_part():
    result = run(
        workloads=[GBM_PLAN, DL_PLAN],
        candidates=[
            {"parts": [{"tier": "inmotion-extreme", "count": 2},
                       {"tier": P4D["slug"], "gpu_hours_per_month": "12.5"},
                       {"tier": P4D["slug"], "instance_hours_per_month": 15},
                       {"tier": P4D["slug"], "mode": "usage"}]},
        ],
    )  # fmt: skip
    label = option(result, "candidate:0").label
    p4d = TierRef(P4D["slug"], P4D["slug"])
    fixed = msg("engine.option_fixed", count=2, tier=EXTREME_REF)
    gpu = msg("engine.option_gpu_hours", hours=Number(Decimal("12.5")), tier=p4d)
    instance = msg("engine.option_instance_hours", hours=Number(Decimal("15")), tier=p4d)
    deep = msg("engine.option_dl_gpu_hours", tier=p4d)
    assert label == msg(
        "engine.option_plus", first=fixed,
        rest=msg("engine.option_plus", first=gpu,
                 rest=msg("engine.option_plus", first=instance, rest=deep)),
    )  # fmt: skip
    assert str(label) == (
        f"2 × Extreme Dedicated + 12.5 GPU-hours a month of {p4d.slug} + 15 "
        f"instance-hours a month of {p4d.slug} + the deep-learning GPU-hours a month of {p4d.slug}"
    )
    usage = [p.usage_hours for p in option(result, "candidate:0").parts]
    assert usage == [None, gpu, instance, deep]


def test_a_named_candidate_keeps_the_managers_name():
    result = run(candidates=[{"name": "Plan B: one box", "tier": "inmotion-extreme", "count": 1}])
    assert option(result, "candidate:0").label == msg("common.text", text="Plan B: one box")


# --- notes on an option ---------------------------------------------------------------------


def test_an_unconfirmed_price_and_a_stale_one_are_notes_with_the_tier_and_the_date():
    result = run(candidates=[{"tier": "inmotion-extreme", "count": 1},
                             {"tier": "old-box", "count": 1}])  # fmt: skip
    assert notes(result, "candidate:0")["engine.note_price_unconfirmed"] == msg(
        "engine.note_price_unconfirmed", tier=EXTREME_REF
    )
    stale = notes(result, "candidate:1")["engine.note_price_stale"]
    assert stale.params == {"tier": TierRef("old-box", "Old Box"), "date": dt.date(2026, 1, 19)}
    assert str(stale) == "Old Box: price stale (effective 2026-01-19)"


def test_a_self_managed_server_notes_the_published_operations_default_and_its_minimum_term():
    result = run(candidates=[{"tier": "hetzner-ax-fsn1", "count": 1}])
    said = notes(result, "candidate:0")
    ops = said["engine.note_ops_default"]
    assert ops.params["amount"] == Number(Decimal("1690"))
    assert str(ops).startswith("hetzner-ax-fsn1: operations at the published default of 1690 ")
    term = said["engine.note_min_term"]
    assert term.params == {"tier": TierRef("hetzner-ax-fsn1", "hetzner-ax-fsn1"), "owed": 12,
                           "month": 36}  # fmt: skip
    assert str(term) == (
        "hetzner-ax-fsn1: minimum term beyond the horizon, 12 more months owed "
        "(charged in month 36)"
    )


def test_a_spot_tier_notes_the_allowance_as_a_percentage_with_the_plans_digits():
    result = run(candidates=[{"tier": C5_4X_SPOT["slug"], "count": 1}])
    spot = notes(result, "candidate:0")["engine.note_spot"]
    assert spot.params["share"] == Percent(Decimal("0.10"), 2)
    assert "spot, 10.00 % of work allowed" in str(spot)
    again = run(candidates=[{"tier": C5_4X_SPOT["slug"], "count": 1}],
                spot_interruption_allowance="0.125")  # fmt: skip
    assert "spot, 12.500 % of work" in str(notes(again, "candidate:0")["engine.note_spot"])


def test_a_fixed_count_below_the_models_need_and_deep_learning_left_on_gpus_are_notes():
    busy = GBM_PLAN | {"trainings_per_month": 3000}
    result = run(workloads=[busy, DL_PLAN], candidates=[{"tier": "inmotion-extreme", "count": 1}])
    said = notes(result, "candidate:0")
    check = result.options[0].capacity_check  # issue 21: the fixed count against the work
    assert check.status == "cannot_carry" and (check.from_month, check.needed) == (1, 2)
    assert check.said.code == "engine.capacity_cannot_carry"
    assert check.said.params == {"month": 1, "tier": EXTREME_REF, "need": 2, "count": 1}
    assert result.headline.best is None  # the only option cannot carry it: never best
    assert said["engine.note_deep_learning_stays"].params == {"hours": Number(Decimal("100"))}


# --- the headline and payback -------------------------------------------------------------


def test_a_saving_headline_names_the_option_the_amounts_and_when_it_pays_back():
    result = run(
        candidates=[{"tier": "inmotion-extreme", "count": 1}],
        one_time={"migration_hours": 5, "migration_rate": 100},
    )
    saves, unconfirmed, later = result.headline.sentences
    assert saves.code == "engine.headline_saves_fraction"
    assert saves.params["option"] == option(result, "candidate:0").label
    assert saves.params["monthly"] == Money(Decimal("130.01"), "USD")
    assert saves.params["yearly"] == Number(Decimal("1560.12"), 2)
    assert saves.params["when"] == msg("engine.payback_in_month", month=4)
    assert saves.params["fraction"] == Number(Decimal("3.85"), 2)
    assert unconfirmed == msg("engine.headline_unconfirmed")
    items = [msg("engine.cost_running_both"), msg("engine.cost_retraining")]
    assert later == msg("engine.headline_not_entered", items=items)
    assert result.headline.sentence == (
        "1 × Extreme Dedicated saves 130.01 USD a month (1560.12 a year) and pays back in "
        "month 4 (3.85 months). Its price is an unconfirmed quote. Not entered yet: running both, "
        "retraining."
    )
    assert result.headline.payback == msg("engine.payback_month", month=4)


def test_staying_cheapest_and_nothing_priced_are_headlines_too():
    stay = run(baseline={"monthly": 100}, candidates=[{"tier": "inmotion-extreme", "count": 1}])
    first = stay.headline.sentences[0]
    assert first.code == "engine.headline_stay"
    assert first.params["months"] == 36
    assert first.params["more"] == Money(Decimal("8999.64"), "USD")
    nothing = run(candidates=[{"tier": "not-in-the-catalog", "count": 1}])
    assert nothing.headline.sentences[0] == msg("engine.headline_none")


def test_an_estimate_is_said_in_the_headline():
    factor = SpeedFactor("inmotion-extreme", 0.5, "throughput_ratio", "spec", "staff", AS_OF)
    data = {"currency": "USD", "baseline": {"monthly": 4800}, "workloads": [GBM_PLAN],
            "candidates": [{"tier": "old-box"}]}  # fmt: skip
    lookup = {("inmotion-extreme", "gbm"): measured("gbm", 1e9)}
    result = compare(parse_plan(data), CATALOG, lookup, {"old-box": factor}, as_of=AS_OF)
    assert msg("engine.headline_estimate") in result.headline.sentences


def test_payback_messages_follow_the_labels_rule():
    cases = [(1, 0, "immediately"), (1, 500, "within the first billing period"),
             (7, 500, "month 7"), (None, 0, "never")]  # fmt: skip
    for month, one_time, label in cases:
        assert plain(tco.payback_message(month, Decimal(one_time))) == label


# --- why a tier gets no figure --------------------------------------------------------------


def test_a_candidate_the_engine_cannot_price_gets_a_reason_message():
    result = run(
        workloads=[GBM_PLAN, DL_PLAN],
        candidates=[{"tier": "not-in-the-catalog", "count": 1},
                    {"tier": "inmotion-extreme", "gpu_hours_per_month": 10}],
    )  # fmt: skip
    reasons = {n.tier: n.reason for n in result.no_number}
    assert reasons["not-in-the-catalog"] == msg("engine.no_price")
    assert reasons["inmotion-extreme"] == msg("engine.gpu_hours_need_gpu_count")


def test_the_frames_dropped_tiers_keep_their_reason_as_a_string_or_a_message():
    catalog = frame(EXTREME_ROW)
    said = msg("engine.no_price")
    catalog.attrs["dropped"] = [{"slug": "a", "reason": "no EUR→USD rate on or before 2026-02-01"},
                                {"slug": "b", "reason": said}]  # fmt: skip
    data = {"currency": "USD", "baseline": {"monthly": 480}, "workloads": [GBM_PLAN]}
    result = compare(parse_plan(data), catalog, {}, as_of=AS_OF)
    reasons = {n.tier: n.reason for n in result.no_number if hasattr(n, "reason")}
    assert reasons["a"] == msg("common.text", text="no EUR→USD rate on or before 2026-02-01")
    assert reasons["b"] is said


def test_capacity_reasons_name_the_workload_and_nest_the_problem():
    [reason] = one([GBM], {}).reasons
    assert reason == msg("capacity.workload_reason", workload="gbm #1",
                         problem=Message("capacity.no_measurement", {"class": "gbm"}))  # fmt: skip
    [specs] = one([GBM], {}, row=("x", None, None, "on_demand")).reasons[:1]
    assert specs == msg("capacity.specs_unknown")


def test_a_speed_factor_without_a_measured_reference_nests_the_first_reason():
    factor = SpeedFactor("extreme", 0.5, "throughput_ratio", "spec sheet", "staff", AS_OF)
    table = size_tiers(tiers(EXTREME, C5), [GBM], {}, speed_factors={"c5": factor})
    problem = table.result(1).reasons[0].params["problem"]
    assert problem.code == "capacity.reference_has_none"
    assert problem.params["tier"] == TierRef("extreme")
    assert problem.params["reason"] == Message("capacity.no_measurement", {"class": "gbm"})


def test_a_measurement_that_lacks_what_the_workload_needs_says_what():
    search = SklearnWorkload("sklearn", searches_per_month=1, grid_size=2, folds=2, rows=10,
                             features=1)  # fmt: skip
    lacks = one([search], {("extreme", "sklearn"): measured("sklearn", 2.0)}).reasons[0]
    assert lacks.params["problem"] == Message(
        "capacity.measurement_lacks",
        {"class": "sklearn", "what": msg("capacity.needs_rows_features")},
    )
    grid = HpoWorkload("hpo", searches_per_month=1, trials=8, trial_hours_single_thread=0.5)
    lacks = one([grid], {("extreme", "hpo"): measured("hpo", 512, 16)}).reasons[0]
    assert lacks.params["problem"].params["what"] == msg("capacity.needs_trial_length")


def test_inference_reasons_carry_their_bounds_as_numbers():
    serve = InferenceWorkload("inference", peak_rps=100, p99_ms=50)
    bare = one([serve], {("extreme", "inference"): measured("inference", 200, 1)}).reasons[0]
    assert bare.params["problem"] == msg("capacity.no_service_times")
    slow = measured("inference", 200, 1, mean_s=0.005, p99_s=0.0625)
    over = one([serve], {("extreme", "inference"): slow}).reasons[0].params["problem"]
    assert over == msg("capacity.own_p99_over_bound", p99=Number(Decimal("62.5")),
                       bound=Number(Decimal("50")))  # fmt: skip
    samples = [0.001] * 90 + [0.1] * 10
    tail = measured("inference", 200, 1, mean_s=0.0109, p99_s=0.01, service_times_s=samples)
    table = size_tiers(tiers(EXTREME), [serve], {("extreme", "inference"): tail})
    table.verify_inference(0)
    never = table.result(0).reasons[0].params["problem"]
    assert never == msg("capacity.no_workers_meet_bound", bound=Number(Decimal("50")))


def test_a_missed_deadline_and_a_working_set_too_big_carry_their_figures():
    nightly = GbmWorkload("gbm", name="nightly", trainings_per_month=30, rows=10_000_000,
                          features=100, trees=1000, deadline_hours=0.25)  # fmt: skip
    late = one([nightly], {("extreme", "gbm"): measured("gbm", 1e9)}).reasons[0].params["problem"]
    assert late == msg("capacity.deadline_missed", hours=Number(Decimal("0.28"), 2),
                       threads=Number(Decimal("32")), deadline=Number(Decimal("0.25")),
                       kind="gbm")  # fmt: skip
    features = FeaturesWorkload("features", runs_per_month=20, dataset_gb=40)
    big = one([features], {("c5", "features"): measured("features", 0.5)}, row=C5)
    assert big.reasons[0].params["problem"] == msg(
        "capacity.must_fit_one_box", need=Number(Decimal("37.25"), 2), ram=Number(Decimal("32"))
    )


# --- where a figure comes from ------------------------------------------------------------


def test_an_estimate_a_prediction_and_its_reach_are_labels():
    factor = SpeedFactor("extreme", 0.5, "throughput_ratio", "spec sheet", "staff", AS_OF)
    # The run records its memory ratio, so no memory estimate joins the labels.
    lookup = {("extreme", "gbm"): measured("gbm", 1e9, rss_per_input_gb=1.5)}
    table = size_tiers(tiers(EXTREME, C5), [GBM], lookup, speed_factors={"c5": factor})
    assert table.result(1).labels == [
        msg("capacity.label_estimate", factor=Number(Decimal("0.5")), unit="throughput_ratio",
            tier=TierRef("extreme"))
    ]  # fmt: skip
    reach = msg("common.text", text="extrapolated 2.0× beyond the largest measured 16 threads")
    fitted = measured("gbm", 1e9, measured=False, fit="usl", extrapolation=reach)
    labels = one([GBM], {("extreme", "gbm"): fitted}).labels
    assert msg("capacity.label_predicted", fit="usl", host="epyc-1") in labels
    assert reach in labels


def test_a_workload_outside_the_trusted_range_and_a_provisional_pool_are_labelled():
    ranged = measured("gbm", 1e9, trusted_range={"param": "rows", "min": 1e4, "max": 1e6},
                      rss_per_input_gb=1.5)  # fmt: skip
    [label] = one([GBM], {("extreme", "gbm"): ranged}).labels
    assert label == msg("capacity.label_out_of_range", param="rows", given="1e+07",
                        low=Number(Decimal("10000")), high="1e+06")  # fmt: skip
    assert str(label) == "extrapolated: rows 1e+07 outside the profile's trusted range 10000–1e+06"

    serve = InferenceWorkload("inference", peak_rps=100, p99_ms=50)
    wide = measured("inference", 50, 1, mean_s=0.02, p99_s=0.04)  # exponential: M/M/c can't
    labels = one([serve], {("extreme", "inference"): wide}).labels
    assert msg("capacity.label_provisional") in labels


def test_deep_learning_stays_on_gpus_with_its_task_said():
    finetune = DeepLearningWorkload("deep_learning", task="llm_finetune")
    table = size_tiers(tiers(EXTREME), [GBM, finetune], {})
    [stays] = table.stays_on_gpu
    assert stays["reason"] == msg("capacity.stays_on_gpu", task=msg("capacity.task_llm_finetune"))
    assert str(stays["reason"]).startswith("llm finetune stays on GPUs: ")


# --- reasons from elsewhere, and figures ----------------------------------------------------


def test_as_message_takes_a_message_a_string_or_an_exception_carrying_either():
    said = msg("engine.no_price")
    assert as_message(said) is said
    assert as_message(NoMeasurement(said)) is said
    assert as_message("nothing here") == msg("common.text", text="nothing here")
    assert as_message(NoMeasurement("nothing here")) == msg("common.text", text="nothing here")


def test_a_figure_keeps_the_digits_english_always_showed():
    assert figure(32.0) == Number(Decimal("32"))
    assert figure(0.2777, ".2f") == Number(Decimal("0.28"), 2)
    assert figure(5e7) == "5e+07"  # an exponent reads the same in every language
    assert figure(float("inf")) == "inf"


def test_every_message_of_a_comparison_survives_its_json_form():
    result = run(
        workloads=[GBM_PLAN, DL_PLAN],
        candidates=[{"tier": "inmotion-extreme", "count": 1}, {"tier": "hetzner-ax-fsn1"},
                    {"tier": P4D["slug"], "gpu_hours_per_month": 10}],
    )  # fmt: skip
    data = result.output().model_dump()
    entries = [m for o in data["options"] for m in o["messages"]] + data["headline"]["messages"]
    assert entries
    for entry in entries:
        assert plain(Message.from_json(entry)) == entry["text"]
