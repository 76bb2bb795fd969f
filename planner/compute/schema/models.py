"""The plan as pydantic models: the one validator of every plan, from the API, the web
form and stored plans alike.

The models are frozen and read like the dataclasses they replace (`plan.baseline`,
`plan.candidates[i].parts`, `w.kind`, `w.rows`), so the engine and the capacity model
use them unchanged. Each object drops its `null` members before validating ("not given"),
collects every problem of its fields, and adds its own checks between fields (`_checks`)
even when a field failed, so one answer names every problem, as the hand-made parser did.

`known_tiers` travels in pydantic's validation context: `Plan.model_validate(data,
context={"known_tiers": {...}})`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    WrapValidator,
    model_validator,
)
from pydantic_core.core_schema import ValidatorFunctionWrapHandler

from common.messages import Message, Number, msg
from planner.compute import defaults
from planner.compute.schema.errors import Loc, Problem, fail, problems
from planner.compute.schema.fields import Items, Section, Spec, got

MODES = ("sized", "fixed", "usage")
BATCH_KINDS = ("gbm", "sklearn", "features", "hpo", "nn")
WORKLOAD_KINDS = (*BATCH_KINDS, "inference", "deep_learning")
DEEP_LEARNING_TASKS = ("llm_finetune", "vit_from_scratch", "diffusion", "other_deep_learning")
MONEY_MAX = 100_000_000


Given = Mapping[str, Any]


def _given(raw: Given, found: Sequence[Problem]) -> dict[str, Any]:
    """The members given and valid: what the cross-field checks may rely on."""
    failed = {loc[0] for loc, _m, _v in found if loc}
    return {k: v for k, v in raw.items() if k not in failed}


class SchemaObject(BaseModel):
    """One JSON object of a plan: unknown members refused, nulls dropped, every problem
    collected, then the object's own checks between its fields."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    @model_validator(mode="wrap")
    @classmethod
    def _validate(
        cls, data: Any, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
    ) -> Any:
        if not isinstance(data, Mapping):
            return handler(data)  # a model instance passes; anything else is refused
        raw = {k: v for k, v in data.items() if v is not None}
        try:
            model = handler(cls._prepare(raw))
        except ValidationError as exc:
            found = [(cls._relocate(loc), m, v) for loc, m, v in problems(exc)]
            found += cls._checks(_given(raw, found), raw, None, found, info.context or {})
            raise fail(cls.__name__, found) from None
        if found := cls._checks(raw, raw, model, [], info.context or {}):
            raise fail(cls.__name__, found)
        return model

    @classmethod
    def _prepare(cls, raw: dict[str, Any]) -> dict[str, Any]:
        """What the model is built from: `raw`, completed where a value follows from others
        (the checks see `raw` as given)."""
        return raw

    @classmethod
    def _relocate(cls, loc: Loc) -> Loc:
        return loc

    @classmethod
    def _checks(
        cls, given: Given, raw: Given, model: Any, found: Sequence[Problem], context: Given
    ) -> list[Problem]:
        """Checks between fields: `given` holds the valid members, `raw` every one given,
        `model` is None when a field failed."""
        return []


def _one_of(raw: Mapping[str, Any], a: str, b: str) -> list[Problem]:
    if sum(raw.get(name) is not None for name in (a, b)) != 1:
        return [((), msg("schema.one_of", a=a, b=b), dict(raw))]
    return []


# --- the baseline ------------------------------------------------------------------------


class Commitment(SchemaObject):
    months_remaining: Annotated[int, Spec("int", min=1, max=120, unit="months")]
    monthly: Annotated[
        Decimal | None,
        Spec("money", min=0, max=MONEY_MAX, unit="currency/month",
             doc="what the commitment costs a month (give this or tier)"),
    ] = None  # fmt: skip
    tier: Annotated[
        str | None, Spec("tier", doc="a catalog tier whose price the commitment costs")
    ] = None
    count: Annotated[int, Spec("int", min=1, max=10_000, unit="servers")] = 1
    description: Annotated[str, Spec("str", max=200)] = ""

    @classmethod
    def _checks(
        cls, given: Given, raw: Given, model: Any, found: Sequence[Problem], context: Given
    ) -> list[Problem]:
        return _one_of(raw, "monthly", "tier")


_BillKey = Annotated[str, Spec("str", max=200)]


class BillChoice(SchemaObject):
    """The bill a baseline was taken from (issue 25): the owner's imported bill and the
    compute lines chosen from it. The engine reads none of it: the baseline's `monthly` is
    the bill's figure of these lines (filled in when the bill is chosen), and the answer's
    provenance names the bill, its period and its lines."""

    id: Annotated[int, Spec("int", min=1, max=2**53, doc="the bill's id (GET /api/v1/bills)")]
    providers: Annotated[
        tuple[_BillKey, ...], Items(20, doc="providers as the bill names them; empty: all")
    ] = ()
    accounts: Annotated[tuple[_BillKey, ...], Items(1000, doc="sub-account ids; empty: all")] = ()
    regions: Annotated[tuple[_BillKey, ...], Items(200, doc="region ids; empty: all")] = ()
    services: Annotated[tuple[_BillKey, ...], Items(200, doc="service names; empty: all")] = ()
    instance_types: Annotated[
        tuple[_BillKey, ...], Items(500, doc="instance types; empty: all")
    ] = ()
    tags: Annotated[
        tuple[_BillKey, ...],
        Items(200, doc='tags, "key=value" or "key" (any value): lines with any of them; '
                       "empty: all"),
    ] = ()  # fmt: skip
    growth_from_trend: Annotated[
        bool, Spec("bool", doc="monthly_growth from the bill's trend over its months")
    ] = False


class BaselineTier(SchemaObject):
    """One catalog tier of a baseline taken from a bill (issue 25): the machines the bill's
    lines of that tier ran (hours ÷ 730 a month) and what the bill says they cost a month.
    Filled from the bill; the baseline's `monthly` stays the bill's whole figure."""

    tier: Annotated[str, Spec("tier")]
    count: Annotated[
        Decimal, Spec("decimal", min=0, max=10_000, places=6, unit="servers",
                      doc="the machines: the bill's hours a month ÷ 730")
    ]  # fmt: skip
    monthly: Annotated[
        Decimal, Spec("money", min=0, max=MONEY_MAX, unit="currency/month",
                      doc="the bill's effective cost of these lines a month")
    ]  # fmt: skip


SIZINGS = ("workloads", "matched")


class Baseline(SchemaObject):
    # Members left out of the plain data while not given (plans without them read as before).
    OMIT_WHEN_NONE: ClassVar[tuple[str, ...]] = ("bill", "tiers", "sizing")

    monthly: Annotated[
        Decimal | None,
        Spec("money", min=0, max=MONEY_MAX, unit="currency/month",
             doc="the current monthly spend as quoted (give this or tier)"),
    ] = None  # fmt: skip
    tier: Annotated[
        str | None,
        Spec("tier", doc="a catalog tier whose price is the baseline (give this or monthly)"),
    ] = None
    count: Annotated[int, Spec("int", min=1, max=10_000, unit="servers", doc="with tier")] = 1
    runs_on: Annotated[
        str | None,
        Spec("tier", doc="with monthly: a catalog tier the quoted spend runs on; its provider "
                         "and instance family decide which options stay (no migration, "
                         "running both or re-validation); its price is not used"),
    ] = None  # fmt: skip
    commitments: Annotated[
        tuple[Commitment, ...],
        Items(20, doc="reserved terms still running: they keep costing after a switch"),
    ] = ()
    bill: Annotated[
        BillChoice | None,
        Section("the imported bill this baseline was taken from (its compute lines)"),
    ] = None
    tiers: Annotated[
        tuple[BaselineTier, ...] | None,
        Items(500, doc="the baseline's machines by catalog tier (filled from the bill); "
                       "absent: none known"),
    ] = None  # fmt: skip
    sizing: Annotated[
        str | None,
        Spec("enum", choices=SIZINGS,
             doc="how sized options are counted: to the workloads (absent), or matched: "
                 "the servers that carry what the baseline's tiers carry"),
    ] = None  # fmt: skip

    @classmethod
    def _checks(
        cls, given: Given, raw: Given, model: Any, found: Sequence[Problem], context: Given
    ) -> list[Problem]:
        out = _one_of(raw, "monthly", "tier")
        if (
            given.get("sizing") == "matched"
            and raw.get("tiers") is None
            and raw.get("bill") is None
        ):
            out.append((("sizing",), msg("schema.matched_needs_tiers"), None))
        return out


class OneTime(SchemaObject):
    migration_hours: Annotated[
        Decimal | None,
        Spec("decimal", min=0, max=100_000, places=2, unit="engineer hours",
             doc="null = not entered yet (the headline says so)"),
    ] = None  # fmt: skip
    migration_rate: Annotated[
        Decimal | None, Spec("money", min=0, max=10_000, unit="currency/hour")
    ] = None
    running_both_months: Annotated[
        int | None,
        Spec("int", min=0, max=24, unit="months",
             doc="months the baseline keeps running beside the new option; null = not entered"),
    ] = None  # fmt: skip
    retraining: Annotated[
        Decimal | None,
        Spec("money", min=0, max=MONEY_MAX, unit="currency",
             doc="re-validating models on the new hardware; null = not entered"),
    ] = None  # fmt: skip
    other: Annotated[Decimal, Spec("money", min=0, max=MONEY_MAX, unit="currency")] = Decimal(
        "0.00"
    )

    @property
    def migration(self) -> Decimal | None:
        if self.migration_hours is None or self.migration_rate is None:
            return None
        return self.migration_hours * self.migration_rate

    def not_entered(self) -> list[str]:
        """The items vendor TCO tools tend to leave out, when the manager has not given them."""
        missing = []
        if self.migration is None:
            missing.append("migration")
        if self.running_both_months is None:
            missing.append("running both")
        if self.retraining is None:
            missing.append("retraining")
        return missing

    @classmethod
    def _checks(
        cls, given: Given, raw: Given, model: Any, found: Sequence[Problem], context: Given
    ) -> list[Problem]:
        pair = ("migration_hours", "migration_rate")
        if (pair[0] in given) != (pair[1] in given):
            missing = pair[1] if pair[0] in given else pair[0]
            if missing not in raw:
                return [((missing,), msg("schema.migration_pair"), None)]
        return []


class MonthlyExtras(SchemaObject):
    ops_hours_per_server: Annotated[
        Decimal | None,
        Spec("decimal", min=0, max=730, places=2, unit="hours/server/month",
             doc="self-managed servers only; null = the published default "
                 f"({defaults.SELF_MANAGED_OPS.value} a server a year); managed tiers and "
                 "cloud: 0"),
    ] = None  # fmt: skip
    ops_rate: Annotated[Decimal | None, Spec("money", min=0, max=10_000, unit="currency/hour")] = (
        None
    )
    egress: Annotated[Decimal, Spec("money", min=0, max=MONEY_MAX, unit="currency/month")] = (
        Decimal("0.00")
    )
    other: Annotated[Decimal, Spec("money", min=0, max=MONEY_MAX, unit="currency/month")] = Decimal(
        "0.00"
    )

    @classmethod
    def _checks(
        cls, given: Given, raw: Given, model: Any, found: Sequence[Problem], context: Given
    ) -> list[Problem]:
        if "ops_hours_per_server" in given and "ops_rate" not in raw:
            return [(("ops_rate",), msg("schema.ops_rate"), None)]
        return []


# --- candidates ----------------------------------------------------------------------------

_USAGE_HOURS = ("gpu_hours_per_month", "instance_hours_per_month")


def _inferred_mode(values: Mapping[str, Any]) -> str:
    if values.get("count") is not None:
        return "fixed"
    return "usage" if any(values.get(k) is not None for k in _USAGE_HOURS) else "sized"


class Part(SchemaObject):
    tier: Annotated[str, Spec("tier")]
    mode: Annotated[
        str,
        Spec("enum", choices=MODES,
             doc="sized by the model, a fixed count, or usage-based GPU hours (inferred when "
                 "absent)"),
    ] = "sized"  # fmt: skip
    count: Annotated[
        int | None, Spec("int", min=1, max=10_000, unit="servers", doc="fixed mode")
    ] = None
    gpu_hours_per_month: Annotated[
        Decimal | None,
        Spec("decimal", min=0, max=1_000_000, places=2, unit="GPU-hours/month",
             doc="usage mode; null: the plan's deep-learning GPU hours"),
    ] = None  # fmt: skip
    instance_hours_per_month: Annotated[
        Decimal | None,
        Spec("decimal", min=0, max=1_000_000, places=2, unit="instance-hours/month",
             doc="usage mode, billed per instance-hour"),
    ] = None  # fmt: skip
    min_term_months: Annotated[
        int | None,
        Spec(
            "int", min=0, max=120, unit="months", doc="contract minimum term; null: the catalog's"
        ),
    ] = None

    @classmethod
    def _prepare(cls, raw: dict[str, Any]) -> dict[str, Any]:
        return raw if "mode" in raw else {**raw, "mode": _inferred_mode(raw)}

    @classmethod
    def _checks(
        cls, given: Given, raw: Given, model: Any, found: Sequence[Problem], context: Given
    ) -> list[Problem]:
        mode = given.get("mode") or _inferred_mode(given)
        usage = any(given.get(k) is not None for k in _USAGE_HOURS)
        out: list[Problem] = []
        if mode == "fixed" and given.get("count") is None:
            out.append((("count",), msg("schema.count_for_fixed"), None))
        if mode != "fixed" and given.get("count") is not None:
            out.append((("count",), msg("schema.count_only_fixed", mode=repr(mode)), None))
        if mode != "usage" and usage:
            out.append(((), msg("schema.usage_only", mode=repr(mode)), None))
        if mode == "usage" and all(given.get(k) is not None for k in _USAGE_HOURS):
            out.append(((), msg("schema.usage_both"), None))
        return out


ONE_TIME_OVERRIDE = ("charged", "not_charged")
ONE_TIME_COSTS = ("migration", "running_both", "retraining")


def _one_time_override(what: str) -> Any:
    return Annotated[
        str | None,
        Spec("enum", choices=ONE_TIME_OVERRIDE,
             doc=f"{what} for this option; null: by the rule (an option on the baseline's "
                 "provider and instance family carries none, one that moves carries it)"),
    ]  # fmt: skip


class Candidate(SchemaObject):
    name: Annotated[str, Spec("str", max=200)] = ""
    parts: Annotated[
        tuple[Part, ...], Items(5, doc="one option may mix CPU and GPU parts", min_items=1)
    ]
    migration: _one_time_override("the migration work") = None
    running_both: _one_time_override("the months of running both") = None
    retraining: _one_time_override("re-validating models") = None

    @classmethod
    def _checks(
        cls, given: Given, raw: Given, model: Any, found: Sequence[Problem], context: Given
    ) -> list[Problem]:
        parts = given.get("parts")
        if parts is not None and len(parts) == 0:
            return [(("parts",), msg("schema.no_parts"), parts)]
        return []


def _shorthand(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    """A candidate of one part may be written inline: {"tier": ..., "count": 2}."""
    if not isinstance(value, Mapping) or "parts" in value:
        return handler(value)
    option = ("name", *ONE_TIME_COSTS)
    full: dict[str, Any] = {"parts": [{k: v for k, v in value.items() if k not in option}]}
    full.update({k: value[k] for k in option if k in value})
    try:
        return handler(full)
    except ValidationError as exc:
        # Named as written: "candidates[0].tier", not "candidates[0].parts[0].tier".
        found = [(_inline(loc), message, given) for loc, message, given in problems(exc)]
        raise fail("Candidate", found) from None


def _inline(loc: Loc) -> Loc:
    return loc[2:] if loc[:2] == ("parts", 0) else loc


class InlineCandidate(Part):
    """The shorthand's documentation: one part and the option's name in one object."""

    name: Annotated[str, Spec("str", max=200)] = ""
    migration: _one_time_override("the migration work") = None
    running_both: _one_time_override("the months of running both") = None
    retraining: _one_time_override("re-validating models") = None


CandidateItem = Annotated[
    Candidate, WrapValidator(_shorthand, json_schema_input_type=Candidate | InlineCandidate)
]


# --- owned servers (bought, not rented) -----------------------------------------------------

RESALE = ("book_value", "percent")
FINANCING = ("cash", "loan")


class OwnedServer(SchemaObject):
    """Servers the team buys (docs/design.md, "Owned hardware"). Every amount
    is per server and before tax (no depreciation tax shield)."""

    name: Annotated[str, Spec("str", max=200)] = ""
    count: Annotated[int, Spec("int", min=1, max=10_000, unit="servers")] = 1
    purchase_price: Annotated[Decimal, Spec("money", min=0, max=MONEY_MAX, unit="currency/server")]
    setup: Annotated[
        Decimal,
        Spec("money", min=0, max=MONEY_MAX, unit="currency/server",
             doc="delivery and set-up, paid in cash with each purchase"),
    ] = Decimal("0.00")  # fmt: skip
    depreciation_years: Annotated[
        int,
        Spec("int", min=1, max=15, unit="years",
             doc="straight line; sets the book value and the service life "
                 f"({defaults.SERVER_DEPRECIATION_YEARS.source})"),
    ] = int(defaults.SERVER_DEPRECIATION_YEARS.value)  # fmt: skip
    resale: Annotated[
        str,
        Spec("enum", choices=RESALE,
             doc="the inflow in the horizon's last month: the book value, or resale_percent "
                 "of the purchase price"),
    ] = "book_value"  # fmt: skip
    resale_percent: Annotated[
        Decimal | None,
        Spec("decimal", min=0, max=1, places=6, unit="share of the purchase price",
             doc="with resale = percent"),
    ] = None  # fmt: skip
    watts: Annotated[
        float, Spec("number", min=0, max=100_000, unit="W", doc="declared average draw")
    ] = 0.0
    pue: Annotated[
        Decimal,
        Spec("decimal", min=1, max=5, places=4, unit="facility ÷ IT power",
             doc=defaults.OWNED_PUE.source),
    ] = Decimal(defaults.OWNED_PUE.value)  # fmt: skip
    kwh_price: Annotated[
        Decimal,
        Spec("decimal", min=0, max=10, places=6, unit="currency/kWh",
             doc=defaults.OWNED_KWH_PRICE.source),
    ] = Decimal(defaults.OWNED_KWH_PRICE.value)  # fmt: skip
    colocation_monthly: Annotated[
        Decimal,
        Spec("money", min=0, max=MONEY_MAX, unit="currency/server/month",
             doc="rack space, power not included"),
    ] = Decimal("0.00")  # fmt: skip
    support_share: Annotated[
        Decimal,
        Spec("decimal", min=0, max=1, places=6, unit="of the price a year",
             doc="hardware support contract, billed monthly; "
                 + defaults.OWNED_SUPPORT_SHARE.source),
    ] = Decimal(defaults.OWNED_SUPPORT_SHARE.value)  # fmt: skip
    spares_monthly: Annotated[
        Decimal, Spec("money", min=0, max=MONEY_MAX, unit="currency/server/month")
    ] = Decimal("0.00")
    financing: Annotated[
        str,
        Spec("enum", choices=FINANCING,
             doc="cash at month 0, or a lease/loan: a monthly annuity at month ends"),
    ] = "cash"  # fmt: skip
    loan_annual_rate: Annotated[
        Decimal | None,
        Spec("decimal", min=0, max=1, places=6, unit="per year",
             doc="with financing = loan; r = rate ÷ 12 a month"),
    ] = None  # fmt: skip
    loan_months: Annotated[
        int | None,
        Spec("int", min=1, max=120, unit="months",
             doc="with financing = loan; a balance outstanding at the horizon is paid then"),
    ] = None  # fmt: skip
    replace_at_end_of_life: Annotated[
        bool,
        Spec("bool", doc="a horizon longer than the service life buys a replacement at its "
                         "end; false: the server keeps running, and the plan says so"),
    ] = True  # fmt: skip

    @classmethod
    def _checks(
        cls, given: Given, raw: Given, model: Any, found: Sequence[Problem], context: Given
    ) -> list[Problem]:
        out: list[Problem] = []
        if given.get("resale") == "percent" and raw.get("resale_percent") is None:
            out.append((("resale_percent",), msg("schema.required"), None))
        if given.get("financing") == "loan":
            out += [
                ((name,), msg("schema.required"), None)
                for name in ("loan_annual_rate", "loan_months")
                if raw.get(name) is None
            ]
        return out


# --- workloads ------------------------------------------------------------------------------

PER_MONTH: dict[str, Any] = {"min": 0, "max": 100_000, "unit": "per month"}
Deadline = Annotated[
    float | None,
    Spec("number", min=0, min_exclusive=True, max=744, unit="hours",
         doc="one job must finish within this"),
]  # fmt: skip
Rows = Annotated[int, Spec("int", min=1, max=1e12, unit="rows")]
Features = Annotated[int, Spec("int", min=1, max=1e7, unit="features")]


class Workload(SchemaObject):
    kind: Annotated[str, Spec("enum", choices=WORKLOAD_KINDS)]
    name: Annotated[str, Spec("str", max=200)] = ""

    def __init__(self, kind: str | None = None, /, **data: Any) -> None:
        # The kind may come first, as the dataclasses took it: GbmWorkload("gbm", rows=...).
        if kind is not None:
            data["kind"] = kind
        super().__init__(**data)

    @property
    def per_month(self) -> float:
        return 0.0


class GbmWorkload(Workload):
    kind: Annotated[Literal["gbm"], Spec("enum", choices=("gbm",))]
    trainings_per_month: Annotated[float, Spec("number", **PER_MONTH)]
    rows: Rows
    features: Features
    trees: Annotated[int, Spec("int", min=1, max=1e6, unit="trees")]
    deadline_hours: Deadline = None

    @property
    def per_month(self) -> float:
        return self.trainings_per_month


class SklearnWorkload(Workload):
    kind: Annotated[Literal["sklearn"], Spec("enum", choices=("sklearn",))]
    searches_per_month: Annotated[float, Spec("number", **PER_MONTH)]
    grid_size: Annotated[int, Spec("int", min=1, max=1e6, unit="combinations")]
    folds: Annotated[int, Spec("int", min=2, max=100, unit="folds")]
    rows: Rows
    features: Features
    deadline_hours: Deadline = None

    @property
    def per_month(self) -> float:
        return self.searches_per_month


class FeaturesWorkload(Workload):
    kind: Annotated[Literal["features"], Spec("enum", choices=("features",))]
    runs_per_month: Annotated[float, Spec("number", **PER_MONTH)]
    dataset_gb: Annotated[
        float, Spec("number", min=0, min_exclusive=True, max=1e6, unit="GB (decimal)")
    ]
    must_fit_one_box: Annotated[
        bool,
        Spec(
            "bool", doc="pandas loads it whole; false when processed in chunks or spread over boxes"
        ),
    ] = True
    deadline_hours: Deadline = None

    @property
    def per_month(self) -> float:
        return self.runs_per_month


class HpoWorkload(Workload):
    kind: Annotated[Literal["hpo"], Spec("enum", choices=("hpo",))]
    searches_per_month: Annotated[float, Spec("number", **PER_MONTH)]
    trials: Annotated[int, Spec("int", min=1, max=1e6, unit="trials")]
    trial_hours_single_thread: Annotated[
        float | None,
        Spec("number", min=0, min_exclusive=True, max=1000, unit="hours",
             doc="the team's own trial length on one thread; null: the profile's"),
    ] = None  # fmt: skip
    deadline_hours: Deadline = None

    @property
    def per_month(self) -> float:
        return self.searches_per_month


class InferenceWorkload(Workload):
    kind: Annotated[Literal["inference"], Spec("enum", choices=("inference",))]
    peak_rps: Annotated[
        float, Spec("number", min=0, min_exclusive=True, max=1e6, unit="requests/s")
    ]
    p99_ms: Annotated[float, Spec("number", min=0.1, max=60_000, unit="ms")]
    n_plus_one: Annotated[bool, Spec("bool", doc="one spare server beyond the need")] = False


class NnWorkload(Workload):
    kind: Annotated[Literal["nn"], Spec("enum", choices=("nn",))]
    trainings_per_month: Annotated[float, Spec("number", **PER_MONTH)]
    samples: Annotated[int, Spec("int", min=1, max=1e12, unit="samples")]
    epochs: Annotated[int, Spec("int", min=1, max=1e5, unit="epochs")]
    deadline_hours: Deadline = None

    @property
    def per_month(self) -> float:
        return self.trainings_per_month


class DeepLearningWorkload(Workload):
    kind: Annotated[Literal["deep_learning"], Spec("enum", choices=("deep_learning",))]
    task: Annotated[str, Spec("enum", choices=DEEP_LEARNING_TASKS)]
    gpu_hours_per_month: Annotated[
        Decimal | None,
        Spec("decimal", min=0, max=1_000_000, places=2, unit="GPU-hours/month"),
    ] = None


WORKLOAD_CLASSES: dict[str, type[Workload]] = {
    "gbm": GbmWorkload,
    "sklearn": SklearnWorkload,
    "features": FeaturesWorkload,
    "hpo": HpoWorkload,
    "inference": InferenceWorkload,
    "nn": NnWorkload,
    "deep_learning": DeepLearningWorkload,
}


def _kind_of(value: Any) -> str | None:
    return value.get("kind") if isinstance(value, Mapping) else getattr(value, "kind", None)


def _kind_first(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    """The kind picks the model; a missing, mistyped or unknown kind is named as such."""
    if isinstance(value, Workload):
        return handler(value)
    if not isinstance(value, Mapping):
        raise fail("Workload", [((), msg("schema.expected_object", got=got(value)), value)])
    kind = value.get("kind")
    problem: Message | None = None
    if kind is None:
        problem = msg("schema.required")
    elif not isinstance(kind, str):  # an object or a list: refused, never looked up
        problem = msg("schema.expected_string", got=got(kind))
    elif kind not in WORKLOAD_CLASSES:
        choices = list(WORKLOAD_KINDS)
        problem = msg("schema.unknown_value", value=repr(kind[:40]), choices=choices)
    if problem is not None:
        raise fail("Workload", [(("kind",), problem, kind)])
    return handler(value)


AnyWorkload = Annotated[
    Annotated[GbmWorkload, Tag("gbm")]
    | Annotated[SklearnWorkload, Tag("sklearn")]
    | Annotated[FeaturesWorkload, Tag("features")]
    | Annotated[HpoWorkload, Tag("hpo")]
    | Annotated[InferenceWorkload, Tag("inference")]
    | Annotated[NnWorkload, Tag("nn")]
    | Annotated[DeepLearningWorkload, Tag("deep_learning")],
    Discriminator(_kind_of),
    WrapValidator(_kind_first),
]


# --- the plan -------------------------------------------------------------------------------


RANGE_INPUTS = (
    "baseline_monthly", "price", "fx", "batch_volume", "requests_per_second", "throughput",
    "monthly_growth", "annual_discount_rate", "one_time", "utilisation_target",
)  # fmt: skip


class InputRange(SchemaObject):
    """The manager's own low and high of one uncertain input (sensitivity, Monte Carlo)."""

    input: Annotated[
        str,
        Spec("enum", choices=RANGE_INPUTS,
             doc="which input; price, throughput: every leading tier's line, every class"),
    ]  # fmt: skip
    low: Annotated[
        Decimal,
        Spec("decimal", min=0, max=100, places=6,
             doc="a factor on the base figure (1 = base), or the rate or share itself for "
                 "monthly_growth, annual_discount_rate and utilisation_target"),
    ]  # fmt: skip
    high: Annotated[Decimal, Spec("decimal", min=0, max=100, places=6, doc="as low")]

    # An input given as the rate or share itself keeps the plan field's own bounds: a
    # growth range of 0…100 would price a plan the schema refuses (docs/design.md, "Bounds").
    ABSOLUTE: ClassVar[dict[str, tuple[Decimal, Decimal, str]]] = {
        "monthly_growth": (Decimal(0), Decimal("0.5"), "per month"),
        "annual_discount_rate": (Decimal(0), Decimal(1), "per year"),
        "utilisation_target": (Decimal("0.05"), Decimal(1), "share of threads"),
    }

    @classmethod
    def _checks(
        cls, given: Given, raw: Given, model: Any, found: Sequence[Problem], context: Given
    ) -> list[Problem]:
        if model is None or model.input not in cls.ABSOLUTE:
            return []
        least, most, unit = cls.ABSOLUTE[model.input]
        out: list[Problem] = []
        for end in ("low", "high"):
            value = getattr(model, end)
            if value > most:
                out.append(((end,), msg("schema.at_most", value=Number(most), unit=unit), value))
            elif value < least:
                out.append(((end,), msg("schema.at_least", value=Number(least), unit=unit), value))
        return out


class Plan(SchemaObject):
    name: Annotated[str, Spec("str", max=200, doc="a label for the plan")] = ""
    currency: Annotated[str, Spec("currency", doc="ISO 4217 code; every amount is in it")]
    baseline: Annotated[Baseline, Section("what the team pays today")]
    horizon_months: Annotated[
        int, Spec("int", min=1, max=120, unit="months", doc="how far the comparison runs")
    ] = int(defaults.HORIZON_MONTHS.value)
    annual_discount_rate: Annotated[
        Decimal,
        Spec("decimal", min=0, max=1, places=6, unit="per year",
             doc=defaults.ANNUAL_DISCOUNT_RATE.source),
    ] = Decimal(defaults.ANNUAL_DISCOUNT_RATE.value)  # fmt: skip
    utilisation_target: Annotated[
        Decimal,
        Spec("decimal", min=0.05, max=1, places=6, unit="share of threads",
             doc="how busy a server may be kept"),
    ] = Decimal(defaults.UTILISATION_TARGET.value)  # fmt: skip
    monthly_growth: Annotated[
        Decimal,
        Spec("decimal", min=0, max=0.5, places=6, unit="per month",
             doc="workload volume grows by (1+g)^(m-1) in month m; servers are added when "
                 "needed"),
    ] = Decimal(defaults.MONTHLY_GROWTH.value)  # fmt: skip
    spot_interruption_allowance: Annotated[
        Decimal,
        Spec("decimal", min=0, max=1, places=6, unit="share of work re-run",
             doc=defaults.SPOT_INTERRUPTION_ALLOWANCE.source),
    ] = Decimal(defaults.SPOT_INTERRUPTION_ALLOWANCE.value)  # fmt: skip
    one_time: Annotated[OneTime, Section("costs of the switch, at month 0")] = Field(
        default_factory=OneTime
    )
    monthly: Annotated[MonthlyExtras, Section("monthly costs besides the servers")] = Field(
        default_factory=MonthlyExtras
    )
    candidates: Annotated[
        tuple[CandidateItem, ...],
        Items(100, doc="options to compare; empty: every tier with the specs the model needs, "
                       "sized"),
    ] = ()  # fmt: skip
    workloads: Annotated[
        tuple[AnyWorkload, ...], Items(50, doc="the team's work, in the units of docs/design.md")
    ] = ()
    owned: Annotated[
        tuple[OwnedServer, ...],
        Items(10, doc="servers bought instead of rented: each one an option of its own, at "
                      "its given count"),
    ] = ()  # fmt: skip

    ranges: Annotated[
        tuple[InputRange, ...],
        Items(10, doc="low and high of uncertain inputs; absent: the published defaults"),
    ] = ()

    SECTIONS: ClassVar[tuple[str, ...]] = ("baseline", "one_time", "monthly")

    @classmethod
    def _relocate(cls, loc: Loc) -> Loc:
        # pydantic names the union's member in the location: ("workloads", 0, "gbm", "rows").
        if loc[:1] == ("workloads",) and len(loc) > 2 and loc[2] in WORKLOAD_CLASSES:
            return loc[:2] + loc[3:]
        return loc

    @property
    def deep_learning_gpu_hours(self) -> Decimal:
        return sum(
            (w.gpu_hours_per_month or Decimal(0))
            for w in self.workloads
            if isinstance(w, DeepLearningWorkload)
        ) or Decimal(0)

    @classmethod
    def _checks(
        cls, given: Given, raw: Given, model: Any, found: Sequence[Problem], context: Given
    ) -> list[Problem]:
        owned = bool(given.get("owned") or raw.get("owned"))
        if model is not None:
            return _plan_checks(
                model.candidates, model.workloads, refused=False, failed=False, owned=owned
            )
        # Some field failed: check what did parse, item by item, as the engine would see it.
        candidates = _valid_items(_CANDIDATE, raw.get("candidates"), context)
        workloads = _valid_items(_WORKLOAD, raw.get("workloads"), context)
        refused = any(loc[:1] == ("candidates",) for loc, _m, _v in found)
        failed = any(loc[:1] == ("workloads",) for loc, _m, _v in found)
        return _plan_checks(candidates, workloads, refused=refused, failed=failed, owned=owned)


_CANDIDATE: TypeAdapter[Candidate] = TypeAdapter(CandidateItem)
_WORKLOAD: TypeAdapter[Workload] = TypeAdapter(AnyWorkload)


def _valid_items(adapter: TypeAdapter[Any], items: Any, context: Mapping[str, Any]) -> list[Any]:
    if not isinstance(items, list | tuple):
        return []
    out = []
    for item in items:
        try:
            out.append(adapter.validate_python(item, context=dict(context)))
        except ValidationError:
            continue
    return out


def _plan_checks(
    candidates: Sequence[Candidate],
    workloads: Sequence[Workload],
    *,
    refused: bool,
    failed: bool,
    owned: bool = False,
) -> list[Problem]:
    """Between candidates and workloads. `refused`: some candidate was refused (then its
    own messages say what is wrong, and sizing is not in question); `failed`: some
    workload was."""
    out: list[Problem] = []
    # Owned servers alone are options enough: no catalog tier is sized then.
    sized = (not candidates and not refused and not owned) or any(
        part.mode == "sized" for c in candidates for part in c.parts
    )
    cpu_work = [w for w in workloads if w.kind != "deep_learning"]
    if sized and not cpu_work and not failed:
        out.append((("workloads",), msg("schema.cpu_workload"), None))
    needs_hours = any(
        part.mode == "usage"
        and part.gpu_hours_per_month is None
        and part.instance_hours_per_month is None
        for c in candidates
        for part in c.parts
    )
    dl_hours = sum(
        (w.gpu_hours_per_month or 0) for w in workloads if isinstance(w, DeepLearningWorkload)
    )
    if needs_hours and not dl_hours:
        out.append((("candidates",), msg("schema.usage_hours"), None))
    return out
