"""The API's answers, byte for byte, over plans of every form (tests/golden/*.json).

A fixed catalog (explicit row ids, dated prices, one exchange rate, two real benchmark
runs) and a fixed date: the bytes of `POST /api/v1/evaluate`, of a stored plan's
`GET /api/v1/plans/{id}`, of a share's `GET /api/v1/shared/{token}` and of one plan's
uncertainty must not change unless an answer changes on purpose. A change that means to
alter an answer rewrites the files in the same commit (`UPDATE_GOLDEN=1` and this file)
and says why in its closing note.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import uuid
from decimal import Decimal
from pathlib import Path

import pytest
from django.db import connection
from django.urls import get_resolver
from django.utils import timezone

from planner.models import Plan, Share
from tests.support.api import post_json
from tests.support.catalog import add_price, add_rate, make_tier
from tests.support.runs import GBM_RUN, INFERENCE_RUN, import_copy

pytestmark = pytest.mark.django_db
GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.getenv("UPDATE_GOLDEN") == "1"
TODAY = dt.date(2026, 3, 2)

BOX = "golden-box-fixed-monthly"  # dedicated, USD a month, measured (gbm, inference)
EURO_BOX = "golden-euro-box-fixed-monthly"  # dedicated, priced in EUR
BIG = "golden-big-box-fixed-monthly"  # dedicated, no measurement: sized plans have no figure
VM = "golden-vm-on-demand"  # cloud VM, USD an hour
GPU = "golden-gpu-on-demand"  # cloud GPU, USD an hour (usage mode)


def golden_catalog() -> None:
    """Tiers and prices with fixed ids, one EUR→USD rate, two real runs linked to BOX."""
    box = make_tier(
        BOX,
        provider="Golden Hosting",
        name="Box",
        kind="dedicated",
        pricing_model="fixed_monthly",
        vcpus=2,
        cores=1,
        ram_gib=Decimal(16),
        region="",
    )  # fmt: skip  (2 threads: as many as the runs measured)
    add_price(box, "149.00", "2026-02-01", unit="month", id=9001, source="golden price list",
              source_url="https://example.com/box")  # fmt: skip
    euro = make_tier(EURO_BOX, provider="Golden Hosting", name="Euro Box", kind="dedicated",
                     pricing_model="fixed_monthly", vcpus=48, cores=24, ram_gib=Decimal(256),
                     region="")  # fmt: skip
    add_price(euro, "199.00", "2026-02-01", unit="month", currency="EUR", id=9002,
              setup_fee="79.00", source="golden euro list")  # fmt: skip
    big = make_tier(BIG, provider="Golden Hosting", name="Big Box", kind="dedicated",
                    pricing_model="fixed_monthly", vcpus=128, cores=64, ram_gib=Decimal(512),
                    region="")  # fmt: skip
    add_price(big, "599.00", "2026-02-01", unit="month", id=9003, source="golden price list")
    vm = make_tier(VM, provider="Golden Cloud", name="vm.4xlarge")
    add_price(vm, "0.68", "2026-02-15", id=9004, source="golden cloud list")
    gpu = make_tier(GPU, provider="Golden Cloud", name="gpu.xlarge", gpus=1, vcpus=8, cores=4)
    add_price(gpu, "1.20", "2026-02-15", id=9005, source="golden cloud list")
    rate = add_rate("2026-02-27", "EUR", "USD", "1.0850")
    type(rate).objects.filter(pk=rate.pk).update(id=9101)
    import_copy(GBM_RUN, "golden-box", tier=box)
    import_copy(INFERENCE_RUN, "golden-box-inference", tier=box)


GBM = {"kind": "gbm", "trainings_per_month": 400, "rows": 2_000_000, "features": 50,
       "trees": 100}  # fmt: skip
INFERENCE = {"kind": "inference", "peak_rps": 40, "p99_ms": 50, "n_plus_one": True}
OWNED = {"name": "rack box", "count": 2, "purchase_price": "6000", "depreciation_years": 4,
         "watts": 350, "kwh_price": "0.30", "colocation_monthly": "80"}  # fmt: skip

# name → plan. Together: fixed counts, sized options, workloads, owned hardware,
# commitments, a tier baseline, hybrid parts, usage hours, EUR, options with no figure.
PLANS: dict[str, dict] = {
    "fixed": {
        "currency": "USD", "baseline": {"monthly": "480"},
        "candidates": [{"tier": BOX, "count": 1}],
        "one_time": {"migration_hours": 5, "migration_rate": 100},
    },
    "fixed_two_options": {
        "currency": "USD", "baseline": {"monthly": "900"},
        "candidates": [{"tier": BOX, "count": 3}, {"tier": BIG, "count": 1}],
        "monthly": {"egress": "12.50", "ops_hours_per_server": 2, "ops_rate": "60"},
    },
    "tier_baseline": {
        "currency": "USD", "baseline": {"tier": VM, "count": 4},
        "candidates": [{"tier": BOX, "count": 2}],
        "one_time": {"running_both_months": 1},
    },
    "sized_workloads": {
        "currency": "USD", "baseline": {"monthly": "1200"},
        "candidates": [{"tier": BOX}, {"tier": BIG}],
        "workloads": [GBM],
    },
    "every_tier_sized": {
        "currency": "USD", "baseline": {"monthly": "1200"}, "workloads": [GBM, INFERENCE],
    },
    "no_figure": {
        "currency": "USD", "baseline": {"monthly": "300"},
        "candidates": [{"tier": BIG}], "workloads": [GBM],
    },
    "owned": {
        "currency": "USD", "baseline": {"monthly": "900"}, "owned": [OWNED],
        "candidates": [{"tier": BOX, "count": 2}], "annual_discount_rate": "0.07",
    },
    "commitments_monthly": {
        "currency": "USD",
        "baseline": {"monthly": "800",
                     "commitments": [{"monthly": "100", "months_remaining": 6}]},
        "candidates": [{"tier": BOX, "count": 2}],
        "one_time": {"running_both_months": 2},
    },
    "commitments_reserved_tier": {
        "currency": "USD",
        "baseline": {"tier": VM, "count": 3,
                     "commitments": [{"tier": VM, "count": 1, "months_remaining": 12}]},
        "candidates": [{"tier": BOX, "count": 1}],
    },
    "hybrid": {
        "currency": "USD", "baseline": {"monthly": "2000"},
        "candidates": [{"name": "box and cloud GPU", "parts": [
            {"tier": BOX, "mode": "fixed", "count": 2},
            {"tier": GPU, "mode": "usage", "gpu_hours_per_month": "120"},
        ]}],
    },
    "deep_learning_usage": {
        "currency": "USD", "baseline": {"monthly": "700"},
        "candidates": [{"tier": GPU, "mode": "usage"}],
        "workloads": [{"kind": "deep_learning", "task": "vit_from_scratch",
                       "gpu_hours_per_month": 200}],
    },
    "eur": {
        "currency": "EUR", "baseline": {"tier": VM, "count": 2},
        "candidates": [{"tier": EURO_BOX, "count": 1}, {"tier": BOX, "count": 1}],
        "one_time": {"migration_hours": 8, "migration_rate": 90, "other": "150"},
    },
    "growth_long_horizon": {
        "currency": "USD", "baseline": {"monthly": "1500"}, "horizon_months": 60,
        "monthly_growth": "0.02", "utilisation_target": "0.6",
        "candidates": [{"tier": BOX}], "workloads": [GBM, INFERENCE],
    },
}  # fmt: skip
STORED = ("fixed", "sized_workloads", "eur", "owned")  # also read as stored plans and shares
UNCERTAIN = "fixed"  # and its uncertainty


def check(name: str, body: bytes, *, stored: bool = False) -> None:
    """`body` is the golden file's bytes. `stored`: the answer holds JSON the database kept
    (a plan's inputs, a share's snapshot); PostgreSQL's jsonb keeps no key order, so there
    the same values are checked, in any order."""
    path = GOLDEN / f"{name}.json"
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_bytes(body)
        return
    assert path.exists(), f"no golden file {path.name}: run with UPDATE_GOLDEN=1 first"
    expected = path.read_bytes()
    if stored and connection.vendor == "postgresql":
        assert json.loads(body) == json.loads(expected), f"{name}: the answer changed ({path})"
        return
    assert body == expected, f"{name}: the answer's bytes changed (see {path})"


@pytest.fixture
def api(own_cache, owner, settings, monkeypatch):
    from tests.support.api import token_client

    settings.API_RATE_LIMIT_PER_MINUTE = 10_000
    # Every view module imported first: one imported while the date is fixed would keep
    # the fixed function (`from common.clock import today`) for the tests after this one.
    get_resolver().url_patterns  # noqa: B018
    monkeypatch.setattr(timezone, "localdate", lambda *a, **k: TODAY)  # clock.today() too
    golden_catalog()
    return token_client(owner)[0]


@pytest.mark.parametrize("name", sorted(PLANS))
def test_evaluate_answers_the_same_bytes(api, name):
    response = post_json(api, "/api/v1/evaluate", PLANS[name])
    assert response.status_code == 200, response.content[:500]
    check(f"evaluate-{name}", response.content)
    # Asked again (now from the cache), the same bytes.
    assert post_json(api, "/api/v1/evaluate", PLANS[name]).content == response.content


def _fixed_ids(plan: Plan, n: int) -> Plan:
    when = timezone.make_aware(dt.datetime(2026, 3, 1, 12, 0))
    code = uuid.UUID(int=n + 1)
    Plan.objects.filter(pk=plan.pk).update(code=code, created=when, updated=when)
    return Plan.objects.get(pk=plan.pk)


@pytest.mark.parametrize("name", STORED)
def test_stored_plans_and_their_shares_answer_the_same_bytes(api, name):
    created = post_json(api, "/api/v1/plans", PLANS[name])
    assert created.status_code == 201, created.content[:500]
    plan = Plan.objects.get(code=created.json()["id"])
    plan = _fixed_ids(plan, STORED.index(name))
    detail = api.get(f"/api/v1/plans/{plan.code}")
    assert detail.status_code == 200, detail.content[:500]
    check(f"plan-{name}", detail.content, stored=True)

    shared = post_json(api, f"/api/v1/plans/{plan.code}/shares", {})
    assert shared.status_code == 201, shared.content[:500]
    token = f"golden-{name.replace('_', '-')}"
    Share.objects.filter(token=shared.json()["token"]).update(
        token=token, created_at=timezone.make_aware(dt.datetime(2026, 3, 1, 13, 0))
    )
    read = api.get(f"/api/v1/shared/{token}")
    assert read.status_code == 200, read.content[:500]
    check(f"shared-{name}", read.content, stored=True)


def test_a_plans_uncertainty_answers_the_same_bytes(api):
    created = post_json(api, "/api/v1/plans", PLANS[UNCERTAIN])
    plan = _fixed_ids(Plan.objects.get(code=created.json()["id"]), 99)
    response = api.get(f"/api/v1/plans/{plan.code}/uncertainty")
    assert response.status_code == 200, response.content[:500]
    check(f"uncertainty-{UNCERTAIN}", response.content)
