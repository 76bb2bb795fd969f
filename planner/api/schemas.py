"""What each endpoint answers, as pydantic models: the source of docs/openapi.yaml's
response schemas (`planner.api.openapi`).

The answer (`Comparison`) is the engine's own output models (planner.compute.answer), the
odds and sensitivity (`PlanUncertainty`) theirs (planner.compute.uncertainty_answer); the
other responses are described here. The tests check real answers against the document.
Objects allow fields beyond those listed (a new figure is not a breaking change); a field
is nullable exactly where the API answers null.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from planner.compute import answer, uncertainty_answer

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


# --- the comparison: the answer's own models (planner.compute.answer) ----------------------


class Comparison(answer.Answer):
    """The answer: `planner.compute.answer.Answer`, whose fields and parts are the engine's
    output models; here only the plan's schema (the document's `Plan`) and the date's
    format are said beside them."""

    plan: PlanJson = Field(description="the plan as evaluated, defaults filled in")
    as_of: Date


# --- sensitivity and the odds of paying back: its own output models -------------------------
# (planner.compute.uncertainty_answer)


class PlanUncertainty(uncertainty_answer.Uncertainty):
    """The uncertainty answer (`planner.compute.uncertainty_answer.Uncertainty`) of a stored
    plan, with its id and the date it was worked out for."""

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
    uncertainty: uncertainty_answer.Uncertainty | None = Field(
        default=None,
        description="the sensitivity and odds frozen with the share (a share made before "
        "they were kept has none)",
    )
