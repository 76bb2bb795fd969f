"""The tiers with no number written straight from their messages (planner/compute/
message_json.py) give, byte for byte, what building `with_messages` dictionaries and
encoding them with DjangoJSONEncoder gives: for every parameter type a message may hold,
and for whole answers of the API (the cache and `comparison()` share those bytes)."""

import datetime as dt
import json
from decimal import Decimal

import pytest
from django.core.serializers.json import DjangoJSONEncoder

from catalog.defaults import load_default_catalog
from catalog.models import Tier
from changes.services import record
from common.messages import Money, Number, Percent, ProfileRef, TierRef, msg
from planner.compute.message_fields import with_messages
from planner.compute.message_json import Writer
from planner.services import evaluation
from planner.services import plans as services
from tests.support.api import EXTREME, FIELD_NOTES
from tests.support.runs import GBM_RUN, INFERENCE_RUN, import_copy


class Label(str):
    """A str subclass, as a lazy translation or a safe string may be."""


def expected(entry) -> str:
    return json.dumps(with_messages(entry), cls=DjangoJSONEncoder)


SERIES = [ProfileRef("gbm-xgboost", "1.0"), ProfileRef("gbm-lightgbm", "1.0.2", "LightGBM ≥ 4")]


def where():
    return msg("benchmarks.on_tier", tier=TierRef("aws-c5.4xlarge-spot", "c5.4xlarge «spot»"))


# Factories: a message keeps its English and JSON once said, so each side of a comparison
# gets messages of its own (else the first side's words would be the second's).
EVERY_TYPE = [
    lambda: msg("benchmarks.no_sizing_run", **{"class": "gbm", "series": SERIES, "where": where()}),
    lambda: msg("common.text", text='quotes " and \\ and a tab\t and ≥ 3 and 😀'),
    lambda: msg("common.text", text=Label("a str subclass")),
    lambda: msg("common.text", text=7),
    lambda: msg("common.text", text=True),
    lambda: msg("common.text", text=None),
    lambda: msg("common.text", text=0.1 + 0.2),
    lambda: msg("common.text", text=Decimal("12.50")),
    lambda: msg("common.text", text=dt.date(2028, 2, 29)),
    lambda: msg("common.text", text=dt.datetime(2026, 12, 1, 20, 5, tzinfo=dt.UTC)),
    lambda: msg("common.text", text=Money(Decimal("363.88"), "USD")),
    lambda: msg("common.text", text=Number(Decimal("0.20"), 2)),
    lambda: msg("common.text", text=Number(12.5)),
    lambda: msg("common.text", text=Percent(Decimal("0.075"), 1)),
    lambda: msg("common.text", text=(ProfileRef("a", "1"), 3)),
    lambda: msg("common.text", text=[]),
    lambda: msg("common.text", text=where()),
]


@pytest.mark.parametrize("make", EVERY_TYPE, ids=range(len(EVERY_TYPE)))
def test_each_parameter_type_is_written_as_the_encoder_writes_it(make):
    for shape in (
        lambda: {"tier": "t", "status": "no_number", "reasons": [make(), make()]},
        lambda: {"tier": "t", "reason": make()},
        lambda: {"tier": "t", "reasons": ("plain text", make())},
    ):
        assert Writer().entry(shape()) == expected(shape())


def test_a_list_shared_by_many_messages_is_written_alike_each_time():
    writer, first, last = Writer(), EVERY_TYPE[0], EVERY_TYPE[-1]
    entries = [{"tier": f"t{i}", "reasons": [first(), last()]} for i in range(3)]
    again = [{"tier": f"t{i}", "reasons": [first(), last()]} for i in range(3)]
    assert [writer.entry(e) for e in entries] == [expected(e) for e in again]


def _reasons_of_one_shape(i: int) -> list:
    """Reasons as a large catalog's tiers have them: one shape, their own tiers, texts and
    figures; a count that picks the words; a text with % and a quote; a shared series."""
    tier = TierRef(f"tier-{i}", "" if i % 2 else f"Tier «{i}» 100%")
    on_tier = msg("benchmarks.on_tier", tier=tier)
    return [
        msg("capacity.workload_reason", workload=f'gbm "#{i}" 5%',
            problem=msg("estimates.no_cpu", cpu="", tier=tier,
                        reason=msg("benchmarks.no_sizing_run", **{"class": "gbm",
                                   "series": SERIES, "where": on_tier}))),
        msg("schema.form.count.servers", count=i % 3),
        msg("schema.form.count.months", count=Number(Decimal(i % 3), 0)),
        msg("common.text", text=Number(Decimal(i) / 7, 2)),
        msg("common.text", text=on_tier),
    ]  # fmt: skip


def test_reasons_of_one_shape_are_written_alike_from_their_form():
    """Thousands of tiers' reasons share a shape (message_json `Writer._formed`): each
    reason of it filled into one form gives the encoder's bytes."""
    writer = Writer()
    written = [writer.entry({"tier": f"t{i}", "reasons": _reasons_of_one_shape(i)})
               for i in range(12)]  # fmt: skip
    assert written == [expected({"tier": f"t{i}", "reasons": _reasons_of_one_shape(i)})
                       for i in range(12)]  # fmt: skip
    assert any(form is not None for form in writer._forms.values())


@pytest.mark.parametrize(
    "entry",
    [
        {"tier": "t", "amount": Decimal("1.5"), "reasons": [where()]},
        {"tier": "t", "messages": [where()]},
        {"tier": "t", "reasons": [{"nested": where()}]},
        {1: "a key that is not text"},
    ],
    ids=["decimal", "messages-key", "nested-dict", "int-key"],
)
def test_an_entry_of_another_shape_is_left_to_the_encoder(entry):
    assert Writer().entry(entry) is None


@pytest.fixture
def catalog_with_runs(db):
    load_default_catalog()
    tiers = list(Tier.objects.filter(vcpus__isnull=False).order_by("slug")[:2])
    import_copy(GBM_RUN, "writer-gbm", tiers[0])
    import_copy(INFERENCE_RUN, "writer-inference", tiers[1])


GBM = {"kind": "gbm", "trainings_per_month": 20, "rows": 2_000_000, "features": 50, "trees": 100}
INFERENCE = {"kind": "inference", "peak_rps": 50, "p99_ms": 200}


@pytest.mark.parametrize(
    "plan",
    [
        FIELD_NOTES,
        {"currency": "USD", "baseline": {"monthly": "480"}, "workloads": [GBM, INFERENCE]},
        {"currency": "EUR", "baseline": {"monthly": "480"}, "workloads": [GBM],
         "candidates": [{"tier": EXTREME}]},
    ],
    ids=["field-notes", "workload-sized", "sized-candidate-eur"],
)  # fmt: skip
def test_the_apis_answer_is_the_same_bytes_either_way(catalog_with_runs, plan):
    written = evaluation.evaluate(services.parse(plan)).to_json()
    record("test.new_generation")  # inputs of its own for the other side
    assert written == evaluation.encoded(evaluation.evaluate(services.parse(plan)).to_dict())
    answer = json.loads(written)
    if "workloads" in plan and "candidates" not in plan:
        # Published-score estimates size most tiers now; those left have no CPU to scale by.
        assert len(answer["no_number"]) >= 3 and answer["no_number"][0]["messages"]
