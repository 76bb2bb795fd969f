# ruff: noqa: RUF002, RUF003  (hand calculations written with ×, −)
"""Money inputs' break-even to the cent, said in the direction it works (pure computation,
through `engine.compare` on the engine tests' catalog frame)."""

from decimal import Decimal

from common.messages import plain
from planner.compute import breakeven, engine, tco, uncertainty
from planner.compute.schema import parse_plan
from tests.support.engine import EXTREME, frame

CATALOG = frame(EXTREME)
MONTH = breakeven.MONTH


def table(bill: str, migration_hours: int = 5) -> tuple[list[dict], dict]:
    plan = parse_plan({"currency": "USD", "baseline": {"monthly": bill},
                       "candidates": [{"tier": "inmotion-extreme", "count": 1}],
                       "one_time": {"migration_hours": migration_hours,
                                    "migration_rate": 100}})  # fmt: skip
    items = uncertainty.inputs(plan, CATALOG, {}, ["inmotion-extreme"])

    def outcome(values):
        result = engine.compare(*uncertainty.apply(plan, CATALOG, {}, values))
        m = result.options[0].money
        return tco.to_cents(m.npv), tco.to_cents(m.saving), m.payback_month or 0

    amounts = {
        "baseline_monthly": breakeven.Amount(Decimal(bill), MONTH),
        "price:inmotion-extreme": breakeven.Amount(Decimal("349.99"), MONTH),
        "one_time": breakeven.Amount(Decimal(100 * migration_hours), breakeven.ONCE),
    }
    rows = uncertainty.one_way(items, outcome, 36)
    base_pays = outcome({})[2] > 0
    rows = breakeven.in_money(rows, items, amounts, outcome, currency="USD", horizon=36,
                              base_pays=base_pays)  # fmt: skip
    return rows, {r.input: r for r in rows}


def test_the_field_notes_bill_stops_paying_back_below_363_88_a_month():
    """36 × B > 500 + 36 × 349.99 = 13,099.64: B > 363.8789, so $363.88 pays back, $363.87
    does not (a factor's fourth place, 0.7581, is $363.888: coarser than a cent)."""
    _rows, by = table("480")
    bill = by["baseline_monthly"]
    assert (bill.break_even, bill.break_even_amount) == ("0.7581", "363.88")
    assert bill.break_even_sentence.code == "sensitivity.break_even_bill"
    assert plain(bill.break_even_sentence) == (
        "the switch stops paying back within 36 months if the cloud bill falls below "
        "363.88 USD a month"
    )
    assert (bill.low_amount, bill.base_amount, bill.high_amount) == (
        "360.00", "480.00", "600.00")  # fmt: skip


def test_a_price_line_stops_paying_back_above_its_break_even():
    """Against $390 with $500 of migration: 36 × (390 − P) > 500 while P < 376.1111, so
    $376.11 a month still pays back (36 × 13.89 = 500.04) and $376.12 does not (499.68)."""
    _rows, by = table("390")
    price = by["price:inmotion-extreme"]
    assert price.break_even_amount == "376.11"
    assert price.break_even_sentence.code == "uncertainty.stops_above"
    assert plain(price.break_even_sentence) == (
        "the switch stops paying back within 36 months if the price of inmotion-extreme rises "
        "above 376.11 USD a month"
    )


def test_a_base_case_that_never_pays_back_says_what_it_would_take():
    """$300 a month against $349.99 with no one-time cost never pays back; a bill of B pays
    back from month 1 while B > 349.99: at least $350.00 (inside the bill's 225…375)."""
    _rows, by = table("300", migration_hours=0)
    bill = by["baseline_monthly"]
    assert bill.payback_low is None and bill.payback_high == 1
    assert bill.break_even_amount == "350.00"
    assert plain(bill.break_even_sentence) == (
        "the switch pays back within 36 months only if today's monthly bill is at least "
        "350.00 USD a month"
    )


def test_an_input_without_a_flip_says_so_in_its_own_terms():
    _rows, by = table("480")
    assert plain(by["one_time"].break_even_sentence) == (
        "no break-even for the one-time costs between 250.00 USD and 1000.00 USD"
    )
    assert plain(by["annual_discount_rate"].break_even_sentence) == (
        "no break-even between 0 % and 14 %: payback is undiscounted"
    )
    assert by["monthly_growth"].low_amount is None  # a rate, not an amount
