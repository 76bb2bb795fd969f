"""The answer's JSON with its tiers with no figure encoded by shape
(`planner.compute.answer_json`, docs/design.md "Speed at catalog scale"): byte for byte
`json.dumps` of pydantic's data, whatever the tiers' slugs and names."""

from __future__ import annotations

import json
import pickle
import random
from decimal import Decimal

import pytest
from django.core.serializers.json import DjangoJSONEncoder
from pydantic import TypeAdapter

from benchmarks_app.evidence import NoMeasurement
from benchmarks_app.findings import TIER, Findings, Why, found_of
from common.messages import MADE, Message, Number, ProfileRef, TierRef, msg
from planner.compute import answer_json
from planner.compute.answer import Answer, DroppedTier, NoNumber
from planner.compute.engine import compare
from planner.compute.schema import parse_plan
from planner.services.evaluation import encoded
from tests.support.engine import AS_OF, frame, tier
from tests.support.golden import golden_answers

ENCODE = json.JSONEncoder(check_circular=False).encode

# Slugs and names JSON escapes, or that the rest of an entry's text holds ("gbm", "1",
# "inference #2"), or that look like the sentinels the encoder cuts its text at.
AWKWARD = [
    "plain-slug", 'quo"te', "back\\slash", "größe-ü", "emoji-😀", "new\nline\ttab\x00nul",
    "gbm", "1", "50%(tier)s %s", "a, b", "inference #2", "", " ", "\udfff", "\udfff0\udfff",
    "\\udfff0\\udfff", "\\u0041", "</script>",
]  # fmt: skip
SERIES = {"gbm": [ProfileRef("gbm-xgboost", "1.0")],
          "inference": [ProfileRef("inference-tabular", "1.0")]}  # fmt: skip


def _why(slug: str, name: str, cls: str) -> Message:
    """A tier's reason as the evidence says it: no run, and no CPU to estimate from."""
    where = Message("benchmarks.on_tier", {"tier": TierRef(slug, name)})
    none = Message("benchmarks.no_sizing_run", {"class": cls, "series": SERIES[cls],
                                                "where": where})  # fmt: skip
    return msg("estimates.no_cpu", reason=none, cpu="", tier=TierRef(slug, name))


def _entries(slug: str, name: str, other: str, workload: str = "gbm #1") -> list:
    """Entries of every kind naming the tier `slug` (named `name`), one naming `other`."""
    said = lambda p, w=workload: msg("capacity.workload_reason", workload=w, problem=p)  # noqa: E731
    return [
        NoNumber.model_construct(tier=slug, status="no_number", reasons=[
            said(_why(slug, name, "gbm")), said(_why(slug, name, "inference"), "inference #2"),
        ]),
        NoNumber.model_construct(tier=slug, status="no_number", reasons=[
            msg("capacity.specs_unknown"),
            said(msg("benchmarks.tier_without_vcpus", tier=TierRef(slug, name))),
        ]),
        NoNumber.model_construct(tier=slug, status="no_number", reasons=[
            said(msg("capacity.reference_has_none", reason=_why(slug, name, "gbm"),
                     tier=TierRef(other, slug))),
        ]),
        NoNumber.model_construct(tier=slug, status="ruled_out", reasons=[
            said(msg("capacity.own_p99_over_bound", p99=Number(Decimal("250.0")),
                     bound=Number(200))),
            said(msg("capacity.deadline_missed", hours=Number(Decimal("3.50"), 2),
                     threads=Number(8), deadline=Number(2), kind="gbm"), 1.5),
        ]),
        DroppedTier.model_construct(tier=slug, reason=msg("engine.no_price")),
        DroppedTier.model_construct(tier=slug, reason=msg("common.text", text=f"{slug} gone")),
        NoNumber.model_construct(tier=slug, status="no_number", reasons=[
            said(msg("benchmarks.tier_without_vcpus", tier=TierRef(slug, name)), []),
            "a reason said as text",
        ]),
    ]  # fmt: skip


def _awkward_entries() -> list:
    out = []
    for i, slug in enumerate(AWKWARD):
        other = AWKWARD[(i + 1) % len(AWKWARD)]
        for name in ("", slug, other, f"Name of {slug}"):
            out += _entries(slug, name, other)
        # a workload whose name holds a sentinel, or its escaped text: its shape is encoded
        # entry by entry (or cut where the sentinels are only)
        out += _entries(slug, "", other, workload="gbm \udfff0\udfff")
        out += _entries(slug, name, other, workload="gbm \\udfff0\\udfff \\udfff")
    return out


def test_every_entry_is_its_own_encoding_whatever_the_tiers_slugs_and_names():
    entries = _awkward_entries()
    expected = [ENCODE(entry.dumped({})).encode() for entry in entries]
    for seed in range(4):  # which entry of a shape is seen first, then again, varies
        order = list(range(len(entries)))
        random.Random(seed).shuffle(order)
        found = answer_json.unpriced([entries[i] for i in order], ENCODE)
        assert found == [expected[i] for i in order]


def test_entries_of_one_shape_differ_by_their_tiers_only():
    """What makes the encoding cheap: the tiers' entries share a shape, their fills their
    own tiers; an empty name is part of the shape (the English says the slug then)."""
    lists: dict = {}
    first, second = (answer_json._shape_of(_entries(slug, "", "x")[0], lists, {})
                     for slug in ("a-tier", "b-tier"))  # fmt: skip
    assert first[0] == second[0]
    assert first[1] == ["a-tier"] * 5 and second[1] == ["b-tier"] * 5
    named = answer_json._shape_of(_entries("a-tier", "A", "x")[0], lists, {})
    assert named[0] != first[0] and named[1] == ["a-tier", *["a-tier", "A"] * 4]
    other = answer_json._shape_of(_entries("a-tier", "", "x", workload="gbm #2")[0], lists, {})
    assert other[0] != first[0]


def test_an_entry_holding_an_unknown_kind_of_value_is_encoded_on_its_own():
    class Slug(str):
        pass

    entries = [
        NoNumber.model_construct(tier=slug, status="no_number", reasons=[
            msg("benchmarks.tier_without_vcpus", tier=TierRef(Slug(slug))),
            msg("common.text", text=Slug(slug)),
        ])
        for slug in ("a", "b", "c")
    ]  # fmt: skip
    assert answer_json.unpriced(entries, ENCODE) == [ENCODE(e.dumped({})).encode() for e in entries]


GBM = {"kind": "gbm", "trainings_per_month": 20, "rows": 2_000_000, "features": 50, "trees": 100}
INFERENCE = {"kind": "inference", "peak_rps": 50, "p99_ms": 200}


def _engine_answer() -> Answer:
    """The engine's answer over tiers with awkward slugs and names, none measured (a
    catalog frame holds no lone surrogate)."""
    rows, found = [], {}
    for i, slug in enumerate(s for s in AWKWARD if s.strip() and "\udfff" not in s):
        name = ["", slug, AWKWARD[0], f"Ünïcode “{slug}”"][i % 4]
        rows.append(tier(slug, 100 + i, name=name or None, vcpus=None if i % 3 else 8, ram=32))
        for cls in ("gbm", "inference"):
            found[slug, cls] = NoMeasurement(_why(slug, name, cls).params["reason"])
    catalog = frame(*rows)
    reason = msg("catalog.no_rate", source="CHF", target="USD", date=AS_OF)
    catalog.attrs["dropped"] = [{"slug": 'dr"opped', "reason": reason}]
    data = {"currency": "USD", "baseline": {"monthly": 900}, "workloads": [GBM, INFERENCE]}
    return compare(parse_plan(data), catalog, found, as_of=AS_OF).output()


def test_the_engines_answer_is_the_same_bytes_as_json_dumps_of_its_data():
    answer = _engine_answer()
    kinds = [type(entry).__name__ for entry in answer.no_number]
    assert kinds.count("DroppedTier") == 1 and kinds.count("NoNumber") == 14
    expected = json.dumps(answer.model_dump(), cls=DjangoJSONEncoder).encode()
    assert encoded(answer) == expected
    assert encoded(Answer.read(json.loads(expected))) == expected


@pytest.mark.parametrize(("name", "data"), golden_answers(), ids=[n for n, _ in golden_answers()])
def test_every_golden_answer_read_back_encodes_to_its_bytes(name, data):
    assert encoded(Answer.read(data)) == encoded(data)


@pytest.mark.parametrize(("name", "data"), golden_answers(), ids=[n for n, _ in golden_answers()])
def test_every_golden_answers_dump_is_pydantics_own(name, data):
    """`Answer.model_dump` places the tiers with no figure and the price/performance rows as
    their own serializers give them: the same data as pydantic's serialiser."""
    read = Answer.read(data)
    assert read.model_dump() == TypeAdapter(Answer).dump_python(read)


# --- reasons made from their shapes (`findings.Why`, `messages.MADE`) --------------------------


def _shapes(fixed: str, name: str) -> list[Why]:
    """Reasons' shapes as the evidence keeps them: the tier in one hole or several, in a
    nested shape, beside a tier of the shape's own (`fixed`, named `name`) and a list."""
    where = Why("benchmarks.on_tier", {"tier": TIER})
    none = Why("benchmarks.no_sizing_run", {"class": "gbm", "series": SERIES["gbm"],
                                            "where": where})  # fmt: skip
    return [
        Why("estimates.no_cpu", {"reason": none, "cpu": "", "tier": TIER}),
        Why("capacity.reference_has_none", {"reason": none, "tier": TierRef(fixed, name)}),
        Why(
            "capacity.reference_has_none",
            {"reason": msg("capacity.no_measurement", **{"class": fixed}), "tier": TIER},
        ),
        Why("capacity.reference_has_none", {"reason": where, "tier": TierRef(fixed)}),
    ]


def _made_entries(whys: list[Why], slugs: list[str]) -> list:
    """Entries whose reasons are made from `whys` for each of `slugs` (by `Findings`, one
    class each), within workloads (`capacity._within`), as the capacity table makes them."""
    classes = [f"class {i}" for i in range(len(whys))]
    found = Findings(slugs, classes)
    for cls, why in zip(classes, whys, strict=True):
        found.column(cls)[:] = [why] * len(slugs)
    said = found.columns(slugs, classes)
    shapes: dict = {}
    out = []
    for j, slug in enumerate(slugs):
        reasons = []
        for i, (cls, why) in enumerate(zip(classes, whys, strict=True)):
            made = said[cls][j]
            within = msg("capacity.workload_reason", workload=f"w{i} {slug[:2]}", problem=made)
            if i % 2:  # noted within its workload's shape, as `CapacityTable.reasons` does
                workload = within.params["workload"]
                shape = shapes.setdefault((workload, why), Why("capacity.workload_reason", {
                    "workload": workload, "problem": why}))  # fmt: skip
                within.__dict__[MADE] = shape
            reasons += [within, made]
        out.append(NoNumber.model_construct(tier=slug, status="no_number", reasons=reasons))
    return out


def test_a_reason_made_from_a_shape_is_encoded_by_it_with_its_own_tiers_fills():
    """The short cut (`answer_json._nested`): a message noted as made from a `Why` gives
    that `Why` as its token and the fills its walk would give, here compared with the walk
    of the same entry without the notes (pickle drops them), and every entry's text with
    its own encoding."""
    slugs = [s for s in AWKWARD if "\udfff" not in s] + ["b", "c-tier"]
    for fixed, name in (("fixed-tier", ""), ('fi"xed', "Fixed “name”"), ("gbm", "1"), ("", "")):
        entries = _made_entries(_shapes(fixed, name), slugs)
        lists: dict = {}
        for entry in entries:
            shape, fills = answer_json._shape_of(entry, lists, {})
            walked = pickle.loads(pickle.dumps(entry))
            assert not any(MADE in m.__dict__ for m in walked.reasons)
            plain_shape, plain_fills = answer_json._shape_of(walked, lists, {})
            assert fills == plain_fills
            assert (
                sum(type(token) is Why for token in shape) == 8
            )  # short cut taken: one token for each reason
            assert answer_json._OPEN in plain_shape and len(plain_shape) > len(shape)
        expected = [ENCODE(entry.dumped({})).encode() for entry in entries]
        for seed in range(3):
            order = list(range(len(entries)))
            random.Random(seed).shuffle(order)
            found = answer_json.unpriced([entries[i] for i in order], ENCODE)
            assert found == [expected[i] for i in order]


def test_a_shape_said_for_a_named_tier_or_an_odd_one_is_walked():
    """Only a tier with an empty name is filled by the short cut (the evidence names its
    tiers by slug): a name, or a slug that is not a plain string, is walked as before."""

    class Slug(str):
        pass

    why = _shapes("x", "")[0]

    def noted(ref: TierRef) -> Message:
        made = why.said(ref, {})
        made.__dict__[MADE] = why
        return made

    named = NoNumber.model_construct(
        tier="a", status="no_number", reasons=[noted(TierRef("a", "A"))]
    )
    shape, fills = answer_json._shape_of(named, {}, {})
    assert why not in shape and fills == ["a", "a", "A", "a", "A"]
    odd = NoNumber.model_construct(
        tier="a", status="no_number", reasons=[noted(TierRef(Slug("a")))]
    )
    with pytest.raises(answer_json._NoShape):
        answer_json._shape_of(odd, {}, {})
    entries = [
        NoNumber.model_construct(tier=s, status="no_number", reasons=[noted(TierRef(s, n))])
        for s, n in (("a", "A"), ("b", "B"), ("c", ""), ("d", "D"), ("e", ""), ("f", ""))
    ]
    assert why in answer_json._shape_of(entries[2], {}, {})[0]  # the short cut, as a check
    assert answer_json.unpriced(entries, ENCODE) == [ENCODE(e.dumped({})).encode() for e in entries]


def test_the_note_of_how_a_message_was_made_is_no_part_of_it():
    why = _shapes("x", "")[0]
    made = found_of(why, "a").message  # as `Findings` answers a pair, noted
    plain = pickle.loads(pickle.dumps(made))
    assert made.__dict__[MADE] is why and MADE not in plain.__dict__
    assert made == plain and repr(made) == repr(plain)
    assert pickle.dumps(made) == pickle.dumps(plain)


def test_the_engines_answer_from_findings_is_the_same_bytes_as_json_dumps_of_its_data():
    """The capacity table notes its reasons within their workloads' shapes (`_within`):
    the engine's answer over tiers with awkward slugs whose evidence is kept by shape."""
    slugs = [s for s in AWKWARD if s.strip() and "\udfff" not in s]
    rows = [tier(slug, 100 + i, vcpus=None if i % 3 else 8, ram=32) for i, slug in enumerate(slugs)]
    found = Findings(slugs, ["gbm", "inference"])
    shared = _shapes('fi"xed', "")  # the same shapes in both workloads' columns, and others
    for cls, shapes in (("gbm", shared), ("inference", [*shared, *_shapes("f", "F \\ n")])):
        column = found.column(cls)
        for j in range(len(slugs)):
            column[j] = shapes[j % len(shapes)]
    data = {"currency": "USD", "baseline": {"monthly": 900}, "workloads": [GBM, INFERENCE]}
    answer = compare(parse_plan(data), frame(*rows), found, as_of=AS_OF).output()
    noted = [(e.tier, r) for e in answer.no_number for r in e.reasons if MADE in r.__dict__]
    assert len(noted) == 2 * len(answer.no_number) and len(answer.no_number) == len(slugs)
    for slug, reason in noted:  # each says what its shape says for its tier
        assert reason.__dict__[MADE].said(TierRef(slug), {}) == reason
    expected = json.dumps(answer.model_dump(), cls=DjangoJSONEncoder).encode()
    assert encoded(answer) == expected
