"""The answer's smaller parts as output models, and what every part of it shares.

`planner.compute.answer` puts them together (`Answer`, `Option`); this module holds the
sentence and money annotations, the `messages` entries, the price rows and provenance,
the baseline, the GPU notes, the price/performance rows, the sensitivity, the missing
commitments, the assumptions, the exchange rates and an option's owned-server lines and
commitment terms (docs/design.md, "The answer as typed models").

`Shown`: a part whose optional keys are absent from its JSON unless they were set (the
engine leaves them out; the service layer sets `provenance`). `Spoken`: a shown part that
lists its own sentences in `messages`. Pure: no Django.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Decimal
from types import NoneType, UnionType
from typing import Annotated, Any, ClassVar, Literal, Union, get_args, get_origin

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    WithJsonSchema,
    computed_field,
    model_serializer,
    model_validator,
)

from common.messages import Message, msg
from common.messages import plain as english
from common.messages import said as said_both
from planner.compute.message_fields import MESSAGES, by_field, split

# --- reading an answer back from its JSON ----------------------------------------------------


def read_message(value: Any) -> Any:
    """A sentence field's value read back: a Message as it is, a message's JSON form as
    its Message, and the stored English of a share frozen before messages existed (or
    whose code has been retired since) as that text (`common.text`), which reads the same
    in every language."""
    if isinstance(value, Message) or value is None:
        return value
    if isinstance(value, Mapping) and "code" in value:
        try:
            return Message.from_json(value)
        except (KeyError, TypeError, ValueError):
            pass
    return msg("common.text", text=str(value))


_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def _steps(path: str) -> list[str | int]:
    """ "parts[0].capacity.reasons[1]" → ["parts", 0, "capacity", "reasons", 1]."""
    return [name if name else int(index) for name, index in _STEP.findall(path)]


def _put(node: Any, steps: list[str | int], value: Any) -> Any:
    """`node` with `value` at `steps`, the containers on the way copied (never changed)."""
    step, rest = steps[0], steps[1:]
    if isinstance(node, list) and isinstance(step, int) and step < len(node):
        out: Any = list(node)
    elif isinstance(node, Mapping) and isinstance(step, str) and step in node:
        out = dict(node)
    else:
        raise LookupError(step)
    out[step] = _put(node[step], rest, value) if rest else value
    return out


def placed(data: Any, skip: frozenset[str] = frozenset()) -> Any:
    """An object's JSON with each sentence its `messages` list names (by field path)
    placed as its Message in that field (`skip`: the paths of sentences said in a plain
    text field too, placed by the caller). A sentence with no entry stays its stored text,
    which its field reads back as that text (`read_message`)."""
    if not isinstance(data, Mapping) or not data.get(MESSAGES):
        return data
    out: Any = data
    for path, messages in by_field(data[MESSAGES]).items():
        if path in skip or not path:
            continue
        try:
            out = _put(out, _steps(path), messages[0])
        except (LookupError, TypeError):
            continue  # a path the object no longer has: its text stands
    return out


# A sentence: said as its English text, listed as data in its object's `messages`; read
# back from the object's JSON by `placed` and `read_message`.

MONEY_PATTERN = r"^-?\d+\.\d{2}$"

Sentence = Annotated[
    Message,
    BeforeValidator(read_message),
    PlainSerializer(english, return_type=str),
    WithJsonSchema({"type": "string", "description": "English; as data in `messages`"}),
]
_EXACT = WithJsonSchema({"type": "string", "description": "an exact decimal number as a string"})
MoneyOut = Annotated[
    Decimal,
    PlainSerializer(str, return_type=str),
    WithJsonSchema({"type": "string", "pattern": MONEY_PATTERN,
                    "description": "An amount in the plan's currency, rounded half-up to "
                                   "the cent."}),
]  # fmt: skip
DecimalOut = Annotated[Decimal, PlainSerializer(str, return_type=str), _EXACT]
# An amount the engine gives as its text already ("1234.50"), to the cent.
MoneyText = Annotated[
    str,
    WithJsonSchema({"type": "string", "pattern": MONEY_PATTERN,
                    "description": "An amount to the cent, as a string."}),
]  # fmt: skip
# An exact decimal the engine gives as its text already.
DecimalText = Annotated[str, _EXACT]
Said = Sentence
CommitmentGroup = Literal["reserved", "savings_plan", "committed_use", "spot"]
# A dump's context: `message_fields.split`'s memo, shared by the `Plain` data of one dump.
SPLIT = "split memo"


def _plain(data: dict[str, Any], info: SerializationInfo) -> dict[str, Any]:
    """`Plain` data with each sentence as its text; said once a dump where the context
    holds a memo (`SPLIT`): the 50 options of an answer at 2,018 tiers hold 100 workloads'
    bases, 6 distinct dictionaries (bench, CPU: 0.5 ms said one by one, 0.05 once each)."""
    memo = info.context.get(SPLIT) if info.context else None
    return split(data, "", memo)[0]


# Data that may hold sentences (a measurement's basis, a match): each as its text.
Plain = Annotated[dict[str, Any], PlainSerializer(_plain, return_type=dict[str, Any])]


class FieldMessage(BaseModel):
    """One sentence of the object it sits in, as data: a stable code, typed parameters and
    the English text, which is the string in the field it names. `field` is the path of
    that field inside the object ("label", "notes[0]", "money.payback_label",
    "parts[0].capacity.reasons[1]"); the headline's sentence is several messages, each with
    field "sentence". Parameters keep their type: {"amount", "currency"} money, {"date"} an
    ISO date, {"number", "places"} a figure, {"percent", "places"} a share, {"tier", "name"}
    a catalog tier, {"profile", "version"} a benchmark profile, {"code", "params"} a nested
    message, or a plain string, integer or list of these."""

    field: str
    code: str = Field(description="e.g. engine.note_price_stale, capacity.workload_reason")
    params: dict[str, Any]
    text: str = Field(description="English, as the field it names says it")


def _as_they_are(entries):  # type: ignore[no-untyped-def]
    return entries  # no return annotation: the JSON schema stays list[FieldMessage]


# An object's `messages` as `said` builds them (dictionaries of FieldMessage's fields):
# dumped as they are, documented as FieldMessages (a model each would cost a third of an
# answer's encoding at 2,018 tiers).
Listed = Annotated[list[FieldMessage], PlainSerializer(_as_they_are)]


def said(field: str, message: Message, memo: dict[int, Any] | None = None) -> dict[str, Any]:
    """A message as its object's `messages` list holds it (`{"field", **as_api(message)}`,
    built in one step: an answer at 20,000 tiers lists some 30,000). `memo`: shared by the
    messages of one object (`messages.said`)."""
    text, params = said_both(message, memo)
    return {"field": field, "code": message.code, "params": params, "text": text}


# Values that hold no message, passed over without a path (an option's money, its servers).
_LEAVES = frozenset({str, int, float, bool, NoneType, Decimal})


# Fields whose sentences are not listed: the sources of the figures repeat what the object's
# own fields say (a workload's basis), and were never part of `messages`.
_UNSPOKEN = frozenset({"provenance"})


def holds_no_message(annotation: Any) -> bool:
    """Whether a field of this type can hold no sentence: plain values (strings, numbers,
    `Literal`s) and lists, tuples, dictionaries and unions of them only. A model, a
    `Message` or `Any` (a basis, a match) may hold one."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return holds_no_message(get_args(annotation)[0])
    if origin is Literal:
        return True
    if origin in (Union, UnionType, list, tuple, dict):
        args = [arg for arg in get_args(annotation) if arg is not Ellipsis]
        return bool(args) and all(holds_no_message(arg) for arg in args)
    return annotation in _LEAVES


_SPOKEN_FIELDS: dict[type[BaseModel], tuple[str, ...]] = {}


def _spoken_fields(cls: type[BaseModel]) -> tuple[str, ...]:
    """The fields of `cls`, in their order, that may hold a sentence its `messages` lists:
    read once per model (an option's parts, capacities and workloads have some 60 fields,
    most of them numbers and lists of numbers: walked value by value, they were two thirds
    of finding an option's messages, bench, 2,018 tiers)."""
    names = _SPOKEN_FIELDS.get(cls)
    if names is None:
        names = _SPOKEN_FIELDS[cls] = tuple(
            name
            for name, info in cls.model_fields.items()
            if not info.exclude and name not in _UNSPOKEN and not holds_no_message(info.annotation)
        )
    return names


def found_messages(
    value: Any, path: str, out: list[dict[str, Any]], memo: dict[int, Any] | None = None
) -> None:
    """The messages in `value` (a model's fields in their order, a dictionary, a list) with
    their paths, as `message_fields.split` lists them in the object's dump. `memo`: `said`'s,
    shared by the objects of one dump (an option's title is its part's, said once), and the
    dictionaries found to hold none, each under its id as its own value (it keeps its id its
    own): the options' workloads share their bases (100 bases, 6 distinct at 2,018 tiers).

    A model's spoken fields are read once per model (`_spoken_fields`), and a model with
    none (a price row, an option's money) is passed over by its type: the exact types
    first, as `message_fields._walk` (bench, 2,018 tiers, CPU: the 50 options' messages
    2.2 ms, 0.9 with the short cuts)."""
    kind = type(value)
    names = _SPOKEN_FIELDS.get(kind)
    if names is None:
        if kind is Message or isinstance(value, Message):
            out.append(said(path, value, memo))
            return
        if kind is dict:
            _found_in_dict(value, path, out, memo)
            return
        if kind is list or kind is tuple:
            for i, item in enumerate(value):
                if type(item) not in _LEAVES:
                    found_messages(item, f"{path}[{i}]", out, memo)
            return
        if not isinstance(value, BaseModel):
            if isinstance(value, dict):
                _found_in_dict(value, path, out, memo)
            elif isinstance(value, list | tuple):
                found_messages(list(value), path, out, memo)
            return
        names = _spoken_fields(kind)
    if names:
        prefix = f"{path}." if path else ""
        fields = value.__dict__
        for name in names:
            item = fields[name]
            if type(item) not in _LEAVES:
                found_messages(item, prefix + name, out, memo)


def _found_in_dict(
    value: dict[str, Any], path: str, out: list[dict[str, Any]], memo: dict[int, Any] | None
) -> None:
    """`found_messages` of a dictionary; one found to hold none is noted in `memo`."""
    if memo is not None and memo.get(id(value)) is value:
        return  # found to hold none already
    start = len(out)
    prefix = f"{path}." if path else ""
    for name, item in value.items():
        if type(item) not in _LEAVES:
            found_messages(item, f"{prefix}{name}", out, memo)
    if memo is not None and len(out) == start:
        memo[id(value)] = value


class Shown(BaseModel):
    """A part of the answer whose fields named in `omitted` are absent from its JSON unless
    they were set (given to `model_construct`, assigned, or read back); those named in
    `last` come after its `messages`, in that order."""

    model_config = ConfigDict(arbitrary_types_allowed=True)
    omitted: ClassVar[frozenset[str]] = frozenset()
    last: ClassVar[tuple[str, ...]] = ()

    # No return annotation: the JSON schema stays the fields'.
    @model_serializer(mode="wrap")
    def _shown(self, handler: SerializerFunctionWrapHandler):  # type: ignore[no-untyped-def]
        return self._as_shown(handler(self))

    def _as_shown(self, data: dict[str, Any]) -> dict[str, Any]:
        """The fields' data with `omitted` and `last` applied."""
        if self.omitted:
            given = self.model_fields_set
            for name in self.omitted:
                if name not in given:
                    data.pop(name, None)
        for name in self.last:
            if name in data:
                data[name] = data.pop(name)
        return data


class Spoken(Shown):
    """A shown part that lists its own sentences (and its parts') in `messages`."""

    @model_validator(mode="before")
    @classmethod
    def _read(cls, data: Any) -> Any:
        return placed(data)

    @computed_field(  # type: ignore[prop-decorator]
        description="the object's sentences as messages; empty when it has none"
    )
    @property
    def messages(self) -> Listed:
        found: list[dict[str, Any]] = []
        found_messages(self, "", found)
        return found  # type: ignore[return-value]


class BreakEven(BaseModel):
    """Hours a month at which paying by the hour equals a monthly price (exact ratio)."""

    hours_per_month: DecimalOut = Field(
        description="the hourly option costs the same as the monthly one here"
    )
    utilisation: DecimalOut = Field(description="the same as a share of the 730-hour month")
    hourly_always_cheaper: bool = Field(
        description="even running all month, the hourly option costs less"
    )


# --- provenance ------------------------------------------------------------------------------


class PriceRow(Shown):
    """The catalog price row a figure rests on (`engine.Prices.provenance`)."""

    omitted: ClassVar[frozenset[str]] = frozenset({"fx_rate", "fx_date"})

    price_id: int
    amount: DecimalText
    unit: str
    currency: str = Field(description="the plan's")
    effective_from: str | None
    source: str
    source_url: str
    confirmed: bool
    stale: bool
    fx_rate: float | None = Field(None, description="converted into the plan's currency")
    fx_date: str | None = None

    # Plain values (hundreds of rows an answer): its fields as they are, in one step. No
    # return annotation: the JSON schema stays the fields'.
    @model_serializer(mode="plain")
    def _shown(self):  # type: ignore[no-untyped-def]
        data = dict(self.__dict__)
        if "fx_rate" not in self.model_fields_set:
            del data["fx_rate"], data["fx_date"]
        return data


class OptionRef(Shown):
    """The option a figure is about; absent (an empty object) where there is none."""

    omitted: ClassVar[frozenset[str]] = frozenset({"option"})

    option: str | None = None


class OptionProvenance(BaseModel):
    """What an option's figures rest on: price rows, measured runs, estimates and the
    plan's entered fields (by path)."""

    prices: list[PriceRow]
    # plain data (its sentences said as text): `planner.services.provenance` says them once
    runs: list[dict[str, Any]] = Field(description="the measured runs of its sized parts")
    estimates: list[dict[str, Any]] = Field(description="the estimates of its sized parts")
    entered: list[str] = Field(description="the plan's fields it rests on, by path")


class CapacityProvenance(BaseModel):
    """The measured runs and estimates a tier's capacity rests on."""

    tier: str
    runs: list[dict[str, Any]]
    estimates: list[dict[str, Any]]


class BaselineSources(Shown):
    """Today's spend's sources: price rows, the plan's entered fields, and a bill."""

    omitted: ClassVar[frozenset[str]] = frozenset({"bill"})

    prices: list[PriceRow]
    entered: list[str]
    bill: dict[str, Any] | None = Field(None, description="the bill, its period and lines")


def _from_by_its_name(schema: dict[str, Any]) -> None:
    """The JSON schema names `from_` as the JSON does ("from")."""
    schema["properties"] = {
        ("from" if k == "from_" else k): v for k, v in schema["properties"].items()
    }
    schema["required"] = ["from" if k == "from_" else k for k in schema.get("required", [])]


class RateRow(BaseModel):
    """An ExchangeRate row a conversion rests on."""

    model_config = ConfigDict(
        serialize_by_alias=True, validate_by_name=True, json_schema_extra=_from_by_its_name
    )

    rate_id: int
    from_: str = Field(alias="from")
    to: str
    rate: DecimalText
    date: str
    source: str


# --- the parts -------------------------------------------------------------------------------


class CommitmentPrice(BaseModel):
    """A baseline commitment priced from a tier: its index, tier and price row."""

    index: int
    tier: str
    price: PriceRow


class Baseline(Spoken):
    """Today's spend: quoted (`quoted_monthly`, `source`) or a tier's (`tier`, `count`,
    `price`), its commitments' price rows, month by month, and where it comes from."""

    omitted: ClassVar[frozenset[str]] = frozenset({
        "quoted_monthly", "source", "tier", "count", "price", "commitment_prices", "matched",
        "break_even_vs_best_monthly", "provenance",
    })  # fmt: skip
    last: ClassVar[tuple[str, ...]] = ("provenance",)

    quoted_monthly: DecimalText | None = None
    source: Sentence | None = None
    tier: str | None = None
    count: int | None = None
    price: PriceRow | None = None
    commitment_prices: list[CommitmentPrice] | None = None
    matched: Plain | None = Field(None, description="the servers that carry the bill's work")
    break_even_vs_best_monthly: BreakEven | None = None
    monthly: list[MoneyText] = Field(description="months 1…H")
    cumulative: list[MoneyText] = Field(description="months 0…H")
    total: MoneyText
    present_cost: MoneyText
    provenance: BaselineSources | None = None


class StaysOnGpu(Spoken):
    """A deep-learning workload that stays on GPUs (no CPU tier sizes it)."""

    index: int
    name: str
    task: str
    gpu_hours_per_month: DecimalText
    reason: Sentence


class PricePerformance(Spoken):
    """A tier's price for a unit of work (a measured or estimated figure)."""

    omitted: ClassVar[frozenset[str]] = frozenset({"price"})
    last: ClassVar[tuple[str, ...]] = ("price",)

    tier: str
    profile_class: str
    amount: DecimalText
    per: str
    currency: str
    figure: Literal["measured", "estimate"]
    basis: Plain
    price: PriceRow | None = Field(None, description="the tier's price row, where an option has it")

    # One pass (some thousands of rows at catalog scale): the basis said once, its sentences
    # its `messages`. No return annotation: the JSON schema stays the fields' and `messages`'.
    @model_serializer(mode="plain")
    def _shown(self):  # type: ignore[no-untyped-def]
        return self.dumped()

    def dumped(self, memo: dict[int, Any] | None = None) -> dict[str, Any]:
        """The row's data (its serializer's), which `Answer` places as it is; `memo`:
        `split`'s, shared by the rows of one answer."""
        basis, found = split(self.basis, "basis", memo)
        data = {
            "tier": self.tier, "profile_class": self.profile_class, "amount": self.amount,
            "per": self.per, "currency": self.currency, "figure": self.figure, "basis": basis,
            MESSAGES: found,
        }  # fmt: skip
        if "price" in self.model_fields_set:
            data["price"] = None if self.price is None else self.price.model_dump()
        return data


class SensitivityBase(BaseModel):
    npv: MoneyText
    saving: MoneyText
    payback_month: int | None = Field(description="null: never")


class SensitivityRow(BaseModel):
    """One money input of the quick table, moved alone to its low and its high value."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    input: Literal["baseline_monthly", "option_monthly", "one_time", "annual_discount_rate"]
    unit: Literal["money", "per year"]
    low: DecimalText
    base: DecimalText
    high: DecimalText
    npv_low: MoneyText
    npv_high: MoneyText
    saving_low: MoneyText
    saving_high: MoneyText
    payback_low: int | None = Field(description="payback month at the low value; null: never")
    payback_high: int | None
    break_even: MoneyText | None = Field(
        description="the amount at which the switch stops paying back within the horizon"
    )
    break_even_sentence: Sentence


class Sensitivity(Spoken):
    """The best option's one-way sensitivity over the money inputs (the bill, the option's
    monthly cost, the one-time costs the plan enters, the discount rate)."""

    option: str
    base: SensitivityBase
    inputs: list[SensitivityRow] = Field(description="the widest NPV swing first")
    provenance: OptionRef


class MissingCommitment(Spoken):
    """A commitment slot of the baseline tier's provider with no rate in the catalog."""

    group: CommitmentGroup
    years: int
    reason: Sentence


class Assumption(Shown):
    """A default the answer rests on, its value (the plan's where it sets one) and source."""

    omitted: ClassVar[frozenset[str]] = frozenset({"date"})

    name: str
    value: str | int
    unit: str
    source: str = Field(description="where the default comes from; entered: the plan's")
    date: str | None = Field(None, description="when the source said it")


class Fx(Shown):
    """An exchange rate the prices were converted at, with its rows (`rows`: provenance)."""

    omitted: ClassVar[frozenset[str]] = frozenset({"rows"})

    rate: float
    date: str | None
    into: str
    rows: list[RateRow] | None = Field(None, description="the ExchangeRate rows it rests on")


class OwnedLines(BaseModel):
    """An owned server's costs, one-time and month by month (`owned.OwnedMoney`)."""

    one_time: dict[str, MoneyText]
    lines: dict[str, list[MoneyText]]
    purchase_months: list[int]
    resale_per_server: MoneyText


class Interruption(BaseModel):
    """A spot option's interruption rate: the share of work re-run, its range and source."""

    rate: DecimalText = Field(description="the plan's spot_interruption_allowance")
    low: DecimalText
    high: DecimalText
    source: Literal["aggregator", "assumption"] = Field(
        description="aggregator: the ec2instances.info pct_interrupt bucket of the tier; "
        "assumption: the planner's default range, no published figure"
    )
    bucket: str = Field(description='the aggregator\'s own words ("<5%"); empty otherwise')


class CommitmentTerms(Shown):
    """A cloud commitment on the baseline tier's own instance (issue 27); its summary is
    listed in the option's `messages` ("commitment.summary")."""

    omitted: ClassVar[frozenset[str]] = frozenset({"interruption"})

    group: CommitmentGroup
    years: int = Field(description="1 or 3; 0 for spot")
    tier: str
    pricing_model: str | None
    on_demand_tier: str | None
    break_even_month: int | None
    loses_below_utilisation: DecimalText | None
    interruption: Interruption | None = Field(None, description="spot only")
    summary: Sentence
