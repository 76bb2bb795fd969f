"""A fresh install with estimates (the shipped catalog, the reference run `bootstrap`
imports) and three 2-vCPU AWS tiers a workload plan can move to, as the next-runs tests
use them: every tier's figure is an estimate from published scores."""

from __future__ import annotations

from benchmarks_app.reference import import_reference_runs
from catalog.defaults import load_default_catalog
from tests.support.catalog import add_price, make_tier

# 2-vCPU tiers, as the 2-core VM the run file in tests/fixtures/runs was measured on
C5, C6I, C7A = "aws-c5.large", "aws-c6i.large", "aws-c7a.large"
PRICES = {C5: "0.085", C6I: "0.085", C7A: "0.10264"}  # a test fixture's hourly prices
PLAN = {
    "currency": "USD", "name": "gbm to AWS", "baseline": {"monthly": "4000"},
    "candidates": [{"tier": C5}, {"tier": C7A}, {"tier": C6I}],
    "workloads": [{"kind": "gbm", "trainings_per_month": 300, "rows": 5_000_000,
                   "features": 50, "trees": 200}],
}  # fmt: skip


def fresh_install_with_estimates() -> None:
    load_default_catalog()
    for slug, price in PRICES.items():
        name = slug.removeprefix("aws-")
        add_price(make_tier(slug, name=name, vcpus=2, cores=1, ram_gib=4), price, "2026-01-01")
    import_reference_runs()  # as `bootstrap` does on a fresh install
