"""Walk every number in an API response and resolve it to where it came from.

A number resolves through the nearest object on its path (itself included) that
carries provenance: a price row (`price_id`, or a "price" object), a run (`run_id`,
or a "basis"), an estimate (a speed factor with its measured reference), an
exchange rate (`rate_id`), a published assumption (a "source"), or a "provenance"
object listing prices, runs, estimates, entered plan fields, or the option a
headline figure comes from. Each claim must resolve: the price row exists with the
same effective_from, source and amount; the run exists with that host, profile
X.Y.Z and scale; an entered field is present in the plan. Numbers that are the
plan's own inputs echoed back, or counters, are allowed only by an explicit list.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from benchmarks_app.models import Run
from catalog.models import ExchangeRate, Price

NUMBER = re.compile(r"^-?\d+(\.\d+)?$")
# Input echoes and counters: the plan as given, list positions, how many options.
ALLOWED = (
    re.compile(r"^plan\."),
    re.compile(r"\.index$"),
    re.compile(r"^options_total$"),
    re.compile(r"^stays_on_gpu\[\d+\]\.gpu_hours_per_month$"),
    # the term of a commitment slot the catalog has no price for: a name, not a figure
    re.compile(r"^commitments_missing\[\d+\]\.(messages\[\d+\]\.params\.)?years$"),
)


def numbers(node: Any, path: str = "", trail: tuple = ()) -> Iterator[tuple[str, Any, tuple]]:
    """(path, value, the objects from the root down to the number's container)."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield from numbers(value, f"{path}.{key}" if path else key, (*trail, node))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from numbers(value, f"{path}[{i}]", (*trail, node))
    elif isinstance(node, bool) or node is None:
        return
    elif isinstance(node, int | float) or (isinstance(node, str) and NUMBER.match(node)):
        yield path, node, trail


def claims(obj: Any) -> list[tuple[str, dict]]:
    if not isinstance(obj, dict):
        return []
    out: list[tuple[str, dict]] = []
    if "price_id" in obj:
        out.append(("price", obj))
    if "run_id" in obj:
        out.append(("run", obj))
    if "rate_id" in obj:
        out.append(("fx", obj))
    if "speed_factor" in obj and "reference" in obj:
        out.append(("estimate", obj))
    for key in ("price", "basis", "estimate"):
        if isinstance(obj.get(key), dict):
            out += claims(obj[key])
    for row in obj.get("rows", []) if isinstance(obj.get("rows"), list) else []:
        out += claims(row)
    if {"name", "value", "unit", "source"} <= set(obj):
        out.append(("assumption", obj))
    prov = obj.get("provenance")
    if isinstance(prov, dict):
        for price in prov.get("prices", []):
            out += claims(price)
        for run in prov.get("runs", []):
            out += claims(run)
        for estimate in prov.get("estimates", []):
            out.append(("estimate", estimate))
        out += [("entered", {"path": p}) for p in prov.get("entered", [])]
        if prov.get("option"):
            out.append(("option", {"key": prov["option"]}))
    return out


def resolve(kind: str, claim: dict, body: dict) -> str | None:
    """None when the claim resolves, else what is wrong."""
    if kind == "price":
        row = Price.objects.filter(pk=claim["price_id"]).first()
        if row is None:
            return f"no price row {claim['price_id']}"
        if (
            row.effective_from.isoformat() != claim["effective_from"]
            or row.source != claim["source"]
        ):
            return f"price row {row.pk} has another date or source"
        rate = Decimal(str(claim.get("fx_rate") or 1))
        if abs(row.amount * rate - Decimal(claim["amount"])) > Decimal("0.000001") * max(rate, 1):
            return f"price row {row.pk} amount {row.amount} ≠ {claim['amount']}"
        return None
    if kind == "run":
        run = Run.objects.filter(pk=claim["run_id"]).select_related("target").first()
        if run is None:
            return f"no run {claim['run_id']}"
        expected = f"{run.profile_version.profile.name} {run.profile_version.version}"
        if (run.target.name, expected, run.scale) != (
            claim["host"],
            claim["profile"],
            claim["scale"],
        ):
            return f"run {run.pk} is not {claim['host']} {claim['profile']} {claim['scale']}"
        if not re.search(r"\b\d+\.\d+\.\d+$", claim["profile"]):
            return f"profile {claim['profile']!r} has no X.Y.Z"
        return None
    if kind == "estimate":
        factor = claim.get("speed_factor") or {}
        if not all(factor.get(k) for k in ("relative_to", "factor", "source", "author", "date")):
            return f"estimate without its basis: {factor}"
        return resolve("run", claim["reference"], body)
    if kind == "fx":
        row = ExchangeRate.objects.filter(pk=claim["rate_id"]).first()
        return None if row and row.source == claim["source"] else f"no rate {claim['rate_id']}"
    if kind == "assumption":
        return None if str(claim["source"]).strip() else "assumption without a source"
    if kind == "entered":
        node: Any = body["plan"]
        for part in re.split(r"\.|\[(\d+)\]", claim["path"]):
            if part:
                node = node[int(part)] if part.isdigit() else node.get(part)
        return None if node is not None else f"entered field {claim['path']} is not in the plan"
    if kind == "option":
        options = {o["key"]: o for o in body["options"]}
        if claim["key"] not in options:
            return f"no option {claim['key']}"
        return None if claims(options[claim["key"]]) else f"option {claim['key']} has no sources"
    return f"unknown claim {kind}"


def unresolved(body: dict) -> list[str]:
    """Every number of the response that does not resolve, with why (empty: all do)."""
    problems = []
    for path, value, trail in numbers(body):
        if any(rule.search(path) for rule in ALLOWED):
            continue
        found = next((c for obj in reversed(trail) if (c := claims(obj))), None)
        if found is None:
            problems.append(f"{path} = {value!r}: no provenance on its path")
            continue
        for kind, claim in found:
            if (why := resolve(kind, claim, body)) is not None:
                problems.append(f"{path} = {value!r}: {why}")
    return problems
