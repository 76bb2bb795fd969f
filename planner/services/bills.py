"""A plan's baseline from the owner's imported bill (issue 25, item 4).

`baseline.bill` in a plan names the bill and the compute lines chosen from it (accounts,
regions, services, instance types, tags). `take_from_bill` fills the baseline's `monthly` with
those lines' figure (`bills.baseline`: the bill's effective cost a month, its fallbacks
flagged on the bill) and, when asked, `monthly_growth` with the lines' trend; a bill that
is not the owner's is refused as not found. `bill_provenance` is what the answer's
baseline provenance says of the bill: its name, period and lines, the tier lines, the
instance types with no catalog tier (listed, not dropped) and the trend used.
"""

from __future__ import annotations

import copy
import datetime as dt
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from bills.baseline import BillBaseline, baseline_from_bill, trend
from bills.models import Bill
from bills.selectors import bill_of, bills_of
from common.messages import Message, msg

ONE_DAY = dt.timedelta(days=1)
FILTERS = ("providers", "accounts", "regions", "services", "instance_types", "tags")


def chosen_baseline(bill: Bill, choice: dict[str, Any]) -> BillBaseline:
    return baseline_from_bill(bill, **{name: list(choice.get(name) or ()) for name in FILTERS})


def take_from_bill(data: dict[str, Any], owner: Any) -> tuple[dict[str, Any], dict]:
    """`data` (a plan as plain data) with its baseline taken from `baseline.bill`, and the
    problems by path (a bill not the owner's, a trend asked of a one-month bill). `data`
    without a bill comes back unchanged."""
    baseline = data.get("baseline") if isinstance(data, dict) else None
    choice = baseline.get("bill") if isinstance(baseline, dict) else None
    if (
        not isinstance(choice, dict)
        or type(choice.get("id")) is not int
        or not 0 < choice["id"] <= 2**53
    ):
        return data, {}  # nothing chosen, or a malformed choice: the schema says which
    bill = bill_of(owner, choice["id"]) if owner is not None else None
    if bill is None:
        return data, {"baseline.bill.id": [msg("bills.plan.not_found", bill=choice["id"])]}
    found = chosen_baseline(bill, choice)
    out = copy.deepcopy(data)
    baseline = out["baseline"]
    baseline.pop("tier", None)
    baseline.pop("count", None)
    baseline["monthly"] = str(found.monthly)
    baseline["tiers"] = plan_tiers(found)
    problems: dict[str, list[Message]] = {}
    if not found.lines:
        problems["baseline.bill"] = [msg("bills.plan.no_lines", bill=bill.pk, name=bill.name)]
    if choice.get("growth_from_trend"):
        seen = trend(found)
        if seen.growth is None:
            problems["baseline.bill.growth_from_trend"] = [
                msg("bills.plan.no_trend", name=bill.name, months=len(seen.months))
            ]
        else:
            out["monthly_growth"] = str(seen.growth)
    return out, problems


TWO_PLACES = Decimal("0.01")
SIX_PLACES = Decimal("0.000001")  # a machine's count: an hour a month is 0.00137


def plan_tiers(found: BillBaseline) -> list[dict[str, str]]:
    """The baseline's machines by catalog tier (`baseline.tiers`): the bill's tier lines
    summed by tier (two regions' lines may fall on one tier), count = hours a month ÷ 730,
    monthly = the bill's effective cost of those lines a month. Lines with no catalog tier
    stay in the monthly figure only (the provenance lists them)."""
    by_tier: dict[str, list[Decimal]] = {}
    for line in found.tiers:
        count, monthly = by_tier.setdefault(str(line.tier), [Decimal(0), Decimal(0)])
        by_tier[str(line.tier)] = [count + line.count, monthly + line.monthly]
    return [
        {"tier": tier, "count": str(count.quantize(SIX_PLACES, ROUND_HALF_UP)),
         "monthly": str(monthly.quantize(TWO_PLACES, ROUND_HALF_UP))}
        for tier, (count, monthly) in sorted(by_tier.items())
    ]  # fmt: skip


def bill_provenance(choice: dict[str, Any] | None) -> dict[str, Any] | None:
    """The bill's part of the baseline's provenance (None: no bill chosen). The plan was
    checked against its owner when saved; a bill deleted since is said so."""
    if not choice:
        return None
    bill = Bill.objects.filter(pk=choice["id"]).first()
    if bill is None:
        return {"source": "bill", "bill": choice["id"], "deleted": True}
    found = chosen_baseline(bill, choice)
    said = found.provenance() | {"monthly": str(found.monthly)}
    if choice.get("growth_from_trend"):
        said["trend"] = trend(found).said()
    return said


def owner_bills(owner: Any) -> list[tuple[int, str]]:
    """The owner's bills as the editor offers them: id and a label (name, period)."""
    rows = bills_of(owner).order_by("-period_start", "name")
    dash = "\u2013"  # an en dash: the label is dates and a name, in no language
    return [(b.pk, f"{b.name} ({b.period_start} {dash} {b.period_end - ONE_DAY})") for b in rows]


def owned_bill(owner: Any, bill_id: Any) -> Bill | None:
    try:
        number = int(str(bill_id))
    except ValueError:
        return None
    return bill_of(owner, number) if 0 < number < 2**53 else None


def plan_start(bill: Bill) -> dict[str, Any]:
    """A new plan's inputs as the editor opens them from a bill: every compute usage line
    of it as the baseline, the plan in the bill's currency."""
    found = chosen_baseline(bill, {})
    return {
        "name": f"{bill.name} ({bill.period_start:%Y-%m})"[:200],
        "currency": bill.currency,
        "baseline": {"monthly": str(found.monthly), "bill": {"id": bill.pk}},
    }


# What a share keeps of a bill (issue 25, privacy: a bill belongs to the user who imported
# it). By default only that the baseline is the owner's bill, and the figure it gave; when
# the owner chooses (`include_bill`), the plan's aggregates of it too: the bill's name,
# period, line count, the tier lines and the instance types with no tier. Never the
# bill's id, digest, accounts or the filters that name them, nor its commitments.
PRIVATE_KEYS = ("source", "currency", "monthly", "trend", "deleted", "cost")
SHARED_KEYS = (*PRIVATE_KEYS, "name", "kind", "view", "period_start", "period_end", "months",
               "lines", "tiers", "unmatched", "no_instance_type_monthly")  # fmt: skip


def shared_bill_aggregates(frozen: dict[str, Any], *, include_bill: bool = False) -> dict[str, Any]:
    """A share's snapshot with the bill reduced to what the owner chose to show: every
    plan's `baseline.bill` (the inputs, the answer's echo of them) left out (the monthly,
    tiers and growth it gave stay), every baseline provenance's bill kept to `PRIVATE_KEYS`
    (or `SHARED_KEYS` with `include_bill`), the answer's `bill_commitments` (per instance
    type of the bill) left out."""
    out = copy.deepcopy(frozen)
    _redact(out, SHARED_KEYS if include_bill else PRIVATE_KEYS)
    return out


def _redact(node: Any, keys: tuple[str, ...]) -> None:
    if isinstance(node, list):
        for item in node:
            _redact(item, keys)
        return
    if not isinstance(node, dict):
        return
    node.pop("bill_commitments", None)  # the bill's instance types and their costs (issue 27)
    baseline = node.get("baseline")
    if isinstance(baseline, dict):
        choice = baseline.get("bill")
        if isinstance(choice, dict) and "id" in choice:
            baseline.pop("bill")
        said = (baseline.get("provenance") or {}).get("bill")
        if isinstance(said, dict):
            kept = {k: v for k, v in said.items() if k in keys} | {"shared": True}
            baseline["provenance"]["bill"] = kept
    for value in node.values():
        _redact(value, keys)


def frozen_bill(frozen: dict[str, Any], now: dict[str, Any]) -> dict[str, Any]:
    """Today's side of a share of a plan with a bill, as the share keeps it: the frozen
    inputs name no bill (a share never reads one), so the baseline's bill provenance and
    what it says was entered are the snapshot's own, not a difference."""
    then_base = (frozen.get("results") or {}).get("baseline") or {}
    said = (then_base.get("provenance") or {}).get("bill")
    if said is None:
        return now
    out = copy.deepcopy(now)
    provenance = out["results"]["baseline"].setdefault("provenance", {})
    provenance["bill"] = copy.deepcopy(said)
    if "entered" in then_base["provenance"]:
        provenance["entered"] = copy.deepcopy(then_base["provenance"]["entered"])
    return out
