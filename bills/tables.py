"""The bill page's figures (`bills.page`) as rows in the reader's language, and as CSV.

Pure shaping: the view passes the bill, its figures and the language; no queries."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

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
            "ecb": _("ECB rate of each charge date"), "never": _("never added"),
            "untagged": _("kept without tags")}.get(code, code)  # fmt: skip


def reason_label(code: str) -> str:
    """Why a commitment figure is not given (`bills.commitments` reason codes)."""
    return {
        "no_commitment": _("no commitment was used or left unused in this bill"),
        "commitment_cost_zero": _(
            "the bill's commitment lines carry no effective cost, so their use cannot be weighed"
        ),
        "no_list_cost": _("the usage a commitment could cover has no list cost in this bill"),
        "no_contracted_cost": _("the bill gives no contracted cost for every line"),
    }.get(code, code)


# The commitment figures in the CSV and on the page, in this order.
COMMITMENT_FIGURES = ("utilisation", "coverage", "unused", "savings", "negotiated", "commitment")


def _commitments(c: dict, money, language: str) -> dict:
    """The page's commitment figures: each a shown value or the reason it is not given."""
    reasons = c.get("reasons", {})

    def share(name: str) -> str:
        value = c[name]
        return formatting.percent(None if value is None else Decimal(value), 0, language)

    def amount(name: str) -> str:
        return formatting.DASH if c[name] is None else money(c[name])

    out = {
        "utilisation": share("utilisation"), "coverage": share("coverage"),
        "unused": amount("unused"), "savings": amount("savings"),
        "negotiated": amount("negotiated"), "commitment": amount("commitment"),
        "used": amount("used"), "committed_list": amount("committed_list"),
        "eligible_list": amount("eligible_list"), "list": amount("list_cost"),
        "contracted": amount("contracted"), "effective": amount("effective"),
        "categories": ", ".join(category_label(k) for k in c.get("categories", [])),
    }  # fmt: skip
    out["reasons"] = {name: reason_label(code) for name, code in reasons.items()}
    return out


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
    commitments = _commitments(figures["commitments"], money, language)
    return {
        "months": months, "apart": apart, "hours": hour_rows, "floor": floor,
        "commitments": commitments, "flags": [_flag(f) for f in bill.flags],
        "period": f"{formatting.date(bill.first_day, language)} - "
                  f"{formatting.date(bill.last_day, language)}",
    }  # fmt: skip


CSV_COLUMNS = [
    "table", "month", "service_category", "instance_type", "pricing_category", "billed",
    "effective", "list", "hours", "gpu_hours", "currency", "figure", "value", "reason",
]  # fmt: skip


def csv_bytes(bill, figures: dict) -> bytes:
    """The page's tables as one CSV (English headings, ISO months, plain decimals; text
    cells through `neutralise` so no cell runs as a formula). The commitment figures are
    rows of table "commitments": `figure`, its `value` (a share as a fraction, an amount in
    `currency`), empty with the `reason` code where not computable."""
    out = io.StringIO()
    w = csv.DictWriter(out, CSV_COLUMNS, restval="")
    w.writeheader()
    for r in figures["by_month"]:
        w.writerow(
            {
                "table": "monthly",
                "month": r["month"],
                "service_category": neutralise(r["category"]),
                "billed": r["billed"],
                "effective": r["effective"],
                "list": r["list"],
                "currency": bill.currency,
            }
        )
    for r in figures["hours"]:
        w.writerow(
            {
                "table": "hours",
                "instance_type": neutralise(r["instance_type"]),
                "pricing_category": r["pricing"],
                "hours": r["hours"],
                "gpu_hours": r["gpu_hours"] or "",
            }
        )
    for r in figures["floor"]:
        w.writerow({"table": "floor", "month": r["month"], "hours": r["floor_hours"]})
    c = figures["commitments"]
    for name in COMMITMENT_FIGURES:
        value = c[name]
        w.writerow(
            {
                "table": "commitments",
                "figure": name,
                "value": "" if value is None else value,
                "currency": "" if name in ("utilisation", "coverage") else bill.currency,
                "reason": c.get("reasons", {}).get(name, ""),
            }
        )
    return out.getvalue().encode("utf-8")
