# ruff: noqa: RUF003  (hand calculations written with ×)
"""A plan whose baseline is taken from a bill gets the cloud's commitments of the bill's
instance types weighed against the bill's effective cost (issue 27, items 4 and 5), through
`POST /api/v1/evaluate`: reservations and spot of the same instance at the bill's machine
count, break-even month and the utilisation below which each loses to what the bill pays
now, the share of the bill already under a commitment said, the slots with no rate said.

The bill is GENERATED at test time from the FOCUS sample's own header and its first AWS
c5.2xlarge usage row (../shared/reference/bills/focus), with c5.4xlarge hours and costs
chosen for the arithmetic below; it is never shipped."""

from __future__ import annotations

import csv
import json
from decimal import Decimal
from pathlib import Path

import pytest

from bills.services.importing import import_bill
from planner.compute.answer import Answer
from planner.services import bill_commitments
from planner.services.evaluation import encoded
from tests.support.api import post_json, session_client
from tests.support.bills import FOCUS, bill_sample, rows_of, write_csv

pytestmark = pytest.mark.django_db
C5 = "aws-c5.4xlarge-us-east-1-on-demand"
EXTREME = "inmotion-hosting-extreme-dedicated-fixed-monthly"


def generated_bill(tmp_path: Path) -> Path:
    """GENERATED: two c5.4xlarge machines in us-east-1 for September 2024, one on demand
    (730 h at 0.68 = 496.40) and one under a savings plan it used in full (730 h at an
    effective 0.40 = 292.00); and one c5.2xlarge on demand (730 h at 0.34 = 248.20). Each
    machine its own resource, contracted at list (no negotiated discount)."""
    header, rows = rows_of(bill_sample(FOCUS))
    template = next(r for r in rows if "On Demand Linux c5.2xlarge" in r["ChargeDescription"])

    def row(number: int, instance: str, cost: str, pricing: str, unit_price: str) -> dict:
        out = dict(template)
        listed = str(Decimal(unit_price) * 730)
        out.update(ChargeDescription=f"${unit_price} per On Demand Linux {instance} Instance Hour",
                   ConsumedQuantity="730", PricingQuantity="730", EffectiveCost=cost,
                   BilledCost=cost, ListCost=listed, ListUnitPrice=unit_price,
                   ContractedCost=listed, ContractedUnitPrice=unit_price,
                   ResourceId=f"i-generated{number}", PricingCategory=pricing,
                   ChargePeriodStart="2024-09-01 00:00:00",
                   ChargePeriodEnd="2024-10-01 00:00:00")  # fmt: skip
        if pricing == "Committed":
            out.update(CommitmentDiscountStatus="Used", CommitmentDiscountType="Savings Plan",
                       CommitmentDiscountCategory="Spend",
                       CommitmentDiscountId="arn:aws:savingsplans::1:savingsplan/made")  # fmt: skip
        return out

    made = [
        row(1, "c5.4xlarge", "496.40", "Standard", "0.68"),
        row(2, "c5.4xlarge", "292.00", "Committed", "0.68"),
        row(3, "c5.2xlarge", "248.20", "Standard", "0.34"),
    ]
    return write_csv(tmp_path / "focus_c5_GENERATED.csv", header, made)


def _plan(bill_id: int, currency: str = "USD") -> dict:
    return {"currency": currency, "baseline": {"monthly": "1", "bill": {"id": bill_id}},
            "candidates": [{"tier": EXTREME, "count": 1}], "horizon_months": 36}  # fmt: skip


@pytest.fixture
def bill(default_catalog_api, owner, tmp_path):
    return import_bill(generated_bill(tmp_path), owner).bill


def test_a_bill_baseline_weighs_the_reservations_against_the_bills_effective_cost(
    default_catalog_api, bill
) -> None:
    response = post_json(default_catalog_api, "/api/v1/evaluate", _plan(bill.pk))
    assert response.status_code == 200, response.content[:800]
    said = response.json()["bill_commitments"]
    assert said["currency"] == "USD" and said["cost"] == "effective"
    assert said["tiers_total"] == said["tiers_shown"] == 2  # the dearest first
    c5, c52 = said["tiers"]
    assert c5["tier"] == C5 and c5["count"] == "2.000"
    assert c5["bill_monthly"] == "788.40" and c5["bill_rate_monthly"] == "394.20"
    # 292.00 of 788.40 is under a savings plan already: said, with its share
    assert c5["committed_share"] == "0.3704" and c5["committed_hours_share"] == "0.5000"
    assert c5["notes"][0].startswith("50 % of this instance's hours on the bill already ran")
    assert len(c5["notes"]) == 1  # the committed hours are priced on this bill
    options = {(o["group"], o["years"]): o for o in c5["options"]}
    assert set(options) == {("reserved", 1), ("reserved", 3), ("spot", 0)}
    one = options[("reserved", 1)]
    # 0.428 × 730 = 312.44 a machine, no upfront: from month 1; 312.44 ÷ 394.20
    assert one["tier"] == "aws-c5.4xlarge-us-east-1-reserved-1y"
    assert one["monthly"] == "624.88" and one["saving_monthly"] == "163.52"
    assert one["break_even_month"] == 1 and one["loses_below_utilisation"] == "0.7926"
    assert one["summary"].startswith("from your bill: beats what you pay now from month 1")
    assert Decimal(one["price"]["amount"]) == Decimal("0.428") and one["price"]["unit"] == "hour"
    three = options[("reserved", 3)]  # 0.285 × 730 = 208.05; ÷ 394.20
    assert three["monthly"] == "416.10" and three["loses_below_utilisation"] == "0.5278"
    spot = options[("spot", 0)]  # the hand-entered $150 a month, plus 10 % re-run
    assert spot["monthly"] == "330.00" and spot["break_even_month"] is None
    missing = {(m["group"], m["years"]) for m in c5["missing"]}
    assert missing == {("savings_plan", 1), ("savings_plan", 3)}
    assert all("no rate is made up" in m["reason"] for m in c5["missing"])
    # c5.2xlarge: on demand only in the catalog; every slot says it has no rate
    assert c52["bill_monthly"] == "248.20" and c52["options"] == []
    assert len(c52["missing"]) == 5
    assert said["commit_saving_monthly"] == "372.30"  # the 3-year reservation; spot left out
    codes = {m["code"] for m in said["messages"]}
    assert {"bills.commitments.break_even", "bills.commitments.includes_committed"} <= codes


# The generated bill's own figures, by hand: 292.00 used of a savings plan, none unused
# (utilisation 1); eligible list 3 × 730 h at list = 1,241.00 of which 496.40 ran under the
# plan (coverage 0.4); contracted at list, so the 204.40 saved (1,241.00 - 1,036.60) is all
# the commitment's.
TODAY = {"utilisation": "1.0000", "coverage": "0.4000", "unused": "0.00",
         "negotiated_savings": "0.00", "commitment_savings": "204.40", "reason": None}  # fmt: skip


def test_todays_figures_are_the_bill_pages(default_catalog_api, bill, own_cache) -> None:
    """`summary_of` reads the figures the bill page keeps (the same months, the same
    numbers), or computes them where none are kept; the answer says them."""
    from bills import page

    assert page.kept(bill) is None
    computed = bill_commitments.summary_of(bill)
    page.warm(bill.pk)
    assert bill_commitments.summary_of(bill) == computed
    assert page.kept(bill)["commitments"]["coverage"] == "0.4"
    body = post_json(default_catalog_api, "/api/v1/evaluate", _plan(bill.pk)).json()
    today = body["bill_commitments"]["today"]
    assert {k: today[k] for k in TODAY} == TODAY
    assert today["said"] == ["utilisation of your commitments: 100.0 %",
                             "coverage of eligible usage: 40.0 %",
                             "unused commitment spend: 0.00 USD",
                             "negotiated savings: 0.00 USD",
                             "commitment savings: 204.40 USD"]  # fmt: skip


def test_a_figure_the_bill_cannot_give_says_why(owner, tmp_path) -> None:
    """No savings plan on the bill: no utilisation, and its reason."""
    header, rows = rows_of(generated_bill(tmp_path))
    for row in rows:
        row.update(PricingCategory="Standard", CommitmentDiscountStatus="NULL",
                   CommitmentDiscountId="NULL", CommitmentDiscountType="NULL",
                   CommitmentDiscountCategory="NULL")  # fmt: skip
    made = import_bill(write_csv(tmp_path / "on_demand_GENERATED.csv", header, rows), owner).bill
    found = bill_commitments.summary_of(made)
    assert found.utilisation is None and found.reason == "no_commitment"
    assert found.coverage == 0 and found.unused == 0
    said = bill_commitments.weighing.today(found, "USD")
    assert said["utilisation"] is None and said["reason"] == "no_commitment"
    assert said["said"][0].code == "bills.commitments.today_coverage"


def test_a_plan_in_another_currency_than_the_bill_is_not_weighed(default_catalog_api, bill):
    response = post_json(default_catalog_api, "/api/v1/evaluate", _plan(bill.pk, "EUR"))
    assert response.status_code == 200, response.content[:800]
    said = response.json()["bill_commitments"]
    assert said["tiers"] == [] and said["tiers_total"] == 2
    assert "The bill is in USD and the plan in EUR" in said["reason"]


def test_a_typed_baseline_has_no_bill_commitments(default_catalog_api) -> None:
    plan = {"currency": "USD", "baseline": {"tier": C5, "count": 2},
            "candidates": [{"tier": EXTREME, "count": 1}]}  # fmt: skip
    body = post_json(default_catalog_api, "/api/v1/evaluate", plan).json()
    assert "bill_commitments" not in body


def test_the_generated_bill_is_read_as_written(tmp_path) -> None:
    with generated_bill(tmp_path).open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [r["PricingCategory"] for r in rows] == ["Standard", "Committed", "Standard"]


def test_todays_coverage_and_utilisation_from_the_bill_beside_the_options(
    default_catalog_api, bill, own_cache
) -> None:
    """Through the one adapter (`summary_of`): the answer says the bill's own figures beside
    the cloud's commitment options."""
    body = post_json(default_catalog_api, "/api/v1/evaluate", _plan(bill.pk)).json()
    said = body["bill_commitments"]
    assert said["tiers"][0]["options"]
    today = said["today"]
    assert today["utilisation"] == "1.0000" and today["coverage"] == "0.4000"
    assert today["said"][:2] == ["utilisation of your commitments: 100.0 %",
                                 "coverage of eligible usage: 40.0 %"]  # fmt: skip


def bill_plan(owner, bill_id: int):
    from planner.services import plans as services

    data = {"currency": "USD", "name": "c5 bill or EPYC", "horizon_months": 36,
            "baseline": {"bill": {"id": bill_id}},
            "candidates": [{"tier": EXTREME, "count": 1}]}  # fmt: skip
    return services.plan_create(owner=owner, plan=services.parse_owned(data, owner))


SAID = {
    "en": ("Stay and commit: the cloud", "from your bill: beats what you pay now from month 1",
           "79.26", "already ran under a reservation or savings plan", "Today, from your bill:",
           "unused commitment spend"),
    "de": ("Bleiben und binden", "nach Ihrer Rechnung: günstiger als heute ab Monat 1", "79,26",
           "liefen schon über eine Reservierung oder einen Sparplan", "Heute, nach Ihrer Rechnung:",
           "ungenutzte Bindungsausgaben"),
}  # fmt: skip


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_plan_page_shows_the_bills_commitments_and_todays_figures(
    default_catalog_api, bill, owner, own_cache, language
) -> None:
    plan = bill_plan(owner, bill.pk)
    client = session_client(owner)
    client.cookies["django_language"] = language
    page = client.get(f"/plans/{plan.code}/").content.decode()
    section = page[page.index('data-testid="bill-commitments"') :]
    section = section[: section.index("</section>")]
    for text in SAID[language]:
        assert text in section, text
    assert section.count('data-testid="bill-commitment-terms"') == 3  # 2 reservations, spot
    headline = page[page.index('data-testid="vs-bill-commitments"') :]
    assert ("372.30" if language == "en" else "372,30") in headline[: headline.index("</p>")]


def test_a_share_of_a_bill_plan_keeps_no_bill_commitments(default_catalog_api, bill, owner):
    from planner.services import plans as services

    plan = bill_plan(owner, bill.pk)
    share = services.share_create(plan=plan, user=owner)
    assert "bill_commitments" not in share.snapshot["results"]
    assert "c5.2xlarge" not in json.dumps(share.snapshot["results"].get("baseline"))
    today = services.recompute_snapshot_inputs(share)
    assert not any("bill_commitments" in change["path"] for change in today["diff"]["figures"])


def test_the_answer_matches_the_api_document(default_catalog_api, bill, own_cache):
    from tests.test_api_openapi_document import Answers

    answers = Answers()

    def evaluated(currency: str = "USD") -> dict | None:
        response = post_json(default_catalog_api, "/api/v1/evaluate", _plan(bill.pk, currency))
        return answers.check("/evaluate", "post", response)

    evaluated("USD")
    evaluated("EUR")  # not weighed, with its reason
    body = evaluated()
    assert body["bill_commitments"]["today"]["coverage"] == "0.4000"


@pytest.mark.parametrize("currency", ["USD", "EUR"])
def test_a_bill_plans_answer_reads_back_to_the_same_bytes(default_catalog_api, bill, currency):
    """`Answer.read` over a bill baseline's answer: its commitments' sentences are Messages
    again, and dumped it gives the API's bytes (the other currency's reason among them)."""
    response = post_json(default_catalog_api, "/api/v1/evaluate", _plan(bill.pk, currency))
    read = Answer.read(response.json())
    assert read.bill_commitments is not None
    if currency == "USD":
        assert read.bill_commitments.tiers[0].said.code == "bills.commitments.tier"
    else:
        assert read.bill_commitments.reason.code == "bills.commitments.other_currency"
    assert encoded(read.model_dump()) == response.content
