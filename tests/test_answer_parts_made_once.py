"""A capacity table's results and an option's output: what tiers resting on one record
share, and each model made as `model_construct` makes it (its fields in order, the same
fields set)."""

import numpy as np

from planner.compute import tco
from planner.compute.answer import Capacity, Option, OptionMoney, Part, PriceRow, WorkloadCapacity
from planner.compute.capacity import size_tiers
from planner.compute.schema import HpoWorkload, InferenceWorkload
from planner.services.provenance import with_provenance
from tests.support.capacity import C5, EXTREME, GBM, measured, tiers
from tests.test_engine_options import run


def test_tiers_resting_on_one_record_share_its_basis_and_labels():
    m = measured("gbm", 1e9, measured=False, fit="usl", extrapolation="extrapolated: 2.0x")
    table = size_tiers(tiers(EXTREME, C5), [GBM], {(s, "gbm"): m for s in ("extreme", "c5")})
    first, second = (table.result(i).workloads[0] for i in (0, 1))
    assert first.basis is second.basis
    assert first.basis["run_id"] == "run-gbm"
    assert first.labels is not second.labels  # each tier's list its own
    assert [str(label) for label in first.labels[:2]] == [
        "predicted by the usl fit of epyc-1", "extrapolated: 2.0x"
    ]  # fmt: skip
    assert all(a is b for a, b in zip(first.labels, second.labels, strict=True))
    other = measured("gbm", 1e9, measured=False, fit="amdahl")
    apart = size_tiers(tiers(EXTREME, C5), [GBM], {("extreme", "gbm"): m, ("c5", "gbm"): other})
    assert apart.result(0).workloads[0].basis is not apart.result(1).workloads[0].basis


def _as_model_construct(model):
    """What `model_construct` of the model's given fields records."""
    given = {name: model.__dict__[name] for name in model.model_fields_set}
    return type(model).model_construct(**given)


def test_a_result_is_made_as_model_construct_makes_it():
    grid = HpoWorkload("hpo", searches_per_month=4, trials=256, deadline_hours=0.2)
    serve = InferenceWorkload("inference", peak_rps=1000, p99_ms=50, n_plus_one=True)
    found = {
        ("extreme", "gbm"): measured("gbm", 1e9),
        ("extreme", "hpo"): measured("hpo", 512, 16, concurrency=16, t0_seconds=112.5),
        ("extreme", "inference"): measured("inference", 200, 1, mean_s=0.005),
    }
    result = size_tiers(tiers(EXTREME), [GBM, grid, serve], found).result(0)
    assert list(result.__dict__) == list(Capacity.model_fields)
    assert result.model_fields_set == set(Capacity.model_fields) - {"provenance"}
    assert result.__dict__ == _as_model_construct(result).__dict__
    gbm, hpo, inference = result.workloads
    assert {"deadline_hours", "servers_forced_by_deadline"} <= hpo.model_fields_set
    assert "deadline_hours" not in gbm.model_fields_set
    assert {"workers", "simulated", "p99_ms_mmc", "p99_ms_sim"} <= inference.model_fields_set
    for w in result.workloads:
        assert list(w.__dict__) == list(WorkloadCapacity.model_fields)
        assert w.__dict__ == _as_model_construct(w).__dict__


def test_an_options_repeated_months_share_one_amount():
    cents = np.array([12_345, 12_345, 12_345, -7, -7, 0], dtype=np.int64)
    months = tco._months(cents)
    assert months == tco._amounts(cents)
    assert [str(m) for m in months] == ["123.45"] * 3 + ["-0.07"] * 2 + ["0.00"]
    assert months[0] is months[2] and months[3] is months[4]


def test_an_options_output_is_made_as_model_construct_makes_it():
    fx = {"fx_rate": 0.9, "fx_date": "2026-01-02"}
    comparison = run()
    for option in comparison.options:  # one price row in another currency: its rate set
        option.parts[0].price = {**option.parts[0].price, **fx}
        break
    shown = [o.output() for o in comparison.options]
    for option in shown:
        assert list(option.__dict__) == list(Option.model_fields)
        assert option.model_fields_set == set(Option.model_fields) - {"provenance"}
        assert option.__dict__ == _as_model_construct(option).__dict__
        assert list(option.money.__dict__) == list(OptionMoney.model_fields)
        assert option.money.model_fields_set == set(OptionMoney.model_fields)
        for part in option.parts:
            assert list(part.__dict__) == list(Part.model_fields)
            assert part.model_fields_set == set(Part.model_fields)
            assert part.price.__dict__ == _as_model_construct(part.price).__dict__
            assert list(part.price.__dict__) == list(PriceRow.model_fields)
    rated = shown[0].parts[0].price
    assert {"fx_rate", "fx_date"} <= rated.model_fields_set and rated.fx_rate == 0.9
    plain = shown[1].parts[0].price
    assert "fx_rate" not in plain.model_fields_set and "fx_rate" not in plain.model_dump()


def test_the_answers_sources_leave_the_comparison_as_the_engine_made_it():
    """The shown tiers' rows gain their price row, the capacities, the baseline and the
    headline their sources, on the answer's copies: the comparison's stay as they were."""
    comparison = run()
    answer = with_provenance(comparison.output(limit=3))
    rows = [r for r in answer.price_performance if "price" in r.model_fields_set]
    assert rows and all(r.price is not None for r in rows)
    assert all(
        r.price is None and "price" not in r.model_fields_set for r in comparison.price_performance
    )
    sized = [p.capacity for o in answer.options for p in o.parts if p.capacity is not None]
    assert sized and all(c.provenance is not None for c in sized)
    held = [p.capacity for o in comparison.options for p in o.parts if p.capacity is not None]
    assert held and all(c.provenance is None for c in held)
    assert answer.baseline.provenance is not None and comparison.baseline.provenance is None
    assert answer.headline.provenance is not None and comparison.headline.provenance is None
    dumped = answer.model_dump()
    assert dumped["headline"]["provenance"] == {"option": answer.headline.best}
    assert "provenance" not in comparison.output(limit=3).model_dump()["headline"]
    runs = [o.provenance.runs for o in answer.options]
    assert all(len(r) == 1 for r in runs) and runs[0][0]["run_id"] == "run-epyc-gbm"
