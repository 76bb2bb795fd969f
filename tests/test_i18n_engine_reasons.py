# ruff: noqa: RUF001, RUF003  (the engine's own ×, – and ≥ in the texts under test)
"""Why a tier has no figure, and how far a fit reaches, said in German on the pages.

The reasons come from the real engine, capacity model, pricing and benchmark selectors
on small inputs, as messages; the API keeps their English word for word (`str()` of a
message is that English). The engine's and the capacity model's reasons have German of
their own; the catalog's, the lookups' and the selectors' reasons are carried through as
their sources say them (strings today, wrapped by `as_message`, messages once those apps
say them so): those tests check that they arrive whole, in English for the API and as
the page renders them.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest

from benchmarks_app import scaling
from benchmarks_app.evidence import NoMeasurement
from benchmarks_app.selectors import best_measurement
from catalog.models import Tier
from catalog.pricing import catalog_frame
from common.django.message_render import render
from common.messages import Message
from planner.compute.capacity import SpeedFactor, size_tiers
from planner.compute.engine import compare
from planner.compute.message_fields import as_message
from planner.compute.schema import (
    FeaturesWorkload,
    GbmWorkload,
    HpoWorkload,
    InferenceWorkload,
    SklearnWorkload,
    parse_plan,
)
from planner.services import inputs as engine_inputs
from tests.support.bench import content, finished_run, target, version
from tests.support.capacity import C5, EXTREME, GBM, measured, one, tiers
from tests.support.catalog import add_price, make_tier
from tests.support.dashboard import DEDICATED, edit_url, login, saved_plan, small_catalog
from tests.support.engine import AS_OF
from tests.support.engine import EXTREME as EXTREME_ROW
from tests.support.engine import frame as engine_frame

AMDAHL = {k: 100 * k / (1 + 0.05 * (k - 1)) for k in (1, 2, 4, 8)}


def de(reason: Message) -> str:
    return render(reason, "de")


def english(reason: Message, text: str) -> str:
    """The German text, checking on the way that the API's English is the engine's words."""
    assert str(reason) == text
    assert render(reason, "en") == text  # no figure here that English pages format otherwise
    return de(reason)


def no_measurement(call, *args) -> NoMeasurement:
    with pytest.raises(NoMeasurement) as caught:
        call(*args)
    return caught.value


# --- planner/compute/engine.py ------------------------------------------------------------


def engine_reason(**plan) -> Message:
    data = {"currency": "USD", "baseline": {"monthly": 900}, "horizon_months": 12} | plan
    result = compare(parse_plan(data), engine_frame(EXTREME_ROW), {}, as_of=AS_OF)
    [missing] = result.no_number
    return missing.reason


def test_a_tier_without_a_price_says_so_in_german():
    reason = engine_reason(candidates=[{"tier": "not-in-the-catalog", "count": 1}])
    assert english(reason, "no price in the catalog on or before the plan's date") == (
        "kein Preis im Katalog zum oder vor dem Datum des Plans"
    )


def test_gpu_hours_without_a_gpu_count_say_so_in_german():
    reason = engine_reason(candidates=[{"tier": "inmotion-extreme", "gpu_hours_per_month": 10}])
    assert de(reason) == (
        "GPU-Stunden brauchen die GPU-Anzahl des Tarifs, die im Katalog fehlt; "
        "bitte Instanzstunden angeben"
    )


@pytest.mark.django_db
def test_a_tier_left_out_for_want_of_an_exchange_rate_carries_the_catalogs_reason():
    tier = make_tier("hetzner-ax102", provider="Hetzner", kind="dedicated", region="")
    add_price(tier, "104.00", "2026-01-05", unit="month", currency="EUR")
    frame = catalog_frame(dt.date(2026, 2, 1), "USD")
    [dropped] = frame.attrs["dropped"]
    plan = parse_plan(
        {
            "currency": "USD",
            "baseline": {"monthly": 900},
            "candidates": [{"tier": tier.slug, "count": 1}],
        }
    )
    result = compare(plan, frame, {}, as_of=dt.date(2026, 2, 1))
    entries = result.output().model_dump()["no_number"]
    assert {e["tier"] for e in entries} == {tier.slug}  # the candidate, and the frame's drop
    entry = entries[0]
    assert entry["reason"] == "no EUR→USD rate on or before 2026-02-01"  # the API's English
    [said] = entry["messages"]
    assert said["field"] == "reason"
    assert Message.from_json(said) == as_message(dropped["reason"])
    assert "EUR→USD" in de(as_message(dropped["reason"]))


# --- planner/compute/capacity.py -------------------------------------------------------------


def test_specs_unknown_in_german():
    result = one([GBM], {("x", "gbm"): measured("gbm", 1e9)}, row=("x", None, None, "on_demand"))
    [reason] = result.reasons
    assert english(reason, "specs unknown: the tier lists no vCPU count or RAM") == (
        "Ausstattung unbekannt: Der Tarif nennt keine vCPU-Anzahl oder keine RAM-Größe"
    )


def test_a_workload_without_a_measurement_keeps_its_name_and_says_why_in_german():
    [reason] = one([GBM], {}).reasons
    assert english(reason, "gbm #1: no gbm measurement on a target linked to this tier") == (
        "Arbeitslast gbm #1: keine gbm-Messung auf einem mit diesem Tarif verknüpften Zielsystem"
    )


def test_a_speed_factor_whose_reference_has_no_measurement_either():
    factor = SpeedFactor("extreme", 0.5, "throughput_ratio", "spec sheet", "staff", AS_OF)
    table = size_tiers(tiers(EXTREME, C5), [GBM], {}, speed_factors={"c5": factor})
    [reason] = table.result(1).reasons
    assert str(reason).endswith("; the speed factor's reference extreme has none either")
    assert de(reason) == (
        "Arbeitslast gbm #1: keine gbm-Messung auf einem mit diesem Tarif verknüpften "
        "Zielsystem; auch extreme, die Referenz des Geschwindigkeitsfaktors, hat keine"
    )


def test_a_measurement_lacking_what_the_workload_needs():
    search = SklearnWorkload(
        "sklearn", searches_per_month=1, grid_size=2, folds=2, rows=10, features=1
    )
    [reason] = one([search], {("extreme", "sklearn"): measured("sklearn", 2.0)}).reasons
    assert de(reason) == (
        "Arbeitslast sklearn #1: der sklearn-Messung fehlt die Zeilen- und Merkmalszahl des "
        "Profils (R₀, F₀)"
    )
    grid = HpoWorkload("hpo", name="nightly grid", searches_per_month=1, trials=8,
                       trial_hours_single_thread=0.5)  # fmt: skip
    [reason] = one([grid], {("extreme", "hpo"): measured("hpo", 512, 16)}).reasons
    assert de(reason) == (
        "Arbeitslast nightly grid: der hpo-Messung fehlt die Trial-Dauer des Profils mit "
        "einem Thread (t₀)"
    )


def test_an_inference_measurement_without_service_times():
    serve = InferenceWorkload("inference", peak_rps=100, p99_ms=50)
    [reason] = one([serve], {("extreme", "inference"): measured("inference", 200, 1)}).reasons
    assert de(reason) == "Arbeitslast inference #1: der Inferenz-Messung fehlen die Bedienzeiten"


def test_service_times_over_the_bound_rule_the_tier_out_in_german():
    serve = InferenceWorkload("inference", peak_rps=100, p99_ms=50)
    m = measured("inference", 200, 1, mean_s=0.005, p99_s=0.0625)
    [reason] = one([serve], {("extreme", "inference"): m}).reasons
    assert english(
        reason,
        "inference #1: the measured service times' own p99 (62.5 ms) exceeds the 50 ms "
        "bound: no number of workers meets it",
    ) == (
        "Arbeitslast inference #1: schon das p99 der gemessenen Bedienzeiten (62,5 ms) liegt "
        "über der Grenze von 50 ms: keine Anzahl von Workern hält sie ein"
    )


def test_a_simulated_pool_that_never_meets_the_bound_in_german():
    serve = InferenceWorkload("inference", peak_rps=100, p99_ms=50)
    samples = [0.001] * 90 + [0.1] * 10  # a tenth of the requests alone take 100 ms
    m = measured("inference", 200, 1, mean_s=0.0109, p99_s=0.01, service_times_s=samples)
    table = size_tiers(tiers(EXTREME), [serve], {("extreme", "inference"): m})
    table.verify_inference(0)
    [reason] = table.result(0).reasons
    assert english(reason, "inference #1: no number of workers meets the 50 ms p99 bound") == (
        "Arbeitslast inference #1: keine Anzahl von Workern hält die p99-Grenze von 50 ms ein"
    )


def test_a_job_longer_than_its_deadline_with_german_numbers():
    nightly = GbmWorkload("gbm", name="nightly", trainings_per_month=30, rows=10_000_000,
                          features=100, trees=1000, deadline_hours=0.25)  # fmt: skip
    [reason] = one([nightly], {("extreme", "gbm"): measured("gbm", 1e9)}).reasons
    assert "0.28 h" in str(reason)
    assert de(reason) == (
        "Arbeitslast nightly: ein Job dauert 0,28 h auf einem Server mit 32 Threads, länger "
        "als seine Frist von 0,25 h, und ein gbm-Job lässt sich nicht auf mehrere Server "
        "aufteilen"
    )


def test_a_working_set_that_must_fit_one_box_with_german_numbers():
    features = FeaturesWorkload("features", runs_per_month=20, dataset_gb=40)
    [reason] = one([features], {("c5", "features"): measured("features", 0.5)}, row=C5).reasons
    assert english(
        reason, "features #1: working set 37.25 GiB must fit one box; the tier has 32 GiB"
    ) == (
        "Arbeitslast features #1: die Arbeitsdaten (37,25 GiB) müssen in den RAM eines "
        "Servers passen; der Tarif hat 32 GiB"
    )


def test_a_workload_name_holding_a_colon_keeps_it():
    named = GbmWorkload("gbm", name="team: churn", trainings_per_month=1, rows=1, features=1,
                        trees=1)  # fmt: skip
    [reason] = one([named], {}).reasons
    assert de(reason) == (
        "Arbeitslast team: churn: keine gbm-Messung auf einem mit diesem Tarif verknüpften "
        "Zielsystem"
    )


def test_a_reason_from_benchmarks_said_as_a_message_is_said_in_german():
    """Once a selector raises NoMeasurement with a message, the page says it in German."""
    said = Message("capacity.no_measurement", {"class": "gbm"})
    [reason] = one([GBM], {("extreme", "gbm"): NoMeasurement(said)}).reasons
    assert reason.params["problem"] == said
    assert de(reason).endswith(
        "keine gbm-Messung auf einem mit diesem Tarif verknüpften Zielsystem"
    )


# --- the lookups (planner/services) and benchmarks_app/selectors.py ----------------------


@pytest.mark.django_db
def test_the_lookups_reasons_reach_the_capacity_model_whole():
    make_tier("no-specs", vcpus=None)
    found = engine_inputs.best_measurements(["gone", "no-specs"], ["gbm"])
    for slug, english_text in [
        ("gone", "tier gone is not in the catalog"),
        ("no-specs", "specs unknown: tier no-specs lists no vCPU count to measure at"),
    ]:
        [reason] = one([GBM], {("extreme", "gbm"): found[slug, "gbm"]}).reasons
        assert str(reason) == f"gbm #1: {english_text}"
        assert slug in de(reason) and de(reason).startswith("Arbeitslast gbm #1: ")


@pytest.mark.django_db
def test_the_selectors_reasons_reach_the_capacity_model_whole():
    tgt = target("epyc")
    version()
    reason = no_measurement(best_measurement, "gbm", tgt, 1)
    assert str(reason) == "no succeeded standard or full run of gbm (toy-gbm 1.0) on target epyc"
    [said] = one([GBM], {("extreme", "gbm"): reason}).reasons
    assert said.params["problem"] == as_message(reason)
    assert "toy-gbm 1.0" in de(said) and "epyc" in de(said)


@pytest.mark.django_db
def test_older_profile_versions_on_a_tier_reach_the_capacity_model_whole():
    tier = make_tier("linked-tier")
    tgt = target("linked")
    tgt.tier = tier
    tgt.save()
    finished_run(version(), tgt, AMDAHL)
    version(content(version="1.1.0"))
    reason = no_measurement(best_measurement, "gbm", tier, 1)
    [said] = one([GBM], {("extreme", "gbm"): reason}).reasons
    assert str(said) == f"gbm #1: {reason}"
    assert "linked-tier" in de(said) and "toy-gbm 1.1" in de(said)


# --- benchmarks_app/scaling.py: how far a prediction reaches -----------------------------


@pytest.mark.django_db
def test_a_predicted_figure_carries_how_far_it_extrapolates():
    tgt = target("epyc")
    finished_run(version(), tgt, AMDAHL)
    found = best_measurement("gbm", tgt, 16)
    assert str(found.extrapolation) == "extrapolated 2.0× beyond the largest measured 8 threads"
    result = one([GBM], {("extreme", "gbm"): found})
    assert as_message(found.extrapolation) in result.labels


def test_interpolation_and_extrapolation_below_are_labels_too():
    fit = scaling.best_fit([2, 4, 8, 16], [AMDAHL[2], AMDAHL[4], AMDAHL[8], 700.0], host="h")
    inside = scaling.predict(fit, 6, host="h").label
    below = scaling.predict(fit, 1, host="h").label
    assert str(inside) == "interpolated within the measured 2–16 threads"
    assert str(below) == "extrapolated 2.0× below the smallest measured 2 threads"


# --- the page -------------------------------------------------------------------------------


def german(user):
    client = login(user)
    assert client.post("/i18n/setlang/", {"language": "de", "next": "/"}).status_code == 302
    return client


GBM_PLAN = {"kind": "gbm", "trainings_per_month": 20, "rows": 2_000_000, "features": 200,
            "trees": 500}  # fmt: skip


@pytest.mark.django_db
def test_the_german_page_says_why_a_tier_has_no_figure_in_german(owner, own_cache):
    small_catalog()
    version()  # a gbm profile, with no run on any target linked to the tier
    plan = saved_plan(owner, candidates=[{"tier": DEDICATED}], workloads=[GBM_PLAN])
    english_page = login(owner).get(edit_url(plan)).content.decode()
    # Tiers, profiles and the unnamed workload by the names a reader knows, not their keys.
    said = ("no succeeded standard or full run of gradient boosting (Toy GBM 1.0) on tier "
            "Test Hosting Extreme · monthly")  # fmt: skip
    assert (f'<span class="muted reasons">Gradient boosting trainings '
            f"(XGBoost, LightGBM) #1: {said}; no estimate either: the catalog names no CPU "
            f"for Test Hosting Extreme · monthly</span>") in english_page  # fmt: skip

    html = german(owner).get(edit_url(plan)).content.decode()
    assert '<html lang="de">' in html
    assert "1 Tarif hat für diese Arbeitslast keine" in html
    gesagt = ("kein erfolgreicher Lauf der Größe Standard oder Voll von Gradient Boosting "
              "(Toy GBM 1.0) auf Tarif Test Hosting Extreme · monatlich")  # fmt: skip
    gesagt = f"Gradient-Boosting-Trainings (XGBoost, LightGBM) #1: {gesagt}; "
    assert f'<span class="muted reasons">Arbeitslast {gesagt}' in html


@pytest.mark.django_db
def test_the_german_popovers_say_a_workloads_reason_and_a_fits_reach(owner, own_cache):
    small_catalog()
    host = target("epyc-4545p", hardware_threads=32, usable_cpus=32)
    host.tier = Tier.objects.get(slug=DEDICATED)
    host.save(update_fields=["tier"])
    finished_run(version(), host, AMDAHL)  # measured up to 8 threads; the tier has 32
    nn = {"kind": "nn", "trainings_per_month": 1, "samples": 1000, "epochs": 1}
    plan = saved_plan(owner, candidates=[{"tier": DEDICATED, "count": 1}], workloads=[GBM_PLAN, nn])

    english_page = login(owner).get(edit_url(plan)).content.decode()
    assert "<em>extrapolated 4.0× beyond the largest measured 8 threads</em>" in english_page
    assert "no benchmark profile of class &#x27;nn&#x27;" in english_page

    html = german(owner).get(edit_url(plan)).content.decode()
    # The fixed-count option is priced; its popover says where each workload's figure is from.
    reach = best_measurement("gbm", host, 32).extrapolation
    assert f"<em>{de(as_message(reach))}</em>" in html
    missing = no_measurement(best_measurement, "nn", host, 32)
    shown = de(as_message(missing)).replace("'", "&#x27;")
    assert re.search(rf"<strong>nn #2</strong>:\s+{re.escape(shown)}", html)
