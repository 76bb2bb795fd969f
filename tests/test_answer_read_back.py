"""The answer read back from its own JSON (`Answer.read`): what a share freezes, and what
the pages read, gives the same bytes when dumped again, and its sentences are Messages
again (code and params), or the stored text where a share predates messages."""

from __future__ import annotations

import pytest

from common.messages import Message
from common.messages import plain as english
from planner.compute.answer import Answer
from planner.services.evaluation import encoded
from tests.support.golden import golden_answers


@pytest.mark.parametrize(("name", "data"), golden_answers(), ids=[n for n, _ in golden_answers()])
def test_every_golden_answer_reads_back_to_the_same_bytes(name, data):
    read = Answer.read(data)
    assert encoded(read.model_dump()) == encoded(data)


def test_the_sentences_are_messages_again():
    data = dict(golden_answers())["evaluate-sized_workloads"]
    read = Answer.read(data)
    option = read.options[0]
    said = {m["field"]: m for m in data["options"][0]["messages"]}
    assert isinstance(option.label, Message)
    assert option.label.to_json() == {k: said["label"][k] for k in ("code", "params")}
    assert english(option.label) == data["options"][0]["label"]
    reasons = option.parts[0].capacity.workloads[0].labels if option.parts[0].capacity else []
    assert all(isinstance(r, Message) for r in reasons)
    assert option.payback.code.startswith("engine.payback")
    assert [m.code for m in read.headline.sentences] == [
        m["code"] for m in data["headline"]["messages"] if m["field"] == "sentence"
    ]
    assert (
        read.baseline.source is not None and read.baseline.source.code == "engine.baseline_quoted"
    )


def _without_messages(node):
    if isinstance(node, dict):
        return {k: _without_messages(v) for k, v in node.items() if k != "messages"}
    if isinstance(node, list):
        return [_without_messages(v) for v in node]
    return node


def test_a_share_frozen_before_messages_reads_its_stored_text():
    data = _without_messages(dict(golden_answers())["shared-sized_workloads"])
    read = Answer.read(data)
    option = read.options[0]
    assert option.label.code == "common.text"
    assert english(option.label) == data["options"][0]["label"]
    assert " ".join(english(m) for m in read.headline.sentences) == data["headline"]["sentence"]
    again = read.model_dump()
    assert again["options"][0]["label"] == data["options"][0]["label"]
    assert again["headline"]["sentence"] == data["headline"]["sentence"]


def test_a_share_frozen_before_the_switch_costs_reads_without_them():
    data = _without_messages(dict(golden_answers())["shared-fixed"])
    for option in data["options"]:
        for key in ("one_time_costs", "capacity_check"):
            option.pop(key)
        for key in ("steady_monthly", "transition_cost"):
            option["money"].pop(key)
    read = Answer.read(data)
    assert read.options[0].one_time_costs is None and read.options[0].money.steady_monthly is None
