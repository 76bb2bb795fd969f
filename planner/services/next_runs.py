# ruff: noqa: RUF002, RUF003  (money notation: ×)
"""The next run worth making, as the plan page, the shared page and the API say it: the
ranking of `planner.compute.next_runs`, each run with its cost (the profile's standard time
budget × the tier's hourly price, a month's rent, or nothing on today's own server), what
it would settle, the one command that makes it with the stand-alone runner and the one
that brings the file back. Cached like the answer (generation, date, plan, seed)."""

from __future__ import annotations

import datetime as dt
from decimal import ROUND_CEILING, ROUND_HALF_UP, Decimal
from typing import Any

from benchmarks_app import runners
from benchmarks_app import selectors as bench_selectors
from changes.selectors import Generation
from common.messages import Money, Number, Percent, as_api, msg, plain
from common.units import HOURS_PER_MONTH
from planner.compute import montecarlo, schema
from planner.compute import next_runs as ranking
from planner.services import evaluation
from planner.services import inputs as engine_inputs

SHOWN = 5  # the pages list at most this many runs
SCALE = "standard"
VERSION = 1  # raised when the shape of the answer changes
CENT = Decimal("0.01")


def next_runs(
    plan: schema.Plan,
    *,
    as_of: dt.date | None = None,
    generation: Generation | None = None,
    seed: int = montecarlo.SEED,
) -> dict[str, Any]:
    """`next_runs_of(gather(plan))`, cached per plan, data generation, date and seed."""
    return evaluation.cached(
        f"next-runs-v{VERSION}-{seed}",
        plan,
        lambda day, gen: next_runs_of(
            engine_inputs.gather(plan, as_of=day, generation=gen), seed=seed
        ),
        as_of=as_of,
        generation=generation,
    )


def next_runs_of(
    inputs: engine_inputs.EngineInputs, *, seed: int = montecarlo.SEED
) -> dict[str, Any]:
    """The ranking with each run's cost, settle sentence, command and import command; the
    sentences as `Message`s (`api_answer` gives them as the API's texts and messages)."""
    plan = inputs.plan
    ranked = ranking.rank(
        plan, inputs.frame, inputs.measurements, inputs.speed_factors, prices=inputs.prices,
        seed=seed,
    )  # fmt: skip
    titles = ranked.titles
    budgets = _budgets()
    runs = []
    for place, run in enumerate(ranked.runs, start=1):
        hours = _hours(budgets.get(run.profile))
        cost, basis, hourly = _cost(inputs, run.tier, hours)
        runs.append(
            {
                "rank": place,
                "tier": run.tier,
                "tier_title": inputs.prices.title(run.tier),
                "workload_class": run.workload_class,
                "profile": run.profile,
                "band": [run.band[0], run.band[1]],
                "option": run.option,
                "best": run.best,
                "against": run.against,
                "changes": run.changes,
                "value": _money(Decimal(run.value_cents) / 100),
                "cost": {
                    "amount": None if cost is None else str(cost),
                    "basis": basis,
                    "hours": None if hours is None else str(hours),
                    "hourly": None if hourly is None else str(hourly),
                },
                "command": command(run.profile),
                "bring_back": bring_back(run.profile, run.tier),
                "settles": msg(
                    "next_runs.settles",
                    best=titles.get(run.best, run.best),
                    other=titles.get(run.against, run.against),
                    share=Percent(Decimal(str(run.changes)), 0),
                ),
                "cost_said": _cost_said(basis, cost, hours, hourly, plan.currency),
                "bring_back_said": msg("next_runs.bring_back"),
            }
        )
    return {
        "currency": plan.currency,
        "best": ranked.best,
        "contending": ranked.contending,
        "draws": ranked.draws,
        "seed": ranked.seed,
        "runs": runs,
    }


def command(profile: str) -> str:
    """The stand-alone runner's one command for one profile (README, "the stand-alone
    runner"); the file is written to a known name."""
    return (
        f".venv-runner/bin/python -m benchmarks_app.standalone --scale {SCALE} "
        f"--only {profile} --out runs/{profile}.json"
    )


def bring_back(profile: str, tier: str) -> str:
    return f"python manage.py import_run runs/{profile}.json --tier {tier}"


def _budgets() -> dict[str, float]:
    """Each profile's standard time budget in seconds (its newest version)."""
    out = {}
    for name, content in bench_selectors.newest_profile_contents().items():
        if SCALE in content.get("scales", {}):
            out[name] = runners.measurement_budget_s(content, SCALE, 1)
    return out


def _hours(seconds: float | None) -> Decimal | None:
    if seconds is None:
        return None
    return (Decimal(str(seconds)) / 3600).quantize(Decimal("0.1"), rounding=ROUND_CEILING)


def _cost(
    inputs: engine_inputs.EngineInputs, tier: str, hours: Decimal | None
) -> tuple[Decimal | None, str, Decimal | None]:
    """(cost, basis, hourly): `own` on the tier the plan runs today, `hourly` for a tier
    priced by the hour, else `monthly` (a month's rent is the least it costs)."""
    if tier == inputs.plan.baseline.tier:
        return Decimal(0), "own", None
    prices = inputs.prices
    assert prices is not None
    monthly = Decimal(prices.monthly(tier))
    rows = inputs.frame.loc[inputs.frame["slug"] == tier, "unit"]
    if len(rows) and rows.iloc[0] == "hour":
        hourly = (monthly / HOURS_PER_MONTH).quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP)
        if hours is None:
            return None, "hourly", hourly
        return _money(monthly / HOURS_PER_MONTH * hours), "hourly", hourly
    return _money(monthly), "monthly", None


def _money(value: Decimal) -> Decimal:
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


def _cost_said(
    basis: str, cost: Decimal | None, hours: Decimal | None, hourly: Decimal | None, currency: str
) -> Any:
    shown_hours = Number(hours if hours is not None else 0, 1)
    if basis == "own":
        return msg("next_runs.cost_own", hours=shown_hours)
    if basis == "hourly":
        return msg(
            "next_runs.cost_hourly", hours=shown_hours, hourly=Money(hourly, currency),
            cost=Money(cost if cost is not None else Decimal(0), currency),
        )  # fmt: skip
    return msg("next_runs.cost_monthly", cost=Money(cost, currency), hours=shown_hours)


SAID = ("settles", "cost_said", "bring_back_said")


def api_answer(answer: dict[str, Any]) -> dict[str, Any]:
    """The API's form: each sentence as its English text, and `messages` beside them."""
    runs = []
    for run in answer["runs"]:
        out = {k: v for k, v in run.items() if k not in (*SAID, "tier_title")}
        out["tier_title"] = plain(run["tier_title"])
        out["value"] = str(run["value"])
        out["settles"] = plain(run["settles"])
        out["cost"] = {**run["cost"], "said": plain(run["cost_said"])}
        out["bring_back_said"] = plain(run["bring_back_said"])
        out["messages"] = [
            {"field": "settles", **as_api(run["settles"])},
            {"field": "cost.said", **as_api(run["cost_said"])},
            {"field": "bring_back_said", **as_api(run["bring_back_said"])},
            {"field": "tier_title", **as_api(run["tier_title"])},
        ]
        runs.append(out)
    return {**answer, "runs": runs}
