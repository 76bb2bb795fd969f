"""Commitment figures against the FOCUS spec's own worked examples
(../shared/reference/bills/focus/spec_examples, FOCUS_Spec v1.2, CC BY 4.0): each file's
utilisation and coverage as the spec's text for that example states them."""

from __future__ import annotations

import csv
from decimal import Decimal

import pytest

from bills.commitments import Figures, from_focus_rows
from tests.support.bills import bill_sample

EXAMPLES = "focus/spec_examples/"


def figures(name: str) -> Figures:
    with bill_sample(EXAMPLES + name).open(encoding="utf-8-sig", newline="") as handle:
        return from_focus_rows(list(csv.DictReader(handle)))


# file: (utilisation, coverage) as the spec states them; None where the example has no
# usage (a purchase alone) or no list cost (the usage scenarios give none).
STATED = {
    "one_hundred_percent_utilization_without_commitment_discount_flexibility.csv": ("1", "1"),
    "zero_percent_utilization_without_commitment_discount_flexibility.csv": ("0", "0"),
    # "covers 25% of the VM_LARGE resource"
    "one_hundred_percent_utilization_with_commitment_discount_flexibility_with_1_resource.csv": (
        "1", "0.25"),
    # "1 commitment discount for a VM_XLARGE covers 2 VM_MEDIUM resources"
    "one_hundred_percent_utilization_with_commitment_discount_flexibility_with_2_resources.csv": (
        "1", "1"),
    "commitment_discount_usage_scenario_1.csv": ("1", None),
    "commitment_discount_usage_scenario_2.csv": ("0", None),
    "commitment_discount_usage_scenario_3.csv": ("0.75", None),
    "commitment_discount_usage_scenario_4.csv": ("1", None),
    "commitment_discount_purchase_scenario_1.csv": (None, None),
    "commitment_discount_purchase_scenario_2.csv": (None, None),
    "commitment_discount_purchase_scenario_3.csv": (None, None),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(STATED))
def test_each_spec_example_gives_its_stated_utilisation_and_coverage(name) -> None:
    found = figures(name)
    utilisation, coverage = STATED[name]
    assert found.utilisation == (None if utilisation is None else Decimal(utilisation))
    assert found.coverage == (None if coverage is None else Decimal(coverage))


def test_every_spec_example_is_checked() -> None:
    folder = bill_sample(EXAMPLES + sorted(STATED)[0]).parent
    assert {p.name for p in folder.glob("*.csv")} == set(STATED)


def test_unused_spend_and_effective_of_the_zero_percent_example() -> None:
    found = figures("zero_percent_utilization_without_commitment_discount_flexibility.csv")
    assert found.unused_cost == Decimal("1.50")  # the VM_LARGE commitment, unused
    assert found.effective == Decimal("3.50")  # 1.50 unused + 2.00 on demand
    assert found.list_cost - found.effective == found.savings


def test_savings_split_into_negotiated_and_commitment() -> None:
    rows = [
        {"ChargeCategory": "Usage", "PricingCategory": "Committed", "ListCost": "10",
         "ContractedCost": "8", "EffectiveCost": "5", "CommitmentDiscountStatus": "Used"},
        {"ChargeCategory": "Usage", "PricingCategory": "Standard", "ListCost": "4",
         "ContractedCost": "3", "EffectiveCost": "3"},
    ]  # fmt: skip
    found = from_focus_rows(rows)
    assert found.negotiated == Decimal(3)  # 14 list - 11 contracted
    assert found.commitment_savings == Decimal(3)  # 11 contracted - 8 effective
    assert found.negotiated + found.commitment_savings == found.savings
    assert found.coverage == Decimal(10) / Decimal(14)


def test_no_contracted_cost_no_split() -> None:
    found = Figures(list_cost=Decimal(5), effective=Decimal(4))
    assert found.negotiated is None and found.commitment_savings is None
    assert found.savings == Decimal(1) and found.utilisation is None and found.coverage is None
