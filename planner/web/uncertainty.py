"""What the pages show of a plan's sensitivity and odds, from `evaluation.uncertainty` (or
a share's frozen copy of it) as plain data.

"Which input decides the answer": every uncertain input with its low, base and high in the
reader's formats (money, a share of the base case, a rate), where its range comes from,
the base-case best option's NPV and payback at the low and the high, and its break-even
sentence; and the tornado chart's data (the eight widest swings). "The odds it pays
back": per leading option the share of draws that pay back within the horizon and P10,
P50, P90 of the saving and of the payback month ("never" where a percentile falls among
draws that never pay back), with the seed, the draws and the NumPy version.

Sentences come as the messages stored beside each row (`messages`), so they read in the
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
from planner.compute.message_fields import by_field
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


def _said(row: Mapping[str, Any], name: str) -> Message:
    found = by_field(row.get("messages")).get(name)
    return found[0] if found else msg("common.text", text=str(row.get(name) or ""))


def _value(row: Mapping[str, Any], which: str, currency: str, language: str) -> str:
    """low, base or high as the reader reads it."""
    amount = row.get(f"{which}_amount")
    if amount is not None:
        return formatting.money(Decimal(amount), currency, language)
    value = Decimal(str(row[which]))
    return formatting.percent(value, 2 if row.get("kind") == "absolute" else 0, language)


def _input_row(row: Mapping[str, Any], currency: str, language: str) -> InputRow:
    return InputRow(
        key=str(row["input"]),
        label=_said(row, "label"),
        kind=str(row.get("kind") or "scale"),
        low=_value(row, "low", currency, language),
        base=_value(row, "base", currency, language),
        high=_value(row, "high", currency, language),
        source=str(row.get("source") or "default"),
        npv_low=dec(row.get("npv_low")),
        npv_high=dec(row.get("npv_high")),
        payback_low=_month(row.get("payback_low")),
        payback_high=_month(row.get("payback_high")),
        sentence=_said(row, "break_even_sentence"),
        break_even=row.get("break_even") is not None,
    )


def fixed_count_options(figures: Results) -> set[str]:
    """The keys of an answer's options that keep a part at a fixed count (not sized to
    the work)."""
    return {row.key for row in figures.rows if row.fixed}


def view(
    data: Mapping[str, Any], titles: Mapping[str, Message], fixed: Set[str] = frozenset()
) -> Uncertainty | None:
    """The two sections' rows; `titles`: each option's title by key (from its comparison);
    `fixed`: the keys of the options with a part of a fixed count. None when there is
    nothing to show (no option had a figure)."""
    if not data or not data.get("one_way") or not data.get("option"):
        return None
    language = _language()
    currency = str(data.get("currency") or "")
    mc = data.get("montecarlo") or {}
    horizon = int(data.get("horizon_months") or mc.get("horizon_months") or 0)
    best = str(data["option"])
    out = Uncertainty(
        currency=currency,
        horizon=horizon,
        option=titles.get(best),
        base_npv=dec((data.get("tornado") or {}).get("base_npv")),
        rows=[_input_row(r, currency, language) for r in data["one_way"]],
        odds=[_odds(o, titles, best, horizon) for o in mc.get("options") or []],
        best_fixed=best in fixed,
    )
    if mc:
        out.draws = int(mc.get("draws") or 0)
        out.recorded = msg("montecarlo.recorded", seed=str(mc["seed"]), draws=out.draws,
                           numpy=str(mc.get("numpy") or ""))  # fmt: skip
        first = next((o for o in out.odds if o.best), None)
        if first is not None:
            out.pays_back = msg("montecarlo.pays_back", months=horizon,
                                share=Percent(first.pays_back, 1), draws=out.draws)  # fmt: skip
    out.chart = tornado_data(data, out)
    return out


def _odds(
    option: Mapping[str, Any], titles: Mapping[str, Message], best: str, horizon: int = 0
) -> OddsRow:
    key = str(option["option"])
    return OddsRow(
        key=key,
        title=titles.get(key) or msg("common.text", text=key),
        best=key == best,
        pays_back=dec(option.get("pays_back")),
        saving={q: dec(v) for q, v in (option.get("saving") or {}).items()},
        payback={
            q: _labelled(v, (option.get("payback_label") or {}).get(q), horizon)
            for q, v in (option.get("payback_month") or {}).items()
        },
    )


def _labelled(month: int | None, label: str | None, horizon: int) -> Message:
    """A payback percentile in the table's words (`payback_label`; a share frozen before
    the labels reads as it did)."""
    if month is None and label == tco.BEYOND:
        return msg("montecarlo.beyond", months=horizon)
    return _month(month)


def tornado_data(data: Mapping[str, Any], shown: Uncertainty) -> dict[str, Any] | None:
    """The tornado chart's input: JSON-able, labels in the active language."""
    tornado = data.get("tornado") or {}
    bars = tornado.get("bars") or []
    if not bars:
        return None
    rows = {r.key: r for r in shown.rows}
    base = dec(tornado.get("base_npv"))
    out_bars = []
    for bar in bars[:TORNADO_BARS]:
        if dec(bar["npv_low"]) == dec(bar["npv_high"]):
            continue  # a bar whose low equals its high says nothing (issue 21): never drawn
        row = rows.get(str(bar["input"]))
        label = render(row.label) if row else str(bar.get("label") or bar["input"])
        span = f"{row.low} {formatting.DASH} {row.high}" if row else ""
        out_bars.append({"label": label, "range": span, "low": round(float(bar["npv_low"]), 2),
                         "high": round(float(bar["npv_high"]), 2)})  # fmt: skip
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
