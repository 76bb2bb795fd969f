"""The answer's output models (pydantic v2): what the engine returns and the API documents.

One description of each part of the answer: the engine builds these models, their
serialisation is the API's JSON (byte for byte what tests/golden/ holds), and
`planner.api.schemas` takes its response schemas from them (docs/openapi.yaml).

Built so far (docs/design.md, "The answer as typed models"): the whole answer (`Answer`,
which `engine.Comparison.output()` gives), its headline, options (parts, capacity, money,
one-time costs, capacity check, break-even) and tiers with no figure, field by field; the
baseline, price/performance rows, sensitivity, GPU notes and missing commitments are still
dictionaries (`Spoken`), and provenance is added to the dump, not part of the models.

A sentence is a `Message` field: serialised as its English text, and listed beside as
`{"field", "code", "params", "text"}` in the object's `messages` (an option lists its
parts' sentences with their paths). Money and exact decimals are `Decimal`s serialised as
strings. The models are built with `model_construct` (the engine's values are checked
where they are made; an answer at 20,000 tiers has some 20,000 entries). Pure: no Django.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import Annotated, Any, ClassVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    SerializerFunctionWrapHandler,
    WithJsonSchema,
    computed_field,
    model_serializer,
)

from common.messages import Message
from common.messages import plain as english
from common.messages import said as said_both
from planner.compute.message_fields import MESSAGES, split, with_messages

MONEY_PATTERN = r"^-?\d+\.\d{2}$"

Sentence = Annotated[
    Message,
    PlainSerializer(english, return_type=str),
    WithJsonSchema({"type": "string", "description": "English; as data in `messages`"}),
]
MoneyOut = Annotated[
    Decimal,
    PlainSerializer(str, return_type=str),
    WithJsonSchema({"type": "string", "pattern": MONEY_PATTERN,
                    "description": "An amount in the plan's currency, rounded half-up to "
                                   "the cent."}),
]  # fmt: skip
DecimalOut = Annotated[
    Decimal,
    PlainSerializer(str, return_type=str),
    WithJsonSchema({"type": "string", "description": "an exact decimal number as a string"}),
]


_setattr = object.__setattr__


def constructed[M: BaseModel](cls: type[M], fields: dict[str, Any], given: Iterable[str]) -> M:
    """`cls.model_construct(**given values)` where `fields` holds every field's value in the
    model's order (the defaults of those not given filled in by the caller): no per-call
    walk of the fields, a fifth of `model_construct`'s cost, for models made by the
    thousand at catalog scale (a sized part and a tier with no figure per tier). `given`:
    the fields set (`model_fields_set`), as `model_construct` records them. Only for a
    model with no `model_post_init`, private attributes or extra fields."""
    model = cls.__new__(cls)
    _setattr(model, "__dict__", fields)
    _setattr(model, "__pydantic_fields_set__", set(given))
    _setattr(model, "__pydantic_extra__", None)
    _setattr(model, "__pydantic_private__", None)
    return model


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


def said(field: str, message: Message, memo: dict[int, Any] | None = None) -> dict[str, Any]:
    """A message as its object's `messages` list holds it (`{"field", **as_api(message)}`,
    built in one step: an answer at 20,000 tiers lists some 30,000). `memo`: shared by the
    messages of one object (`messages.said`)."""
    text, params = said_both(message, memo)
    return {"field": field, "code": message.code, "params": params, "text": text}


class Headline(BaseModel):
    """The answer in a sentence or a few: the best option, what it saves, when it pays."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    best: str | None = Field(description="the best option's key")
    label: Sentence | None
    saving_per_month: MoneyOut | None
    saving_per_year: MoneyOut | None
    payback_label: str | None
    payback_month: int | None
    payback_fraction: DecimalOut | None
    not_entered: list[str]
    sentences: list[Message] = Field(exclude=True)  # the headline, one message a sentence
    payback: Message | None = Field(default=None, exclude=True)  # payback_label as a message

    @computed_field  # type: ignore[prop-decorator]
    @property
    def sentence(self) -> str:
        return " ".join(english(m) for m in self.sentences)

    @computed_field(  # type: ignore[prop-decorator]
        description="the object's sentences as messages; empty when it has none"
    )
    @property
    def messages(self) -> list[FieldMessage]:
        out = [("label", self.label)] if self.label is not None else []
        out += [("sentence", m) for m in self.sentences]
        out += [("payback_label", self.payback)] if self.payback is not None else []
        return [FieldMessage(**said(field, message)) for field, message in out]


class BreakEven(BaseModel):
    """Hours a month at which paying by the hour equals a monthly price (exact ratio)."""

    hours_per_month: DecimalOut = Field(
        description="the hourly option costs the same as the monthly one here"
    )
    utilisation: DecimalOut = Field(description="the same as a share of the 730-hour month")
    hourly_always_cheaper: bool = Field(
        description="even running all month, the hourly option costs less"
    )


class OneTimeCosts(BaseModel):
    """The one-time costs an option carries (`charged`, in `onetime.COSTS` order), those it
    does not, whether it stays on the baseline's provider and family (`stays`: None when
    the baseline's is unknown), and which of them the plan set by hand (`overridden`)."""

    model_config = ConfigDict(frozen=True)

    charged: list[str]
    not_charged: list[str]
    stays: bool | None
    overridden: list[str]

    def carries(self, cost: str) -> bool:
        return cost in self.charged


class CapacityCheck(BaseModel):
    """Whether an option of fixed counts carries the plan's work each month (issue 21,
    item 5), by the capacity model that sizes the other options: `carries` every month;
    `cannot_carry` from `from_month` on, where `tier` needs `needed` servers (the most in
    the horizon) against its fixed `count`; `not_checked` where no evidence (a measured
    run, an estimate) sizes `tier`, or an owned server (no catalog specs)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    status: str = Field(description="carries | cannot_carry | not_checked")
    from_month: int | None = None
    tier: str | None = None
    needed: int | None = None
    count: int | None = None
    # listed in the option's `messages` as "capacity_check.said"
    said: Sentence | None = None


class _Listed(BaseModel):
    """An entry of strings and sentences (a `Message`, or a list of them and strings):
    thousands of them at catalog scale (a tier with no figure each), so each is dumped in
    one pass by its own serializer, each sentence as its English text and listed in
    `messages` (`said`, its field's path), with no `FieldMessage` built on the way;
    `Answer` places that data as it is (pydantic would copy it value by value again)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)
    fields_in_order: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        cls.fields_in_order = tuple(cls.model_fields)  # read once, not per entry

    @computed_field(  # type: ignore[prop-decorator]
        description="the object's sentences as messages; empty when it has none"
    )
    @property
    def messages(self) -> list[FieldMessage]:
        build = FieldMessage.model_construct
        return [build(**found) for found in self._data()[MESSAGES]]

    # No return annotation: the JSON schema stays the fields' and `messages`'.
    @model_serializer(mode="plain")
    def _data(self):  # type: ignore[no-untyped-def]
        return self.dumped({})

    def dumped(self, memo: dict[int, Any]) -> dict[str, Any]:
        """The entry's data; `memo` (`messages.said`) shared by the entries of one answer:
        their reasons share parts (a tier's "on tier …", a class's list of series)."""
        data: dict[str, Any] = {}
        found: list[dict[str, Any]] = []
        fields = self.__dict__
        for name in self.fields_in_order:
            value = fields[name]
            kind = type(value)
            if kind is Message:
                found.append(entry := said(name, value, memo))
                value = entry["text"]
            elif kind is list:
                texts = []
                for i, item in enumerate(value):
                    if type(item) is Message:
                        found.append(entry := said(f"{name}[{i}]", item, memo))
                        item = entry["text"]
                    texts.append(item)
                value = texts
            data[name] = value
        data[MESSAGES] = found
        return data


class DroppedTier(_Listed):
    """A candidate the engine could not price (the catalog frame dropped it), and why."""

    tier: str
    reason: Sentence


class NoNumber(_Listed):
    """A tier the capacity model was asked to size but could not (`no_number`), or ruled
    out (`ruled_out`), with its reasons."""

    tier: str
    status: str = Field(description="no_number | ruled_out")
    reasons: list[Sentence]


Unpriced = DroppedTier | NoNumber  # an entry of the answer's `no_number`


# --- an option -------------------------------------------------------------------------------
# The option's sentences, its parts' among them, are listed in its own `messages` with their
# paths ("parts[0].capacity.reasons[1]"): `Option` walks its fields for them.

Said = Sentence
# Data that may hold sentences (a basis's fit, a commitment's summary): each as its text.
Plain = Annotated[
    dict[str, Any],
    PlainSerializer(lambda data: split(data)[0], return_type=dict[str, Any]),
]


# Values that hold no message, passed over without a path (an option's money, its servers).
_LEAVES = frozenset({str, int, float, bool, type(None), Decimal})


def _found(value: Any, path: str, out: list[dict[str, Any]]) -> None:
    """The messages in `value` (a model's fields in their order, a dictionary, a list) with
    their paths, as `message_fields.split` lists them in the object's dump."""
    if isinstance(value, Message):
        out.append(said(path, value))
        return
    if isinstance(value, BaseModel):
        if type(value) is Money:
            return  # amounts only
        prefix = f"{path}." if path else ""
        items: Any = (
            (name, getattr(value, name))
            for name, info in type(value).model_fields.items()
            if not info.exclude
        )
    elif isinstance(value, dict):
        prefix = f"{path}." if path else ""
        items = value.items()
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            if type(item) not in _LEAVES:
                _found(item, f"{path}[{i}]", out)
        return
    else:
        return
    for name, item in items:
        if type(item) not in _LEAVES:
            _found(item, f"{prefix}{name}", out)


class Money(BaseModel):
    """An option's money over the horizon, each amount to the cent as a string."""

    one_time: MoneyOut
    monthly: list[MoneyOut] = Field(description="months 1…H")
    cumulative: list[MoneyOut] = Field(description="months 0…H")
    total: MoneyOut
    present_cost: MoneyOut
    npv: MoneyOut
    saving: MoneyOut = Field(description="against the baseline over the horizon")
    saving_pct: DecimalOut | None = Field(description="of the baseline's total")
    saving_per_month: MoneyOut
    saving_per_year: MoneyOut
    payback_month: int | None
    payback_fraction: DecimalOut | None
    payback_label: str
    steady_monthly: MoneyOut = Field(description="once the months of running both are over")
    transition_cost: MoneyOut = Field(description="the months of running both, once")

    @classmethod
    def of(cls, money: Any) -> Money:
        """From the engine's `tco.OptionMoney`."""
        steady = money.steady_monthly
        if steady is None:
            steady = money.monthly[0] if money.monthly else Decimal("0.00")
        return cls.model_construct(
            one_time=money.one_time, monthly=money.monthly, cumulative=money.cumulative,
            total=money.total, present_cost=money.present_cost, npv=money.npv,
            saving=money.saving, saving_pct=money.saving_pct,
            saving_per_month=money.saving_per_month, saving_per_year=money.saving_per_year,
            payback_month=money.payback_month, payback_fraction=money.payback_fraction,
            payback_label=money.payback_label, steady_monthly=steady,
            transition_cost=money.transition_cost,
        )  # fmt: skip


class WorkloadCapacity(BaseModel):
    """One workload's share of a tier's capacity, and what it rests on (`basis`): built by
    `capacity.CapacityTable.result`."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    index: int
    name: str
    kind: str
    basis: Plain
    estimate: bool
    labels: list[Said]
    seconds_per_unit: float | None
    threads_used: float | None
    thread_hours_per_month: float | None
    memory_gib: float
    deadline_hours: float | None = None
    deadline_met: bool | None = None
    servers_forced_by_deadline: int | None = None
    workers: int | None = None
    p99_ms_mmc: float | None = None
    p99_ms_sim: float | None = None
    simulated: bool | None = None
    problem: Said | None = None


class Capacity(BaseModel):
    """A tier sized for the plan's work: `capacity.CapacityTable.result` builds it (the
    engine has no second description of it)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    tier: str
    status: str = Field(description="sized | estimate | no_number | ruled_out")
    reasons: list[Said]
    servers: int | None = Field(description="month 1")
    servers_by_month: list[int]
    threads_per_server: float | None
    threads_needed: float | None = Field(description="month 1")
    memory_need_gib: float
    ram_gib: float | None
    fits_in_ram: bool | None
    spare_server: bool
    workloads: list[WorkloadCapacity]
    labels: list[Said]

    @property
    def has_number(self) -> bool:
        return self.status in ("sized", "estimate")


class Part(BaseModel):
    """One tier of an option: how many servers each month (or the usage), its price row,
    and its capacity where the plan's work sizes it."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    tier: str
    name: str
    mode: str = Field(description="sized | fixed | usage")
    servers_by_month: list[int]
    usage_hours: Said | None
    price: Plain
    title: Said | None
    capacity: Capacity | None


class Option(BaseModel):
    """One way to run the work: its parts, money and notes; `owned` (an owned server's
    lines) and `commitment` (a cloud commitment's terms) only where they apply."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    owned: Plain | None = None
    commitment: Plain | None = None
    key: str
    label: Said
    title: Said
    figure: str = Field(description="measured | estimate | entered")
    parts: list[Part]
    money: Money
    one_time_items: dict[str, DecimalOut]
    one_time_costs: OneTimeCosts | None
    capacity_check: CapacityCheck | None
    break_even_vs_best_monthly: BreakEven | None
    notes: list[Said]
    payback: Said = Field(exclude=True)  # money.payback_label as a message

    @model_serializer(mode="wrap")
    def _said(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """Each sentence as its English text, `messages` beside them (the payback last);
        `owned` and `commitment` only where they apply."""
        data = handler(self)
        for extra in ("owned", "commitment"):
            if data[extra] is None:
                del data[extra]
        found: list[dict[str, Any]] = []
        _found(self, "", found)
        data[MESSAGES] = [*found, said("money.payback_label", self.payback)]
        return data


# --- the answer ------------------------------------------------------------------------------

# Parts not yet described field by field (the baseline, the price/performance rows, the
# sensitivity...): dictionaries whose sentences are said, with their `messages` beside.
Spoken = Annotated[
    dict[str, Any],
    PlainSerializer(lambda data: with_messages(data), return_type=dict[str, Any]),
]


class Answer(BaseModel):
    """A comparison as the API gives it (before `planner.services.provenance` adds the
    sources of its figures): the cheapest options (`options_total` says how many there
    were; a cloud commitment is always listed) and every tier with no figure."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    plan: dict[str, Any] = Field(description="the plan as stored (`schema.plan_to_dict`)")
    as_of: str | None
    currency: str
    baseline: Spoken
    headline: Headline
    options: list[Option] = Field(description="cheapest total first")
    options_total: int
    stays_on_gpu: list[Spoken]
    no_number: list[Unpriced]
    price_performance: list[Spoken]
    assumptions: list[dict[str, Any]]
    fx: list[dict[str, Any]]
    sensitivity: Spoken | None
    commitments_missing: list[Spoken] = Field(
        default=[], description="the baseline's commitment slots the catalog has no rate "
                                "for; absent when none"
    )  # fmt: skip

    @model_serializer(mode="wrap")
    def _shown(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data = handler(self)
        if not data["commitments_missing"]:
            del data["commitments_missing"]
        return data

    def model_dump(self, **kwargs: Any) -> dict[str, Any]:  # type: ignore[override]
        """The answer's data. The tiers with no figure (some 15,000 at 20,000 tiers) are each
        dumped by their own serializer (`_Listed`) and placed as they are: pydantic copies
        what a serializer returns value by value, twice here (the entry's, then the
        answer's), a third of the encoding at 20,000 tiers (bench/api_scale.py). Any other
        way of serialising the answer gives the same data, through pydantic."""
        data = BaseModel.model_dump(self.model_copy(update={"no_number": []}), **kwargs)
        if "no_number" in data:
            memo: dict[int, Any] = {}
            data["no_number"] = [entry.dumped(memo) for entry in self.no_number]
        return data
