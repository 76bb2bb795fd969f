"""A bill baseline's commitment alternatives as the answer gives them (`bill_commitments`).

`planner.compute.bill_commitments` weighs them (plain data with `Message`s where a sentence
goes); `planner.services.bill_commitments.for_plan` reads the bill and validates that data
into `BillCommitments`, the answer's field (docs/design.md, "The answer as typed models").
Pure: no Django.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from planner.compute.answer_parts import (
    CommitmentGroup,
    DecimalText,
    MoneyText,
    PriceRow,
    Sentence,
    Shown,
    Spoken,
)

# A reason the bill's summary gives: a sentence, or words from outside (said as they are).
Reason = Annotated[str | Sentence | None, Field(union_mode="left_to_right")]


class BillCommitmentOption(Shown):
    """A commitment slot of a bill's instance type at the bill's machine count, weighed
    against the bill's effective cost (not the list price)."""

    omitted: ClassVar[frozenset[str]] = frozenset({"price"})

    group: CommitmentGroup
    years: int = Field(description="1 or 3; 0 for spot")
    tier: str
    pricing_model: str | None
    break_even_month: int | None = Field(
        description="the first month m with upfront + m * the slot's monthly ≤ m * the bill's "
        "rate of one machine; null: never, or spot"
    )
    loses_below_utilisation: DecimalText | None = Field(
        description="(the slot's monthly + upfront ÷ its term) ÷ the bill's rate of one machine: "
        "a machine busy less than this share costs less as the bill pays now; null for spot"
    )
    label: Sentence
    monthly: MoneyText = Field(
        description="count * (the slot's monthly + its upfront ÷ its term); spot: count * "
        "its monthly * (1 + the plan's spot_interruption_allowance), in the bill's currency"
    )
    upfront: MoneyText = Field(description="count * the upfront, once a term")
    saving_monthly: MoneyText = Field(description="the bill's monthly for the type - monthly")
    summary: Sentence = Field(description='"from your bill: …"')
    saving_said: Sentence
    price: PriceRow | None = Field(None, description="the price row it is priced from")


class BillMissingSlot(BaseModel):
    """A slot of the instance's provider with no rate in the catalog."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    group: CommitmentGroup
    years: int
    reason: Sentence


class BillCommitmentTier(BaseModel):
    """One matched instance type of the bill (bills.baseline tier line) and its slots."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    instance_type: str
    region: str
    tier: str = Field(description="the catalog tier the bill's lines matched")
    count: DecimalText = Field(description="machines: hours a month ÷ 730, three places")
    bill_monthly: MoneyText = Field(description="the bill's effective cost a month of the type")
    bill_rate_monthly: MoneyText | None = Field(description="bill_monthly ÷ count: one machine")
    committed_share: DecimalText | None = Field(
        description="of bill_monthly, the share already under a commitment (FOCUS "
        "PricingCategory Committed): the bill's cost includes those discounts"
    )
    committed_hours_share: DecimalText | None = Field(
        description="of the type's machine-hours, the share under a commitment (said in "
        "`notes`, with a note where those hours carry no cost on the bill)"
    )
    spot_share: DecimalText | None = Field(description="of bill_monthly, the share on spot")
    spot_hours_share: DecimalText | None = Field(description="of its machine-hours, on spot")
    said: Sentence
    options: list[BillCommitmentOption] = Field(description="cheapest monthly first")
    missing: list[BillMissingSlot] = Field(description="slots with no rate (none made up)")
    notes: list[Sentence]


class BillTodaySummary(BaseModel):
    """The bill's own commitments (bills.commitments.bill_commitment_summary): each figure
    null where the bill cannot say, `reason` why."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    reason: Reason
    utilisation: DecimalText | None
    coverage: DecimalText | None
    unused: MoneyText | None = Field(description="effective cost of the unused commitment")
    negotiated_savings: MoneyText | None
    commitment_savings: MoneyText | None
    said: list[Sentence]


class BillCommitments(Spoken):
    """A bill baseline's commitment alternatives (issue 27): the dearest `limit` matched
    instance types of the bill, weighed against the bill's effective cost."""

    omitted: ClassVar[frozenset[str]] = frozenset({"more", "reason"})

    currency: str = Field(description="the bill's currency")
    cost: Literal["effective"]
    tiers_total: int = Field(description="matched instance types of the bill")
    tiers_shown: int
    limit: int
    tiers: list[BillCommitmentTier] = Field(description="the dearest on the bill first")
    commit_saving_monthly: MoneyText | None = Field(
        description="the weighed types' saving a month, each at its cheapest reservation, "
        "savings plan or committed use that saves (spot left out); null: nothing weighed"
    )
    more: Sentence | None = Field(None, description="the types not weighed; absent when none")
    reason: Sentence | None = Field(
        None, description="why none is weighed (the plan's currency is not the bill's)"
    )
    today: BillTodaySummary | None = Field(
        description="null where the bill's commitment figures are not available"
    )
