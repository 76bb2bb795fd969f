# ruff: noqa: RUF003  (R², × and ÷ as a reader writes them)
"""A same-host fit sizes a plan only when it describes its sweep: below the R² threshold
(`PLANNER_FIT_MIN_R2`, 0.9 by default) the tier falls back to the nearest measured thread
count not above its own, labelled, or gets no figure with the reason; every predicted
figure carries the fit's R², residual spread and the threshold in its provenance."""

from decimal import Decimal

import pytest

from benchmarks_app.evidence import Sweep, residual_spread
from benchmarks_app.models import ProfileVersion
from tests.support.api import post_json, token_client
from tests.support.bench import finished_run, target, version
from tests.support.catalog import add_price, make_tier
from tests.support.provenance import unresolved

pytestmark = pytest.mark.django_db

ZIGZAG = {1: 1e8, 2: 5e7, 4: 2e8, 8: 2.5e7}  # R² 0.21 (USL by least squares; −0.42 relative)
AMDAHL = {k: 1e8 * k / (1 + 0.05 * (k - 1)) for k in (1, 2, 4, 8)}
WORKLOAD = {"kind": "gbm", "trainings_per_month": 100, "rows": 100_000, "features": 10,
            "trees": 100}  # fmt: skip


@pytest.fixture
def api(owner, settings):
    settings.API_RATE_LIMIT_PER_MINUTE = 10_000
    return token_client(owner)[0]


def linked_tier(slug: str, vcpus: int, points: dict[int, float]):
    tier = make_tier(slug, provider="Test", kind="dedicated", pricing_model="fixed_monthly",
                     vcpus=vcpus, ram_gib=Decimal(64))  # fmt: skip
    add_price(tier, "100", "2026-01-01", unit="month", source="test price list")
    host = target(f"host-{slug}")
    host.tier = tier
    host.save()
    profile = ProfileVersion.objects.first() or version()  # one toy profile for every tier
    finished_run(profile, host, points)
    return tier


def evaluate(api, *slugs: str) -> dict:
    plan = {"currency": "USD", "baseline": {"monthly": "480"},
            "candidates": [{"tier": s} for s in slugs], "workloads": [WORKLOAD]}  # fmt: skip
    response = post_json(api, "/api/v1/evaluate", plan)
    assert response.status_code == 200, response.content[:500]
    return response.json()


def basis_of(option: dict) -> dict:
    [workload] = option["parts"][0]["capacity"]["workloads"]
    return workload["basis"]


def test_a_zigzag_sweep_does_not_predict_a_16_thread_tier_it_falls_back_to_8_measured(api):
    linked_tier("test-zigzag-16", 16, ZIGZAG)
    body = evaluate(api, "test-zigzag-16")
    [option] = body["options"]
    basis = basis_of(option)
    assert basis["kind"] == "measured" and basis["fit"] is None
    assert basis["threads"] == 8 and basis["value"] == 2.5e7
    fallback = basis["fallback"]
    assert fallback["r2"] < fallback["min_r2"] == 0.9
    assert fallback["threads"] == 8 and fallback["tier_threads"] == 16
    assert fallback["spread"] > 0.3
    codes = [m["code"] for m in option["messages"]]
    assert "fitgate.fallback" in codes
    assert unresolved(body) == []


def test_a_poor_fit_above_every_measured_count_gives_no_figure_and_the_reason(api):
    linked_tier("test-zigzag-small", 2, {4: 1e8, 8: 5e7, 16: 2e8, 32: 2.5e7})
    body = evaluate(api, "test-zigzag-small")
    assert body["options"] == []
    [reason] = [n for n in body["no_number"] if n["tier"] == "test-zigzag-small"]
    said = " ".join(reason["reasons"])
    assert "below the 0.90 threshold: no figure" in said


def test_a_good_fit_still_predicts_and_names_its_r2_spread_and_threshold(api):
    linked_tier("test-amdahl-16", 16, AMDAHL)
    body = evaluate(api, "test-amdahl-16")
    basis = basis_of(body["options"][0])
    assert basis["kind"] == "predicted" and basis["threads"] == 16
    quality = basis["fit_quality"]
    assert quality["r2"] > 0.99 and quality["spread"] < 0.01 and quality["min_r2"] == 0.9
    assert unresolved(body) == []


def test_the_threshold_is_a_setting(api, settings):
    settings.PLANNER_FIT_MIN_R2 = -1.0  # any fit passes
    linked_tier("test-zigzag-16", 16, ZIGZAG)
    basis = basis_of(evaluate(api, "test-zigzag-16")["options"][0])
    assert basis["kind"] == "predicted" and basis["fit_quality"]["min_r2"] == -1.0


def test_residual_spread_is_the_rms_of_the_relative_residuals():
    sweep = Sweep("r", "h", AMDAHL, {})
    assert residual_spread(sweep.fit, sweep.medians) == pytest.approx(0, abs=1e-6)
    zig = Sweep("r", "h", ZIGZAG, {})
    by_hand = [zig.fit.throughput(k) / x - 1 for k, x in ZIGZAG.items()]
    expected = (sum(r * r for r in by_hand) / 4) ** 0.5
    assert residual_spread(zig.fit, zig.medians) == pytest.approx(expected)
    # Least squares on throughput, as the USL references fit: far below the 0.9 threshold.
    assert zig.fit.r2 == pytest.approx(0.212, abs=0.01)


def test_the_run_page_shows_each_fits_residual_spread_beside_its_r2_and_the_threshold(
    client, staff_user
):
    from django.urls import reverse

    client.force_login(staff_user)
    run = finished_run(version(), target("zig"), ZIGZAG)
    page = client.get(reverse("benchmarks:run", args=[run.pk])).content.decode()
    assert "Residual spread" in page
    zig = Sweep("r", "h", ZIGZAG, {})
    shown = f"± {100 * residual_spread(zig.fit, zig.medians):.1f} %"
    assert shown in page
    assert "A fit with R² below 0.90 sizes no plan" in page
