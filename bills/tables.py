"""The bill page's figures (`bills.page`) as rows in the reader's language, and as CSV.

Pure shaping: the view passes the bill, its figures and the language; no queries."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

from django.utils import translation
from django.utils.translation import gettext as _

from bills.page import AI_ML, COMPUTE
from common import formatting
from common.csv_cells import neutralise
from common.django.message_render import render as say
from common.messages import Message


def pricing_label(code: str) -> str:
    return {"Standard": _("on demand"), "Dynamic": _("spot"), "Committed": _("committed")}.get(
        code, _("other")
    )


def category_label(code: str) -> str:
    return {COMPUTE: _("Compute"), AI_ML: _("AI and machine learning")}.get(code, code)


def fallback_label(code: str) -> str:
    return {"billed": _("the billed cost"), "as_given": _("kept as given"),
            "ecb": _("ECB rate of each charge date"), "never": _("never added")}.get(
        code, code)  # fmt: skip


def _flag(flag: dict) -> dict:
    message = Message.from_json(flag)
    params = flag.get("params", {})
    fallback = params.get("fallback")
    if message.code == "bills.flag.converted":
        fallback = "ecb"
    elif message.code == "bills.flag.views_apart":
        fallback = "never"
    return {"code": message.code, "text": say(message),
            "fallback": fallback_label(fallback) if fallback else "—"}  # fmt: skip


def shaped(bill, figures: dict, language: str) -> dict:
    """Rows for the template, each figure formatted in `language`."""
    cur = bill.currency

    def money(value) -> str:
        return formatting.money(Decimal(value), cur, language)

    def hours(value) -> str:
        return formatting.number(Decimal(value), 0, language)

    months = []
    for month in figures["months"]:
        rows = [r for r in figures["by_month"] if r["month"] == month]
        rows.sort(key=lambda r: -Decimal(r["billed"]))
        months.append({
            "month": month,
            "rows": [{"category": category_label(r["category"]), "billed": money(r["billed"]),
                      "effective": money(r["effective"]), "list": money(r["list"])}
                     for r in rows],
            "billed": money(sum((Decimal(r["billed"]) for r in rows), Decimal(0))),
        })  # fmt: skip
    apart = [{"category": category_label(k), **{f: money(v[f]) for f in v}}
             for k, v in figures["apart"].items()]  # fmt: skip
    hour_rows = [{"instance_type": r["instance_type"], "pricing": pricing_label(r["pricing"]),
                  "hours": hours(r["hours"]),
                  "gpus": "—" if r["gpus"] is None else formatting.number(r["gpus"], 0, language),
                  "gpu_hours": "—" if r["gpu_hours"] is None else hours(r["gpu_hours"])}
                 for r in figures["hours"]]  # fmt: skip
    floor = [{"month": r["month"], "floor": formatting.number(Decimal(r["floor"]), 1, language),
              "mean": formatting.number(Decimal(r["mean"]), 1, language),
              "peak": formatting.number(Decimal(r["peak"]), 1, language),
              "floor_hours": hours(r["floor_hours"]), "hours": hours(r["hours"]),
              "partial": r["days_with_usage"] < r["days"]}
             for r in figures["floor"]]  # fmt: skip
    c = figures["commitments"]
    commitments = {
        "coverage": formatting.percent(None if c["coverage"] is None else Decimal(c["coverage"]),
                                       0, language),
        "committed_list": money(c["committed_list"]), "eligible_list": money(c["eligible_list"]),
        "list": money(c["list"]), "effective": money(c["effective"]),
        "savings": money(c["savings"]),
    }  # fmt: skip
    return {
        "months": months, "apart": apart, "hours": hour_rows, "floor": floor,
        "commitments": commitments, "flags": [_flag(f) for f in bill.flags],
        "period": f"{formatting.date(bill.first_day, language)} - "
                  f"{formatting.date(bill.last_day, language)}",
    }  # fmt: skip


def csv_bytes(bill, figures: dict) -> bytes:
    """The page's tables as one CSV (English headings, ISO months, plain decimals; text
    cells through `neutralise` so no cell runs as a formula)."""
    out = io.StringIO()
    w = csv.writer(out)
    with translation.override("en"):
        w.writerow(
            [
                "table",
                "month",
                "service_category",
                "instance_type",
                "pricing_category",
                "billed",
                "effective",
                "list",
                "hours",
                "gpu_hours",
                "currency",
            ]
        )
        for r in figures["by_month"]:
            w.writerow(
                [
                    "monthly",
                    r["month"],
                    neutralise(r["category"]),
                    "",
                    "",
                    r["billed"],
                    r["effective"],
                    r["list"],
                    "",
                    "",
                    bill.currency,
                ]
            )
        for r in figures["hours"]:
            w.writerow(
                [
                    "hours",
                    "",
                    "",
                    neutralise(r["instance_type"]),
                    r["pricing"],
                    "",
                    "",
                    "",
                    r["hours"],
                    r["gpu_hours"] or "",
                    "",
                ]
            )
        for r in figures["floor"]:
            w.writerow(["floor", r["month"], "", "", "", "", "", "", r["floor_hours"], "", ""])
    return out.getvalue().encode("utf-8")
