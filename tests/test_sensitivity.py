# ruff: noqa: RUF002, RUF003  (hand calculations written with ×, − and ÷)
"""One-way sensitivity of the best option's headline, with each input's break-even."""

import pytest

from tests.support.api import FIELD_NOTES, post_json

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(default_catalog_api):
    return default_catalog_api


def inputs(api, plan: dict) -> dict[str, dict]:
    response = post_json(api, "/api/v1/evaluate", plan)
    assert response.status_code == 200, response.content[:500]
    return {row["input"]: row for row in response.json()["sensitivity"]["inputs"]}


def test_the_field_notes_switch_stops_paying_back_below_363_88_a_month(api):
    """$349.99 a month against $480 with $500 of migration over 36 months: the option
    pays back while 36 × B > 500 + 36 × 349.99 = 13,099.64, i.e. B > 363.8789, so the
    smallest bill (to the cent) that still pays back is $363.88; $363.87 does not."""
    row = inputs(api, FIELD_NOTES)["baseline_monthly"]
    assert row["break_even"] == "363.88"
    assert row["break_even_sentence"] == (
        "the switch stops paying back within 36 months if the cloud bill falls below "
        "363.88 USD a month"
    )
    assert (row["low"], row["base"], row["high"]) == ("360.00", "480.00", "600.00")


def test_each_input_moves_the_npv_and_the_largest_swing_comes_first(api):
    response = post_json(api, "/api/v1/evaluate", FIELD_NOTES).json()
    table = response["sensitivity"]
    base = float(table["base"]["npv"])
    assert table["base"]["npv"] == response["options"][0]["money"]["npv"]
    swings = [
        max(abs(float(r["npv_low"]) - base), abs(float(r["npv_high"]) - base))
        for r in table["inputs"]
    ]
    assert swings == sorted(swings, reverse=True) and swings[-1] > 0
    rate = next(r for r in table["inputs"] if r["input"] == "annual_discount_rate")
    assert rate["break_even"] is None and "payback is undiscounted" in rate["break_even_sentence"]
