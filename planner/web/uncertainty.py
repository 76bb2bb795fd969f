"""What the pages show of a plan's sensitivity and odds, from `evaluation.uncertainty`'s
model (`planner.compute.uncertainty_answer.Uncertainty`; a share's frozen copy read back
by `Uncertainty.read`).

"Which input decides the answer": every uncertain input with its low, base and high in the
reader's formats (money, a share of the base case, a rate), where its range comes from,
the base-case best option's NPV and payback at the low and the high, and its break-even
sentence; and the tornado chart's data (the eight widest swings). "The odds it pays
back": per leading option the share of draws that pay back within the horizon and P10,
P50, P90 of the saving and of the payback month ("never" where a percentile falls among
draws that never pay back), with the seed, the draws and the NumPy version.

Sentences are the rows' Messages (a label, a break-even sentence), so they read in the
page's language; the chart's labels are rendered here, in the active language, which the
chart's hash holds. No request, no database.
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _

from common import formatting
from common.django.message_render import render
from common.messages import Message, Percent, msg
from planner.compute import tco
from planner.compute import uncertainty_answer as found_models
from planner.web.dashboard import Results, dec

TORNADO_BARS = 8


@dataclass
class InputRow:
    key: str
    label: Message
    kind: str  # scale | absolute
    low: str  # in the reader's formats
    base: str
    high: str
    source: str  # default | entered | measured
    npv_low: Decimal
    npv_high: Decimal
    payback_low: Message
    payback_high: Message
    sentence: Message
    break_even: bool


@dataclass
class OddsRow:
    key: str
    title: Message
    best: bool
    pays_back: Decimal  # a share, 0…1
    saving: dict[str, Decimal]  # p10, p50, p90
    payback: dict[str, Message]  # p10, p50, p90: month m or never


@dataclass
class Uncertainty:
    currency: str
    horizon: int
    option: Message | None  # the base-case best option
    base_npv: Decimal
    rows: list[InputRow]
    odds: list[OddsRow]
    draws: int = 0
    pays_back: Message | None = None  # the best option's odds in a sentence
    recorded: Message | None = None  # seed, draws, NumPy
    chart: dict[str, Any] | None = field(default=None)
    best_fixed: bool = False  # the base-case best option has a part of a fixed count

    @property
    def growth_tops(self) -> bool:
        """Monthly growth swings the answer most and the best option keeps a fixed count:
        the page says why (issue 21). Where every option is sized to the work, the count
        grows with it and that explanation does not apply."""
        return self.best_fixed and bool(self.rows) and self.rows[0].key == "monthly_growth"


def _language() -> str:
    return translation.get_language() or "en"


def _month(value: int | None) -> Message:
    return msg("montecarlo.never") if value is None else msg("montecarlo.month", month=value)


def _value(row: found_models.UncertainInput, which: str, currency: str, language: str) -> str:
    """low, base or high as the reader reads it."""
    amount = getattr(row, f"{which}_amount")
    if amount is not None:
        return formatting.money(Decimal(amount), currency, language)
    value = Decimal(getattr(row, which))
    return formatting.percent(value, 2 if row.kind == "absolute" else 0, language)


def _input_row(row: found_models.UncertainInput, currency: str, language: str) -> InputRow:
    return InputRow(
        key=row.input,
        label=row.label,
        kind=row.kind,
        low=_value(row, "low", currency, language),
        base=_value(row, "base", currency, language),
        high=_value(row, "high", currency, language),
        source=row.source,
        npv_low=dec(row.npv_low),
        npv_high=dec(row.npv_high),
        payback_low=_month(row.payback_low),
        payback_high=_month(row.payback_high),
        sentence=row.break_even_sentence,
        break_even=row.break_even is not None,
    )


def fixed_count_options(figures: Results) -> set[str]:
    """The keys of an answer's options that keep a part at a fixed count (not sized to
    the work)."""
    return {row.key for row in figures.rows if row.fixed}


def view(
    found: found_models.Uncertainty | None,
    titles: Mapping[str, Message],
    fixed: Set[str] = frozenset(),
) -> Uncertainty | None:
    """The two sections' rows; `titles`: each option's title by key (from its comparison);
    `fixed`: the keys of the options with a part of a fixed count. None when there is
    nothing to show (no option had a figure)."""
    if found is None or not found.one_way or not found.option:
        return None
    language = _language()
    currency = found.currency
    mc = found.montecarlo
    horizon = found.horizon_months or (mc.horizon_months if mc else 0)
    best = found.option
    out = Uncertainty(
        currency=currency,
        horizon=horizon,
        option=titles.get(best),
        base_npv=dec(found.tornado.base_npv if found.tornado else None),
        rows=[_input_row(r, currency, language) for r in found.one_way],
        odds=[_odds(o, titles, best, horizon) for o in mc.options] if mc else [],
        best_fixed=best in fixed,
    )
    if mc:
        out.draws = mc.draws
        out.recorded = msg("montecarlo.recorded", seed=str(mc.seed), draws=out.draws,
                           numpy=mc.numpy)  # fmt: skip
        first = next((o for o in out.odds if o.best), None)
        if first is not None:
            out.pays_back = msg("montecarlo.pays_back", months=horizon,
                                share=Percent(first.pays_back, 1), draws=out.draws)  # fmt: skip
    out.chart = tornado_data(found.tornado, out)
    return out


_PERCENTILES = ("p10", "p50", "p90")


def _odds(
    option: found_models.OddsOption, titles: Mapping[str, Message], best: str, horizon: int = 0
) -> OddsRow:
    key = option.option
    labels = option.payback_label
    return OddsRow(
        key=key,
        title=titles.get(key) or msg("common.text", text=key),
        best=key == best,
        pays_back=dec(option.pays_back),
        saving={q: dec(getattr(option.saving, q)) for q in _PERCENTILES},
        payback={
            q: _labelled(
                getattr(option.payback_month, q), getattr(labels, q) if labels else None, horizon
            )
            for q in _PERCENTILES
        },
    )


def _labelled(month: int | None, label: str | None, horizon: int) -> Message:
    """A payback percentile in the table's words (`payback_label`; a share frozen before
    the labels reads as it did)."""
    if month is None and label == tco.BEYOND:
        return msg("montecarlo.beyond", months=horizon)
    return _month(month)


def tornado_data(tornado: found_models.Tornado | None, shown: Uncertainty) -> dict[str, Any] | None:
    """The tornado chart's input: JSON-able, labels in the active language."""
    if tornado is None or not tornado.bars:
        return None
    rows = {r.key: r for r in shown.rows}
    base = dec(tornado.base_npv)
    out_bars = []
    for bar in tornado.bars[:TORNADO_BARS]:
        if dec(bar.npv_low) == dec(bar.npv_high):
            continue  # a bar whose low equals its high says nothing (issue 21): never drawn
        row = rows.get(bar.input)
        label = render(row.label if row else bar.label)
        span = f"{row.low} {formatting.DASH} {row.high}" if row else ""
        out_bars.append({"label": label, "range": span, "low": round(float(bar.npv_low), 2),
                         "high": round(float(bar.npv_high), 2)})  # fmt: skip
    if not out_bars:
        return None
    return {
        "currency": shown.currency,
        "base_npv": round(float(base), 2),
        "option": render(shown.option) if shown.option else "",
        "bars": out_bars,
    }


def source_text(source: str) -> str:
    """Where an input's range comes from, in the reader's language."""
    return {
        "default": _("planner default"),
        "entered": _("your range"),
        "measured": _("the run's repetitions (bootstrap P5 to P95 of the median)"),
        "estimate": _("the estimate's band (leave-one-out error of published scores)"),
        "aggregator": _("Spot Instance Advisor bucket, via ec2instances.info"),
        "assumption": _("the planner's assumption, no published figure"),
    }.get(source, source)
