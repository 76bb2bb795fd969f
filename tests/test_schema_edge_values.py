"""Values at the edges of the plan schema: refused by name and never a crash, decimals exact,
the documented decimal strings exactly the ones read, and every refusal a message."""

import re
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from common.django.message_render import render
from planner.compute.schema import (
    DECIMAL_RE,
    GbmWorkload,
    PlanValidationError,
    json_schema,
    parse_plan,
    parse_plan_json,
)

GBM = {"kind": "gbm", "trainings_per_month": 4, "rows": 1000, "features": 10, "trees": 10}


def plan(**changes) -> dict:
    return {"currency": "USD", "baseline": {"monthly": "480"}, "workloads": [dict(GBM)], **changes}


def errors_of(data) -> PlanValidationError:
    with pytest.raises(PlanValidationError) as caught:
        parse_plan(data)
    return caught.value


@pytest.mark.parametrize(
    ("kind", "got"), [({"x": 1}, "an object"), ([1], "a list"), (7, "a number")]
)
def test_a_workload_kind_that_is_not_a_string_is_refused_at_the_kind(kind, got):
    data = plan(workloads=[{**GBM, "kind": kind}])
    assert errors_of(data).errors == {"workloads[0].kind": [f"expected a string, got {got}"]}


def test_rates_and_hours_are_exact_decimals_from_json_numbers_and_strings():
    body = (
        '{"currency": "USD", "baseline": {"monthly": 0.1}, "annual_discount_rate": 0.1,'
        ' "monthly_growth": "0.1", "candidates": [{"tier": "a", "count": 1}],'
        ' "workloads": [{"kind": "deep_learning", "task": "diffusion",'
        ' "gpu_hours_per_month": 0.3}]}'
    )
    parsed = parse_plan_json(body)
    assert parsed.annual_discount_rate == Decimal("0.1")
    assert parsed.monthly_growth == Decimal("0.1")
    assert parsed.baseline.monthly == Decimal("0.10")
    assert parsed.workloads[0].gpu_hours_per_month == Decimal("0.3")


def test_a_huge_exponent_is_out_of_bounds_not_a_crash():
    workload = {**GBM, "rows": Decimal("1E+400"), "trainings_per_month": Decimal("1E+400")}
    errors = errors_of(plan(workloads=[workload])).errors
    assert errors["workloads[0].rows"] == ["must be at most 1,000,000,000,000 rows"]
    assert errors["workloads[0].trainings_per_month"] == ["must be at most 100,000 per month"]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("a\x00b", "must not contain a NUL character"),
        ("a\ud800b", "must not contain a lone UTF-16 surrogate"),
    ],
)
def test_a_nul_or_a_lone_surrogate_from_python_is_refused_at_the_field(name, message):
    assert errors_of(plan(name=name)).errors == {"name": [message]}


@pytest.mark.parametrize("text", ["USD\n", " USD", "usd"])
def test_a_currency_code_is_three_capitals_and_nothing_else(text):
    assert list(errors_of(plan(currency=text)).errors) == ["currency"]


def documented_pattern() -> re.Pattern[str]:
    """The money fields' string pattern as JSON Schema reads it (ECMA: "$" is the very end)."""
    pattern = json_schema()["properties"]["baseline"]["properties"]["monthly"]["pattern"]
    return re.compile(pattern.removeprefix("^").removesuffix("$"))


def parser_reads(text: str) -> bool:
    """Taken: the pattern binds the string's range and places too (docs/design.md, "Bounds"),
    so a string is documented exactly when the field takes it."""
    try:
        parse_plan(plan(baseline={"monthly": text}))
    except PlanValidationError as exc:
        return "baseline.monthly" not in exc.errors
    return True


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "480",
        "480.50",
        ".5",
        "5.",
        "-0",
        "1e3",
        "1E-2",
        "1_000",
        "NaN",
        "Infinity",
        " 480",
        "480\n",
        "٤٨٠",
        "0x10",
    ],
)
def test_the_documented_decimal_string_is_exactly_what_the_parser_reads(text):
    assert (documented_pattern().fullmatch(text) is not None) == parser_reads(text)


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.text(max_size=8), st.from_regex(DECIMAL_RE, fullmatch=True)))
def test_any_string_is_read_as_a_decimal_exactly_when_the_document_says_so(text):
    assert (documented_pattern().fullmatch(text) is not None) == parser_reads(text)


def test_every_refusal_is_a_message_the_api_says_in_english_and_a_page_in_german():
    refusal = errors_of(plan(horizon_months=121))
    (message,) = refusal.details["horizon_months"]
    assert message.code == "schema.at_most"
    assert refusal.errors["horizon_months"] == ["must be at most 120 months"]
    assert render(message, "de") == "darf höchstens 120 Monate betragen"


def test_workloads_read_like_the_dataclasses_the_engine_was_written_for():
    work = GbmWorkload("gbm", trainings_per_month=30, rows=10_000_000, features=100, trees=1000)
    assert (work.kind, work.per_month, work.rows) == ("gbm", 30.0, 10_000_000)
    assert work == GbmWorkload(
        kind="gbm", trainings_per_month=30.0, rows=10_000_000, features=100, trees=1000
    )
    assert hash(work) == hash(
        GbmWorkload("gbm", trainings_per_month=30, rows=10**7, features=100, trees=1000)
    )
    with pytest.raises(ValidationError):
        work.rows = 5  # frozen, as the dataclass was


def test_a_part_whose_count_is_refused_gets_that_message_alone():
    data = plan(candidates=[{"tier": "a", "count": 0}])
    assert errors_of(data).errors == {"candidates[0].count": ["must be at least 1 servers"]}
