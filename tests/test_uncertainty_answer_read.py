"""A share's frozen uncertainty read back into its output models
(`planner.compute.uncertainty_answer.Uncertainty.read`): the API's bytes (the golden files)
read back and dumped again give the same bytes; a copy frozen before its messages or its
payback labels reads as its stored English and leaves the labels absent."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from common.messages import Message, plain
from planner.compute.uncertainty_answer import Uncertainty
from planner.services.evaluation import encoded

GOLDEN = Path(__file__).resolve().parent / "golden"
FILES = sorted(GOLDEN.glob("uncertainty-*.json"))


def stored(path: Path) -> dict:
    data = json.loads(path.read_bytes())
    del data["id"], data["as_of"]  # the endpoint's, not the answer's
    return data


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_the_api_answer_reads_back_to_the_same_bytes(path):
    data = stored(path)
    found = Uncertainty.read(data)
    assert encoded(found.model_dump()) == encoded(data)
    for row in found.one_way:  # sentences as their messages, with their codes
        assert isinstance(row.label, Message) and row.label.code != "common.text"
        assert row.break_even_sentence.code != "common.text"


def test_a_copy_frozen_before_messages_and_payback_labels_reads_as_its_english():
    data = stored(GOLDEN / "uncertainty-owned.json")
    old = copy.deepcopy(data)
    for row in old["one_way"]:
        del row["messages"]
    for option in old["montecarlo"]["options"]:
        del option["payback_label"]
    found = Uncertainty.read(old)
    row, first = found.one_way[0], data["one_way"][0]
    assert row.label.code == "common.text" and plain(row.label) == first["label"]
    assert plain(row.break_even_sentence) == first["break_even_sentence"]
    dumped = found.model_dump()
    assert "payback_label" not in dumped["montecarlo"]["options"][0]
    assert dumped["one_way"][0]["break_even_sentence"] == first["break_even_sentence"]
    assert dumped["tornado"] == data["tornado"]
