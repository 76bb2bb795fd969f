"""The answer's output models (pydantic v2): what the engine returns and the API documents.

One description of each part of the answer: the engine builds these models, their
serialisation is the API's JSON (byte for byte what tests/golden/ holds), and
`planner.api.schemas` takes its response schemas from them (docs/openapi.yaml).

Every part is a model (docs/design.md, "The answer as typed models"): the whole answer
(`Answer`, which `engine.Comparison.output()` gives), its headline, options (parts,
capacity, money, one-time costs, capacity check, break-even, owned lines, commitment
terms) and tiers with no figure here; the baseline, GPU notes, price/performance rows,
sensitivity, missing commitments, assumptions, exchange rates and provenance in
`answer_parts`, a bill's commitments in `answer_bill`. `provenance` fields are filled by
`planner.services.provenance`; `Answer.read(data)` builds an answer from its own JSON.

A sentence is a `Message` field: serialised as its English text, and listed beside as
`{"field", "code", "params", "text"}` in the object's `messages` (an option lists its
parts' sentences with their paths). Money and exact decimals are `Decimal`s serialised as
strings. The models are built with `model_construct` (the engine's values are checked
where they are made; an answer at 20,000 tiers has some 20,000 entries). Pure: no Django.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import Any, ClassVar, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    computed_field,
    model_serializer,
    model_validator,
)

from common.messages import Message
from common.messages import plain as english
from planner.compute.answer_bill import BillCommitments
from planner.compute.answer_parts import (
    MONEY_PATTERN,
    SPLIT,
    Assumption,
    Baseline,
    BreakEven,
    CapacityProvenance,
    CommitmentTerms,
    DecimalOut,
    FieldMessage,
    Fx,
    Listed,
    MissingCommitment,
    MoneyOut,
    OptionProvenance,
    OptionRef,
    OwnedLines,
    Plain,
    PricePerformance,
    PriceRow,
    Said,
    Sensitivity,
    Sentence,
    Shown,
    StaysOnGpu,
    found_messages,
    placed,
    said,
)
from planner.compute.message_fields import MESSAGES, by_field
from planner.compute.payback import payback_message

__all__ = [  # the parts, described in planner.compute.answer_parts
    "MONEY_PATTERN", "Assumption", "Baseline", "BreakEven", "CapacityProvenance",
    "CommitmentTerms", "DecimalOut", "FieldMessage", "Fx", "MissingCommitment", "MoneyOut",
    "OptionProvenance", "OptionRef", "OwnedLines", "Plain", "PricePerformance", "PriceRow",
    "Said", "Sensitivity", "Sentence", "StaysOnGpu", "said",
]  # fmt: skip


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


class Headline(Shown):
    """The answer in a sentence or a few: the best option, what it saves, when it pays;
    `provenance`, the option its figures come from (set by the service layer)."""

    omitted: ClassVar[frozenset[str]] = frozenset({"provenance"})
    last: ClassVar[tuple[str, ...]] = ("provenance",)

    best: str | None = Field(description="the best option's key")
    label: Sentence | None
    saving_per_month: MoneyOut | None
    saving_per_year: MoneyOut | None
    payback_label: str | None
    payback_month: int | None
    payback_fraction: DecimalOut | None
    not_entered: list[str]
    sentences: list[Sentence] = Field(exclude=True)  # the headline, one message a sentence
    payback: Sentence | None = Field(default=None, exclude=True)  # payback_label as a message
    provenance: OptionRef | None = None

    @model_validator(mode="before")
    @classmethod
    def _read(cls, data: Any) -> Any:
        """Read back from its JSON: the sentences and the payback from `messages`."""
        if not isinstance(data, dict) or "sentences" in data:
            return data
        said = by_field(data.get(MESSAGES))
        out = placed(data, skip=frozenset({"sentence", "payback_label"}))
        sentence = data.get("sentence")
        out = {**out, "sentences": said.get("sentence") or ([sentence] if sentence else [])}
        if (payback := said.get("payback_label")) or data.get("payback_label") is not None:
            out["payback"] = payback[0] if payback else data["payback_label"]
        return out

    @computed_field  # type: ignore[prop-decorator]
    @property
    def sentence(self) -> str:
        return " ".join(english(m) for m in self.sentences)

    @computed_field(  # type: ignore[prop-decorator]
        description="the object's sentences as messages; empty when it has none"
    )
    @property
    def messages(self) -> Listed:
        out = [("label", self.label)] if self.label is not None else []
        out += [("sentence", m) for m in self.sentences]
        out += [("payback_label", self.payback)] if self.payback is not None else []
        return [said(field, message) for field, message in out]  # type: ignore[return-value]


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

    @model_validator(mode="before")
    @classmethod
    def _read(cls, data: Any) -> Any:
        return placed(data)

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


# A dump's context (`Option.dumped`): a list the option's serializer hands its data to, and
# one its parts' capacities hand theirs to, each with the capacity (`Capacity._shown`).
PLACED = "messages placed"
CAPACITIES = "capacities placed"


# --- an option -------------------------------------------------------------------------------
# The option's sentences, its parts' among them, are listed in its own `messages` with their
# paths ("parts[0].capacity.reasons[1]"): `Option` walks its fields for them.


class OptionMoney(BaseModel):
    """An option's money over the horizon, each amount to the cent as a string."""

    one_time: MoneyOut
    monthly: list[MoneyOut] = Field(description="months 1…H")
    cumulative: list[MoneyOut] = Field(description="months 0…H")
    total: MoneyOut
    present_cost: MoneyOut = Field(
        description="one-time + Σ monthly_m ÷ (1 + i)^m, each month discounted at its end"
    )
    npv: MoneyOut = Field(
        description=(
            "-one-time + Σ saving_m ÷ (1 + i)^m: each month is discounted at its end (month m "
            "by (1 + i)^m, i = (1 + annual_discount_rate)^(1/12) - 1); one-time costs fall at "
            "month 0, undiscounted"
        )
    )
    saving: MoneyOut = Field(description="against the baseline over the horizon")
    saving_pct: DecimalOut | None = Field(description="of the baseline's total")
    saving_per_month: MoneyOut
    saving_per_year: MoneyOut
    payback_month: int | None = Field(description="null: no payback within the horizon")
    payback_fraction: DecimalOut | None = Field(description="interpolated crossing in months")
    payback_label: str = Field(
        description=(
            "immediately | within the first billing period | month N | not within the horizon "
            "(none, but still cheaper a month at the horizon's end) | never"
        )
    )
    # None only in a share frozen before 2026-12-04, read back (`Answer.read`)
    steady_monthly: MoneyOut | None = Field(
        None,
        description="the option's monthly cost once the months of running both are over "
        "(month running_both_months + 1)",
    )
    transition_cost: MoneyOut | None = Field(
        None,
        description="what the months of running both cost on top of the option, once (the "
        "baseline's bill in those months, less the commitments paid anyway); inside "
        "`monthly`, `cumulative` and `total` as before",
    )

    @classmethod
    def of(cls, money: Any) -> OptionMoney:
        """From the engine's `tco.OptionMoney`."""
        steady = money.steady_monthly
        if steady is None:
            steady = money.monthly[0] if money.monthly else Decimal("0.00")
        # `model_construct` of every field, through `constructed` (an answer's 50 options)
        return constructed(cls, {
            "one_time": money.one_time, "monthly": money.monthly,
            "cumulative": money.cumulative, "total": money.total,
            "present_cost": money.present_cost, "npv": money.npv, "saving": money.saving,
            "saving_pct": money.saving_pct, "saving_per_month": money.saving_per_month,
            "saving_per_year": money.saving_per_year, "payback_month": money.payback_month,
            "payback_fraction": money.payback_fraction, "payback_label": money.payback_label,
            "steady_monthly": steady, "transition_cost": money.transition_cost,
        }, cls.model_fields)  # fmt: skip


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


class Capacity(Shown):
    """A tier sized for the plan's work: `capacity.CapacityTable.result` builds it (the
    engine has no second description of it); `provenance`, the runs and estimates it rests
    on (set by the service layer)."""

    omitted: ClassVar[frozenset[str]] = frozenset({"provenance"})

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
    provenance: CapacityProvenance | None = None

    @property
    def has_number(self) -> bool:
        return self.status in ("sized", "estimate")

    # No return annotation: the JSON schema stays the fields'.
    @model_serializer(mode="wrap")
    def _shown(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo):  # type: ignore[no-untyped-def]
        """`Shown`'s data; dumped within `Option.dumped`, handed to it (`CAPACITIES`) rather
        than returned, as the option hands its own data to `Answer`: pydantic copies what a
        wrap serializer returns value by value, the capacity's workloads and their bases
        among them (bench, 2,018 tiers, CPU: 0.85 ms of the 50 options' dump)."""
        data = self._as_shown(handler(self))
        placed = info.context.get(CAPACITIES) if info.context else None
        if placed is None:
            return data
        placed.append((self, data))
        return None  # its place: `Option._said` puts the data there


class Part(BaseModel):
    """One tier of an option: how many servers each month (or the usage), its price row,
    and its capacity where the plan's work sizes it."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    tier: str
    name: str
    mode: Literal["sized", "fixed", "usage"]
    servers_by_month: list[int]
    usage_hours: Said | None
    price: PriceRow
    title: Said | None
    capacity: Capacity | None


def _payback(money: dict[str, Any]) -> Message:
    """A share frozen before messages: its payback said again from its month, by the rule
    the engine says it with (`payback.payback_message`)."""
    return payback_message(money.get("payback_month"), Decimal(str(money.get("one_time") or 0)),
                           money.get("payback_label"), len(money.get("monthly") or ()))  # fmt: skip


class Option(BaseModel):
    """One way to run the work: its parts, money and notes; `owned` (an owned server's
    lines) and `commitment` (a cloud commitment's terms) only where they apply."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    owned: OwnedLines | None = None
    commitment: CommitmentTerms | None = None
    key: str
    label: Said
    title: Said
    figure: Literal["measured", "estimate", "entered"]
    parts: list[Part]
    money: OptionMoney
    one_time_items: dict[str, DecimalOut]
    # None where they do not apply, and in a share frozen before 2026-12-04 (absent there)
    one_time_costs: OneTimeCosts | None = None
    capacity_check: CapacityCheck | None = None
    break_even_vs_best_monthly: BreakEven | None
    notes: list[Said]
    payback: Said = Field(exclude=True)  # money.payback_label as a message
    servers: int = Field(description="servers in month 1, all parts")
    fits_in_ram: bool | None = Field(description="null when no working set must fit one box")
    provenance: OptionProvenance | None = Field(
        None, description="what its figures rest on (set by the service layer)"
    )

    _last: ClassVar[tuple[str, ...]] = ("servers", "fits_in_ram", "provenance")

    @model_validator(mode="before")
    @classmethod
    def _read(cls, data: Any) -> Any:
        """Read back from its JSON: each sentence (its parts' among them) from `messages`,
        the payback from "money.payback_label"."""
        if not isinstance(data, dict) or "payback" in data:
            return data
        said = by_field(data.get(MESSAGES))
        out = dict(placed(data, skip=frozenset({"money.payback_label"})))
        if "title" not in out:  # a share frozen before titles: its label stands in
            out["title"] = out["label"]
            out["parts"] = [{"title": None, **part} for part in out.get("parts") or []]
        payback = said.get("money.payback_label")
        return {**out, "payback": payback[0] if payback else _payback(data["money"])}

    @computed_field(  # type: ignore[prop-decorator]
        description="the option's sentences and its parts' as messages, by their paths"
    )
    @property
    def messages(self) -> Listed:
        return self._messages(None)  # type: ignore[return-value]

    def _messages(self, memo: dict[int, Any] | None) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        found_messages(self, "", found, memo)
        found.append(said("money.payback_label", self.payback, memo))
        return found

    # No return annotation: the JSON schema stays the fields'.
    @model_serializer(mode="wrap")
    def _said(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo):  # type: ignore[no-untyped-def]
        """Each sentence as its English text, `messages` beside them (the payback last);
        `owned` and `commitment` only where they apply, `provenance` where it is set.
        Dumped by `dumped` (as `Answer.model_dump` dumps it), the data is handed to it
        as it is, and the messages placed there as `said` built them."""
        data = handler(self)
        placed = info.context.get(PLACED) if info.context else None
        if placed is not None:
            data[MESSAGES] = None  # its place: `dumped` puts the messages there
            # the parts' capacities, handed by their serializer in the parts' order: each
            # placed where its part's data holds None, none left over
            capacities = iter(info.context[CAPACITIES])
            for part, shown in zip(self.parts, data["parts"], strict=True):
                if isinstance(part.capacity, Capacity):
                    capacity, shown["capacity"] = next(capacities)
                    if capacity is not part.capacity:
                        raise RuntimeError("a capacity handed out of its part's order")
            if next(capacities, None) is not None:
                raise RuntimeError("a capacity handed by no part of the option")
        for extra in ("owned", "commitment"):
            if data[extra] is None:
                del data[extra]
        for name in self._last:
            data[name] = data.pop(name)
        if "provenance" not in self.model_fields_set:
            del data["provenance"]
        if placed is not None:  # what the serializer returns pydantic copies: None
            placed.append(data)
            return None
        return data

    def dumped(
        self, memo: dict[int, Any] | None = None, kept: dict[int, Any] | None = None
    ) -> dict[str, Any]:
        """The option's data (`model_dump()`'s), which `Answer` places as it is: pydantic
        copies what a serializer returns value by value, the messages among them, and the
        answer's dump copied each option's again (bench, 2,018 tiers, CPU: 50 options, some
        19 KB of JSON each, 20 ms dumped inside the answer, 14 ms each by its own, 12 with
        its serializer's data handed over rather than returned). `memo`: `said`'s, shared by
        the options of one answer (789 sentences at 2,018 tiers, 493 of them distinct: a
        part's title is its option's, a tier's notes its options'). `kept`: `split`'s, for
        the `Plain` data (the workloads' bases), shared by the options of one answer."""
        handed: list[dict[str, Any]] = []
        context: dict[str, Any] = {PLACED: handed, CAPACITIES: []}
        if kept is not None:
            context[SPLIT] = kept
        self.model_dump(exclude={MESSAGES}, context=context)
        data = handed[0]
        data[MESSAGES] = self._messages(memo)
        return data


# --- the answer ------------------------------------------------------------------------------


class Answer(BaseModel):
    """A comparison as the API gives it (before `planner.services.provenance` adds the
    sources of its figures): the cheapest options (`options_total` says how many there
    were; a cloud commitment is always listed) and every tier with no figure."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    plan: dict[str, Any] = Field(description="the plan as stored (`schema.plan_to_dict`)")
    as_of: str | None
    currency: str
    baseline: Baseline
    headline: Headline
    options: list[Option] = Field(description="cheapest total first")
    options_total: int
    stays_on_gpu: list[StaysOnGpu]
    no_number: list[Unpriced]
    price_performance: list[PricePerformance]
    assumptions: list[Assumption]
    fx: list[Fx]
    sensitivity: Sensitivity | None
    commitments_missing: list[MissingCommitment] = Field(
        default=[], description="the baseline's commitment slots the catalog has no rate "
                                "for; absent when none"
    )  # fmt: skip
    bill_commitments: BillCommitments | None = Field(
        default=None,
        description="a baseline taken from a bill: the cloud's commitments of "
        "the bill's instance types weighed against the bill (issue 27); absent for other "
        "baselines",
    )

    # No return annotation: the JSON schema stays the fields'.
    @model_serializer(mode="wrap")
    def _shown(self, handler: SerializerFunctionWrapHandler):  # type: ignore[no-untyped-def]
        data = handler(self)
        if not data["commitments_missing"]:
            del data["commitments_missing"]
        if data["bill_commitments"] is None:
            del data["bill_commitments"]
        return data

    @classmethod
    def read(cls, data: dict[str, Any]) -> Answer:
        """An answer read back from its JSON (what the API gave, a share's frozen
        "results"): each object's sentences rebuilt as Messages from its `messages` by
        field path (code and params), or, for a share frozen before messages existed, from
        the stored English text (`answer_parts.read_message`). Dumped again, it gives the
        same JSON."""
        return cls.model_validate(data)

    def model_dump(self, **kwargs: Any) -> dict[str, Any]:  # type: ignore[override]
        """The answer's data. The tiers with no figure (some 15,000 at 20,000 tiers) are each
        dumped by their own serializer (`_Listed`) and placed as they are: pydantic copies
        what a serializer returns value by value, twice here (the entry's, then the
        answer's), a third of the encoding at 20,000 tiers (bench/api_scale.py); so are the
        price/performance rows (`dumped_but_unpriced`). Any other way of serialising the
        answer gives the same data, through pydantic."""
        if kwargs:
            data = BaseModel.model_dump(self.model_copy(update={"no_number": []}), **kwargs)
        else:
            data = self.dumped_but_unpriced()
        if "no_number" in data:
            memo: dict[int, Any] = {}
            data["no_number"] = [entry.dumped(memo) for entry in self.no_number]
        return data

    def dumped_but_unpriced(self) -> dict[str, Any]:
        """`model_dump()` with `no_number` left empty (in its place): for `answer_json`,
        which encodes those entries from the models. The price/performance rows (2,244 at
        20,000 tiers) placed as their serializer gives them, as the tiers with no figure:
        pydantic's copies of them were 27 ms of 66 (bench/api_scale.py); and the options,
        each by its own `dumped`."""
        empty = self.model_copy(update={"options": [], "no_number": [], "price_performance": []})
        data = BaseModel.model_dump(empty)
        memo: dict[int, Any] = {}
        bases: dict[int, Any] = {}
        data["options"] = [option.dumped(memo, bases) for option in self.options]
        kept: dict[int, Any] = {}
        data["price_performance"] = [row.dumped(kept) for row in self.price_performance]
        return data
