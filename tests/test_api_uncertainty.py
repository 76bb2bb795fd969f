# ruff: noqa: RUF002, RUF003  (hand calculations written with ×, −)
"""GET /api/v1/plans/{id}/uncertainty: every uncertain input through the engine, the
tornado's bars and the Monte Carlo's odds; the quick `sensitivity` of every comparison
tells the same story for the inputs they share; a share freezes it."""

import pytest
from django.test import Client

from tests.support.api import EXTREME, FIELD_NOTES, post_json, token_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(default_catalog_api, own_cache):
    return default_catalog_api


def stored(api, plan: dict = FIELD_NOTES) -> str:
    response = post_json(api, "/api/v1/plans", plan)
    assert response.status_code == 201, response.content[:300]
    return response.json()["id"]


def uncertainty(api, plan_id: str, query: str = "") -> dict:
    response = api.get(f"/api/v1/plans/{plan_id}/uncertainty{query}")
    assert response.status_code == 200, response.content[:300]
    return response.json()


def test_the_field_notes_bill_breaks_even_at_363_88_and_every_input_has_its_figures(api):
    """$349.99 a month against $480 with $500 of migration over 36 months pays back while
    36 × B > 500 + 36 × 349.99, i.e. B > 363.8789: $363.88 does, $363.87 does not."""
    plan_id = stored(api)
    found = uncertainty(api, plan_id)
    rows = {row["input"]: row for row in found["one_way"]}
    bill = rows["baseline_monthly"]
    assert (bill["low_amount"], bill["base_amount"], bill["high_amount"]) == (
        "360.00", "480.00", "600.00")  # fmt: skip
    assert bill["break_even_amount"] == "363.88" and bill["source"] == "default"
    assert bill["break_even_sentence"] == (
        "the switch stops paying back within 36 months if the cloud bill falls below "
        "363.88 USD a month"
    )
    assert bill["payback_low"] is None and bill["payback_high"] == 2
    said = {m["field"]: m for m in bill["messages"]}
    assert said["break_even_sentence"]["code"] == "sensitivity.break_even_bill"
    assert said["break_even_sentence"]["params"]["amount"] == {"amount": "363.88",
                                                               "currency": "USD"}  # fmt: skip
    price = rows[f"price:{EXTREME}"]
    assert (price["low_amount"], price["high_amount"]) == ("314.99", "384.99")
    assert price["break_even"] is None and price["break_even_sentence"].startswith(
        "no break-even for the price of InMotion Hosting Extreme"
    )
    # A USD plan on a USD tier: the exchange rate moves nothing, so it is no input.
    assert "fx" not in rows
    assert found["option"] == "candidate:0" and found["base"]["npv"] == "3724.00"
    swings = [row["swing_cents"] for row in found["one_way"]]
    assert swings == sorted(swings, reverse=True)
    bars = found["tornado"]["bars"]
    assert [b["input"] for b in bars] == [r["input"] for r in found["one_way"][:8]]
    assert found["tornado"]["base_npv"] == "3724.00"


def test_the_odds_record_the_seed_the_draws_and_numpy_and_another_seed_draws_again(api):
    import numpy as np

    plan_id = stored(api)
    first = uncertainty(api, plan_id)["montecarlo"]
    assert (first["seed"], first["draws"], first["numpy"]) == (2024, 10_000, np.__version__)
    [best] = first["options"]  # one candidate: one option
    assert best["option"] == "candidate:0" and 0.99 < float(best["pays_back"]) <= 1
    assert set(best["saving"]) == set(best["payback_month"]) == {"p10", "p50", "p90"}
    assert uncertainty(api, plan_id, "?seed=2024")["montecarlo"] == first
    other = uncertainty(api, plan_id, "?seed=5")["montecarlo"]
    assert other["seed"] == 5 and other["options"] != first["options"]


def test_the_quick_sensitivity_tells_the_same_story_as_the_full_table(api):
    """The comparison's money-only table and the one-way table through the engine agree, to
    the cent, on the inputs they share: the bill, the one-time costs, the discount rate,
    and the only tier's price line (the option's monthly cost)."""
    plan_id = stored(api)
    quick = {r["input"]: r for r in api.get(f"/api/v1/plans/{plan_id}").json()["comparison"][
        "sensitivity"]["inputs"]}  # fmt: skip
    full = {r["input"]: r for r in uncertainty(api, plan_id)["one_way"]}
    pairs = [("baseline_monthly", "baseline_monthly"), ("one_time", "one_time"),
             ("option_monthly", f"price:{EXTREME}")]  # fmt: skip
    for mine, theirs in pairs:
        q, f = quick[mine], full[theirs]
        assert (q["low"], q["base"], q["high"]) == (
            f["low_amount"], f["base_amount"], f["high_amount"]), mine  # fmt: skip
        for figure in ("npv_low", "npv_high", "saving_low", "saving_high", "payback_low",
                       "payback_high"):  # fmt: skip
            assert q[figure] == f[figure], (mine, figure)
        assert q["break_even"] == f["break_even_amount"], mine
    assert (
        quick["baseline_monthly"]["break_even_sentence"]
        == (full["baseline_monthly"]["break_even_sentence"])
    )
    rate, its = quick["annual_discount_rate"], full["annual_discount_rate"]
    assert (rate["npv_low"], rate["npv_high"]) == (its["npv_low"], its["npv_high"])
    assert rate["break_even_sentence"] == its["break_even_sentence"]


def test_a_plan_in_another_currency_has_the_exchange_rate_as_an_input(api):
    plan_id = stored(api, {**FIELD_NOTES, "currency": "EUR"})
    rows = {row["input"]: row for row in uncertainty(api, plan_id)["one_way"]}
    fx = rows["fx"]
    assert (fx["low"], fx["high"], fx["kind"]) == ("0.95", "1.05", "scale")
    assert fx["npv_low"] != fx["npv_high"]


def test_someone_elses_plan_and_a_bad_seed_are_refused(api, other_user):
    plan_id = stored(api)
    theirs, _key = token_client(other_user)
    assert theirs.get(f"/api/v1/plans/{plan_id}/uncertainty").status_code == 404
    assert Client().get(f"/api/v1/plans/{plan_id}/uncertainty").status_code == 401
    for seed in ("-1", "4294967296", "x"):
        response = api.get(f"/api/v1/plans/{plan_id}/uncertainty?seed={seed}")
        assert response.status_code == 400 and "seed" in response.json()["errors"], seed


def test_a_share_freezes_the_sensitivity_and_the_odds(api):
    plan_id = stored(api)
    today = uncertainty(api, plan_id)
    token = api.post(f"/api/v1/plans/{plan_id}/shares").json()["token"]
    frozen = Client().get(f"/api/v1/shared/{token}").json()
    assert frozen["snapshot_version"] == 2
    assert frozen["uncertainty"]["one_way"] == today["one_way"]
    assert frozen["uncertainty"]["montecarlo"] == today["montecarlo"]
