"""The API document says exactly which plans are taken (issue 29, item 9): a string amount
is bound by its `pattern` as a number is by `minimum`/`maximum`, and the rules between
fields are in the schema. For each body here, the document's verdict (jsonschema against
docs/openapi.yaml) and the server's (POST /api/v1/evaluate) agree."""

from __future__ import annotations

import copy
import random
import re
from decimal import Decimal
from pathlib import Path

import jsonschema
import pytest
import yaml

from catalog.defaults import load_default_catalog
from common.decimal_range_regex import decimal_range_pattern

DOC = yaml.safe_load((Path(__file__).parent.parent / "docs" / "openapi.yaml").read_text())
PLAN = DOC["components"]["schemas"]["Plan"]
EXTREME = "inmotion-hosting-extreme-dedicated-fixed-monthly"
BASE = {"currency": "USD", "baseline": {"monthly": "480"},
        "candidates": [{"tier": EXTREME, "count": 1}]}  # fmt: skip
GBM = {"kind": "gbm", "trainings_per_month": 10, "rows": 1000, "features": 10, "trees": 100}


def documented(body) -> bool:
    return jsonschema.Draft202012Validator(PLAN).is_valid(body)


def with_(**changes):
    body = copy.deepcopy(BASE)
    body.update(changes)
    return body


CASES = [
    # the two: a string below the minimum, and a baseline with neither member
    ("utilisation '0' (string) below 0.05", with_(utilisation_target="0"), False),
    ("utilisation 0 (number) below 0.05", with_(utilisation_target=0), False),
    ("utilisation '0.05'", with_(utilisation_target="0.05"), True),
    ("utilisation '.5'", with_(utilisation_target=".5"), True),
    ("utilisation '1.0000001' above 1", with_(utilisation_target="1.0000001"), False),
    ("utilisation '5e-1': no exponent in a string", with_(utilisation_target="5e-1"), False),
    ("growth '-0' is zero", with_(monthly_growth="-0"), True),
    ("money with 3 places", with_(baseline={"monthly": "480.125"}), False),
    ("money 480.130: trailing zero", with_(baseline={"monthly": "480.130"}), True),
    ("baseline with neither member", with_(baseline={}), False),
    ("baseline with both", with_(baseline={"monthly": "1", "tier": EXTREME}), False),
    ("baseline tier, monthly null", with_(baseline={"monthly": None, "tier": EXTREME}), True),
    ("migration hours without rate", with_(one_time={"migration_hours": 5}), False),
    ("migration hours with rate",
     with_(one_time={"migration_hours": 5, "migration_rate": 100}), True),
    ("ops hours without a rate", with_(monthly={"ops_hours_per_server": 2}), False),
    ("fixed mode without a count",
     with_(candidates=[{"tier": EXTREME, "mode": "fixed"}]), False),
    ("a count in sized mode", with_(candidates=[{"tier": EXTREME, "mode": "sized",
                                                  "count": 2}], workloads=[GBM]), False),
    ("no parts", with_(candidates=[{"parts": []}]), False),
    ("sized with no workload", with_(candidates=[{"tier": EXTREME}]), False),
    ("sized with a CPU workload", with_(candidates=[{"tier": EXTREME}], workloads=[GBM]), True),
    ("usage with no hours and no deep-learning hours",
     with_(candidates=[{"tier": EXTREME, "mode": "usage"}]), False),
    ("usage with no hours, deep-learning hours '00'",
     with_(candidates=[{"tier": EXTREME, "mode": "usage"}],
           workloads=[{"kind": "deep_learning", "task": "diffusion",
                       "gpu_hours_per_month": "00"}]), False),
    ("both usage hours", with_(candidates=[{"tier": EXTREME, "gpu_hours_per_month": 1,
                                            "instance_hours_per_month": 1}]), False),
    ("resale percent without a share",
     with_(owned=[{"purchase_price": "1000", "resale": "percent"}], candidates=[]), False),
    ("owned servers alone", with_(owned=[{"purchase_price": "1000"}], candidates=[]), True),
    ("a loan without its terms",
     with_(owned=[{"purchase_price": "1000", "financing": "loan"}], candidates=[]), False),
    ("a growth range past growth's own bound",
     with_(ranges=[{"input": "monthly_growth", "low": "0", "high": "0.6"}]), False),
    ("a price range of 0.5 to 2",
     with_(ranges=[{"input": "price", "low": "0.5", "high": "2"}]), True),
    ("a NUL in a name", with_(name="a\u0000b"), False),
]  # fmt: skip


@pytest.mark.django_db
@pytest.mark.parametrize(("label", "body", "valid"), CASES, ids=[c[0] for c in CASES])
def test_the_document_and_the_server_agree(label, body, valid, client, owner) -> None:
    load_default_catalog()
    client.force_login(owner)
    assert documented(body) is valid, label
    answer = client.post("/api/v1/evaluate", body, content_type="application/json")
    assert (answer.status_code == 200) is valid, (label, answer.status_code, answer.content[:300])


def test_a_range_pattern_takes_exactly_the_strings_in_range() -> None:
    syntax = re.compile(r"^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)$")
    rnd = random.Random(29)
    bounds = [("0", "1", 6), ("0.05", "1", 6), ("0", "0.5", 6), ("1", "5", 4),
              ("0", "730", 2), ("0", "100000000", 2), ("0.3", "0.75", None)]  # fmt: skip
    for low, high, places in bounds:
        pattern = re.compile(decimal_range_pattern(Decimal(low), Decimal(high), places))
        for _ in range(4000):
            whole = "".join(rnd.choices("0123456789", k=rnd.randint(0, 4)))
            fraction = "".join(rnd.choices("0123456789", k=rnd.randint(0, 8)))
            text = rnd.choice(["", "+", "-", ""]) + whole + rnd.choice(["", "."]) + fraction
            if not syntax.match(text):
                assert not pattern.match(text), (low, high, text)
                continue
            value = Decimal(text)
            step = Decimal(1).scaleb(-places) if places is not None else None
            taken = Decimal(low) <= value <= Decimal(high) and (
                step is None or value == value.quantize(step)
            )
            assert bool(pattern.match(text)) is taken, (low, high, places, text)
