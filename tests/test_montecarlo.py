# ruff: noqa: RUF002, RUF003  (hand calculations written with ×, −)
"""The odds that the switch pays back: seeded draws, priced to the cent like the engine."""

import datetime as dt
from decimal import Decimal

import numpy as np

from benchmarks_app.evidence import BestMeasurement, Sweep
from planner.compute import engine, montecarlo, tco, uncertainty
from planner.compute.schema import parse_plan
from tests.support.engine import C5_2X, EXTREME, frame, tier

CATALOG = frame(EXTREME, C5_2X)
GBM = {"kind": "gbm", "trainings_per_month": 1500, "rows": 10_000_000, "features": 100,
       "trees": 1000}  # fmt: skip


def measured(value: float, threads: int, host: str) -> BestMeasurement:
    reps = [value * f for f in (0.96, 0.99, 1.0, 1.02, 1.05)]
    sweep = Sweep(f"run-{host}", host, {threads: value}, {threads: reps})
    return BestMeasurement(
        "gbm", "cell_trees_per_s", "cell-trees/s", value, threads, True, f"run-{host}", host,
        "cpu", "gbm-standard", "1.0.3", "standard", dt.datetime(2026, 1, 20), sweep=sweep,
    )  # fmt: skip


MEASUREMENTS = {
    ("inmotion-extreme", "gbm"): measured(1e9, 32, "epyc"),
    ("aws-c5.2xlarge-us-east-1-on-demand", "gbm"): measured(2e8, 8, "c5"),
}


def plan(**extra):
    data = {"currency": "USD", "baseline": {"monthly": "1480"}, "workloads": [GBM],
            "horizon_months": 60, "monthly_growth": "0.01",
            "one_time": {"migration_hours": 20, "migration_rate": 100}} | extra  # fmt: skip
    return parse_plan(data)


def test_the_same_seed_gives_the_same_odds_and_another_seed_other_draws():
    model = montecarlo.Model(plan(), CATALOG, MEASUREMENTS)
    first = montecarlo.summary(model, draws=2000, seed=5)
    assert first == montecarlo.summary(model, draws=2000, seed=5)
    assert first.seed == 5 and first.draws == 2000 and first.numpy == np.__version__
    other = montecarlo.draw(model.items, 2000, 6)["baseline_monthly"]
    assert not np.array_equal(montecarlo.draw(model.items, 2000, 5)["baseline_monthly"], other)


def test_each_draw_is_priced_to_the_cent_as_engine_compare_prices_it():
    p = plan()
    model = montecarlo.Model(p, CATALOG, MEASUREMENTS)
    drawn = montecarlo.draw(model.items, 30, 11)
    found = model.run(drawn)
    for d in range(30):
        values = uncertainty.bill_for_tier_baseline(p, montecarlo.values_of(model.items, drawn, d))
        result = engine.compare(*uncertainty.apply(p, CATALOG, MEASUREMENTS, values))
        by_key = {o.key: o.money for o in result.options}
        for k, key in enumerate(model.keys):
            m = by_key[key]
            expected = (tco.to_cents(m.npv), tco.to_cents(m.saving), m.payback_month or 0)
            got = tuple(int(found[name][d, k]) for name in ("npv", "saving", "payback"))
            assert got == expected, (d, key, values)


def engine_cents(p, catalog, measurements, model, drawn, d):
    values = uncertainty.bill_for_tier_baseline(p, montecarlo.values_of(model.items, drawn, d))
    result = engine.compare(*uncertainty.apply(p, catalog, measurements, values))
    by_key = {o.key: o.money for o in result.options}
    return [
        (tco.to_cents(m.npv), tco.to_cents(m.saving), m.payback_month or 0)
        for m in (by_key[key] for key in model.keys)
    ]


def vectorised_cents(model, found, d):
    return [
        tuple(int(found[n][d, k]) for n in ("npv", "saving", "payback"))
        for k in range(len(model.keys))
    ]


def test_draws_priced_a_chunk_at_a_time_agree_with_the_engine_in_every_chunk():
    """Two full chunks and a part of one: draws on each side of each boundary are priced
    as the engine prices them, and pricing any slice of the draws gives the same figures."""
    p = plan()
    model = montecarlo.Model(p, CATALOG, MEASUREMENTS)
    size = 2 * montecarlo.CHUNK + 37
    drawn = montecarlo.draw(model.items, size, 12)
    found = model.run(drawn)
    edges = [0, montecarlo.CHUNK - 1, montecarlo.CHUNK, 2 * montecarlo.CHUNK, size - 1]
    for d in edges:
        assert vectorised_cents(model, found, d) == engine_cents(
            p, CATALOG, MEASUREMENTS, model, drawn, d
        ), d
    part = model.run({name: v[montecarlo.CHUNK - 5 : size - 3] for name, v in drawn.items()})
    for name, values in part.items():
        assert np.array_equal(values, found[name][montecarlo.CHUNK - 5 : size - 3])


SELF_MANAGED = tier("hetzner-ax102", "129", vcpus=16, ram=128, managed=False, setup="99",
                    min_term=12)  # fmt: skip
SET_UP = tier("ovh-advance", "200", vcpus=24, ram=64, managed=True, setup="150.55", min_term=24)
R5_4X = tier("aws-r5.4xlarge-us-east-1-on-demand", "1.008", "hour", kind="cloud_vm",
             model="on_demand", vcpus=16, ram=128)  # fmt: skip
MORE = frame(EXTREME, C5_2X, SELF_MANAGED, SET_UP, R5_4X)


def test_fixed_servers_with_operations_set_up_fees_and_a_term_beyond_the_horizon():
    """Three servers a month on a self-managed tier (operations hours, a set-up fee, a
    12-month term over a 6-month horizon) and two on a managed one with a set-up fee,
    beside egress and other monthly costs: each draw priced to the cent as the engine does."""
    monthly = {"ops_hours_per_server": 2, "ops_rate": 80, "egress": "12.5", "other": "3.33"}
    p = plan(horizon_months=6, monthly=monthly, candidates=[
        {"tier": "hetzner-ax102", "count": 3}, {"tier": "ovh-advance", "count": 2},
        {"tier": "inmotion-extreme"}])  # fmt: skip
    model = montecarlo.Model(p, MORE, MEASUREMENTS)
    modes = {part.mode for option in model.options for part in option.parts}
    assert modes == {"fixed", "sized"} and any(part.owed for o in model.options for part in o.parts)
    drawn = montecarlo.draw(model.items, 12, 4)
    found = model.run(drawn)
    for d in range(12):
        assert vectorised_cents(model, found, d) == engine_cents(
            p, MORE, MEASUREMENTS, model, drawn, d
        ), d


def test_a_tier_baseline_with_a_commitment_and_months_of_running_both():
    """The bill is four r5.4xlarge servers at their drawn price, with a 300-a-month
    commitment for ten more months and three months of running both after the switch."""
    p = plan(baseline={"tier": "aws-r5.4xlarge-us-east-1-on-demand", "count": 4,
                       "commitments": [{"months_remaining": 10, "monthly": "300"}]},
             one_time={"migration_hours": 20, "migration_rate": 100, "running_both_months": 3,
                       "retraining": "999.99", "other": "10"})  # fmt: skip
    model = montecarlo.Model(p, MORE, MEASUREMENTS)
    drawn = montecarlo.draw(model.items, 12, 8)
    found = model.run(drawn)
    for d in range(12):
        assert vectorised_cents(model, found, d) == engine_cents(
            p, MORE, MEASUREMENTS, model, drawn, d
        ), d


def test_a_percentile_among_draws_that_never_pay_back_reads_never():
    """Payback months 3, 4 and six draws that never pay back (0): P10 falls on month 3,
    P50 and P90 among the never-paying draws."""
    months = np.array([3, 4, 0, 0, 0, 0, 0, 0])
    assert montecarlo.percentile_month(months, 10, 36) == 3
    assert montecarlo.percentile_month(months, 50, 36) is None
    assert montecarlo.percentile_month(months, 90, 36) is None


def test_the_bill_break_even_recomputed_through_the_engine_matches_the_hand_figure():
    """One Extreme server at 349.99 against a 480 bill, 500 of migration, 36 months, no
    growth: it pays back while 36 × B > 500 + 36 × 349.99, i.e. B > 363.8789; the bill
    factor to four places that still pays back is 0.7581 (480 × 0.7581 = 363.888), and
    0.7580 (363.84) does not."""
    p = parse_plan({"currency": "USD", "baseline": {"monthly": "480"},
                    "candidates": [{"tier": "inmotion-extreme", "count": 1}],
                    "one_time": {"migration_hours": 5, "migration_rate": 100}})  # fmt: skip
    items = [i for i in uncertainty.inputs(p, CATALOG, {}, []) if i.name == "baseline_monthly"]

    def outcome(values):
        result = engine.compare(*uncertainty.apply(p, CATALOG, {}, values))
        m = result.options[0].money
        return tco.to_cents(m.npv), tco.to_cents(m.saving), m.payback_month or 0

    [row] = uncertainty.one_way(items, outcome, 36)
    assert row["break_even"] == "0.7581"
    assert Decimal("480") * Decimal(row["break_even"]) > Decimal("363.8789")


def test_a_range_the_plan_enters_replaces_the_default_and_is_drawn_uniformly():
    p = plan(ranges=[{"input": "baseline_monthly", "low": "0.9", "high": "1.1"}])
    model = montecarlo.Model(p, CATALOG, MEASUREMENTS)
    [bill] = [i for i in model.items if i.name == "baseline_monthly"]
    assert (bill.low, bill.high, bill.source) == (Decimal("0.9"), Decimal("1.1"), "entered")
    drawn = montecarlo.draw(model.items, 5000, 1)["baseline_monthly"]
    assert drawn.min() >= 9000 and drawn.max() <= 11000
