"""The odds and sensitivity answer as output models: which input decides the answer (the
one-way table through the engine, the tornado's bars) and the odds that the switch pays
back (the Monte Carlo), for the base case's best option.

`breakeven.in_money` builds the one-way rows (`UncertainInput`), `uncertainty.tornado`
the bars, `montecarlo.summary` the odds; `planner.services.evaluation.uncertainty_of` puts
them together (`Uncertainty`). The API returns its dump, the pages read the model, and a
share keeps its dump, read back by `Uncertainty.read` (docs/design.md, "The answer as
typed models"). Pure: no Django.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, Field, WithJsonSchema

from planner.compute.answer_parts import MONEY_PATTERN, DecimalText, Sentence, Shown, Spoken

# An amount the code gives as its text already ("1234.50"), in the plan's currency.
MoneyText = Annotated[
    str,
    WithJsonSchema({"type": "string", "pattern": MONEY_PATTERN,
                    "description": "An amount in the plan's currency, rounded half-up to "
                                   "the cent."}),
]  # fmt: skip

Kind = Literal["scale", "absolute"]
Source = Literal["default", "entered", "measured", "estimate", "aggregator", "assumption"]


class RangeUsed(BaseModel):
    """An input's range as the Monte Carlo drew it."""

    input: str
    kind: Kind
    low: DecimalText
    base: DecimalText
    high: DecimalText
    source: Source

    @classmethod
    def of(cls, item: Any) -> RangeUsed:
        """From an `uncertainty.Uncertain`."""
        return cls(input=item.name, kind=item.kind, low=str(item.low), base=str(item.base),
                   high=str(item.high), source=item.source)  # fmt: skip


class UncertainInput(Spoken):
    """One uncertain input moved alone to its low and to its high value, everything else as
    planned, recomputed through the engine: the base-case best option's figures at each end
    and the input's break-even."""

    input: str = Field(
        description="baseline_monthly, price:<tier key>, fx, batch_volume, requests_per_second, "
        "throughput:<profile class>, monthly_growth, annual_discount_rate, one_time, "
        "utilisation_target, spot_interruption_allowance (a leading option is spot)"
    )
    kind: Kind = Field(
        description="scale: low/base/high are factors on the plan's own figure (1 = as "
        "planned); absolute: they are the rate itself"
    )
    low: DecimalText
    base: DecimalText
    high: DecimalText
    source: Source = Field(
        description="a planner default, the plan's own `ranges`, the run's bootstrap "
        "interval (P5 to P95 of the median over its repetitions), an estimate's band; "
        "spot_interruption_allowance: the ec2instances.info pct_interrupt bucket "
        "(aggregator) or the planner's 5-20 % (assumption)"
    )
    label: Sentence
    npv_low: MoneyText
    npv_high: MoneyText
    saving_low: MoneyText
    saving_high: MoneyText
    payback_low: int | None = Field(description="payback month at the low value; null: never")
    payback_high: int | None
    swing_cents: int = Field(description="the larger NPV change of the two ends, in cents")
    break_even: DecimalText | None = Field(
        description="the last value (to the input's places) at which the base case's answer "
        "about paying back within the horizon still holds; null: none between low and high"
    )
    break_even_sentence: Sentence
    low_amount: MoneyText | None = Field(description="money inputs: low as an amount, else null")
    base_amount: MoneyText | None
    high_amount: MoneyText | None
    break_even_amount: MoneyText | None = Field(description="money inputs: break_even to the cent")


class TornadoBar(BaseModel):
    input: str
    label: Sentence = Field(description="the input in English (its one-way row's label)")
    npv_low: MoneyText
    npv_high: MoneyText


class Tornado(BaseModel):
    """The eight inputs that swing the best option's NPV most, widest first."""

    base_npv: MoneyText
    bars: list[TornadoBar]


class MoneyPercentiles(BaseModel):
    p10: MoneyText
    p50: MoneyText
    p90: MoneyText


class MonthPercentiles(BaseModel):
    """Payback months; null where the percentile falls among draws that do not pay back
    within the horizon (`payback_label` says which kind)."""

    p10: int | None
    p50: int | None
    p90: int | None


class LabelPercentiles(BaseModel):
    """The payback percentiles in the words of an option's `payback_label`: month N, then
    the draws still cheaper a month at the horizon's end ("not within the horizon"),
    then the rest ("never")."""

    p10: str
    p50: str
    p90: str


class OddsOption(Shown):
    omitted: ClassVar[frozenset[str]] = frozenset({"payback_label"})

    option: str = Field(description="an option key, as in the comparison")
    pays_back: DecimalText = Field(description="share of draws (0 to 1) paying back in the horizon")
    saving: MoneyPercentiles
    payback_month: MonthPercentiles
    payback_label: LabelPercentiles | None = Field(
        None, description="absent in a share frozen before 2026-12-04"
    )


class MonteCarlo(BaseModel):
    """Every input drawn at once, independently: triangular over low, base and high for a
    default range, uniform over a range the plan enters, the run's own bootstrap for
    measured throughput; each draw priced to the cent as the engine prices it."""

    seed: int
    draws: int
    numpy: str = Field(description="the NumPy version that drew them")
    horizon_months: int
    currency: str
    options: list[OddsOption] = Field(description="the base case's three leading options")
    inputs: list[RangeUsed]


class UncertaintyBase(BaseModel):
    npv: MoneyText
    saving: MoneyText
    payback_month: int | None


class Uncertainty(BaseModel):
    """Which input decides the answer and the odds that the switch pays back, for the base
    case's best option (`option`)."""

    option: str | None = Field(description="null when no option has a figure")
    currency: str
    horizon_months: int
    base: UncertaintyBase | None
    one_way: list[UncertainInput] = Field(description="every uncertain input, widest first")
    tornado: Tornado | None
    montecarlo: MonteCarlo | None

    @classmethod
    def read(cls, data: dict[str, Any]) -> Uncertainty:
        """The answer read back from its JSON (a share's frozen "uncertainty"): each row's
        label and break-even sentence rebuilt as Messages from its `messages` (or, where
        none is listed, from the stored English). Dumped again, it gives the same JSON."""
        return cls.model_validate(data)
