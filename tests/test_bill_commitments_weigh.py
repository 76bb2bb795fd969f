# ruff: noqa: RUF003  (hand calculations written with ×)
"""The weighing of a bill's instance types against the cloud's commitments, as plain data
(planner/compute/bill_commitments.py): the dearest few kept and the rest counted, an
upfront's break-even against the bill's rate, a commitment dearer than the bill said so,
the share already committed or on spot said, and today's figures of the bill said from
any object with the summary's attribute names. The prices here are GENERATED for the
arithmetic; the real ones are tests/test_api_bill_commitments.py's."""

from __future__ import annotations

from decimal import Decimal
from types import SimpleNamespace

from common.messages import plain
from planner.compute.bill_commitments import BillTier, SlotPrice, today, weigh

D = Decimal


def line(name: str, monthly: str, count: str = "2", **extra) -> BillTier:
    return BillTier(name, "us-east-1", f"aws-{name}-us-east-1-on-demand", D(count), D(monthly),
                    **extra)  # fmt: skip


def test_the_dearest_types_are_weighed_and_the_rest_counted() -> None:
    lines = [line("a", "100"), line("b", "300"), line("c", "200"), line("d", "50")]
    said = weigh(lines, {}, allowance=D("0.1"), currency="USD", limit=2)
    assert [t["instance_type"] for t in said["tiers"]] == ["b", "c"]
    assert (said["tiers_total"], said["tiers_shown"]) == (4, 2)
    assert plain(said["more"]) == "and 2 more instance types, 150.00 USD a month, not weighed here"


def test_an_upfront_breaks_even_against_the_bills_rate_not_the_list_price() -> None:
    """Two machines at 400 a month on the bill (200 each). All upfront 1,200 a year, nothing
    monthly: 1,200 ÷ 200 = month 6; 100 a month spread ÷ 200 = 0.5 utilisation."""
    slot = SlotPrice("reserved", 1, "aws-a-us-east-1-reserved-1y-all-upfront", "reserved_1y",
                     upfront=D("1200"), term_months=12)  # fmt: skip
    (tier,) = weigh([line("a", "400")], {"aws-a-us-east-1-on-demand": [slot]},
                    allowance=D("0.1"), currency="USD")["tiers"]  # fmt: skip
    (option,) = tier["options"]
    assert option["break_even_month"] == 6 and option["loses_below_utilisation"] == "0.5000"
    assert option["upfront"] == "2400.00" and option["monthly"] == "200.00"
    assert option["saving_monthly"] == "200.00"


def test_a_commitment_dearer_than_the_bill_never_beats_it() -> None:
    """The bill already pays 100 a machine (a negotiated or committed rate); a reservation
    at 150 a month never beats it."""
    slot = SlotPrice("reserved", 3, "aws-a-us-east-1-reserved-3y", "reserved_3y",
                     monthly=D("150"), term_months=36)  # fmt: skip
    (tier,) = weigh([line("a", "200")], {"aws-a-us-east-1-on-demand": [slot]},
                    allowance=D("0.1"), currency="USD")["tiers"]  # fmt: skip
    (option,) = tier["options"]
    assert option["break_even_month"] is None and option["saving_monthly"] == "-100.00"
    assert plain(option["summary"]).startswith("from your bill: never beats")
    assert option["loses_below_utilisation"] == "1.5000"


def test_the_share_already_committed_or_on_spot_is_said() -> None:
    """2 machines (1,460 h): 365 h committed at 100, 146 h on spot at 50."""
    (tier,) = weigh([line("a", "400", committed=D("100"), spot=D("50"),
                          committed_hours=D("365"), spot_hours=D("146"))], {},
                    allowance=D("0.1"), currency="USD")["tiers"]  # fmt: skip
    assert (tier["committed_share"], tier["spot_share"]) == ("0.2500", "0.1250")
    assert (tier["committed_hours_share"], tier["spot_hours_share"]) == ("0.2500", "0.1000")
    notes = [plain(n) for n in tier["notes"]]
    assert notes[0].startswith("25 % of this instance's hours on the bill already ran under")
    assert notes[1].startswith("10 % of this instance's hours on the bill already ran on spot")
    assert "no commitment or spot prices" in notes[2]  # no slot at all in the catalog


def test_committed_hours_at_no_cost_are_said_to_understate_the_bill() -> None:
    """An actual-cost view: the covered hours show no cost, the purchase sits elsewhere."""
    (tier,) = weigh([line("a", "200", committed_hours=D("730"))], {},
                    allowance=D("0.1"), currency="USD")["tiers"]  # fmt: skip
    notes = [plain(n) for n in tier["notes"]]
    assert notes[0].startswith("50 % of this instance's hours")
    assert "the bill understates what they cost" in notes[1]


def test_a_type_with_no_machine_hours_is_not_weighed() -> None:
    said = weigh([line("a", "10", count="0")], {}, allowance=D("0.1"), currency="USD")
    assert said["tiers"] == [] and said["tiers_total"] == 1 and "more" in said


def test_today_says_each_figure_the_summary_gives_and_why_the_others_are_missing() -> None:
    summary = SimpleNamespace(utilisation=D("0.75"), coverage=None, unused=D("1.5"),
                              negotiated_savings=D(3), commitment_savings=D(3),
                              reason="no_list_cost")  # fmt: skip
    said = today(summary, "EUR")
    assert said["utilisation"] == "0.7500" and said["coverage"] is None
    assert said["unused"] == "1.50" and said["negotiated_savings"] == "3.00"
    assert [plain(m) for m in said["said"]] == [
        "utilisation of your commitments: 75.0 %", "unused commitment spend: 1.50 EUR",
        "negotiated savings: 3.00 EUR", "commitment savings: 3.00 EUR",
    ]  # fmt: skip
    empty = SimpleNamespace(utilisation=None, coverage=None, unused=None,
                            negotiated_savings=None, commitment_savings=None,
                            reason="no_commitments")  # fmt: skip
    assert [plain(m) for m in today(empty, "EUR")["said"]] == [
        "the bill gives no commitment figures (no_commitments)"
    ]
