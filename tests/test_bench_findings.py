"""`benchmarks_app.findings`: what `best_measurements` answers, kept compact. A tier with no
run is answered by one reason per cause and class with the tier left out (`Why`), its
message made when read, equal (code, parameters and their order) to the one made for it
alone; a tier's classes share its "on tier …" as they did."""

import json
import pickle
from dataclasses import replace
from decimal import Decimal

import pandas as pd
import pytest

from benchmarks_app.evidence import BestMeasurement, NoMeasurement
from benchmarks_app.findings import TIER, Findings, Why
from benchmarks_app.selectors import best_measurement, best_measurements
from common.messages import Message, ProfileRef, TierRef
from planner.compute import uncertainty
from planner.compute.schema import parse_plan
from tests.support.bench import content, finished_run, target, version
from tests.support.catalog import make_tier

pytestmark = pytest.mark.django_db
SERIES = [ProfileRef("toy-gbm", "1.0")]
PLAN = parse_plan(
    {"currency": "USD", "baseline": {"monthly": "480"}, "candidates": [{"tier": "x", "count": 1}]}
)


def said(message: Message) -> str:
    """The message as the API writes it: code, parameters and their order."""
    return json.dumps(message.to_json())


def no_sizing_run(slug: str) -> Message:
    where = Message("benchmarks.on_tier", {"tier": TierRef(slug)})
    return Message("benchmarks.no_sizing_run", {"class": "gbm", "series": SERIES, "where": where})


def test_tiers_without_a_run_share_one_reason_per_cause_and_each_reads_its_own():
    version()
    slugs = [f"test-{i}" for i in range(40)]
    for slug in slugs:
        make_tier(slug, provider="Test", vcpus=4)
    make_tier("test-no-specs", provider="Test", vcpus=None)
    asked = [*slugs, "test-no-specs", "test-gone"]
    found = best_measurements(asked, ["gbm", "nn"])
    assert isinstance(found, Findings) and len(found) == 2 * len(asked)
    assert list(found)[:3] == [("test-0", "gbm"), ("test-0", "nn"), ("test-1", "gbm")]
    # gbm's "no sizing run", nn's "no profile", "not in the catalog", "no vCPU count"
    assert len({id(held) for _slug, _cls, held in found.held()}) == 4
    for slug in slugs:
        reason = found[slug, "gbm"]
        assert isinstance(reason, NoMeasurement) and not isinstance(reason, BestMeasurement)
        assert said(reason.message) == said(no_sizing_run(slug))
        assert (
            str(reason) == f"no succeeded standard or full run of gbm (toy-gbm 1.0) on tier {slug}"
        )
    gone = found["test-gone", "nn"].message
    assert said(gone) == said(
        Message("benchmarks.tier_not_in_catalog", {"tier": TierRef("test-gone")})
    )
    assert ("test-gone", "gbm") in found and ("test-gone", "hpo") not in found
    with pytest.raises(KeyError):
        found["test-elsewhere", "gbm"]


def test_the_one_lookup_and_the_batch_say_the_same():
    version()
    tier = make_tier("test-alone", provider="Test", vcpus=4)
    host = target("epyc")
    host.tier = tier
    host.save()
    finished_run(version(content(version="1.1.0")), host, {1: 10.0, 2: 20.0}, scale="smoke")
    with pytest.raises(NoMeasurement) as alone:
        best_measurement("gbm", tier, 4)
    found = best_measurements(["test-alone"], ["gbm"])["test-alone", "gbm"]
    assert found.message.code == "benchmarks.only_smoke_runs"
    assert said(found.message) == said(alone.value.message)


def test_a_tiers_classes_share_its_on_tier_message_and_a_cause_naming_no_tier_is_shared():
    version()
    version(content(name="toy-sk", workload_class="sklearn", runner="sklearn"))
    for slug in ("test-a", "test-b"):
        make_tier(slug, provider="Test", vcpus=4)
    found = best_measurements(["test-a", "test-b", "test-gone"], ["gbm", "sklearn"])
    asked = ["test-b", "test-elsewhere", "test-a", "test-gone"]
    columns = found.columns(asked, ["gbm", "sklearn", "hpo"])
    gbm, sklearn, hpo = columns["gbm"], columns["sklearn"], columns["hpo"]
    assert hpo == [None] * 4 and gbm[1] is None and sklearn[1] is None
    assert said(gbm[2]) == said(no_sizing_run("test-a"))
    assert gbm[0].params["where"] is sklearn[0].params["where"]  # said once for the tier
    assert gbm[0].params["where"] is not gbm[2].params["where"]
    assert gbm[3] is sklearn[3]  # "not in the catalog": one reason for all its classes
    for cls, column in (("gbm", gbm), ("sklearn", sklearn)):
        for slug, message in zip(asked, column, strict=True):
            if message is not None:  # each equal to the reason read pair by pair
                assert said(message) == said(found[slug, cls].message)


def test_a_reason_read_from_the_findings_survives_pickle_as_a_plain_no_measurement():
    version()
    make_tier("test-a", provider="Test", vcpus=4)
    reason = best_measurements(["test-a"], ["gbm"])["test-a", "gbm"]
    back = pickle.loads(pickle.dumps(reason))
    assert type(back) is NoMeasurement and said(back.message) == said(no_sizing_run("test-a"))


def test_a_shape_is_checked_once_and_names_no_tier_it_does_not_need():
    with pytest.raises(KeyError):
        Why("benchmarks.on_tier", {})
    shared = Why.of("benchmarks.no_profile", {"class": "'x'"})
    assert type(shared) is Message
    shaped = Why.of("benchmarks.on_tier", {"tier": TIER})
    memo: dict = {}
    made = shaped.said(TierRef("t"), memo)
    assert made == Message("benchmarks.on_tier", {"tier": TierRef("t")})
    assert shaped.said(TierRef("t"), memo) is made


def test_a_copy_with_other_figures_shares_the_rest_and_leaves_the_kept_one_as_it_was():
    pv = version()
    version(content(name="toy-sk", workload_class="sklearn", runner="sklearn"))
    tier = make_tier("test-run", provider="Test", vcpus=2)
    host = target("epyc")
    host.tier = tier
    host.save()
    finished_run(pv, host, {1: 10.0, 2: 20.0})
    make_tier("test-none", provider="Test", vcpus=2)
    found = best_measurements(["test-run", "test-none"], ["gbm", "sklearn"])
    figure = found["test-run", "gbm"]
    faster = replace(figure, value=figure.value * 2)
    copy = found.with_figures({("test-run", "gbm"): faster})
    assert copy["test-run", "gbm"] is faster and found["test-run", "gbm"].value == 20.0
    assert copy.column("sklearn") is found.column("sklearn")  # unchanged: shared
    assert said(copy["test-none", "gbm"].message) == said(found["test-none", "gbm"].message)
    # The sensitivity's throughput move: the figures scaled, the reasons as they are.
    _plan, _frame, moved = uncertainty.apply(
        PLAN, pd.DataFrame(), found, {"throughput:gbm": Decimal("0.5")}
    )
    assert isinstance(moved, Findings) and moved["test-run", "gbm"].value == 10.0
    assert found["test-run", "gbm"].value == 20.0
    assert uncertainty.apply(PLAN, pd.DataFrame(), found, {})[2] is found
