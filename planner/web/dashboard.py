"""What the dashboard shows, from the engine's answer as its model.

The answer (`planner.compute.answer.Answer`, as `evaluation.answer` gives it, or a
share's frozen `results` read back by `Answer.read`) in; rows for the results table, the
headline's parts, and the three charts' data out. No request, no database: the editor,
the shared page, the compare page and the CSV exports all read the same rows, so
a figure never differs between them.

Money stays `Decimal` here (the model's, exact to the cent); only the chart data turns to
floats, rounded to the cent.

Sentences (labels, notes, reasons, payback) are the engine's messages as the model holds
them, so the pages say them in the reader's language (`{{ note|message }}`).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from benchmarks_app.evidence import side_labels
from common.django.message_render import render
from common.messages import Message, Money, Number, Percent, ProfileRef, TierRef, msg
from common.messages import plain as english
from common.units import HOURS_PER_MONTH
from planner.compute import answer as model
from planner.web import bill_commitments

CHART_OPTIONS = 8  # bars in the monthly and capacity charts besides the baseline
CUMULATIVE_OPTIONS = 4  # lines in the cumulative chart besides the baseline


@dataclass
class PriceSource:
    tier: str
    name: str
    amount: Decimal
    unit: str
    currency: str
    effective_from: str | None
    source: str
    source_url: str
    confirmed: bool
    stale: bool
    fx_rate: float | None = None
    fx_date: str | None = None

    @property
    def effective_day(self) -> dt.date | None:
        """The price's date, for the page to show in the reader's format."""
        return _day(self.effective_from)

    @property
    def fx_day(self) -> dt.date | None:
        return _day(self.fx_date)


def _day(iso: str | None) -> dt.date | None:
    try:
        return dt.date.fromisoformat(iso) if iso else None
    except ValueError:
        return None


@dataclass
class Evidence:
    """Where one workload's capacity figure on one tier came from."""

    workload: str
    kind: str  # measured | predicted | estimate | none
    run_id: str = ""
    host: str = ""
    profile: str = ""
    scale: str = ""
    threads: int | None = None
    value: float | None = None
    unit: str = ""
    fit: str | None = None
    extrapolation: Message | None = None
    reason: Message | None = None
    factor: dict[str, Any] | None = None
    published: dict[str, Any] | None = None  # an estimate from published CPU scores
    # what its CPUs lack, said beside the basis: no public row (a nearest neighbour stands
    # in), only a family label
    cpu_notes: list[Message] = field(default_factory=list)


@dataclass
class Row:
    key: str
    label: str  # the title in English (the CSV exports say it so)
    title: Message  # the option as people tell it apart: tiers with provider and pricing model
    figure: str  # measured | estimate | entered
    servers: list[tuple[int, Message]]  # (count in month 1, the tier's title) per part
    usage: list[Message]
    monthly: Decimal  # the steady month after the months of running both (issue 21)
    one_time: Decimal
    one_time_items: dict[str, Decimal]
    total: Decimal
    saving: Decimal
    saving_pct: Decimal | None
    payback_month: int | None
    payback_label: str
    payback: Message
    fits_in_ram: bool | None
    prices: list[PriceSource]
    evidence: list[Evidence]
    notes: list[Message]
    best: bool = False
    npv: Decimal | None = None  # of switching; None in a share frozen before it was kept
    changed: bool = False  # the shared page: differs from the frozen figures
    transition: Decimal = Decimal(0)  # the months of running both, once (issue 21)
    # the switch's one-time costs it carries (keys of onetime.COSTS); None: a share frozen
    # before the rule (issue 21, item 2)
    one_time_costs: list[str] | None = None
    stays: bool | None = None  # on the baseline's provider and instance family
    # a fixed count against the work (issue 21, item 5): carries | cannot_carry |
    # not_checked, and its sentence; None: no workloads or no fixed count
    capacity: str | None = None
    capacity_said: Message | None = None
    owned: bool = False  # bought servers: no catalog price

    @property
    def one_time_costs_said(self) -> str:
        """What the one-time column says it carries ("" for a share frozen before)."""
        if self.one_time_costs is None:
            return ""
        if not self.one_time_costs:
            return _("no migration, running both or re-validation: it stays")
        return _("carries %(costs)s") % {"costs": one_time_costs_text(self.one_time_costs)}

    retired: bool = False  # the shared page: a tier it names is no longer offered
    # a cloud commitment on the baseline's instance (issue 27): its break-even, or spot's risk
    commitment: Message | None = None
    cumulative: list[Decimal] = field(default_factory=list)  # months 0…H (the charts)
    servers_monthly: Decimal = Decimal(0)  # its servers' part of a month, at catalog prices
    use: Use | None = None  # the sized parts' threads and memory against the servers'
    fixed: bool = False  # a part at a fixed count, not sized to the work
    position: int = 0  # in the answer's options (the engine's order)

    @property
    def dearer_by(self) -> Decimal:
        """How much more than the baseline it costs over the horizon (when it saves nothing)."""
        return -self.saving

    @property
    def server_count(self) -> int:
        return sum(count for count, _name in self.servers)


@dataclass(frozen=True)
class Use:
    """An option's sized servers: threads and memory needed against those they have."""

    threads_have: float
    threads_need: float
    memory_have: float
    memory_need: float


@dataclass
class NoNumber:
    """A tier without a figure, and why."""

    tier: str
    reasons: list[Message]
    title: str = ""  # as a reader knows the tier (`name_reasons`); empty: its key


@dataclass
class Results:
    currency: str
    as_of: dt.date | None
    horizon: int
    baseline_monthly: Decimal
    baseline_total: Decimal
    baseline_quoted: bool  # the manager's own figure (else a catalog tier's price)
    baseline_source: str  # the tier's key when priced from the catalog
    rows: list[Row]
    headline: model.Headline
    not_entered: list[str]
    stays_on_gpu: list[Any]  # model.StaysOnGpu (a frozen share's: its dictionaries)
    no_number: list[NoNumber]
    assumptions: list[Any]  # model.AssumptionOut (a frozen share's: its dictionaries)
    charts: dict[str, dict[str, Any]] = field(default_factory=dict)
    # Where the baseline came from when a bill gave it: the bill, its tier lines, the types
    # with no catalog tier and the trend, as messages (empty: no bill).
    baseline_bill: list[Message] = field(default_factory=list)
    commitments_missing: list[Message] = field(default_factory=list)  # slots with no rate
    # a bill baseline's commitments weighed against the bill (issue 27); None: no bill
    bill_commitments: bill_commitments.BillCommitments | None = None
    vs_bill_commitments: Message | None = None  # the best move against committing the bill
    baseline_cumulative: list[Decimal] = field(default_factory=list)  # months 0…H
    utilisation_target: float | None = None  # the plan's (the capacity chart's line)

    @property
    def best(self) -> Row | None:
        """The cheapest option that can carry the work (issue 21: one that cannot never is)."""
        return self.rows[0] if self.rows and self.rows[0].best else None

    @property
    def vs_commitment(self) -> Message | None:
        """The best move weighed against the best cloud commitment (issue 27)."""
        moves = [r for r in self.rows if r.commitment is None]
        stays = [r for r in self.rows if r.commitment is not None]
        if not moves or not stays:
            return None
        move, stay = moves[0], stays[0]
        code = "engine.headline_move_beats_commitment"
        if stay.total <= move.total:
            code = "engine.headline_commitment_beats_move"
        return msg(code, move=move.title, commitment=stay.title, months=self.horizon,
                   difference=Money(abs(stay.total - move.total), self.currency))  # fmt: skip


def vs_bill_commitments(view: Results) -> Message | None:
    """The best move against staying and committing the bill's instances (issue 27)."""
    said = view.bill_commitments
    moves = [r for r in view.rows if r.commitment is None and r.capacity != "cannot_carry"]
    if said is None or said.saving is None or not said.tiers or not moves:
        return None
    move = moves[0]
    move_saving = view.baseline_monthly - move.monthly
    move_said = msg("bills.commitments.move_saves" if move_saving >= 0
                    else "bills.commitments.move_costs_more",
                    amount=Money(abs(move_saving), view.currency))  # fmt: skip
    commit_said = msg("bills.commitments.commit_saves" if said.saving >= 0
                      else "bills.commitments.commit_costs_more",
                      amount=Money(abs(said.saving), said.currency))  # fmt: skip
    return msg("bills.commitments.vs_move", move=move.title, move_said=move_said,
               commit_said=commit_said)  # fmt: skip


def dec(value: Any) -> Decimal:
    return Decimal(str(value)) if value not in (None, "") else Decimal(0)


def text(value: Any) -> Message:
    """A sentence the model holds as a message, or as text (a figure's basis keeps some)."""
    return value if isinstance(value, Message) else msg("common.text", text=str(value or ""))


def price_source(tier: str, name: str, p: model.PriceRow) -> PriceSource:
    """A part's price row as the page lists it."""
    return PriceSource(
        tier=tier,
        name=name or tier,
        amount=dec(p.amount),
        unit=p.unit or "",
        currency=p.currency or "",
        effective_from=p.effective_from,
        source=p.source or "",
        source_url=p.source_url or "",
        confirmed=bool(p.confirmed),
        stale=bool(p.stale),
        fx_rate=p.fx_rate,
        fx_date=p.fx_date,
    )


def evidence_of(workload: str, basis: Mapping[str, Any], reason: Message | None) -> Evidence:
    """One workload's basis (`WorkloadCapacity.basis`, or a frozen share's) as the page
    says it; `reason`: why there is no figure, where the basis is "none"."""
    if "none" in basis:
        return Evidence(workload, "none", reason=reason)
    factor = None
    if "estimate" in basis:
        factor = basis["estimate"].get("speed_factor")
        basis = basis["estimate"].get("reference") or {}
    extrapolation = basis.get("extrapolation")
    return Evidence(
        workload=workload,
        kind="estimate" if factor else basis.get("kind", "measured"),
        run_id=str(basis.get("run_id", "")),
        host=basis.get("host", ""),
        profile=basis.get("profile", ""),
        scale=basis.get("scale", ""),
        threads=basis.get("threads"),
        value=basis.get("value"),
        unit=basis.get("unit", ""),
        fit=basis.get("fit"),
        extrapolation=text(extrapolation) if extrapolation else None,
        factor=factor,
        published=basis.get("published_estimate"),
        cpu_notes=side_labels(basis.get("published_estimate") or {}),
    )


def _evidence(part: model.Part) -> list[Evidence]:
    if part.capacity is None:
        return []
    out = []
    for w in part.capacity.workloads:
        reason = text(w.basis["none"]) if "none" in w.basis else None
        out.append(evidence_of(w.name or w.kind, w.basis, reason))
    return out


def _use(parts: Sequence[model.Part]) -> Use | None:
    """The sized parts' threads and memory (None: no workload sized it, or no threads)."""
    threads_have = threads_need = memory_have = memory_need = 0.0
    sized = False
    for part in parts:
        cap = part.capacity
        if cap is None or cap.servers is None:
            continue
        count = (part.servers_by_month or [0])[0]
        if cap.threads_per_server:
            threads_have += count * float(cap.threads_per_server)
            threads_need += float(cap.threads_needed or 0)
        if cap.ram_gib:
            memory_have += count * float(cap.ram_gib)
            memory_need += float(cap.memory_need_gib or 0)
        sized = sized or bool(cap.workloads)
    if not sized or not threads_have:
        return None
    return Use(threads_have, threads_need, memory_have, memory_need)


def servers_monthly(prices: Sequence[tuple[PriceSource, int]]) -> Decimal:
    """What the parts' servers cost a month at their catalog prices: (price, count) each."""
    total = Decimal(0)
    for price, count in prices:
        monthly = price.amount * (HOURS_PER_MONTH if price.unit == "hour" else 1)
        total += monthly * Decimal(str(price.fx_rate or 1)) * count
    return total


def _title(part: model.Part) -> Message:
    return part.title if part.title is not None else text(part.name or part.tier)


def _row(option: model.Option) -> Row:
    money, parts = option.money, option.parts
    priced = [(p, price_source(p.tier, p.name, p.price)) for p in parts if p.price is not None]
    costs, check = option.one_time_costs, option.capacity_check
    return Row(
        key=option.key,
        label=english(option.title),
        title=option.title,
        figure=option.figure,
        servers=[((p.servers_by_month or [0])[0], _title(p)) for p in parts if p.mode != "usage"],
        usage=[p.usage_hours for p in parts if p.usage_hours is not None],
        monthly=money.steady_monthly,
        transition=money.transition_cost,
        one_time_costs=list(costs.charged) if costs is not None else None,
        stays=costs.stays if costs is not None else None,
        capacity=check.status if check is not None else None,
        capacity_said=check.said if check is not None else None,
        one_time=money.one_time,
        one_time_items=dict(option.one_time_items),
        total=money.total,
        saving=money.saving,
        saving_pct=money.saving_pct,
        payback_month=money.payback_month,
        payback_label=money.payback_label or "never",
        payback=option.payback,
        fits_in_ram=option.fits_in_ram,
        prices=[price for _p, price in priced],
        evidence=[e for p in parts for e in _evidence(p)],
        notes=list(option.notes),
        npv=money.npv,
        commitment=option.commitment.summary if option.commitment is not None else None,
        cumulative=list(money.cumulative),
        servers_monthly=servers_monthly(
            [(price, (p.servers_by_month or [0])[0]) for p, price in priced if p.mode != "usage"]
        ),
        use=_use(parts),
        fixed=any(p.mode == "fixed" for p in parts),
    )


def _no_number(entry: model.Unpriced) -> NoNumber:
    if isinstance(entry, model.DroppedTier):
        return NoNumber(entry.tier, [entry.reason])
    return NoNumber(entry.tier, list(entry.reasons))


def results(answer: model.Answer) -> Results:
    """The answer as the dashboard reads it: rows sorted by total cost, cheapest first."""
    if not isinstance(answer, model.Answer):
        raise TypeError(f"an Answer, not {type(answer).__name__} (stored JSON: Answer.read)")
    baseline = answer.baseline
    view = Results(
        currency=answer.currency,
        as_of=dt.date.fromisoformat(answer.as_of) if answer.as_of else None,
        horizon=len(baseline.monthly),
        baseline_monthly=dec((baseline.monthly or ["0"])[0]),
        baseline_total=dec(baseline.total),
        baseline_quoted=baseline.quoted_monthly is not None,
        baseline_source=baseline.tier or "",
        rows=[_row(o) for o in answer.options],
        headline=answer.headline,
        not_entered=list(answer.headline.not_entered),
        stays_on_gpu=list(answer.stays_on_gpu),
        no_number=[_no_number(n) for n in answer.no_number],
        assumptions=list(answer.assumptions),
        commitments_missing=[m.reason for m in answer.commitments_missing],
        baseline_cumulative=[dec(v) for v in baseline.cumulative],
        utilisation_target=_float(answer.plan.get("utilisation_target")),
    )
    for position, row in enumerate(view.rows):
        row.position = position
    # the cheapest that can carry the work is the best (issue 21: one that cannot never is)
    view.rows.sort(key=lambda r: (r.capacity == "cannot_carry", r.total))
    if view.rows and view.rows[0].capacity != "cannot_carry":
        view.rows[0].best = True
    bought = answer.plan.get("owned") or []
    for row in view.rows:  # an owned option's servers: the count the plan buys (issue 21)
        if row.key.startswith("owned:") and not row.servers:
            index = int(row.key.split(":", 1)[1])
            if index < len(bought):
                row.owned = True
                row.servers = [(int(bought[index].get("count") or 1), row.title)]
    view.charts = chart_data(view)
    view.baseline_bill = bill_lines(baseline.provenance.bill if baseline.provenance else None)
    if view.baseline_bill:  # issue 25: the options sized to the bill's machines
        view.baseline_bill += matched_lines(baseline.matched)
    view.bill_commitments = bill_commitments.view(answer.bill_commitments)
    view.vs_bill_commitments = vs_bill_commitments(view)
    return view


def _float(value: Any) -> float | None:
    return float(value) if value is not None else None


BILL_LINES_SHOWN = 8  # instance-type lines the marker names; the rest counted


def bill_lines(said: Mapping[str, Any] | None) -> list[Message]:
    """The bill a baseline was taken from, as the plan page's provenance marker says it."""
    if not said:
        return []
    if said.get("deleted"):
        return [msg("bills.plan.deleted", bill=said["bill"])]
    cur = str(said["currency"])

    def money(value: Any) -> Money:
        return Money(dec(value), cur)

    if said.get("shared") and "period_end" not in said:  # a share the owner kept private
        return [msg("bills.plan.baseline_private", monthly=money(said["monthly"]))]
    end = dt.date.fromisoformat(said["period_end"]) - dt.timedelta(days=1)
    if said.get("shared") and "name" not in said:  # a share frozen before issue 25's choice
        return [msg("bills.plan.baseline_shared", kind=said["kind"],
                    start=dt.date.fromisoformat(said["period_start"]), end=end,
                    lines=int(said["lines"]), monthly=money(said["monthly"]))]  # fmt: skip
    out = [msg("bills.plan.baseline", name=said["name"], kind=said["kind"],
               start=dt.date.fromisoformat(said["period_start"]), end=end,
               lines=int(said["lines"]), monthly=money(said["monthly"]))]  # fmt: skip
    # The dearest lines first, matched or not; the rest counted (the API lists them all).
    lines = [(line, True) for line in said.get("tiers") or []]
    lines += [(line, False) for line in said.get("unmatched") or []]
    lines.sort(key=lambda entry: -dec(entry[0]["monthly"]))
    for line, matched in lines[:BILL_LINES_SHOWN]:
        if matched:
            machines = dec(line["hours_a_month"]) / HOURS_PER_MONTH  # the count, unrounded
            out.append(msg("bills.plan.tier_line", count=Number(machines, 3),
                           instance_type=line["instance_type"], region=line["region"],
                           hours=Number(dec(line["hours_a_month"])),
                           monthly=money(line["monthly"])))  # fmt: skip
        else:
            out.append(msg("bills.plan.unmatched", instance_type=line["instance_type"],
                           region=line["region"], provider=line["provider"],
                           monthly=money(line["monthly"])))  # fmt: skip
    if len(lines) > BILL_LINES_SHOWN:
        rest = lines[BILL_LINES_SHOWN:]
        out.append(msg("bills.plan.more_lines", count=len(rest),
                       monthly=money(sum(dec(line["monthly"]) for line, _m in rest))))  # fmt: skip
    if (seen := said.get("trend")) and seen.get("growth") is not None:
        out.append(msg("bills.plan.growth", growth=Percent(dec(seen["growth"]), 2),
                       first=seen["first"], last=seen["last"]))  # fmt: skip
    return out


def matched_lines(said: Mapping[str, Any] | None) -> list[Message]:
    """The matched sizing (`baseline.matched`) as the baseline's marker says it."""
    if not said:
        return []
    if said.get("capacity") is None:
        missing = [t for t in said.get("missing") or [] if t]
        if not missing:
            return [msg("matched.no_tiers")]
        return [msg("matched.no_capacity", tiers=", ".join(missing))]
    return [msg("bills.plan.matched", capacity=Number(dec(said["capacity"]), 2))]


def tier_titles(answer: model.Answer) -> dict[str, str]:
    """{tier key: its title in the reader's language} for each tier the options name."""
    out: dict[str, str] = {}
    for option in answer.options:
        for part in option.parts:
            if part.tier not in out:
                out[part.tier] = render(_title(part))
    return out


# --- reasons in the reader's words ------------------------------------------------------


@dataclass(frozen=True)
class Names:
    """How a reader knows what the engine's messages name by key, in the reader's language."""

    tiers: Callable[[str], str]  # tier key → title ("AWS c5.4xlarge · spot"); the key if unknown
    profiles: Mapping[str, str]  # profile name → title ("XGBoost hist training")
    classes: Mapping[str, str]  # workload class or kind → label ("gradient boosting")
    workloads: Mapping[str, str]  # workload kind → the editor's title ("CPU inference")


# The capacity model calls a workload the plan left unnamed "<kind> #<position>".
_NUMBERED = re.compile(r"^([a-z_]+) #(\d+)$")
_CLASS_PARAMS = ("class", "kind")  # parameters that hold a workload class or kind


def named(message: Message, names: Names) -> Message:
    """The message with every tier, profile, workload class and unnamed workload it names
    by key said by name instead: the same code, its parameters rewritten, however deep."""
    params = {key: _named(value, names) for key, value in message.params.items()}
    for key in _CLASS_PARAMS:
        value = params.get(key)
        if isinstance(value, str):  # a class ("gbm"), quoted or not, or a pinned profile
            said = names.classes.get(value.strip("'")) or names.profiles.get(value.strip("'"))
            params[key] = said or value
    if message.code == "capacity.workload_reason" and isinstance(params.get("workload"), str):
        params["workload"] = _workload(params["workload"], names)
    return Message(message.code, params)


def _named(value: Any, names: Names) -> Any:
    match value:
        case Message():
            return named(value, names)
        case TierRef(slug, name) if not name:
            title = names.tiers(slug)
            return TierRef(slug, title if title != slug else "")
        case ProfileRef(name, _version, title) if not title and name in names.profiles:
            return replace(value, title=names.profiles[name])
        case list() | tuple():
            return [_named(v, names) for v in value]
    return value


def _workload(name: str, names: Names) -> Message | str:
    """ "inference #2" → "CPU inference #2"; a name the manager gave stays as given."""
    match = _NUMBERED.match(name)
    if match is None or match.group(1) not in names.workloads:
        return name
    return msg("engine.workload_numbered", kind=names.workloads[match.group(1)],
               n=int(match.group(2)))  # fmt: skip


def name_reasons(view: Results, names: Names) -> None:
    """Say the reasons a tier has no figure (and each missing measurement) by the names a
    reader knows: tier titles, profile titles, workload classes, never their keys."""
    for entry in view.no_number:
        entry.title = names.tiers(entry.tier)
        entry.reasons = [named(reason, names) for reason in entry.reasons]
    for row in view.rows:
        for evidence in row.evidence:
            if evidence.reason is not None:
                evidence.reason = named(evidence.reason, names)
            workload = _workload(evidence.workload, names)
            evidence.workload = render(workload) if isinstance(workload, Message) else workload


def mark_changes(frozen: Results, today: Results, retired: set[str]) -> None:
    """Flag today's rows whose figures moved since the snapshot, and rows on retired tiers."""
    before = {row.key: row for row in frozen.rows}
    for row in today.rows:
        then = before.get(row.key)
        row.changed = then is None or (then.monthly, then.total) != (row.monthly, row.total)
    for row in [*frozen.rows, *today.rows]:
        row.retired = any(p.tier in retired for p in row.prices)


ONE_TIME_COST_NAMES = {
    "migration": gettext_lazy("migration"),
    "running_both": gettext_lazy("running both"),
    "retraining": gettext_lazy("re-validation"),
}


def one_time_costs_text(charged: list[str]) -> str:
    """The switch's one-time costs an option carries, in the reader's language."""
    return ", ".join(str(ONE_TIME_COST_NAMES.get(c, c)) for c in charged)


def not_entered_text(item: str) -> str:
    """A one-time cost the plan has not entered yet, by the schema's key."""
    known = {
        "migration": _("migration work"),
        "running both": _("running both systems side by side"),
        "retraining": _("retraining and re-validating models"),
    }
    return known.get(item, item)


# --- chart data ------------------------------------------------------------------------------


def _cents(value: Any) -> float:
    return round(float(dec(value)), 2)


def chart_data(view: Results) -> dict[str, dict[str, Any]]:
    """The three charts' inputs, from the view's rows: JSON-able, so each has a content
    hash."""
    currency, rows = view.currency, view.rows
    cumulative = view.baseline_cumulative
    titles = [render(r.title) for r in rows[:CHART_OPTIONS]]  # in the active language
    horizon = max(len(cumulative) - 1, 1)
    out: dict[str, dict[str, Any]] = {
        "cumulative": {
            "currency": currency,
            "months": list(range(len(cumulative))),
            "baseline": [_cents(v) for v in cumulative],
            "options": [
                {
                    "label": title,
                    "values": [_cents(v) for v in row.cumulative],
                    "payback_month": row.payback_month,
                }
                for row, title in zip(rows[:CUMULATIVE_OPTIONS], titles, strict=False)
            ],
        },
    }
    bars = [
        {"label": _("Baseline (today)"), "servers": _cents(view.baseline_monthly),
         "operations": 0.0, "one_time": 0.0}
    ]  # fmt: skip
    for row, title in zip(rows[:CHART_OPTIONS], titles, strict=False):
        # The steady month after running both (issue 21); those months apart, once.
        servers = min(row.servers_monthly, row.monthly)
        stays = row.one_time_costs == []
        label = _("%(option)s (stays: no migration)") % {"option": title} if stays else title
        bars.append(
            {
                "label": label,
                "servers": _cents(servers),
                "operations": _cents(row.monthly - servers),
                "one_time": _cents(row.one_time / horizon),
                "transition": _cents(row.transition / horizon),
            }
        )
    out["monthly"] = {"currency": currency, "bars": bars, "more": _more(len(rows))}
    capacity_bars = [
        _capacity_bar(row.use, title)
        for row, title in zip(rows[:CHART_OPTIONS], titles, strict=False)
        if row.use is not None
    ]
    if capacity_bars:
        out["capacity"] = {"utilisation_target": view.utilisation_target, "bars": capacity_bars}
    return out


def _more(options: int) -> str:
    """ "3 more options in the table": what the bar charts leave out, said under their bars."""
    rest = options - CHART_OPTIONS
    if rest <= 0:
        return ""
    return ngettext(
        "%(count)s more option in the table", "%(count)s more options in the table", rest
    ) % {"count": rest}


def _capacity_bar(use: Use, title: str) -> dict[str, Any]:
    return {
        "label": title,
        "threads_pct": round(100 * use.threads_need / use.threads_have, 1),
        "memory_pct": round(100 * use.memory_need / use.memory_have, 1)
        if use.memory_have
        else None,
    }
