# ruff: noqa: RUF002, RUF003  (× and − in labels and notes, as a manager reads them)
"""A plan in, a comparison out: the pure orchestration of capacity and money.

`compare(plan, frame, measurements, speed_factors, as_of)` takes plain data only:
- `frame`: `catalog.pricing.catalog_frame(as_of, plan.currency)` (one row per tier);
- `measurements`: {(tier slug, profile class): BestMeasurement | NoMeasurement | reason}
  or a callable (slug, class) → the same, e.g. wrapping `best_measurement`;
- `speed_factors`: {tier slug: capacity.SpeedFactor}.

Decisions the conventions leave open, made here:
- A quoted baseline grows with the work, × (1+g)^(m−1); a tier baseline adds
  servers as ⌈count × (1+g)^(m−1)⌉. Fixed counts never grow (the manager chose them).
- Commitments are part of today's spend and keep costing after a switch until
  they run out; during the months of running both, the whole baseline is paid
  beside the new option (which already covers the commitments).
- Set-up fees of the first servers are one-time costs (month 0); servers added
  later for growth pay theirs in the month they are added.
- A minimum contract term longer than the horizon is owed: the months beyond the
  horizon are charged in the horizon's last month.
- Operations: self-managed dedicated servers (managed = False) cost the entered
  hours × rate a server a month, else the published Azure Migrate default; managed
  tiers and cloud instances get 0 (the manager can add to `monthly.other`).
- Egress and other monthly costs apply to every option, not to the baseline (the
  baseline is the quoted spend, everything included).
"""

from __future__ import annotations

import collections
import contextlib
import datetime as dt
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from types import MappingProxyType
from typing import Any

import numpy as np
import pandas as pd

from common.gcpause import paused
from common.messages import Message, Money, Number, Percent, TierRef, msg
from common.units import HOURS_PER_MONTH
from planner.compute import (
    answer,
    bounds,
    capacity,
    defaults,
    matched,
    onetime,
    owned,
    sensitivity,
    tco,
)
from planner.compute import commitments as stay
from planner.compute.answer import (
    Answer,
    Capacity,
    CapacityCheck,
    DroppedTier,
    Headline,
    NoNumber,
    Option,
    Unpriced,
    constructed,
)
from planner.compute.answer_parts import (
    Assumption,
    Baseline,
    CommitmentPrice,
    CommitmentTerms,
    Fx,
    Interruption,
    MissingCommitment,
    OptionRef,
    OwnedLines,
    PricePerformance,
    PriceRow,
    Sensitivity,
    SensitivityBase,
    SensitivityRow,
    StaysOnGpu,
)
from planner.compute.capacity import CapacityTable, Lookup, SpeedFactor
from planner.compute.message_fields import as_message, figure
from planner.compute.schema import (
    DeepLearningWorkload,
    OwnedServer,
    Part,
    Plan,
    PlanValidationError,
    plan_to_dict,
)

# Raised when the same inputs can give different figures (a rule or a default changed);
# a share's frozen snapshot records the version that computed it.
ENGINE_VERSION = "1.1"  # 1.1: commitment options, renewed terms (issue 27)
CPU_KINDS = ("cloud_vm", "dedicated")
PRICING_MODELS = ("on_demand", "spot", "reserved_1y", "reserved_3y", "fixed_monthly")
OPS_DEFAULT_PER_MONTH = Fraction(defaults.SELF_MANAGED_OPS.value) / 12
NO_OPS = Fraction(0)


# --- prices ----------------------------------------------------------------------------


class Prices:
    """The catalog frame by tier slug, with each price's provenance."""

    def __init__(self, frame: pd.DataFrame, currency: str) -> None:
        wrong = frame.loc[frame["currency"] != currency, "slug"].tolist()
        if wrong:
            raise ValueError(
                f"the frame has prices in other currencies than {currency} ({wrong[:3]}…): "
                "pass catalog_frame(as_of, plan.currency)"
            )
        self.frame = frame.reset_index(drop=True)
        self.row = {slug: i for i, slug in enumerate(self.frame["slug"].tolist())}
        self.dropped = {d["slug"]: d["reason"] for d in frame.attrs.get("dropped", [])}
        self.currency = currency
        self._columns: dict[str, list[Any]] = {}
        # Memos of what every evaluation asks again (a Prices may serve many evaluations
        # of one catalog frame); handed out as copies, since callers add to them.
        self._provenance: dict[str, dict[str, Any]] = {}
        self._rows: dict[tuple[str, ...], pd.DataFrame] = {}
        self._specs: dict[tuple[str, ...], capacity.TierSpecs] = {}
        self._all_specs: capacity.TierSpecs | None = None
        self._fx: list[dict[str, Any]] | None = None
        self._cpu: list[str] | None = None
        self._titles: dict[str, Message] = {}
        self._alike_rows: list[bool] | None = None

    def __contains__(self, slug: str) -> bool:
        return slug in self.row

    def get(self, slug: str, column: str) -> Any:
        # Asked some 90,000 times at 20,000 tiers: one try, no method call, when the
        # column is read already.
        try:
            return self._columns[column][self.row[slug]]
        except KeyError:
            return self._column(column)[self.row[slug]]

    def _column(self, column: str) -> list[Any]:
        """A column as plain values, None where missing, in the frame's order."""
        found = self._columns.get(column)
        if found is None:  # a list per column: .at costs microseconds a call
            values = self.frame[column]
            found = values.tolist()  # Python values, but for an object column's own
            if values.dtype == object and any(
                issubclass(t, np.generic) for t in set(map(type, found))
            ):
                found = [_plain(v) for v in found]
            for i in np.flatnonzero(values.isna().to_numpy()).tolist():
                found[i] = None
            self._columns[column] = found
        return found

    def missing_reason(self, slug: str) -> Message:
        if slug in self.dropped:
            return as_message(self.dropped[slug])
        return msg("engine.no_price")

    def provenance(self, slug: str) -> dict[str, Any]:
        if slug not in self._provenance:
            self._provenance[slug] = self._provenance_of(slug)
        return dict(self._provenance[slug])

    def rows(self, slugs: Sequence[str]) -> pd.DataFrame:
        """The frame's rows of `slugs`, in that order."""
        key = tuple(slugs)
        if key not in self._rows:
            self._rows[key] = self.frame.iloc[[self.row[s] for s in key]]
        return self._rows[key]

    def specs(self, slugs: Sequence[str]) -> capacity.TierSpecs:
        """`capacity.tier_specs` of `rows(slugs)` (size_tiers copies what it keeps): taken
        from the whole frame's, not from a copy of its rows (16,667 of them, ~7 ms)."""
        key = tuple(slugs)
        if key not in self._specs:
            if self._all_specs is None:
                self._all_specs = capacity.tier_specs(self.frame)
            _slugs, vcpus, ram, spot = self._all_specs
            at = np.array([self.row[s] for s in key], dtype=np.intp)
            self._specs[key] = (list(key), vcpus[at], ram[at], spot[at])
        return self._specs[key]

    def cpu_slugs(self) -> list[str]:
        """The CPU tiers (cloud VMs and dedicated servers), in the frame's order."""
        if self._cpu is None:
            cpu = self.frame.loc[self.frame["kind"].isin(CPU_KINDS), "slug"]
            self._cpu = cpu.tolist()
        return list(self._cpu)

    def fx(self) -> list[dict[str, Any]]:
        """The exchange rates the frame's prices were converted at (fresh dicts)."""
        if self._fx is None:
            self._fx = _fx_rates(self)
        return [dict(entry) for entry in self._fx]

    def _provenance_of(self, slug: str) -> dict[str, Any]:
        out = {
            "price_id": _plain(self.get(slug, "price_id")),
            "amount": str(self.get(slug, "amount")),
            "unit": self.get(slug, "unit"),
            "currency": self.currency,
            "effective_from": _iso(self.get(slug, "effective_from")),
            "source": self.get(slug, "source"),
            "source_url": self.get(slug, "source_url"),
            "confirmed": bool(self.get(slug, "confirmed")),
            "stale": bool(self.get(slug, "stale")),
        }
        if "fx_rate" in self.frame.columns and self.get(slug, "fx_rate") is not None:
            out["fx_rate"] = _plain(self.get(slug, "fx_rate"))
            out["fx_date"] = _iso(self.get(slug, "fx_date"))
        return out

    def name(self, slug: str) -> str:
        return str(self.get(slug, "name") or slug)

    def ref(self, slug: str) -> TierRef:
        return TierRef(slug, self.name(slug))

    def title(self, slug: str) -> Message:
        """The tier as a reader tells it apart: "AWS c5.4xlarge · reserved 3 y".

        The name alone leaves the pricing model out (c5.4xlarge spot, on-demand and
        reserved all read "c5.4xlarge"), so a title adds the provider and the pricing
        model, and the region where two tiers would still read alike. Labels keep the
        bare name (the API's strings stay as they were); titles are what people read.
        """
        if slug not in self._titles:
            self._titles[slug] = self._title_of(slug)
        return self._titles[slug]

    def _title_of(self, slug: str) -> Message:
        name, provider, model = self._naming(slug)
        tier: TierRef | Message = TierRef(slug, name)
        if provider and not name.lower().startswith(provider.lower()):
            tier = msg("engine.tier_of_provider", provider=provider, tier=tier)
        said = msg(f"engine.pricing_{model}") if model in PRICING_MODELS else model
        region = str(self.get(slug, "region") or "")
        if region and self._alike(slug):
            return msg("engine.tier_title_region", tier=tier, model=said, region=region)
        return msg("engine.tier_title", tier=tier, model=said)

    def _naming(self, slug: str) -> tuple[str, str, str]:
        provider = str(self.get(slug, "provider") or "") if "provider" in self.frame else ""
        model = str(self.get(slug, "pricing_model") or "") if "pricing_model" in self.frame else ""
        return self.name(slug), provider, model

    def _alike(self, slug: str) -> bool:
        """Whether another tier reads as this one: the same name, provider and pricing model
        (as `_naming` says them)."""
        if self._alike_rows is None:
            self._alike_rows = self._alike_of_rows()
        return self._alike_rows[self.row[slug]]

    def _alike_of_rows(self) -> list[bool]:
        columns = [c for c in ("name", "provider", "pricing_model") if c in self.frame]
        keys = self.frame[columns]
        if all(isinstance(keys[c].dtype, pd.StringDtype) for c in columns) and not (
            keys.isna().to_numpy().any() or (keys == "").to_numpy().any()
        ):  # the values as `_naming` says them: pandas finds the repeated rows (~3 ms at
            # 20,000 tiers, where a Counter of their (name, provider, model) was ~11 ms)
            return keys.duplicated(keep=False).tolist()
        slugs = list(self.row)
        names = [str(v or s) for v, s in zip(self._column("name"), slugs, strict=True)]
        blank = [""] * len(slugs)
        providers, models = (
            [str(v or "") for v in self._column(c)] if c in self.frame else blank
            for c in ("provider", "pricing_model")
        )
        said = list(zip(names, providers, models, strict=True))
        counts = collections.Counter(said)
        return [counts[key] > 1 for key in said]

    def monthly(self, slug: str) -> Decimal:
        return Decimal(self.get(slug, "monthly_exact"))

    def setup(self, slug: str) -> Decimal:
        return Decimal(self.get(slug, "setup_fee_exact") or 0)

    def self_managed(self, slug: str) -> bool:
        return self.get(slug, "kind") == "dedicated" and self.get(slug, "managed") is False


def _plain(value: Any) -> Any:
    return value.item() if isinstance(value, np.generic) else value


def _iso(value: Any) -> str | None:
    return value.isoformat() if isinstance(value, dt.date) else value


# --- results ---------------------------------------------------------------------------


@dataclass
class PartResult:
    tier: str
    name: str
    mode: str  # sized | fixed | usage
    servers_by_month: list[int]
    usage_hours: Message | None  # usage mode: "120 GPU-hours a month of …"
    price: dict[str, Any]
    # the capacity table and row that size the part: `capacity`, made when first read (a
    # large catalog's answer shows 50 of its thousands of options; the rest never are)
    sizing: tuple[CapacityTable, int] | None = field(default=None, repr=False)
    title: Message | None = None  # the tier as people tell it apart (Prices.title)
    _capacity: Capacity | None = field(default=None, init=False, repr=False)

    @property
    def capacity(self) -> Capacity | None:
        if self._capacity is None and self.sizing is not None:
            table, row = self.sizing
            self._capacity = table.result(row)
        return self._capacity


CARRIES, CANNOT_CARRY, NOT_CHECKED = "carries", "cannot_carry", "not_checked"


def capacity_check(
    plan: Plan, parts: Sequence[PartResult], owned_option: bool, prices: Prices
) -> CapacityCheck | None:
    """The fixed counts of an option against the work the plan describes; None where the
    plan gives no workloads or the option has no fixed count (it is sized, or usage)."""
    if not plan.workloads:
        return None
    if owned_option:
        return CapacityCheck(status=NOT_CHECKED, said=msg("engine.capacity_not_checked_owned"))
    fixed = [p for p in parts if p.mode == "fixed"]
    if not fixed:
        return None
    unchecked = None
    for part in fixed:
        cap, tier = part.capacity, prices.ref(part.tier)
        count = max(part.servers_by_month) if part.servers_by_month else 0
        if cap is None or not cap.has_number:
            unchecked = unchecked or CapacityCheck(
                status=NOT_CHECKED, tier=part.tier, count=count,
                said=msg("engine.capacity_not_checked", tier=tier),
            )  # fmt: skip
            continue
        short = [m for m, need in enumerate(cap.servers_by_month, start=1) if need > count]
        if short:
            needed = max(cap.servers_by_month)
            said = msg("engine.capacity_cannot_carry", month=short[0], tier=tier,
                       need=needed, count=count)  # fmt: skip
            return CapacityCheck(status=CANNOT_CARRY, from_month=short[0], tier=part.tier,
                                 needed=needed, count=count, said=said)  # fmt: skip
    if unchecked is not None:
        return unchecked
    return CapacityCheck(status=CARRIES, said=msg("engine.capacity_carries"))


@dataclass
class OptionResult:
    key: str
    label: Message
    figure: str  # measured | estimate | entered
    parts: list[PartResult]
    money: tco.OptionMoney
    one_time_items: dict[str, Decimal]
    break_even: tco.BreakEven | None = None
    notes: list[Message] = field(default_factory=list)
    owned: OwnedLines | None = None  # an owned server's lines (owned.OwnedMoney.to_dict)
    title: Message | None = None  # the label with each tier told apart (Prices.title)
    one_time_costs: onetime.OneTimeCosts | None = None  # which of the switch's it carries
    capacity_check: CapacityCheck | None = None  # a fixed count against the work (issue 21)

    commitment: CommitmentTerms | None = None  # a cloud commitment's terms (OptionSpec)

    @property
    def cannot_carry(self) -> bool:
        return self.capacity_check is not None and self.capacity_check.status == CANNOT_CARRY

    def output(self) -> Option:
        """The option as the answer gives it (`answer.Option`): made as `model_construct`
        makes it, through `answer.constructed` (the answer's 50 options, their parts and
        price rows: the pydantic walk of their fields was ~0.5 ms of an answer, bench, CPU)."""
        parts = [
            constructed(answer.Part, {
                "tier": p.tier, "name": p.name, "mode": p.mode,
                "servers_by_month": p.servers_by_month, "usage_hours": p.usage_hours,
                "price": _price_row(p.price), "title": p.title, "capacity": p.capacity,
            }, _PART_GIVEN)
            for p in self.parts
        ]  # fmt: skip
        fits = [c.fits_in_ram for p in parts if (c := p.capacity) and c.fits_in_ram is not None]
        fields = {
            "owned": self.owned, "commitment": self.commitment, "key": self.key,
            "label": self.label, "title": self.title or self.label, "figure": self.figure,
            "parts": parts, "money": answer.OptionMoney.of(self.money),
            "one_time_items": self.one_time_items, "one_time_costs": self.one_time_costs,
            "capacity_check": self.capacity_check, "break_even_vs_best_monthly": self.break_even,
            "notes": self.notes, "payback": self.money.payback,
            "servers": sum(p.servers_by_month[0] for p in parts if p.servers_by_month),
            "fits_in_ram": all(fits) if fits else None, "provenance": None,
        }  # fmt: skip
        return constructed(Option, fields, _OPTION_GIVEN)


# The fields `OptionResult.output` gives (`model_fields_set`, as `model_construct` records
# them), and a price row's: `Prices.provenance` gives every field it requires, the exchange
# rate's only where there is one.
_PART_GIVEN = tuple(answer.Part.model_fields)
_OPTION_GIVEN = tuple(name for name in Option.model_fields if name != "provenance")
_PRICE_ROW_EMPTY = dict.fromkeys(PriceRow.model_fields)  # its fields in order
_PRICE_ROW_REQUIRED = frozenset(n for n, f in PriceRow.model_fields.items() if f.is_required())


def _price_row(price: dict[str, Any]) -> PriceRow:
    """`PriceRow.model_construct(**price)`."""
    keys = price.keys()
    if keys >= _PRICE_ROW_REQUIRED and keys <= _PRICE_ROW_EMPTY.keys():
        return constructed(PriceRow, {**_PRICE_ROW_EMPTY, **price}, keys)
    return PriceRow.model_construct(**price)


@dataclass
class Comparison:
    plan: Plan
    as_of: dt.date | None
    currency: str
    baseline: Baseline
    options: list[OptionResult]  # cheapest total first
    headline: Headline
    stays_on_gpu: list[StaysOnGpu]
    no_number: list[Unpriced]
    price_performance: list[PricePerformance]
    assumptions: list[Assumption]
    fx: list[Fx]
    sensitivity: Sensitivity | None = None  # the best option's one-way sensitivity
    # the baseline's commitment slots the catalog has no rate for (issue 27)
    commitments_missing: list[MissingCommitment] = field(default_factory=list)

    def output(self, limit: int | None = None) -> Answer:
        """The answer (`answer.Answer`); `limit` keeps the cheapest options only (a page,
        not 5 MB), and the cloud's commitments, which are always shown (issue 27)."""
        options = self.options if limit is None else self.options[:limit]
        if limit is not None:
            options = options + [o for o in self.options[limit:] if o.commitment is not None]
        return Answer.model_construct(
            plan=plan_to_dict(self.plan), as_of=_iso(self.as_of), currency=self.currency,
            baseline=self.baseline, headline=self.headline,
            options=[o.output() for o in options], options_total=len(self.options),
            stays_on_gpu=self.stays_on_gpu, no_number=self.no_number,
            price_performance=self.price_performance, assumptions=self.assumptions,
            fx=self.fx, sensitivity=self.sensitivity,
            commitments_missing=self.commitments_missing,
        )  # fmt: skip


# --- the plan's options ------------------------------------------------------------------


@dataclass
class OptionSpec:
    key: str
    label: Message
    parts: list[Part]
    notes: list[Message] = field(default_factory=list)
    owned: OwnedServer | None = None  # bought servers: no catalog parts
    title: Message | None = None  # the label with each tier told apart; None: the label
    title_of: str | None = None  # a tier's own option: its title (Prices.title), said late

    def told_apart(self, prices: Prices) -> Message | None:
        """`title`, or the tier's title for a tier's own option (said only for the options
        that get a figure: most of a large catalog's tiers get none)."""
        if self.title is None and self.title_of is not None:
            return prices.title(self.title_of)
        return self.title

    def tiers(self, modes: Collection[str] = ("sized",)) -> list[str]:
        """The tiers of its parts of these modes (sized: those the model sizes)."""
        return [p.tier for p in self.parts if p.mode in modes]

    # {cost: "charged" | "not_charged" | None}: the plan's per-option overrides of the
    # one-time costs' rule (`onetime.one_time_costs_for`)
    one_time: Mapping[str, str | None] = field(default_factory=dict)
    # a cloud commitment on the baseline's own instance (`commitment_options`): its terms;
    # it carries no switch costs by `onetime.one_time_costs_for` (same provider and family)
    commitment: CommitmentTerms | None = None


_NO_OVERRIDES: Mapping[str, str | None] = MappingProxyType({})
_SIZED = Part.model_construct(tier="", mode="sized").__dict__  # a sized part's fields


class TierOption(OptionSpec):
    """A tier's own option, sized (a plan with no candidates: one for every CPU tier), its
    label and part made when first read: at 20,000 tiers 16,667 of them, of which ~1,100 get
    a figure; made whole they were ~35 ms of `engine.compare` (CPU), and more to free.
    Read only: nothing is set on an option after `plan_options`."""

    def __init__(self, slug: str, prices: Prices) -> None:  # the dataclass's fields, lazily
        self.key, self.title_of, self._prices = f"tier:{slug}", slug, prices
        self.one_time = _NO_OVERRIDES
        self._label: Message | None = None
        self._parts: list[Part] | None = None

    @property  # type: ignore[override]
    def label(self) -> Message:
        if self._label is None:
            self._label = _text(self._prices.ref(self.title_of))  # type: ignore[arg-type]
        return self._label

    @property  # type: ignore[override]
    def parts(self) -> list[Part]:
        # A part of a slug from the frame, sized: nothing to validate, made as
        # `answer.constructed` makes `Part.model_construct(tier=s, mode="sized")`.
        if self._parts is None:
            fields = {**_SIZED, "tier": self.title_of}
            self._parts = [constructed(Part, fields, ("tier", "mode"))]
        return self._parts

    @property  # type: ignore[override]
    def notes(self) -> list[Message]:
        return []

    def tiers(self, modes: Collection[str] = ("sized",)) -> list[str]:
        return [self.title_of] if "sized" in modes else []  # type: ignore[list-item]


def owned_options(plan: Plan) -> list[OptionSpec]:
    """One option for each owned server the plan gives, at its count."""
    out = []
    for index, server in enumerate(plan.owned):
        label = _text(server.name) if server.name else msg("owned.option_label", count=server.count)
        out.append(OptionSpec(f"owned:{index}", label, [], owned=server))
    return out


def commitment_options(
    plan: Plan, prices: Prices, alternatives: stay.Alternatives | None
) -> tuple[list[OptionSpec], list[MissingCommitment]]:
    """The cloud's own best deals for the baseline tier's instance, as options (issue 27):
    each reservation, savings plan or committed use slot at the baseline's count (growing
    as the baseline grows), spot at the baseline's instance-hours with its re-runs; and
    the slots with no rate in the catalog, each with the reason (no rate is made up)."""
    base = plan.baseline.tier
    if alternatives is None or base is None or alternatives.baseline != base:
        return [], []
    on_demand = alternatives.on_demand if alternatives.on_demand in prices else None
    options, missing = [], []
    for slot in alternatives.slots:
        if slot.slug is None or slot.slug not in prices:
            reason = slot.missing or prices.missing_reason(str(slot.slug))
            missing.append(
                MissingCommitment.model_construct(group=slot.group, years=slot.years, reason=reason)
            )
            continue
        if slot.slug == base:
            continue  # the baseline is this commitment already
        tier = _provider_tier(prices, slot.slug)
        label = msg(f"engine.option_stay_{slot.group}", tier=tier, years=slot.years)
        if slot.group == "spot":
            hours = Decimal(plan.baseline.count * HOURS_PER_MONTH)
            # built, not validated: 10,000 servers' hours pass a typed part's 1,000,000
            part = Part.model_construct(tier=slot.slug, mode="usage", count=None,
                                        gpu_hours_per_month=None, instance_hours_per_month=hours,
                                        min_term_months=None)  # fmt: skip
        else:
            part = Part(tier=slot.slug, mode="fixed", count=plan.baseline.count)
        terms = _commitment_terms(plan, prices, slot, on_demand, alternatives)
        options.append(OptionSpec(stay.key_of(slot), label, [part], title=label, commitment=terms))
    return options, missing


def _provider_tier(prices: Prices, slug: str) -> TierRef | Message:
    name, provider, _ = prices._naming(slug)
    tier: TierRef | Message = TierRef(slug, name)
    if provider and not name.lower().startswith(provider.lower()):
        tier = msg("engine.tier_of_provider", provider=provider, tier=tier)
    return tier


def _commitment_terms(
    plan: Plan,
    prices: Prices,
    slot: stay.Slot,
    on_demand: str | None,
    alternatives: stay.Alternatives,
) -> CommitmentTerms:
    """A commitment option's terms: its break-even month and the utilisation below which
    it loses against on demand; for spot, the interruption rate and its source."""
    out: dict[str, Any] = {
        "group": slot.group, "years": slot.years, "tier": slot.slug,
        "pricing_model": slot.pricing_model, "on_demand_tier": on_demand,
        "break_even_month": None, "loses_below_utilisation": None,
    }  # fmt: skip
    assert slot.slug is not None
    if slot.group == "spot":
        found = alternatives.interruption.get(slot.slug)
        rate = plan.spot_interruption_allowance
        if found is None:
            found = stay.assumed(rate)
        out["interruption"] = Interruption.model_construct(
            rate=str(rate), low=str(found.low), high=str(found.high),
            source=found.source, bucket=found.bucket,
        )  # fmt: skip
        source = msg(f"engine.interruption_{found.source}", bucket=found.bucket)
        out["summary"] = msg("engine.commitment_spot", share=_share(plan), source=source,
                             low=Percent(found.low, 0), high=Percent(found.high, 0))  # fmt: skip
        return CommitmentTerms.model_construct(**out)
    if on_demand is None or prices.get(on_demand, "unit") != prices.get(slot.slug, "unit"):
        out["summary"] = msg("engine.commitment_no_on_demand")
        return CommitmentTerms.model_construct(**out)
    upfront, committed = prices.setup(slot.slug), prices.monthly(slot.slug)
    hourly = prices.monthly(on_demand)
    term = int(prices.get(slot.slug, "min_term_months") or 12 * slot.years)
    month = stay.break_even_month(upfront, committed, hourly)
    share = stay.loses_below(upfront, committed, term, hourly)
    out["break_even_month"] = month
    out["loses_below_utilisation"] = str(share) if share is not None else None
    if month is None:
        out["summary"] = msg("engine.commitment_never_beats")
    else:
        out["summary"] = msg("engine.commitment_break_even", month=month,
                             share=Percent(share, 2))  # fmt: skip
    return CommitmentTerms.model_construct(**out)


def plan_options(plan: Plan, prices: Prices) -> tuple[list[OptionSpec], list[DroppedTier]]:
    """The options to price, and the candidates that cannot be (with the reason)."""
    if not plan.candidates and plan.owned:
        return [], []  # the owned servers are the options; no catalog tier is sized
    if not plan.candidates:
        return [TierOption(s, prices) for s in prices.cpu_slugs()], []
    options, missing = [], []
    for index, candidate in enumerate(plan.candidates):
        problems = [(p.tier, _unpriceable(p, prices)) for p in candidate.parts]
        problems = [DroppedTier.model_construct(tier=s, reason=r) for s, r in problems if r]
        if problems:
            missing += problems
            continue
        if candidate.name:  # the manager's own name says it as they want it said
            label = title = _text(candidate.name)
        else:
            label = _joined(candidate.parts, prices, prices.ref)
            title = _joined(candidate.parts, prices, prices.title)
        key = f"candidate:{index}"
        said = {c: getattr(candidate, c) for c in onetime.COSTS}
        options.append(OptionSpec(key, label, list(candidate.parts), title=title, one_time=said))
    return options, missing


def _unpriceable(part: Part, prices: Prices) -> Message | None:
    """Why a candidate part cannot be priced, or None."""
    if part.tier not in prices:
        return prices.missing_reason(part.tier)
    by_gpu = part.mode == "usage" and part.instance_hours_per_month is None
    if by_gpu and not prices.get(part.tier, "gpus"):
        return msg("engine.gpu_hours_need_gpu_count")
    return None


def _text(text: str | TierRef) -> Message:
    """A name said as it is (a tier's, or the manager's for a candidate)."""
    return msg("common.text", text=text)


def _joined(
    parts: Sequence[Part], prices: Prices, name: Callable[[str], TierRef | Message]
) -> Message:
    """ "2 × A + 120 GPU-hours a month of B": the parts' labels joined by " + "."""
    *rest, last = [_part_label(p, prices, name) for p in parts]
    label = last
    for part in reversed(rest):
        label = msg("engine.option_plus", first=part, rest=label)
    return label


def _part_label(
    part: Part, prices: Prices, name: Callable[[str], TierRef | Message] | None = None
) -> Message:
    tier = (name or prices.ref)(part.tier)
    if part.mode == "fixed":
        return msg("engine.option_fixed", count=part.count, tier=tier)
    if part.mode == "usage":
        if part.instance_hours_per_month is not None:
            hours = Number(part.instance_hours_per_month)
            return msg("engine.option_instance_hours", hours=hours, tier=tier)
        if part.gpu_hours_per_month is None:
            return msg("engine.option_dl_gpu_hours", tier=tier)
        return msg("engine.option_gpu_hours", hours=Number(part.gpu_hours_per_month), tier=tier)
    return _text(tier)


# --- money ------------------------------------------------------------------------------


@dataclass
class PricedOptions:
    result: tco.TcoResult
    setup_cents: np.ndarray  # per option: set-up fees of the first servers
    entered_one_time: list[dict[str, Decimal]]  # per option: migration, retraining, other
    counts: list[list[np.ndarray]]  # per option, per part: servers by month
    notes: list[list[Message]]
    owned: dict[int, owned.OwnedMoney] = field(default_factory=dict)  # option index → money
    costs: list[onetime.OneTimeCosts] = field(default_factory=list)  # per option

    def one_time_items(self, i: int) -> dict[str, Decimal]:
        entered = self.entered_one_time[i]
        if i in self.owned:
            bought = {"purchase": tco.money(self.owned[i].one_time["purchase"])}
            return {**bought, "setup_fees": tco.money(self.setup_cents[i]), **entered}
        return {"setup_fees": tco.money(self.setup_cents[i]), **entered}


class Pricer:
    """Turns options (parts with server counts or usage hours) into cents, all at once."""

    def __init__(self, plan: Plan, prices: Prices, table: CapacityTable | None) -> None:
        self.plan, self.prices, self.table = plan, prices, table
        self.h = plan.horizon_months
        self.table_row = table.row_of if table else {}
        self.baseline_counts: np.ndarray | None = None  # a tier baseline's servers by month
        self.matched_servers: np.ndarray | None = None  # sized rows' servers, matched sizing
        # What every option asks again (a large catalog prices thousands, twice where the
        # inference pools are checked): each tier's host, and the entered one-time amounts
        # by the costs carried, as Decimals and in cents.
        self._hosts: dict[str, onetime.Host | None] = {}
        self._entered: dict[tuple[str, ...], tuple[dict[str, Decimal], int]] = {}
        self._costs: dict[tuple, onetime.OneTimeCosts] = {}
        self._names: dict[str, str] = {}
        self._part_units: dict[tuple, tuple[Decimal, Decimal, Fraction, int, int]] = {}

    def baseline(self) -> tuple[np.ndarray, dict[str, Any]]:
        b, g = self.plan.baseline, self.plan.monthly_growth
        committed = self.commitment_prices()
        if b.monthly is not None:
            cents = tco.growth_cents(b.monthly, g, self.h)
            return cents, {
                "quoted_monthly": str(b.monthly),
                "source": msg("engine.baseline_quoted"),
                **committed,
            }
        self._require(b.tier, "baseline.tier")
        counts = bounds.servers(np.ceil(b.count * _growth(g, self.h) - capacity.EPS))
        self.baseline_counts = counts.astype(np.int64)
        cents = tco.line_cents([self.prices.monthly(b.tier)], counts[None, :])[0]
        info = {"tier": b.tier, "count": b.count, "price": self.prices.provenance(b.tier)}
        return cents, {**info, **committed}

    def commitment_prices(self) -> dict[str, Any]:
        """The price rows of commitments priced from a tier (each option carries them)."""
        rows = [
            {"index": i, "tier": c.tier, "price": self.prices.provenance(c.tier)}
            for i, c in enumerate(self.plan.baseline.commitments)
            if c.monthly is None and c.tier in self.prices
        ]
        return {"commitment_prices": rows} if rows else {}

    def _require(self, slug: str, where: str) -> None:
        if slug not in self.prices:
            raise ValueError(f"{where}: {slug} has no price: {self.prices.missing_reason(slug)}")

    def commitments(self) -> np.ndarray:
        out = np.zeros(self.h, dtype=np.int64)
        for c in self.plan.baseline.commitments:
            if c.monthly is None:
                self._require(c.tier, "baseline.commitments")
            amount = c.monthly if c.monthly is not None else self.prices.monthly(c.tier) * c.count
            months = min(c.months_remaining, self.h)
            out[:months] += tco.to_cents(amount)
        return out

    def shared_monthly(self, baseline: np.ndarray, both: bool = True) -> np.ndarray:
        """What an option pays a month besides its own servers; `both`: whether it carries
        the months of running both (the baseline paid beside it)."""
        extra = self.plan.monthly
        out = np.full(self.h, tco.to_cents(extra.egress) + tco.to_cents(extra.other))
        months = both_months(self.plan) if both else 0
        committed = self.commitments()
        committed[:months] = baseline[:months]
        return out + committed

    def baseline_host(self) -> onetime.Host | None:
        b = self.plan.baseline
        slug = b.tier if b.tier is not None else b.runs_on
        return self.host(slug) if slug else None

    def host(self, slug: str) -> onetime.Host | None:
        if slug not in self._hosts:
            found = None
            if slug in self.prices:
                found = onetime.Host.of(self.prices.get(slug, "provider"),
                                        self.prices.get(slug, "name"))  # fmt: skip
            self._hosts[slug] = found
        return self._hosts[slug]

    def one_time_costs(self, option: OptionSpec) -> onetime.OneTimeCosts:
        """Which of the switch's one-time costs the option carries (`onetime`): one object
        for the options that carry the same (it is never changed once made; an answer at
        20,000 tiers has 1,122 options, most of them alike)."""
        hosts = [self.host(p.tier) for p in option.parts] if option.owned is None else [None]
        base = self.baseline_host()
        # the rule reads the hosts only against the baseline's (a dedicated server's host is
        # its own name: keyed by the hosts themselves, no two options of a catalog shared one)
        key = (base is None, tuple(h == base for h in hosts), tuple(option.one_time.items()))
        if key not in self._costs:
            self._costs[key] = onetime.one_time_costs_for(hosts, base, option.one_time)
        return self._costs[key]

    def entered_one_time(self, costs: onetime.OneTimeCosts) -> dict[str, Decimal]:
        """The entered one-time amounts an option carries: migration and retraining where
        it carries them (0.00 where not), other costs always."""
        return dict(self._entered_of(costs)[0])

    def entered_cents(self, costs: onetime.OneTimeCosts) -> int:
        """`entered_one_time(costs)`'s sum in cents."""
        return self._entered_of(costs)[1]

    def _entered_of(self, costs: onetime.OneTimeCosts) -> tuple[dict[str, Decimal], int]:
        key = tuple(costs.charged)
        if key not in self._entered:
            ot = self.plan.one_time
            items = {
                "migration": (ot.migration or Decimal(0)) if costs.carries("migration") else 0,
                "retraining": (ot.retraining or Decimal(0)) if costs.carries("retraining") else 0,
                "other": ot.other,
            }
            said = {k: tco.money(tco.to_cents(v)) for k, v in items.items()}
            self._entered[key] = (said, sum(tco.to_cents(v) for v in said.values()))
        return self._entered[key]

    def ops_unit(self, slug: str) -> Fraction:
        if not self.prices.self_managed(slug):
            return NO_OPS
        m = self.plan.monthly
        if m.ops_hours_per_server is not None:
            return Fraction(m.ops_hours_per_server) * Fraction(m.ops_rate or 0)
        return OPS_DEFAULT_PER_MONTH

    def counts(self, parts: Sequence[Part]) -> np.ndarray:
        """Servers by month for each part: the model's for sized, the manager's for fixed."""
        out = np.zeros((len(parts), self.h), dtype=np.int64)
        sized = [j for j, part in enumerate(parts) if part.mode == "sized"]
        if sized:
            rows = [self.table_row[parts[j].tier] for j in sized]
            servers = self.table.servers if self.matched_servers is None else self.matched_servers
            out[sized] = servers[rows]
        for j, part in enumerate(parts):
            if part.mode == "fixed":
                out[j] = part.count
        return out

    def usage_cents(self, part: Part) -> np.ndarray:
        """hours × price × (1+g)^(m−1) for m = 1…H, each month rounded half-up to the cent."""
        return tco.growth_cents(self.usage_amount(part), self.plan.monthly_growth, self.h)

    def usage_amount(self, part: Part) -> Fraction:
        """A usage part's month-1 bill, exact: hours (spot re-runs included) × the price of
        one GPU- or instance-hour."""
        p = self.prices
        amount = Fraction(Decimal(p.get(part.tier, "amount")))
        if part.instance_hours_per_month is not None:
            hours, price = part.instance_hours_per_month, amount
        else:
            hours = part.gpu_hours_per_month
            if hours is None:
                hours = self.plan.deep_learning_gpu_hours
            price = amount / int(p.get(part.tier, "gpus"))
        if p.get(part.tier, "unit") == "month":
            price = price / HOURS_PER_MONTH
        rerun = 1 + self.plan.spot_interruption_allowance
        if p.get(part.tier, "pricing_model") == "spot":
            hours = hours * rerun
        return Fraction(hours) * price

    def price(self, options: Sequence[OptionSpec], baseline: np.ndarray) -> PricedOptions:
        flat = [(i, part) for i, o in enumerate(options) for part in o.parts]
        owner = np.array([i for i, _ in flat], dtype=np.int64)
        counts = self.counts([part for _, part in flat])
        exempt = [o.commitment is not None for o in options]  # staying: the baseline count
        for j, (i, part) in enumerate(flat):  # staying: as many servers as the baseline
            if exempt[i] and part.mode == "fixed" and self.baseline_counts is not None:
                counts[j] = self.baseline_counts
        units = [self._units(part) for _, part in flat]
        monthly_units = [u[0] for u in units]
        setup_units = [u[1] for u in units]
        part_monthly = tco.line_cents(monthly_units, counts)
        part_monthly += tco.line_cents([u[2] for u in units], counts)
        added = np.maximum(np.diff(counts, axis=1, prepend=counts[:, :1]), 0)
        part_monthly += tco.line_cents(setup_units, added)
        setup = tco.line_cents(setup_units, counts[:, 0]) if flat else np.zeros(0, np.int64)
        notes: list[list[Message]] = [[] for _ in options]
        for j, (i, part) in enumerate(flat):
            if part.mode == "usage":
                part_monthly[j] += self.usage_cents(part)
            if term := units[j][3]:
                renewed = tco.renewals(counts[j], term)
                part_monthly[j] += tco.line_cents([setup_units[j]], renewed[None, :])[0]
            owed = units[j][4]
            if owed:
                part_monthly[j, -1] += tco.line_cents([monthly_units[j]], counts[j, -1:])[0] * owed
                notes[i].append(
                    msg("engine.note_min_term", tier=self.prices.ref(part.tier), owed=owed,
                        month=self.h)
                )  # fmt: skip
        n = len(options)
        if len(flat) == n:  # one part each: rows already line up with options
            monthly, setup_by_option = part_monthly, setup
        else:
            monthly = np.zeros((n, self.h), dtype=np.int64)
            np.add.at(monthly, owner, part_monthly)
            setup_by_option = np.zeros(n, dtype=np.int64)
            np.add.at(setup_by_option, owner, setup)
        costs = [self.one_time_costs(o) for o in options]
        with_both, without = self.shared_monthly(baseline), self.shared_monthly(baseline, False)
        monthly = monthly + np.array(
            [with_both if c.carries("running_both") else without for c in costs], dtype=np.int64
        ).reshape(n, self.h)
        entered = [self.entered_one_time(c) for c in costs]
        one_time = setup_by_option + np.array([self.entered_cents(c) for c in costs],
                                              dtype=np.int64)  # fmt: skip
        result = tco.compute(
            names=[self.name(o) for o in options],
            baseline_cents=baseline,
            one_time_cents=one_time,
            monthly_cents=monthly,
            annual_rate=self.plan.annual_discount_rate,
        )
        per_option_counts: list[list[np.ndarray]] = [[] for _ in options]
        for j, (i, _) in enumerate(flat):
            per_option_counts[i].append(counts[j])
        return PricedOptions(result, setup_by_option, entered, per_option_counts, notes,
                             costs=costs)  # fmt: skip

    def _units(self, part: Part) -> tuple[Decimal, Decimal, Fraction, int, int]:
        """A part's monthly and set-up prices, operations a server, renewal term and months
        owed: what only its tier, mode and minimum term decide, said once (a large catalog's
        options are priced twice, around the inference pools' check)."""
        key = (part.tier, part.mode, part.min_term_months)
        if key not in self._part_units:
            slug = part.tier
            self._part_units[key] = (
                self.prices.monthly(slug), self.prices.setup(slug), self.ops_unit(slug),
                self.renew_term(part), self._owed_months(part),
            )  # fmt: skip
        return self._part_units[key]

    def name(self, option: OptionSpec) -> str:
        """The option's label in English (its tie-breaking name), said once per option."""
        if option.key not in self._names:
            self._names[option.key] = str(option.label)
        return self._names[option.key]

    def _term(self, part: Part) -> int:
        term = part.min_term_months
        if term is None:
            term = self.prices.get(part.tier, "min_term_months") or 0
        return int(term)

    def _owed_months(self, part: Part) -> int:
        return max(self._term(part) - self.h, 0) if part.mode != "usage" else 0

    def renew_term(self, part: Part) -> int:
        """The term after which a commitment's upfront is paid again (0: never): a
        reservation, savings plan or committed use with an upfront and a term shorter than
        the horizon is bought again each term (`tco.renewals`)."""
        model = str(self.prices.get(part.tier, "pricing_model") or "")
        if part.mode == "usage" or commitment_group(model) is None:
            return 0
        if not self.prices.setup(part.tier):
            return 0
        term = self._term(part)
        return term if 0 < term < self.h else 0


COMMITMENT_GROUPS = ("reserved", "savings_plan", "committed_use")


def commitment_group(model: str) -> str | None:
    """`savings_plan_compute_1y_all_upfront` → `savings_plan`; None for on-demand, spot or
    a monthly price (as `catalog.pricing_models.group_of` groups them)."""
    if not model.startswith(COMMITMENT_GROUPS):  # most: on-demand, spot, monthly
        return None
    for group in COMMITMENT_GROUPS:
        if model == group or model.startswith(group + "_"):
            return group
    return None


def both_months(plan: Plan) -> int:
    """The months of running both, within the horizon."""
    return min(plan.one_time.running_both_months or 0, plan.horizon_months)


def _growth(g: Decimal, h: int) -> np.ndarray:
    return (1 + float(g)) ** np.arange(h, dtype=float)


# --- compare --------------------------------------------------------------------------


def compare(
    plan: Plan,
    frame: pd.DataFrame,
    measurements: Lookup,
    speed_factors: Mapping[str, SpeedFactor] | None = None,
    as_of: dt.date | None = None,
    *,
    verify_top: int = 5,
    seed: int = 0,
    prices: Prices | None = None,
    commitments: stay.Alternatives | None = None,
) -> Comparison:
    """Size and price every option of the plan against its baseline.

    `commitments`: the baseline tier's cloud alternatives (`inputs.gather`), each priced
    as an option that stays on the instance (`commitment_options`).

    `prices`: `Prices(frame, plan.currency)` built once and kept by a caller that
    evaluates many plans on one unchanged frame (its memos then serve them all).
    A plan whose figures pass a documented maximum (`bounds`) is refused:
    `PlanValidationError` naming the field that drives the figure.
    """
    try:
        with paused():  # common/gcpause.py: the collector's passes were half the time
            return _compare(plan, frame, measurements, as_of=as_of, speed_factors=speed_factors,
                            verify_top=verify_top, seed=seed, prices=prices,
                            commitments=commitments)  # fmt: skip
    except bounds.TooLarge as exc:
        raise too_large(exc.at("__all__", plan.monthly_growth)) from None


class PlanTooLarge(PlanValidationError):
    """A plan refused because its figures pass a maximum; `reason`: the `bounds.TooLarge`."""

    def __init__(self, reason: bounds.TooLarge) -> None:
        self.reason = reason
        if reason.kind == "servers":
            said = msg("engine.too_many_servers", value=Number(bounds.SERVERS_MAX, 0))
        else:
            said = msg("engine.too_large", value=Number(bounds.AMOUNT_MAX, 0))
        super().__init__({reason.field or "__all__": [said]})


def too_large(exc: bounds.TooLarge) -> PlanTooLarge:
    """The refusal of a plan whose figures pass a maximum, at the field that drives them."""
    return PlanTooLarge(exc)


@contextlib.contextmanager
def _named(plan: Plan, field: str):
    """Names a `TooLarge` raised inside: `field`, or `monthly_growth` when growth took it
    past the maximum after month 1."""
    try:
        yield
    except bounds.TooLarge as exc:
        raise exc.at(field, plan.monthly_growth) from None


def _compare(
    plan: Plan,
    frame: pd.DataFrame,
    measurements: Lookup,
    *,
    as_of: dt.date,
    speed_factors: Mapping[str, SpeedFactor] | None,
    verify_top: int,
    seed: int,
    prices: Prices | None,
    commitments: stay.Alternatives | None = None,
) -> Comparison:
    if prices is None or prices.currency != plan.currency:
        prices = Prices(frame, plan.currency)
    specs, missing = plan_options(plan, prices)
    staying, not_sold = commitment_options(plan, prices, commitments)
    sized = sorted(set(sized_tiers(specs, ("sized", "fixed"))))
    with _named(plan, "workloads"):
        table = size_plan(plan, prices, sized, measurements, speed_factors or {}) if sized else None
    priced = _with_number(specs, table) + staying
    pricer = Pricer(plan, prices, table)
    fitted = matched.matched(plan, table, lambda slugs: size_plan(
        plan, prices, slugs, measurements, speed_factors or {}), prices.__contains__)  # fmt: skip
    if fitted is not None:  # issue 25: the servers that carry what the bill's machines do
        pricer.matched_servers = fitted.servers
    with _named(
        plan, "baseline.monthly" if plan.baseline.monthly is not None else "baseline.count"
    ):
        baseline_cents, baseline_info = pricer.baseline()
    if fitted is not None:
        baseline_info["matched"] = fitted.said()
    with _named(plan, "workloads" if any(p.mode == "sized" for o in priced for p in o.parts)
                else "candidates"):  # fmt: skip
        money = pricer.price(priced, baseline_cents)
        if table is not None and table.inference and pricer.matched_servers is None:
            money = _verify_inference(table, priced, pricer, baseline_cents, money, verify_top,
                                      seed)  # fmt: skip
    with _named(plan, "owned"):
        priced, money = _with_owned(plan, pricer, priced, money, baseline_cents)
    options = _results(plan, prices, table, priced, money)
    if fitted is not None:
        matched.annotate(fitted, options, table, prices.ref)
    _transition(plan, options, money.result, baseline_cents - pricer.commitments())
    # an option that cannot carry the work is never best: those that can come first
    options.sort(key=lambda o: o.cannot_carry)
    if plan.baseline.tier is not None:
        best = _best_monthly(priced, money.result, money, prices)
        even = _break_even(plan.baseline.tier, plan.baseline.count, best, prices)
        baseline_info["break_even_vs_best_monthly"] = even
    no_number = missing + _no_number(table, prices, specs)
    return Comparison(
        plan=plan,
        as_of=as_of,
        currency=plan.currency,
        baseline=_baseline_dict(baseline_cents, baseline_info, money.result),
        options=options,
        headline=_headline(plan, options, money.result),
        stays_on_gpu=_stays(plan, table),
        no_number=no_number,
        price_performance=_price_performance(table, prices),
        assumptions=_assumptions(plan),
        fx=_fx(prices),
        sensitivity=_sensitivity(plan, moving(options), baseline_cents),
        commitments_missing=not_sold,
    )


def _with_owned(
    plan: Plan,
    pricer: Pricer,
    options: list[OptionSpec],
    money: PricedOptions,
    baseline: np.ndarray,
) -> tuple[list[OptionSpec], PricedOptions]:
    """The catalog options' money with the owned servers' options added (same conventions:
    the shared monthly and one-time costs, the same baseline, one `tco.compute`)."""
    specs = owned_options(plan)
    if not specs:
        return options, money
    r, h = money.result, plan.horizon_months
    costs = [pricer.one_time_costs(spec) for spec in specs]
    entered = [pricer.entered_one_time(c) for c in costs]
    entered_cents = [sum(tco.to_cents(v) for v in e.values()) for e in entered]
    shared = [pricer.shared_monthly(baseline, c.carries("running_both")) for c in costs]
    bought = [owned.owned_money(spec.owned, h) for spec in specs]  # type: ignore[arg-type]
    one_time = np.concatenate(
        [
            r.one_time_cents,
            [m.one_time_cents + e for m, e in zip(bought, entered_cents, strict=True)],
        ]
    ).astype(np.int64)
    catalog = r.monthly_cents.reshape(-1, h)
    monthly = np.vstack(
        [catalog, *[m.monthly_cents + s for m, s in zip(bought, shared, strict=True)]]
    )
    exact = np.vstack(
        [catalog, *[m.exact_monthly + s for m, s in zip(bought, shared, strict=True)]]
    )
    result = tco.compute(
        names=[*r.names, *(str(s.label) for s in specs)], baseline_cents=baseline,
        one_time_cents=one_time, monthly_cents=monthly,
        annual_rate=plan.annual_discount_rate, exact_monthly=exact,
    )  # fmt: skip
    notes = list(money.notes)
    for m, s, e in zip(bought, shared, entered_cents, strict=True):
        said = owned.resale_payback_note(m, baseline, s, e, plan.currency)
        notes.append(m.notes + ([said] if said else []))
    first = len(options)
    return options + specs, PricedOptions(
        result=result,
        setup_cents=np.concatenate([money.setup_cents, [m.one_time["setup"] for m in bought]]),
        entered_one_time=money.entered_one_time + entered,
        counts=money.counts + [[] for _ in bought],
        notes=notes,
        owned={first + j: m for j, m in enumerate(bought)},
        costs=money.costs + costs,
    )


def moving(options: Sequence[OptionResult]) -> list[OptionResult]:
    """The options that move (not a cloud commitment on the baseline's instance): the
    sensitivity and the odds are about switching."""
    return [o for o in options if o.commitment is None]


def _sensitivity(
    plan: Plan, options: list[OptionResult], baseline: np.ndarray
) -> Sensitivity | None:
    """One-way sensitivity of the best option's headline (`sensitivity.analyse`)."""
    if not options:
        return None
    best = options[0].money
    items = options[0].one_time_items
    entered = sum(tco.to_cents(items.get(k, 0)) for k in ("migration", "retraining", "other"))
    case = sensitivity.Case(
        baseline=np.asarray(baseline, dtype=np.int64),
        monthly=np.array(best.monthly_cents, dtype=np.int64),  # `best.monthly` in cents
        one_time=tco.to_cents(best.one_time),
        rate=plan.annual_discount_rate,
        fixed_one_time=tco.to_cents(best.one_time) - entered,  # set-up fees, a purchase
    )
    rows = sensitivity.analyse(case, plan.currency, plan.horizon_months)
    npv, saving, month = case.outcome()
    base = SensitivityBase.model_construct(
        npv=str(tco.money(npv)), saving=str(tco.money(saving)), payback_month=month or None
    )
    key = options[0].key
    return Sensitivity.model_construct(
        option=key,
        base=base,
        inputs=[SensitivityRow.model_construct(**row) for row in rows],
        provenance=OptionRef.model_construct(option=key),
    )


def size_plan(
    plan: Plan,
    prices: Prices,
    slugs: Sequence[str],
    measurements: Lookup,
    speed_factors: Mapping[str, SpeedFactor],
) -> CapacityTable:
    return capacity.size_tiers(
        None,  # the rows' specs are all it reads: `Prices.specs`
        plan.workloads,
        measurements,
        speed_factors=speed_factors,
        utilisation=float(plan.utilisation_target),
        monthly_growth=float(plan.monthly_growth),
        horizon_months=plan.horizon_months,
        spot_allowance=float(plan.spot_interruption_allowance),
        specs=prices.specs(slugs),
    )


def _with_number(options: Sequence[OptionSpec], table: CapacityTable | None) -> list[OptionSpec]:
    """The options whose sized parts all have a figure (the table's tiers with one, as a
    set read once: 16,667 options at 20,000 tiers; a tier's own option asked for its tier
    without a call)."""
    numbered: set[str] = set()
    if table is not None:
        status = table.status.tolist()
        numbered = {s for s, said in zip(table.slugs, status, strict=True)
                    if said in ("sized", "estimate")}  # fmt: skip
    return [
        o for o in options
        if (o.title_of in numbered if o.__class__ is TierOption
            else all(tier in numbered for tier in o.tiers()))
    ]  # fmt: skip


def sized_tiers(options: Sequence[OptionSpec], modes: Collection[str] = ("sized",)) -> list[str]:
    """`option.tiers(modes)` of every option, in turn: a tier's own option says its tier
    without a call (16,667 of them at 20,000 tiers)."""
    sized = "sized" in modes
    out: list[str] = []
    for option in options:
        if option.__class__ is TierOption:
            if sized:
                out.append(option.title_of)  # type: ignore[arg-type]
        else:
            out += option.tiers(modes)
    return out


def _verify_inference(
    table: CapacityTable,
    options: list[OptionSpec],
    pricer: Pricer,
    baseline: np.ndarray,
    money: PricedOptions,
    top: int,
    seed: int,
) -> PricedOptions:
    """Simulate the inference pools of the cheapest options until the top few are all checked.

    The simulation only ever adds workers, so an option it leaves unchecked can
    only be dearer than its provisional figure, never cheaper than a checked one.
    """
    row = table.row_of
    while True:
        pending = []
        for index in money.result.order()[:top]:
            for part in options[index].parts:
                r = row.get(part.tier)
                if part.mode == "sized" and r is not None and _provisional(table, r):
                    pending.append(r)
        if not pending:
            return money
        for r in dict.fromkeys(pending):
            table.verify_inference(r, seed=seed)
        options[:] = _with_number(options, table)
        money = pricer.price(options, baseline)


def _provisional(table: CapacityTable, row: int) -> bool:
    return any(c.provisional[row] for c in table.inference)


def _results(
    plan: Plan,
    prices: Prices,
    table: CapacityTable | None,
    options: list[OptionSpec],
    money: PricedOptions,
) -> list[OptionResult]:
    result = money.result
    row = table.row_of if table else {}
    dl_hours = plan.deep_learning_gpu_hours
    best_monthly = _best_monthly(options, result, money, prices)
    out = []
    for i in result.order():
        option = options[i]
        parts, figure = [], "entered"
        for part, counts in zip(option.parts, money.counts[i], strict=True):
            at = row.get(part.tier)
            if part.mode == "sized" and at is not None:
                estimated = table.status[at] == "estimate"  # type: ignore[union-attr]
                figure = "estimate" if estimated or figure == "estimate" else "measured"
            parts.append(
                PartResult(
                    tier=part.tier, name=prices.name(part.tier), mode=part.mode,
                    servers_by_month=np.asarray(counts, dtype=np.int64).tolist(),
                    usage_hours=_part_label(part, prices) if part.mode == "usage" else None,
                    price=prices.provenance(part.tier),
                    sizing=(table, at) if at is not None else None,  # type: ignore[arg-type]
                    title=prices.title(part.tier),
                )
            )  # fmt: skip
        notes = money.notes[i] + _notes(plan, prices, option, parts, dl_hours)
        bought = money.owned.get(int(i))
        check = capacity_check(plan, parts, bought is not None, prices)
        out.append(
            OptionResult(
                key=option.key, label=option.label, figure=figure, parts=parts,
                money=result.option(i), one_time_items=money.one_time_items(i),
                break_even=_break_even_of(parts, best_monthly, prices), notes=notes,
                owned=OwnedLines.model_construct(**bought.to_dict()) if bought else None,
                title=option.told_apart(prices), one_time_costs=money.costs[i],
                capacity_check=check, commitment=option.commitment,
            )
        )  # fmt: skip
    return out


def _transition(
    plan: Plan, options: list[OptionResult], result: tco.TcoResult, extra: np.ndarray
) -> None:
    """Each option's steady monthly cost and its transition cost (issue 21): in the months
    of running both, every option also pays the baseline (less the commitments it pays
    anyway: `extra`); that is a one-off cost of the switch, not a monthly one."""
    h, months = result.horizon, both_months(plan)
    # A month's cost of every option as Python ints, read once per month asked (an option
    # runs both for `months` months or none): 1,122 options' NumPy scalars were ~10 ms.
    monthly, columns = result.monthly_cents, {}

    def month(k: int) -> list[int]:
        if k not in columns:
            columns[k] = monthly[:, k].tolist()
        return columns[k]

    last = (monthly[:, -1] - extra[-1]).tolist() if h else []
    transitions = {0: tco.money(0), months: tco.money(int(extra[:months].sum()))}
    for option, i in zip(options, result.order().tolist(), strict=True):  # `_results`' order
        carries = option.one_time_costs is None or option.one_time_costs.carries("running_both")
        both = months if carries else 0
        if option.commitment is not None:  # staying: no months of running both
            option.money.steady_monthly = tco.money(month(min(both, h - 1))[i])
            option.money.transition_cost = transitions[0]
            continue
        steady = month(both)[i] if both < h else last[i]
        option.money.steady_monthly = tco.money(steady)
        option.money.transition_cost = transitions[both]


def _break_even_of(
    parts: list[PartResult], best_monthly: Decimal | None, prices: Prices
) -> tco.BreakEven | None:
    if len(parts) != 1 or parts[0].mode == "usage" or not parts[0].servers_by_month:
        return None
    return _break_even(parts[0].tier, parts[0].servers_by_month[0], best_monthly, prices)


def _notes(
    plan: Plan, prices: Prices, option: OptionSpec, parts: list[PartResult], dl_hours: Decimal
) -> list[Message]:
    notes = []
    has_gpu_usage = any(p.mode == "usage" for p in option.parts)
    if any(isinstance(w, DeepLearningWorkload) for w in plan.workloads) and not has_gpu_usage:
        notes.append(msg("engine.note_deep_learning_stays", hours=Number(dl_hours)))
    for part in parts:
        price, tier = part.price, TierRef(part.tier, part.name)
        if not price["confirmed"]:
            notes.append(msg("engine.note_price_unconfirmed", tier=tier))
        if price["stale"]:
            notes.append(msg("engine.note_price_stale", tier=tier, date=_date(price)))
        if prices.self_managed(part.tier) and plan.monthly.ops_hours_per_server is None:
            notes.append(
                msg("engine.note_ops_default", tier=tier,
                    amount=Number(defaults.SELF_MANAGED_OPS.value), source=defaults.AZURE_MIGRATE)
            )  # fmt: skip
        if prices.get(part.tier, "pricing_model") == "spot":
            notes.append(msg("engine.note_spot", tier=tier, share=_share(plan)))
    return notes


def _date(price: Mapping[str, Any]) -> dt.date | str:
    """The price's effective date (ISO in the provenance) as a date, so pages localise it."""
    try:
        return dt.date.fromisoformat(price["effective_from"])
    except (TypeError, ValueError):
        return str(price["effective_from"])


def _share(plan: Plan) -> Percent:
    """The spot allowance as a percentage with the digits the plan gave (0.10 → "10.00 %")."""
    share = plan.spot_interruption_allowance
    exponent = (share * 100).as_tuple().exponent
    return Percent(share, max(0, -exponent) if isinstance(exponent, int) else None)


def _best_monthly(
    options: list[OptionSpec], result: tco.TcoResult, money: PricedOptions, prices: Prices
) -> Decimal | None:
    """Month-1 server cost of the cheapest option that is one monthly-priced tier."""
    for i in result.order():
        parts = options[i].parts
        if len(parts) == 1 and prices.get(parts[0].tier, "unit") == "month":
            return prices.monthly(parts[0].tier) * int(money.counts[i][0][0])
    return None


def _break_even(
    tier: str, servers: int, best_monthly: Decimal | None, prices: Prices
) -> tco.BreakEven | None:
    """Hours a month at which `servers` of an hourly tier cost what the best monthly option does."""
    if best_monthly is None or servers < 1 or prices.get(tier, "unit") != "hour":
        return None
    return tco.break_even(Decimal(prices.get(tier, "amount")) * servers, best_monthly)


def _no_number(
    table: CapacityTable | None, prices: Prices, specs: list[OptionSpec]
) -> list[Unpriced]:
    """Tiers the frame dropped, and tiers the model was asked to size but could not.

    A fixed count is the manager's figure: its tier is sized only to compare, so a
    tier with no number there is not listed (the option itself is priced).
    """
    dropped = DroppedTier.model_construct
    out: list[Unpriced] = [dropped(tier=s, reason=as_message(r)) for s, r in prices.dropped.items()]
    if table is None:
        return out
    asked = set(sized_tiers(specs))  # no part made per tier (`TierOption`)
    given = ("tier", "status", "reasons")  # every field of a NoNumber
    status = table.status.tolist()
    for i, slug in enumerate(table.slugs):
        if slug in asked and (said := status[i]) in ("no_number", "ruled_out"):
            fields = {"tier": slug, "status": said, "reasons": table.reasons(i)}
            out.append(constructed(NoNumber, fields, given))
    return out


def _stays(plan: Plan, table: CapacityTable | None) -> list[StaysOnGpu]:
    """The deep-learning workloads that stay on GPUs (`capacity.stays_on_gpu`)."""
    said = table.stays_on_gpu if table else [
        capacity.stays_on_gpu(i, w)
        for i, w in enumerate(plan.workloads)
        if isinstance(w, DeepLearningWorkload)
    ]  # fmt: skip
    return [StaysOnGpu.model_construct(**entry) for entry in said]


def _baseline_dict(cents: np.ndarray, info: dict[str, Any], result: tco.TcoResult) -> Baseline:
    """Today's spend (`Pricer.baseline`'s facts), month by month."""
    given = dict(info)
    if "price" in given:
        given["price"] = PriceRow.model_construct(**given["price"])
    if "commitment_prices" in given:
        given["commitment_prices"] = [
            CommitmentPrice.model_construct(
                index=c["index"], tier=c["tier"], price=PriceRow.model_construct(**c["price"])
            )
            for c in given["commitment_prices"]
        ]
    return Baseline.model_construct(
        **given,
        monthly=[str(tco.money(c)) for c in cents],
        cumulative=[str(tco.money(c)) for c in result.baseline_cumulative],
        total=str(tco.money(result.baseline_total_cents)),
        present_cost=str(tco.money(result.baseline_present_cents)),
    )


NOT_ENTERED = {
    "migration": "engine.cost_migration",
    "running both": "engine.cost_running_both",
    "retraining": "engine.cost_retraining",
}


def _headline(plan: Plan, options: list[OptionResult], result: tco.TcoResult) -> Headline:
    missing = plan.one_time.not_entered()
    later = [_not_entered(missing)] if missing else []
    if not options or options[0].cannot_carry:  # none, or none carries the work: no best
        nothing = dict.fromkeys(("best", "label", "saving_per_month", "saving_per_year",
                                 "payback_label", "payback_month", "payback_fraction"))  # fmt: skip
        said = msg("engine.headline_none_carries" if options else "engine.headline_none")
        return Headline(**nothing, not_entered=missing, sentences=[said, *later])  # fmt: skip
    best = options[0]
    m = best.money
    if m.saving <= 0:
        sentences = [
            msg("engine.headline_stay", months=plan.horizon_months, option=best.label,
                more=Money(-m.saving, plan.currency))
        ]  # fmt: skip
    else:
        said = {
            "option": best.label, "monthly": Money(m.saving_per_month, plan.currency),
            "yearly": figure(m.saving_per_year, "f"), "when": _when(m),
        }  # fmt: skip
        if m.payback_fraction is None:
            sentences = [Message("engine.headline_saves", said)]
        else:
            fraction = figure(m.payback_fraction, "f")
            sentences = [Message("engine.headline_saves_fraction", {**said, "fraction": fraction})]
    if best.figure == "estimate":
        published = any(
            "published_estimate" in (w.basis or {})
            for part in best.parts if part.capacity is not None
            for w in part.capacity.workloads
        )  # fmt: skip
        sentences.append(
            msg("engine.headline_published_estimate" if published else "engine.headline_estimate")
        )
    if any(not part.price["confirmed"] for part in best.parts):
        sentences.append(msg("engine.headline_unconfirmed"))
    sentences += _vs_commitment(plan, options)
    return Headline(
        best=best.key, label=best.label, saving_per_month=m.saving_per_month,
        saving_per_year=m.saving_per_year, payback_label=m.payback_label,
        payback_month=m.payback_month, payback_fraction=m.payback_fraction, not_entered=missing,
        sentences=sentences + later, payback=m.payback,
    )  # fmt: skip


def _vs_commitment(plan: Plan, options: list[OptionResult]) -> list[Message]:
    """The best move weighed against the best way to stay and commit (issue 27)."""
    moves = moving(options)
    commits = [o for o in options if o.commitment is not None]
    if not moves or not commits:
        return []
    move, commit = moves[0], commits[0]
    code = "engine.headline_move_beats_commitment"
    if commit.money.total <= move.money.total:
        code = "engine.headline_commitment_beats_move"
    return [
        msg(code, move=move.title or move.label, commitment=commit.title or commit.label,
            months=plan.horizon_months,
            difference=Money(abs(commit.money.total - move.money.total), plan.currency))
    ]  # fmt: skip


def _not_entered(items: list[str]) -> Message:
    said = [msg(NOT_ENTERED[i]) if i in NOT_ENTERED else _text(i) for i in items]
    return msg("engine.headline_not_entered", items=said)


def _when(money: tco.OptionMoney) -> Message:
    """When it pays back, as the headline says it ("in month 4", "immediately")."""
    if money.payback_month and money.payback_month > 1:
        return msg("engine.payback_in_month", month=money.payback_month)
    return money.payback


def _price_performance(table: CapacityTable | None, prices: Prices) -> list[PricePerformance]:
    if table is None:
        return []
    out = []
    seen: set[str] = set()
    exact, row = prices._column("monthly_exact"), prices.row
    monthly = [exact[row[s]] for s in table.slugs]  # `Prices.monthly` of each, read once
    for c in table.columns:
        ev = c.evidence
        if ev.profile_class in seen:
            continue
        seen.add(ev.profile_class)
        values = tco.price_performance(monthly, ev.value, ev.profile_class)
        _, _, unit = tco.PRICE_PERFORMANCE_UNITS[ev.profile_class]
        estimate = ev.estimate.tolist()
        for i, value in enumerate(values):
            if value is not None:  # made as `PricePerformance.model_construct` (thousands)
                fields = {
                    "tier": table.slugs[i], "profile_class": ev.profile_class,
                    "amount": str(value), "per": unit, "currency": prices.currency,
                    "figure": "estimate" if estimate[i] else "measured", "basis": ev.basis(i),
                    "price": None,
                }  # fmt: skip
                out.append(constructed(PricePerformance, fields, _PRICE_PERFORMANCE_GIVEN))
    return out


_PRICE_PERFORMANCE_GIVEN = ("tier", "profile_class", "amount", "per", "currency", "figure",
                            "basis")  # fmt: skip


def _assumptions(plan: Plan) -> list[Assumption]:
    said = Assumption.model_construct
    out = []
    for a in defaults.ALL:
        value = getattr(plan, a.name, None)
        if value is None:
            out.append(said(**a.to_dict()))
            continue
        same = Decimal(value) == Decimal(a.value)
        out.append(said(**{**a.to_dict(), "value": str(value),
                           "source": a.source if same else "entered"}))  # fmt: skip
    if plan.owned:  # each owned server's own value is in the plan; these are the defaults
        out += [said(**a.to_dict()) for a in defaults.OWNED]
    return out


def _fx(prices: Prices) -> list[Fx]:
    return [Fx.model_construct(**entry) for entry in prices.fx()]


def _fx_rates(prices: Prices) -> list[dict[str, Any]]:
    if "fx_rate" not in prices.frame.columns:
        return []
    rates, dates = prices._column("fx_rate"), prices._column("fx_date")  # None where missing
    pairs = sorted(
        {(float(r), _iso(d)) for r, d in zip(rates, dates, strict=True) if r is not None
         and d is not None}
    )  # fmt: skip
    return [{"rate": r, "date": d, "into": prices.currency} for r, d in pairs]
