"""Owned hardware in the sensitivity and the odds (issue 21, item 3): the purchase price,
electricity price, PUE, colocation, resale value and service life each vary over their
range; each draw of the odds prices the owned option to the cent as the engine prices the
moved plan; no input that moves nothing ("$0-$0 one-time costs") is a bar."""

from decimal import Decimal
from types import SimpleNamespace

from planner.compute import engine, montecarlo, tco, uncertainty
from planner.compute.schema import parse_plan
from tests.support.engine import EXTREME, frame

CATALOG = frame(EXTREME)
SERVER = {"name": "rack box", "count": 2, "purchase_price": "6300", "depreciation_years": 3,
          "watts": 350, "kwh_price": "0.30", "pue": "1.4", "colocation_monthly": "80",
          "resale": "percent", "resale_percent": "0.2"}  # fmt: skip


def plan(server=SERVER, **extra):
    data = {"currency": "USD", "baseline": {"monthly": "1480"}, "horizon_months": 48,
            "owned": [server], "one_time": {"running_both_months": 0}} | extra  # fmt: skip
    return parse_plan(data)


def test_every_owned_input_has_its_range_and_each_moves_the_npv():
    p = plan()
    items = {i.name: i for i in uncertainty.inputs(p, CATALOG, {}, [])}
    names = {"owned:purchase_price", "owned:kwh_price", "owned:pue", "owned:colocation",
             "owned:resale", "owned:lifetime"}  # fmt: skip
    assert names <= set(items)
    assert items["owned:pue"].low * Decimal("1.4") >= 1  # a PUE never below 1
    base = engine.compare(p, CATALOG, {}).options[0].money.npv
    for name in names:
        for end in ("low", "high"):
            value = getattr(items[name], end)
            moved = engine.compare(*uncertainty.apply(p, CATALOG, {}, {name: value}))
            assert moved.options[0].money.npv != base, (name, end)
    # a server without power, colocation or a resale percentage has none of those rows
    bare = {"purchase_price": "6300", "depreciation_years": 3}
    left = {i.name for i in uncertainty.inputs(plan(bare), CATALOG, {}, [])}
    assert {"owned:purchase_price", "owned:lifetime"} <= left
    assert not {"owned:kwh_price", "owned:pue", "owned:colocation", "owned:resale"} & left


def test_the_lifetime_moves_whole_years_and_a_replacement_within_the_horizon():
    assert uncertainty.owned_years(3, Decimal("0.6")) == 2
    assert uncertainty.owned_years(3, Decimal("1.4")) == 4
    assert uncertainty.owned_years(1, Decimal("0.6")) == 1
    assert uncertainty.owned_years(12, Decimal("1.4")) == 15


def draws_agree(p):
    model = montecarlo.Model(p, CATALOG, {})
    drawn = montecarlo.draw(model.items, 40, 21)
    found = model.run(drawn)
    for d in range(40):
        values = montecarlo.values_of(model.items, drawn, d)
        result = engine.compare(*uncertainty.apply(p, CATALOG, {}, values))
        by_key = {o.key: o.money for o in result.options}
        for k, key in enumerate(model.keys):
            m = by_key[key]
            expected = (tco.to_cents(m.npv), tco.to_cents(m.saving), m.payback_month or 0)
            got = tuple(int(found[name][d, k]) for name in ("npv", "saving", "payback"))
            assert got == expected, (d, key, values)
    return found


def test_each_draw_prices_the_owned_option_to_the_cent_as_the_engine_does():
    found = draws_agree(plan())
    assert len(set(found["npv"][:, 0].tolist())) > 30  # the owned inputs move each draw


def test_a_loan_and_a_book_value_agree_draw_by_draw_too():
    loan = SERVER | {"financing": "loan", "loan_annual_rate": "0.07", "loan_months": 60,
                     "resale": "book_value", "resale_percent": None}  # fmt: skip
    draws_agree(plan(loan))


def test_the_odds_of_an_owned_option_are_not_certain_and_no_bar_is_flat():
    p = plan(SERVER | {"purchase_price": "30000"}, baseline={"monthly": "1900"})
    model = montecarlo.Model(p, CATALOG, {})
    odds = montecarlo.summary(model, draws=2000, seed=3)
    share = Decimal(odds.options[0].pays_back)
    assert 0 < share < 1, share
    rows = [SimpleNamespace(input=i.name, label="", npv_low="1.00", npv_high="1.00")
            for i in model.items]  # fmt: skip
    assert uncertainty.tornado(rows, "0.00").bars == []
