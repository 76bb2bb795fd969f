"""An option's `messages`: found in the fields that may hold a sentence (`answer_parts.
holds_no_message` passes over the others by their type), the same listed in the answer's
dump as by the option itself."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any, Literal

from common.messages import msg
from planner.compute.answer import Answer, Capacity, Option
from planner.compute.answer_parts import (
    MoneyOut,
    Plain,
    PricePerformance,
    PriceRow,
    Sentence,
    holds_no_message,
)

GOLDEN = Path(__file__).resolve().parent / "golden" / "evaluate-sized_workloads.json"


def test_plain_values_hold_no_sentence_and_models_messages_and_any_may():
    for plain in (str, int, float | None, Decimal, MoneyOut, list[int], dict[str, list[str]],
                  Literal["sized", "fixed"], tuple[int, ...], str | int | None):  # fmt: skip
        assert holds_no_message(plain), plain
    for spoken in (Sentence, Sentence | None, list[Sentence], Plain, Any, Capacity | None,
                   list[PriceRow], dict[str, Any], list, dict[str, Sentence]):  # fmt: skip
        assert not holds_no_message(spoken), spoken


def _sized() -> Answer:
    return Answer.read(json.loads(GOLDEN.read_bytes()))


def test_a_sentence_in_a_workloads_basis_is_listed_with_its_path():
    answer = _sized()
    option = answer.options[0]
    part = option.parts[0]
    capacity = part.capacity
    assert capacity is not None
    workload = capacity.workloads[0]
    said = msg("common.text", text="a sentence in the basis")
    basis = {**workload.basis, "note": said}
    workloads = [workload.model_copy(update={"basis": basis}), *capacity.workloads[1:]]
    capacity = capacity.model_copy(update={"workloads": workloads})
    parts = [part.model_copy(update={"capacity": capacity}), *option.parts[1:]]
    option = option.model_copy(update={"parts": parts})
    found = [m for m in option.messages if m["code"] == "common.text"]
    assert {"field": "parts[0].capacity.workloads[0].basis.note", "code": "common.text",
            "params": {"text": "a sentence in the basis"},
            "text": "a sentence in the basis"} in found  # fmt: skip
    dumped = Answer.model_dump(answer.model_copy(update={"options": [option]}))
    assert dumped["options"][0]["messages"] == option.messages
    assert dumped["options"][0]["parts"][0]["capacity"]["workloads"][0]["basis"]["note"] == (
        "a sentence in the basis"
    )


def test_the_options_of_an_answer_list_their_messages_as_each_option_does():
    answer = _sized()
    dumped = answer.model_dump()["options"]
    assert [option["messages"] for option in dumped] == [o.messages for o in answer.options]
    assert all(isinstance(option, Option) for option in answer.options)
    assert list(dumped[0])[-4:] == ["messages", "servers", "fits_in_ram", "provenance"]


def test_rows_sharing_part_of_their_basis_each_say_it_as_a_row_alone_does():
    """`Answer.model_dump` splits the rows' bases with one memo (`message_fields.split`):
    a part they share is said once, each row still gets its data and its messages."""
    shared = {"cpu": "AMD EPYC", "why": msg("common.text", text="shared sentence")}
    rows = [
        PricePerformance.model_construct(
            tier=f"t{i}", profile_class="gbm", amount="0.1", per="hour", currency="USD",
            figure="estimate", basis={"run": i, "published": shared, "band": [1.0, 2.0]},
        )
        for i in range(3)
    ]  # fmt: skip
    alone = [row.dumped() for row in rows]
    kept: dict[int, Any] = {}
    together = [row.dumped(kept) for row in rows]
    assert together == alone
    assert together[2]["messages"] == [
        {"field": "basis.published.why", "code": "common.text",
         "params": {"text": "shared sentence"}, "text": "shared sentence"},
    ]  # fmt: skip
    assert together[0]["messages"][0] is not together[1]["messages"][0]
    answer = _sized().model_copy(update={"price_performance": rows})
    assert answer.model_dump()["price_performance"] == alone


def test_options_sharing_a_basis_each_list_its_sentence_with_one_memo():
    """`found_messages` notes a dictionary found to hold no sentence in the dump's memo and
    passes it over the next time: one that holds one is listed by every option sharing it,
    each with its own path, as each option lists it alone. The bases said through one
    `split` memo (`Option.dumped`'s `kept`) give each option its own data."""
    option = _sized().options[0]
    part = option.parts[0]
    capacity = part.capacity
    assert capacity is not None
    workload = capacity.workloads[0]
    quiet = dict(workload.basis)  # no sentence in it: passed over the second time
    shared = {**workload.basis, "quiet": quiet, "note": msg("common.text", text="shared")}
    workloads = [workload.model_copy(update={"basis": basis}) for basis in (quiet, shared) * 2]
    capacity = capacity.model_copy(update={"workloads": workloads})
    option = option.model_copy(
        update={"parts": [part.model_copy(update={"capacity": capacity}), *option.parts[1:]]}
    )
    options = [option, option.model_copy()]
    memo: dict[int, Any] = {}
    kept: dict[int, Any] = {}  # `split`'s, the bases said once for both options
    together = [each.dumped(memo, kept) for each in options]
    assert together == [each.model_dump() for each in options]
    assert [data["messages"] for data in together] == [o.messages for o in options]
    said = [w["basis"] for w in together[1]["parts"][0]["capacity"]["workloads"]]
    assert [basis.get("note") for basis in said] == [None, "shared", None, "shared"]
    for data in together:
        fields = [m["field"] for m in data["messages"] if m["text"] == "shared"]
        assert fields == [f"parts[0].capacity.workloads[{i}].basis.note" for i in (1, 3)]
