"""What each endpoint answers, as pydantic models: the source of docs/openapi.yaml's
response schemas (`planner.api.openapi`).

The views answer the JSON they always have (built by the services and the engine); these
models describe it, and the tests check real answers against the document they make.
Objects allow fields beyond those listed (a new figure is not a breaking change); a field
is nullable exactly where the API answers null.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from planner.compute import answer

Money = Annotated[
    str,
    Field(
        pattern=r"^-?\d+\.\d{2}$",
        description="An amount in the plan's currency, rounded half-up to the cent.",
    ),
]
Decimal = Annotated[str, Field(description="an exact decimal number as a string")]
Date = Annotated[str, Field(json_schema_extra={"format": "date"})]
DateTime = Annotated[str, Field(json_schema_extra={"format": "date-time"})]
Uri = Annotated[str, Field(json_schema_extra={"format": "uri"})]
Uuid = Annotated[str, Field(json_schema_extra={"format": "uuid"})]
Number = float | int
# A plan as the request bodies take it: docs/openapi.yaml's Plan (the schema's own JSON
# Schema). pydantic cannot refer to a schema it did not make: `planner.api.openapi` puts the
# reference where this marker is.
PLAN_MARKER = "x-planner-plan"
PlanJson = Annotated[dict[str, Any], WithJsonSchema({PLAN_MARKER: True})]


class Open(BaseModel):
    """An object that may carry more fields than it lists."""

    model_config = ConfigDict(extra="allow")


# --- errors ------------------------------------------------------------------------------


class ErrorDetail(BaseModel):
    code: str = Field(description="a stable message code, e.g. schema.at_most")
    params: dict[str, Any] = Field(description="the message's typed parameters")
    text: str = Field(description="the English text, as in `errors`")


class Errors(BaseModel):
    """Every problem at once, by field path (`baseline.monthly`, `workloads[0].rows`;
    `body` the request body, `__all__` the whole object, `auth`, `rate`, `method`)."""

    errors: dict[str, list[str]]
    error_details: dict[str, list[ErrorDetail]] | None = Field(
        default=None,
        description="A refused plan's messages as data, by the same paths as `errors`.",
    )


# --- messages and provenance ---------------------------------------------------------------


# One sentence as data: the answer's own model (planner.compute.answer).
FieldMessage = answer.FieldMessage


Messages = Annotated[
    list[FieldMessage],
    Field(description="the object's sentences as messages; empty when it has none"),
]


class PriceProvenance(Open):
    """The catalog price row a figure rests on."""

    price_id: int
    amount: Decimal = Field(description="the row's amount, converted at fx_rate if needed")
    unit: Literal["hour", "month"]
    currency: str
    effective_from: Date
    source: str
    source_url: str
    confirmed: bool = Field(description="false for a quoted, unverified price")
    stale: bool
    fx_rate: Number | None
    fx_date: Date | None


class RunProvenance(Open):
    """The benchmark measurement a capacity figure rests on."""

    kind: Literal["measured", "predicted", "estimate"] = Field(
        description="estimate: scaled from the reference run named here by published "
        "per-server scores (its published_estimate says how; docs/design.md, Speed estimates)"
    )
    run_id: Uuid
    host: str = Field(description="the target (worker node) it ran on")
    profile: str = Field(description="name X.Y.Z, e.g. gbm-xgboost 1.0.0")
    scale: Literal["standard", "full"]
    threads: int
    fit: str | None = Field(description="usl or amdahl when predicted by a fit")
    extrapolation: str | None


class Measured(RunProvenance):
    value: Number
    unit: str


class SpeedFactorOut(Open):
    relative_to: str
    factor: Number
    unit: Literal["throughput_ratio", "per_thread_ratio"]
    source: str
    author: str
    date: Date


class Estimate(Open):
    """A figure from a staff-declared speed factor against a measured tier."""

    speed_factor: SpeedFactorOut
    reference: Measured


class EstimateBasis(BaseModel):
    estimate: Estimate


class NoBasis(BaseModel):
    none: str = Field(description="why there is no measurement")


class Provenance(Open):
    prices: list[PriceProvenance] = []
    runs: list[RunProvenance] = []
    estimates: list[Estimate] = []
    entered: list[str] = Field(
        default=[], description="plan fields that feed the figures (one_time.migration_hours)"
    )
    option: str = Field(default="", description="(headline) the option its figures come from")


# --- the comparison --------------------------------------------------------------------------


class WorkloadCapacity(Open):
    """One workload on one tier (planner.compute.answer.WorkloadCapacity)."""

    index: int
    name: str
    kind: str
    basis: Measured | EstimateBasis | NoBasis
    estimate: bool
    labels: list[str]
    seconds_per_unit: Number | None
    threads_used: Number | None
    thread_hours_per_month: Number | None
    memory_gib: Number
    deadline_hours: Number | None
    deadline_met: bool | None
    servers_forced_by_deadline: int | None
    workers: int | None = Field(description="inference: workers for the p99 bound")
    p99_ms_mmc: Number | None
    p99_ms_sim: Number | None
    simulated: bool | None
    problem: str | None


class Capacity(Open):
    """The model's sizing of one tier (planner.compute.answer.Capacity)."""

    tier: str
    status: Literal["sized", "estimate", "no_number", "ruled_out"]
    reasons: list[str]
    servers: int | None = Field(description="month 1; null when the tier got no number")
    servers_by_month: list[int]
    threads_per_server: Number | None
    threads_needed: Number | None
    memory_need_gib: Number
    ram_gib: Number | None
    fits_in_ram: bool | None
    spare_server: bool
    workloads: list[WorkloadCapacity]
    labels: list[str]


class OptionPart(Open):
    tier: str
    name: str
    mode: Literal["sized", "fixed", "usage"]
    servers_by_month: list[int]
    usage_hours: str | None = Field(description="usage parts: 120 GPU-hours a month of <tier>")
    price: PriceProvenance
    capacity: Capacity | None


class OptionMoney(Open):
    one_time: Money
    monthly: list[Money]
    cumulative: list[Money]
    total: Money
    present_cost: Money = Field(
        description="one-time + Σ monthly_m ÷ (1 + i)^m, each month discounted at its end"
    )
    npv: Money = Field(
        description=(
            "-one-time + Σ saving_m ÷ (1 + i)^m: each month is discounted at its end (month m "
            "by (1 + i)^m, i = (1 + annual_discount_rate)^(1/12) - 1); one-time costs fall at "
            "month 0, undiscounted"
        )
    )
    saving: Money
    saving_pct: Decimal | None
    saving_per_month: Money
    saving_per_year: Money
    payback_month: int | None = Field(description="null: no payback within the horizon")
    payback_fraction: Decimal | None = Field(description="interpolated crossing in months")
    payback_label: str = Field(
        description=(
            "immediately | within the first billing period | month N | not within the horizon "
            "(none, but still cheaper a month at the horizon's end) | never"
        )
    )
    steady_monthly: Money | None = Field(
        None,
        description=(
            "the option's monthly cost once the months of running both are over (month "
            "running_both_months + 1); absent in a share frozen before 2026-12-04"
        ),
    )
    transition_cost: Money | None = Field(
        None,
        description=(
            "what the months of running both cost on top of the option, once (the baseline's "
            "bill in those months, less the commitments paid anyway); inside `monthly`, "
            "`cumulative` and `total` as before"
        ),
    )


class OneTimeCosts(Open):
    """The one-time costs of a switch an option carries (planner.compute.onetime): an
    option on the baseline's provider and instance family carries none, one that moves
    carries all three, unless the plan overrides them for the option."""

    charged: list[Literal["migration", "running_both", "retraining"]]
    not_charged: list[Literal["migration", "running_both", "retraining"]]
    stays: bool | None = Field(
        description="on the baseline's provider and instance family; null: the baseline's "
        "is unknown (a quoted spend without baseline.runs_on)"
    )
    overridden: list[Literal["migration", "running_both", "retraining"]]


class CapacityCheck(Open):
    """Whether a fixed count carries the work each month, by the model that sizes the other
    options (issue 21): an option that cannot is ranked after those that can, never best."""

    status: Literal["carries", "cannot_carry", "not_checked"]
    from_month: int | None = Field(description="cannot_carry: the first month it falls short")
    tier: str | None = Field(description="the part that falls short or was not checked")
    needed: int | None = Field(description="cannot_carry: the count that would carry it")
    count: int | None = Field(description="the fixed count")
    said: str = Field(description="the status as a sentence (messages: capacity_check.said)")


class Interruption(Open):
    """A spot option's interruption rate: the share of work re-run, its range and source."""

    rate: Decimal = Field(description="the plan's spot_interruption_allowance, used here")
    low: Decimal
    high: Decimal
    source: Literal["aggregator", "assumption"] = Field(
        description="aggregator: the ec2instances.info pct_interrupt bucket of the tier; "
        "assumption: the planner's default range, no published figure"
    )
    bucket: str = Field(description='the aggregator\'s own words ("<5%"); empty otherwise')


class CommitmentTerms(Open):
    """A cloud commitment on the baseline tier's own instance (issue 27): staying, no
    one-time cost of a switch."""

    group: Literal["reserved", "savings_plan", "committed_use", "spot"]
    years: int = Field(description="1 or 3; 0 for spot")
    tier: str
    pricing_model: str | None
    on_demand_tier: str | None = Field(description="what the break-even is weighed against")
    break_even_month: int | None = Field(
        description="the first month m with upfront + m * the committed monthly ≤ m * "
        "on-demand monthly, one server; null: never (or spot, or no on-demand price)"
    )
    loses_below_utilisation: Decimal | None = Field(
        description="(committed monthly + upfront ÷ term) ÷ on-demand monthly: a server "
        "busy less than this share of the month costs less on demand"
    )
    summary: str
    interruption: Interruption | None = Field(None, description="spot only")


class MissingCommitment(Open):
    """A commitment slot of the baseline tier's provider with no rate in the catalog."""

    group: Literal["reserved", "savings_plan", "committed_use", "spot"]
    years: int
    reason: str
    messages: Messages


class BillCommitmentOption(Open):
    """A commitment slot of a bill's instance type at the bill's machine count, weighed
    against the bill's effective cost (not the list price)."""

    group: Literal["reserved", "savings_plan", "committed_use", "spot"]
    years: int = Field(description="1 or 3; 0 for spot")
    tier: str
    pricing_model: str | None
    label: str
    monthly: Decimal = Field(
        description="count * (the slot's monthly + its upfront ÷ its term); spot: count * "
        "its monthly * (1 + the plan's spot_interruption_allowance), in the bill's currency"
    )
    upfront: Decimal = Field(description="count * the upfront, once a term")
    saving_monthly: Decimal = Field(description="the bill's monthly for the type - monthly")
    break_even_month: int | None = Field(
        description="the first month m with upfront + m * the slot's monthly ≤ m * the bill's "
        "rate of one machine; null: never, or spot"
    )
    loses_below_utilisation: Decimal | None = Field(
        description="(the slot's monthly + upfront ÷ term) ÷ the bill's rate of one machine: "
        "a machine busy less than this share costs less as the bill pays now; null for spot"
    )
    summary: str = Field(description='"from your bill: …"')
    saving_said: str
    price: PriceProvenance | None = Field(None, description="the price row it is priced from")


class BillMissingSlot(Open):
    """A slot of the instance's provider with no rate in the catalog (its message is in
    the enclosing `bill_commitments.messages`)."""

    group: Literal["reserved", "savings_plan", "committed_use", "spot"]
    years: int
    reason: str


class BillCommitmentTier(Open):
    """One matched instance type of the bill (bills.baseline tier line) and its slots."""

    instance_type: str
    region: str
    tier: str = Field(description="the catalog tier the bill's lines matched")
    count: Decimal = Field(description="machines: hours a month ÷ 730, three places")
    bill_monthly: Decimal = Field(description="the bill's effective cost a month of the type")
    bill_rate_monthly: Decimal | None = Field(description="bill_monthly ÷ count: one machine")
    committed_share: Decimal | None = Field(
        description="of bill_monthly, the share already under a commitment (FOCUS "
        "PricingCategory Committed): the bill's cost includes those discounts"
    )
    committed_hours_share: Decimal | None = Field(
        description="of the type's machine-hours, the share under a commitment (said in "
        "`notes`, with a note where those hours carry no cost on the bill)"
    )
    spot_share: Decimal | None = Field(description="of bill_monthly, the share on spot")
    spot_hours_share: Decimal | None = Field(description="of its machine-hours, on spot")
    said: str
    options: list[BillCommitmentOption] = Field(description="cheapest monthly first")
    missing: list[BillMissingSlot] = Field(description="slots with no rate (none made up)")
    notes: list[str]


class BillTodaySummary(Open):
    """The bill's own commitments (bills.commitments.bill_commitment_summary): each figure
    null where the bill cannot say, `reason` why."""

    utilisation: Decimal | None
    coverage: Decimal | None
    unused: Decimal | None = Field(description="effective cost of the unused commitment")
    negotiated_savings: Decimal | None
    commitment_savings: Decimal | None
    reason: str | None
    said: list[str]


class BillCommitments(Open):
    """A bill baseline's commitment alternatives (issue 27): the dearest `limit` matched
    instance types of the bill, weighed against the bill's effective cost."""

    currency: str = Field(description="the bill's currency")
    cost: Literal["effective"]
    tiers_total: int = Field(description="matched instance types of the bill")
    tiers_shown: int
    limit: int
    tiers: list[BillCommitmentTier] = Field(description="the dearest on the bill first")
    commit_saving_monthly: Decimal | None = Field(
        description="the weighed types' saving a month, each at its cheapest reservation, "
        "savings plan or committed use that saves (spot left out); null: nothing weighed"
    )
    more: str | None = Field(None, description="the types not weighed; absent when none")
    reason: str | None = Field(
        None, description="why none is weighed (the plan's currency is not the bill's)"
    )
    today: BillTodaySummary | None = Field(
        description="null where the bill's commitment figures are not available"
    )
    messages: Messages


class Option(Open):
    key: str = Field(
        description="candidate:<index>, tier:<slug>, owned:<index>, or commitment:<group>-"
        "<years>y / commitment:spot (the baseline tier's cloud commitment)"
    )
    label: str
    figure: Literal["measured", "estimate", "entered"]
    servers: int = Field(description="servers in month 1, all parts")
    fits_in_ram: bool | None = Field(description="null when no working set must fit one box")
    parts: list[OptionPart]
    money: OptionMoney
    one_time_items: dict[str, Money]
    one_time_costs: OneTimeCosts | None = Field(
        default=None,
        description="which of the switch's one-time costs (migration, running_both, "
        "retraining) the option carries (issue 21); absent in a share frozen before 2026-12-04",
    )
    capacity_check: CapacityCheck | None = Field(
        default=None,
        description="an option of fixed counts against the work the plan describes (null: "
        "no workloads, or no fixed count); absent in a share frozen before 2026-12-04",
    )
    break_even_vs_best_monthly: dict[str, Any] | None
    notes: list[str]
    provenance: Provenance
    messages: Messages
    commitment: CommitmentTerms | None = Field(
        None, description="only on a cloud commitment option (key commitment:…)"
    )


class BaselineCost(Open):
    """Today's spend: monthly, cumulative, total and present cost, with its provenance (a
    price row or the entered baseline.monthly)."""

    monthly: list[Money]
    cumulative: list[Money]
    total: Money
    present_cost: Money
    source: str = Field(default="", description="a quoted baseline: quoted by the manager")
    provenance: Provenance
    messages: Messages


class Headline(answer.Headline):
    """The engine's headline (planner.compute.answer.Headline) with the option its
    figures come from."""

    model_config = ConfigDict(extra="allow")
    provenance: Provenance


class NoNumber(Open):
    """A tier that got no figure, with the reason."""

    tier: str
    status: Literal["no_number", "ruled_out"] = Field(
        default="no_number",
        description="a tier the model was asked to size; absent where `reason` says why a "
        "tier could not be priced",
    )
    reason: str = Field(default="", description="a candidate the engine could not price")
    reasons: list[str] = Field(default=[], description="why the model could not size it")
    messages: Messages


class StaysOnGpu(Open):
    reason: str
    messages: Messages


class PricePerformance(Open):
    tier: str
    profile_class: str
    amount: Decimal
    per: str
    currency: str
    messages: Messages


class Assumption(Open):
    name: str
    value: str | Number
    unit: str
    source: str


class FxRow(Open):
    rate_id: int
    source: str


class Fx(Open):
    rate: Number
    date: Date
    rows: list[FxRow] = Field(description="the ExchangeRate rows it rests on")


class SensitivityBase(Open):
    npv: Money
    saving: Money
    payback_month: int | None = Field(description="null: never")


class SensitivityRow(Open):
    """One money input of the quick table, moved alone to its low and its high value."""

    input: Literal["baseline_monthly", "option_monthly", "one_time", "annual_discount_rate"]
    unit: Literal["money", "per year"]
    low: Decimal
    base: Decimal
    high: Decimal
    npv_low: Money
    npv_high: Money
    saving_low: Money
    saving_high: Money
    payback_low: int | None = Field(description="payback month at the low value; null: never")
    payback_high: int | None
    break_even: Money | None = Field(
        description="the amount at which the switch stops paying back within the horizon"
    )
    break_even_sentence: str


class Sensitivity(Open):
    """The best option's one-way sensitivity over the money inputs (the bill, the option's
    monthly cost, the one-time costs the plan enters, the discount rate), computed with
    every comparison. Its ranges and sentences are those of the full table of every
    uncertain input, `GET /plans/{id}/uncertainty` (`one_way`), of which it is the quick part."""

    option: str
    base: SensitivityBase
    inputs: list[SensitivityRow] = Field(description="the widest NPV swing first")
    provenance: Provenance
    messages: Messages


class Comparison(BaseModel):
    plan: PlanJson = Field(description="the plan as evaluated, defaults filled in")
    as_of: Date
    currency: str
    baseline: BaselineCost
    headline: Headline
    options: list[Option] = Field(
        description="cheapest total first; at most 50, and every cloud commitment option"
    )
    options_total: int
    stays_on_gpu: list[StaysOnGpu]
    no_number: list[NoNumber]
    price_performance: list[PricePerformance]
    assumptions: list[Assumption]
    fx: list[Fx]
    sensitivity: Sensitivity | None = Field(
        default=None, description="null when no option has a figure"
    )
    commitments_missing: list[MissingCommitment] = Field(
        default=[],
        description="the baseline tier's commitment slots with no rate in the catalog (no "
        "rate is made up); absent when none",
    )
    bill_commitments: BillCommitments | None = Field(
        default=None,
        description="a baseline taken from a bill: the cloud's commitments of the bill's "
        "instance types weighed against the bill (issue 27); absent for other baselines",
    )


# --- sensitivity and the odds of paying back ------------------------------------------------


class UncertainInput(Open):
    """One uncertain input moved alone to its low and to its high value, everything else as
    planned, recomputed through the engine: the base-case best option's figures at each end
    and the input's break-even."""

    input: str = Field(
        description="baseline_monthly, price:<tier key>, fx, batch_volume, requests_per_second, "
        "throughput:<profile class>, monthly_growth, annual_discount_rate, one_time, "
        "utilisation_target, spot_interruption_allowance (a leading option is spot)"
    )
    kind: Literal["scale", "absolute"] = Field(
        description="scale: low/base/high are factors on the plan's own figure (1 = as "
        "planned); absolute: they are the rate itself"
    )
    low: Decimal
    base: Decimal
    high: Decimal
    source: Literal["default", "entered", "measured", "estimate", "aggregator", "assumption"] = (
        Field(
            description="a planner default, the plan's own `ranges`, the run's bootstrap "
            "interval (P5 to P95 of the median over its repetitions), an estimate's band; "
            "spot_interruption_allowance: the ec2instances.info pct_interrupt bucket "
            "(aggregator) or the planner's 5-20 % (assumption)"
        )
    )
    label: str = Field(description="the input in English; as a message in `messages`")
    low_amount: Money | None = Field(description="money inputs: low as an amount, else null")
    base_amount: Money | None
    high_amount: Money | None
    npv_low: Money
    npv_high: Money
    saving_low: Money
    saving_high: Money
    payback_low: int | None = Field(description="payback month at the low value; null: never")
    payback_high: int | None
    swing_cents: int = Field(description="the larger NPV change of the two ends, in cents")
    break_even: Decimal | None = Field(
        description="the last value (to the input's places) at which the base case's answer "
        "about paying back within the horizon still holds; null: none between low and high"
    )
    break_even_amount: Money | None = Field(description="money inputs: break_even to the cent")
    break_even_sentence: str
    messages: Messages


class TornadoBar(Open):
    input: str
    label: str
    npv_low: Money
    npv_high: Money


class Tornado(Open):
    """The eight inputs that swing the best option's NPV most, widest first."""

    base_npv: Money
    bars: list[TornadoBar]


class MoneyPercentiles(Open):
    p10: Money
    p50: Money
    p90: Money


class MonthPercentiles(Open):
    """Payback months; null where the percentile falls among draws that do not pay back
    within the horizon (`payback_label` says which kind)."""

    p10: int | None
    p50: int | None
    p90: int | None


class LabelPercentiles(Open):
    """The payback percentiles in the words of an option's `payback_label`: month N, then
    the draws still cheaper a month at the horizon's end ("not within the horizon"),
    then the rest ("never")."""

    p10: str
    p50: str
    p90: str


class OddsOption(Open):
    option: str = Field(description="an option key, as in the comparison")
    pays_back: Decimal = Field(description="share of draws (0 to 1) paying back in the horizon")
    saving: MoneyPercentiles
    payback_month: MonthPercentiles
    payback_label: LabelPercentiles | None = Field(
        None, description="absent in a share frozen before 2026-12-04"
    )


class RangeUsed(Open):
    input: str
    kind: Literal["scale", "absolute"]
    low: Decimal
    base: Decimal
    high: Decimal
    source: Literal["default", "entered", "measured"]


class MonteCarlo(Open):
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


class UncertaintyBase(Open):
    npv: Money
    saving: Money
    payback_month: int | None


class Uncertainty(Open):
    """Which input decides the answer and the odds that the switch pays back, for the base
    case's best option (`option`)."""

    option: str | None = Field(description="null when no option has a figure")
    currency: str
    horizon_months: int
    base: UncertaintyBase | None
    one_way: list[UncertainInput] = Field(description="every uncertain input, widest first")
    tornado: Tornado | None
    montecarlo: MonteCarlo | None


class PlanUncertainty(Uncertainty):
    id: Uuid
    as_of: Date


class NextRunCost(Open):
    amount: Money | None = Field(description="null where the profile has no standard budget")
    basis: Literal["hourly", "monthly", "own"] = Field(
        description="hourly: the profile's standard time budget times the tier's hourly price; "
        "monthly: a tier billed by the month costs at least a month's rent; own: the tier "
        "the plan runs today (no rent)"
    )
    hours: Decimal | None = Field(description="the profile's standard time budget, hours")
    hourly: Decimal | None
    said: str = Field(description="in English; as a message in the run's `messages`")


class NextRun(Open):
    """One run worth making: measuring `profile` on `tier`, whose figure is an estimate."""

    rank: int
    tier: str
    tier_title: str
    workload_class: str
    profile: str
    band: list[Number] = Field(description="the estimate's band [low, high], factors on it")
    option: str = Field(description="the option whose figure rests on this estimate")
    best: str = Field(description="today's answer (the cheapest option's key)")
    against: str = Field(description="the option the measured speed most often picks instead")
    changes: Number = Field(
        description="share of the draws whose decision knowing the tier's speed changes"
    )
    value: Money = Field(description="expected value of that information (docs/design.md)")
    cost: NextRunCost
    command: str = Field(description="the stand-alone runner's command that makes the run")
    bring_back: str = Field(description="the command that imports the file, naming the tier")
    settles: str
    bring_back_said: str
    messages: Messages


class NextRuns(Open):
    """The runs that would most likely change the answer, ranked (docs/design.md, "The next
    run worth making"); empty when no estimate could change it."""

    currency: str
    best: str | None
    contending: list[str] = Field(description="the options whose odds or band overlap the best's")
    draws: int
    seed: int
    runs: list[NextRun]


class PlanNextRuns(NextRuns):
    id: Uuid
    as_of: Date


# --- plans and shares --------------------------------------------------------------------


class PlanSummary(BaseModel):
    id: Uuid
    name: str
    url: Uri
    created: DateTime
    updated: DateTime


class PlanList(BaseModel):
    plans: list[PlanSummary] = Field(description="newest first")


class PlanCreated(BaseModel):
    id: Uuid
    url: Uri


class PlanDetail(PlanSummary):
    inputs: PlanJson = Field(description="the plan as stored")
    comparison: Comparison


class ShareSummary(BaseModel):
    token: str
    url: Uri
    created_at: DateTime
    revoked_at: DateTime | None
    as_of: Date | None


class ShareList(BaseModel):
    shares: list[ShareSummary] = Field(description="newest first")


class ShareCreated(BaseModel):
    token: str = Field(min_length=43, description="256 random bits")
    url: Uri


class SnapshotPrice(Open):
    id: int
    tier: str
    amount: Decimal
    unit: Literal["hour", "month"]
    currency: str
    effective_from: Date
    source: str
    confirmed: bool


class Snapshot(BaseModel):
    """A share's frozen snapshot: the plan, the price rows and measurements it used (by id
    and value, in their own currency) and its results."""

    model_config = ConfigDict(extra="allow")

    shared_at: DateTime
    as_of: Date
    snapshot_version: int | None = None
    engine_version: str | Number | None = None
    inputs: PlanJson = Field(description="the plan as shared")
    prices: list[SnapshotPrice]
    measurements: list[dict[str, Any]] = Field(
        description="per tier and workload class, the run used or `none` with the reason"
    )
    speed_factors: list[dict[str, Any]] = []
    results: Comparison
    uncertainty: Uncertainty | None = Field(
        default=None,
        description="the sensitivity and odds frozen with the share (a share made before "
        "they were kept has none)",
    )
