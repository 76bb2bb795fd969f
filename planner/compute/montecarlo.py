# ruff: noqa: RUF002, RUF003  (money notation: ×, −)
"""The odds that the switch pays back: a vectorised Monte Carlo over the inputs' ranges.

Each draw sets every uncertain input (`uncertainty.inputs`) at once, independently:
triangular over (low, base, high) for a published default, uniform over the manager's
own range, and a bootstrap median of the run's repetitions for measured throughput.
Values are rounded to the input's places (four for a factor, six for a rate), so a
draw is a set of exact `Decimal`s that `uncertainty.apply` can hand the engine; the
vectorised money below prices the same draw to the same cent (`bench/sensitivity.py`
checks it against a loop of `engine.compare`).

Vectorised over D draws × K leading options × H months, the draws a chunk at a time
in months × draws arrays reused from chunk to chunk (`drawn_money`):
- server counts of sized parts from the capacity model's thread-hours, scaled by the
  batch volume ÷ throughput and the drawn growth and utilisation, plus the inference
  workers each draw's requests a second and growth need (M/M/c by month, checked by
  simulation at the peak month as the engine checks them: `drawn_pools`);
- usage lines at each draw's price and growth; one price per tier (a candidate or a
  commitment on the baseline's tier pays the drawn bill factor too);
- every bill line rounded half-up to the cent per month in exact whole-number
  arithmetic (a scaled price is an exact ratio), as `tco.line_cents` does;
- payback, saving and NPV as `tco.compute` computes them.

Reported per option: the share of draws that pay back within the horizon, and P10,
P50 and P90 of the saving and of the payback month, where a percentile that falls among
draws that never pay back reads "never". Seed, draws and NumPy version are recorded.
Pure: no Django.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from common.units import HOURS_PER_MONTH
from planner.compute import capacity, engine, matched, onetime, owned, tco, uncertainty
from planner.compute import drawn_money as money
from planner.compute import drawn_pools as pools
from planner.compute.capacity import EPS
from planner.compute.schema import Plan
from planner.compute.uncertainty import Uncertain
from planner.compute.uncertainty_answer import (
    LabelPercentiles,
    MoneyPercentiles,
    MonteCarlo,
    MonthPercentiles,
    OddsOption,
    RangeUsed,
)

DRAWS = 10_000
LEADING = 3
SEED = 2024
PERCENTILES = (10, 50, 90)
CHUNK = 1024  # draws priced together: the fastest of 256…4096 here (bench/sensitivity.py)
SCALE_DEN = 10_000  # factors to four places
RATE_DEN = 1_000_000  # rates to six places
SPOT = uncertainty.SPOT_INTERRUPTION


# --- draws -------------------------------------------------------------------------------


def draw(items: Sequence[Uncertain], draws: int, seed: int) -> dict[str, np.ndarray]:
    """name → D integer numerators (over SCALE_DEN or RATE_DEN), in `items`' order."""
    rng = np.random.default_rng(seed)
    out = {}
    for item in items:
        den = SCALE_DEN if item.kind == "scale" else RATE_DEN
        low, base, high = float(item.low), float(item.base), float(item.high)
        if item.medians:
            values = rng.choice(np.asarray(item.medians), size=draws)
        elif low == high:
            values = np.full(draws, base)
        elif item.source == "entered":
            values = rng.uniform(low, high, size=draws)
        else:
            values = rng.triangular(low, min(max(base, low), high), high, size=draws)
        out[item.name] = np.rint(values * den).astype(np.int64)
    return out


def values_of(items: Sequence[Uncertain], drawn: Mapping[str, np.ndarray], d: int) -> dict:
    """Draw `d` as the Decimals `uncertainty.apply` takes."""
    out = {}
    for item in items:
        den = SCALE_DEN if item.kind == "scale" else RATE_DEN
        out[item.name] = Decimal(int(drawn[item.name][d])) / den
    return out


def _exact_cents(unit: Fraction, nums: Sequence[np.ndarray], n: int) -> np.ndarray:
    """round_half_up(unit × Π (num ÷ SCALE_DEN)) in cents per draw, in Python integers
    (exact at any size), as `tco.to_cents` rounds the engine's moved line."""
    p, q = unit.as_integer_ratio()
    top = np.full(n, p * 100, dtype=object)
    den = q
    for num in nums:
        top = top * np.asarray(num, dtype=np.int64).astype(object)
        den *= SCALE_DEN
    return np.asarray((2 * top + den) // (2 * den), dtype=np.int64)


# --- the vectorised model -----------------------------------------------------------------


@dataclass
class Part:
    tier: str
    mode: str
    price: Fraction  # monthly, as the frame gives it (before any factor)
    ops: Fraction
    setup: Fraction
    owed: int
    converted: bool
    row: int | None = None  # capacity table row (sized)
    count: int = 0  # fixed
    usage: Fraction | None = None  # usage: the month-1 bill at base prices, exact
    renew: int = 0  # a commitment's term, its upfront paid again each term (tco.renewals)
    spot: bool = False  # a spot tier: its re-run share is drawn (`SPOT_INTERRUPTION`)


@dataclass
class Option:
    key: str
    parts: list[Part]
    bought: owned.OwnedMoney | None = None
    costs: onetime.OneTimeCosts | None = None  # the switch's one-time costs it carries
    server: Any = None  # an owned option's OwnedServer (its inputs are drawn: issue 21)


class Model:
    """The base case's three leading options, ready to price any number of draws."""

    def __init__(
        self,
        plan: Plan,
        frame: pd.DataFrame,
        measurements: Mapping[Any, Any],
        speed_factors: Mapping[str, capacity.SpeedFactor] | None = None,
        *,
        leading: int = LEADING,
        prices: engine.Prices | None = None,
        interruptions: Mapping[str, Any] | None = None,
    ) -> None:
        self.plan, self.h = plan, plan.horizon_months
        self.frame, self.measurements = frame, measurements
        self.speed_factors = speed_factors or {}
        self.prices = prices or engine.Prices(frame, plan.currency)
        base = engine.compare(plan, frame, measurements, self.speed_factors, prices=self.prices)
        self.base = base
        self.keys = [o.key for o in base.options[:leading]]
        specs, _ = engine.plan_options(plan, self.prices)
        by_key = {s.key: s for s in [*specs, *engine.owned_options(plan)]}
        chosen = [by_key[k] for k in self.keys]
        sized = sorted({p.tier for s in chosen for p in s.parts if p.mode in ("sized", "fixed")})
        self.table = (
            engine.size_plan(plan, self.prices, sized, measurements, self.speed_factors)
            if sized
            else None
        )
        # issue 25: a matched plan's options carry the bill's machines' work in every draw
        self.matched = matched.matched(plan, self.table, self._size, self.prices.__contains__)
        counted = self.matched is not None and self.matched.capacity is not None
        if self.table is not None and not counted:  # as the engine: no re-check when matched
            for r in range(len(self.table.slugs)):
                if any(c.provisional[r] for c in self.table.inference):
                    self.table.verify_inference(r, seed=0)
            self.table.recompute()
        self.pricer = engine.Pricer(plan, self.prices, self.table)
        # the inference pools of the sized rows, each sized again for every draw
        self.pools: dict[int, list[pools.Pool]] = {}
        if self.table is not None:
            for r in range(len(self.table.slugs)):
                self.pools[r] = [pools.Pool.of(c, r) for c in self.table.inference]
        self.converted = uncertainty.converted_tiers(self.prices.frame)
        self.options = [self._option(s) for s in chosen]
        # what does not depend on a draw: the exponents of growth, what every option pays
        # a month besides its own lines (egress, other costs, the commitments still running
        # whose price no draw moves: `self.moving` holds the others) and the months the old
        # bill runs on beside the new one
        self.months = np.arange(self.h, dtype=float)[:, None]
        extra = plan.monthly
        self.shared_const = tco.to_cents(extra.egress) + tco.to_cents(extra.other)
        self.both = engine.both_months(plan)
        self.items = uncertainty.inputs(
            plan, frame, measurements, self.leading_tiers(), interruptions
        )
        self.moving = self._moving_commitments()
        self.shared = self.shared_const + self._fixed_commitments()

    def leading_tiers(self) -> list[str]:
        return [p.tier for o in self.options for p in o.parts]

    def _option(self, spec: engine.OptionSpec) -> Option:
        costs = self.pricer.one_time_costs(spec)
        if spec.owned is not None:
            bought = owned.owned_money(spec.owned, self.h)
            return Option(spec.key, [], bought, costs, server=spec.owned)
        parts = []
        for part in spec.parts:
            p = self.prices
            converted = part.tier in self.converted
            item = Part(
                part.tier, part.mode, Fraction(p.monthly(part.tier)),
                Fraction(self.pricer.ops_unit(part.tier)), Fraction(p.setup(part.tier)),
                self.pricer._owed_months(part), converted,
            )  # fmt: skip
            item.renew = self.pricer.renew_term(part)
            item.spot = p.get(part.tier, "pricing_model") == "spot"
            if part.mode == "sized":
                item.row = self.table.row_of[part.tier]  # type: ignore[union-attr]
            elif part.mode == "fixed":
                item.count = part.count
            else:
                item.usage = self.pricer.usage_amount(part)
            parts.append(item)
        return Option(spec.key, parts, costs=costs)

    # --- pricing D draws ---
    # Draws are priced CHUNK at a time in months × draws arrays (`drawn_money`), so that
    # a chunk's work arrays stay in the processor's cache and are reused chunk after chunk.

    def run(self, drawn: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        """npv, saving (cents), payback month (0: none within the horizon) and gaining (1:
        still cheaper a month at the horizon's end) per draw × leading option."""
        d = len(next(iter(drawn.values())))
        shape = (d, len(self.options))
        names = ("npv", "saving", "payback", "gaining")
        out = {name: np.empty(shape, dtype=np.int64) for name in names}
        work = money.Work.of(self.h, min(CHUNK, d))
        simulated = self._simulated(drawn, d)
        for start in range(0, d, CHUNK):
            chunk = {name: values[start : start + CHUNK] for name, values in drawn.items()}
            n = len(next(iter(chunk.values())))
            self._sims = {
                key: (peak[start : start + n], None if first is None else first[start : start + n])
                for key, (peak, first) in simulated.items()
            }
            for name, found in self._run(chunk, work.first(n)).items():
                out[name][start : start + n] = found
        return out

    def _rps(self, drawn: Mapping[str, np.ndarray], n: int, pool: pools.Pool) -> np.ndarray:
        """Each draw's peak requests a second, as `uncertainty.apply` scales the workload."""
        if "requests_per_second" not in drawn:
            return np.full(n, pool.peak_rps)
        return pool.peak_rps * (drawn["requests_per_second"] / SCALE_DEN)

    def _simulated(self, drawn: Mapping[str, np.ndarray], d: int) -> dict:
        """(row, pool) → c† at each draw's peak month and, where M/M/c cannot meet the
        bound, at its first month (`drawn_pools`): all the draws at once, so each step of
        the staircase is found once a run."""
        rows = {p.row for o in self.options for p in o.parts if p.mode == "sized"}
        out = {}
        growth = _getter(drawn, d)("monthly_growth", RATE_DEN, self.plan.monthly_growth)
        last = np.power(1 + growth, float(self.h - 1))  # as `drawn_money.growth`'s last month
        for r in sorted(rows):
            for k, pool in enumerate(self.pools.get(r, [])):
                rps = self._rps(drawn, d, pool)
                first = None if pool.feasible else pool.simulated(rps)
                out[r, k] = (pool.simulated(rps * last), first)
        return out

    def _run(self, drawn: Mapping[str, np.ndarray], w: money.Work) -> dict[str, np.ndarray]:
        n = w.growth.shape[1]
        get = _getter(drawn, n)
        growth = get("monthly_growth", RATE_DEN, self.plan.monthly_growth)
        money.growth(growth, w.growth)
        self._baseline(drawn, n, growth, w)
        np.subtract(w.baseline, self.shared[:, None], out=w.net)
        for price, count, months, tier in self.moving:  # priced from a tier a draw moves
            num, den = self._factor(drawn, n, tier, tier in self.converted)
            cents = money.line_cents(price, num, den, np.full((1, n), float(count)))
            w.net[:months] -= cents
        staying = w.net[: self.both].copy()  # an option that does not run both pays as ever
        rate = get("annual_discount_rate", RATE_DEN, self.plan.annual_discount_rate)
        money.discount_factors(rate, w.factors)
        out = {
            name: np.empty((n, len(self.options)), dtype=np.int64)
            for name in ("npv", "saving", "payback", "gaining")
        }
        for k, option in enumerate(self.options):
            if option.costs is None or option.costs.carries("running_both"):
                w.net[: self.both] = -self.shared_const
            else:
                w.net[: self.both] = staying
            once = self._entered_one_time(drawn, n, option.costs)
            if option.bought is not None and self._owned_drawn(drawn):
                bill, metered, bought_once = self._owned_money(option, drawn, n)
                saving = np.subtract(w.net, bill, out=w.lines)
                shared = w.baseline - w.net
                exact = w.baseline - (shared + metered)
                one_time = bought_once + once
            elif option.bought is not None:
                saving = np.subtract(w.net, option.bought.monthly_cents[:, None], out=w.lines)
                shared = w.baseline - w.net
                exact = w.baseline - (shared + option.bought.exact_monthly[:, None])
                one_time = option.bought.one_time_cents + once
            else:
                setup = self._catalog(option, drawn, n, w)
                saving = np.subtract(w.net, w.lines, out=w.lines)
                exact, one_time = None, setup + once
            npv, total, month, gaining = money.outcome(saving, exact, one_time, w)
            out["npv"][:, k], out["saving"][:, k], out["payback"][:, k] = npv, total, month
            out["gaining"][:, k] = gaining
        return out

    @staticmethod
    def _owned_drawn(drawn: Mapping[str, np.ndarray]) -> bool:
        return any(name.startswith("owned:") for name in drawn)

    def _owned_money(self, option: Option, drawn: Mapping[str, np.ndarray], n: int):
        """An owned option's bill (H × n cents), its metered bill (float cents) and its
        one-time cents (n) with owned hardware's inputs drawn: each line the exact
        `owned.owned_money` gives for the moved server (`uncertainty._owned_server`),
        a draw's service life choosing its schedule of purchases and resale."""
        server, h = option.server, self.h
        ones = np.full(n, SCALE_DEN, dtype=np.int64)
        names = ("purchase_price", "kwh_price", "pue", "colocation", "resale", "lifetime")
        f = {k: drawn.get(f"owned:{k}", ones) for k in names}
        bill = np.zeros((h, n), dtype=np.int64)
        metered = np.zeros((h, n), dtype=float)
        once = np.zeros(n, dtype=np.int64)
        years = np.array([
            uncertainty.owned_years(server.depreciation_years, Decimal(int(v)) / SCALE_DEN)
            for v in f["lifetime"]
        ])  # fmt: skip
        count = server.count
        price = Fraction(server.purchase_price)
        for y in np.unique(years):
            at = years == y
            moved = server.model_copy(update={"depreciation_years": int(y)})
            base = owned.owned_money(moved, h)
            fp = f["purchase_price"][at]

            def cents(unit: Fraction, *nums: np.ndarray, k: int = int(at.sum())) -> np.ndarray:
                return _exact_cents(unit * count, nums, k)

            # purchases (cash), a loan's payments and the balance at the horizon, support:
            # each in proportion to the price, where the schedule at this life puts them
            buy = cents(price, fp)
            if server.financing == "cash":
                once[at] += buy * (0 in base.purchases)
                for month in base.purchases:
                    if month:
                        bill[month - 1, at] += buy
            else:
                rate, term = Fraction(server.loan_annual_rate or 0), int(server.loan_months or 1)
                pay = cents(owned.annuity(price, rate, term), fp)
                unit = tco.to_cents(owned.annuity(price, rate, term) * count)
                if unit:
                    active = base.lines["loan"] // unit
                    bill[:, at] += active[:, None] * pay[None, :]
                for start in base.purchases:  # each loan still running at the horizon
                    if start + term > h:
                        left = owned.balance(price, rate, term, h - start)
                        bill[h - 1, at] += cents(left, fp)
            once[at] += base.one_time["setup"]
            bill[:, at] += (base.lines["setup"] + base.lines["spares"])[:, None]
            support = cents(owned.support_unit(server), fp)
            power_unit = owned.power_unit(server)
            power = cents(power_unit, f["kwh_price"][at], f["pue"][at])
            colo = cents(Fraction(server.colocation_monthly), f["colocation"][at])
            bill[:, at] += (support + power + colo)[None, :]
            if server.resale == "percent":
                resale = cents(price * Fraction(server.resale_percent or 0), fp, f["resale"][at])
            else:
                resale = cents(base.resale_unit, fp)
            bill[h - 1, at] -= resale
            exact = float(power_unit * count * 100) * (
                f["kwh_price"][at] / SCALE_DEN) * (f["pue"][at] / SCALE_DEN)  # fmt: skip
            metered[:, at] = bill[:, at] - power[None, :] + exact[None, :]
        return bill, metered, once

    def _factor(self, drawn: Mapping[str, np.ndarray], n: int, tier: str, converted: bool):
        """The price factor of a tier per draw, as a numerator over a power of 10⁴: its own
        price line, the exchange rate where converted, and the bill where it is the
        baseline's tier (one price row: `uncertainty.bill_for_tier_baseline` moves it, and a
        candidate or a commitment on that tier pays the same price)."""
        num, den = np.ones(n, dtype=np.int64), 1
        bill = tier == self.plan.baseline.tier
        for name, on in ((f"price:{tier}", True), ("fx", converted), ("baseline_monthly", bill)):
            if on and name in drawn:
                num, den = num * drawn[name], den * SCALE_DEN
        return num, den

    def _moves(self, tier: str) -> bool:
        """Whether a draw can move the tier's price."""
        names = {f"price:{tier}", *(("fx",) if tier in self.converted else ())}
        if tier == self.plan.baseline.tier:
            names.add("baseline_monthly")
        return any(item.name in names for item in self.items)

    def _moving_commitments(self) -> list[tuple[Fraction, int, int, str]]:
        """(price, count, months, tier) of the commitments priced from a tier a draw moves."""
        return [
            (
                Fraction(self.prices.monthly(c.tier)),
                c.count,
                min(c.months_remaining, self.h),
                c.tier,
            )
            for c in self.plan.baseline.commitments
            if c.monthly is None and self._moves(c.tier)
        ]

    def _fixed_commitments(self) -> np.ndarray:
        """The commitments no draw moves, cents a month (`engine.Pricer.commitments`)."""
        out = np.zeros(self.h, dtype=np.int64)
        for c in self.plan.baseline.commitments:
            if c.monthly is None and self._moves(c.tier):
                continue
            amount = c.monthly if c.monthly is not None else self.prices.monthly(c.tier) * c.count
            out[: min(c.months_remaining, self.h)] += tco.to_cents(amount)
        return out

    def _baseline(self, drawn, n: int, growth: np.ndarray, w: money.Work) -> None:
        """The baseline's cents a month per draw, into w.baseline."""
        b = self.plan.baseline
        bill = drawn.get("baseline_monthly", np.full(n, SCALE_DEN))
        if b.monthly is not None:
            p, q = Fraction(b.monthly).as_integer_ratio()
            fixed = (2 * p * 100 * bill + q * SCALE_DEN) // (2 * q * SCALE_DEN)
            grows = growth != 0
            if grows.any():
                amount = (p / q) * bill / SCALE_DEN
                cents = np.multiply(amount[None, :], w.growth, out=w.scratch)
                cents *= 100
                money.guard(cents)
                cents += 0.5
                np.copyto(w.baseline, np.floor(cents, out=cents), casting="unsafe")
            w.baseline[:, ~grows] = fixed[~grows]
            return
        counts = np.subtract(b.count * w.growth, EPS, out=w.counts)
        np.ceil(counts, out=counts)
        num, den = self._factor(drawn, n, b.tier, b.tier in self.converted)  # the bill included
        price = Fraction(self.prices.monthly(b.tier))
        money.line_cents(price, num, den, counts, w.baseline, w.scratch)

    def _entered_one_time(self, drawn, n: int, costs: onetime.OneTimeCosts | None) -> np.ndarray:
        """The entered one-time costs the option carries (`onetime`), per draw."""
        ot = self.plan.one_time
        factor = drawn.get("one_time", np.full(n, SCALE_DEN))
        total = np.zeros(n, dtype=np.int64)
        carries = costs.carries if costs is not None else (lambda _: True)
        items = [ot.migration if carries("migration") else None,
                 ot.retraining if carries("retraining") else None, ot.other]  # fmt: skip
        for value in items:
            if value:
                p, q = Fraction(value).as_integer_ratio()
                total += (2 * p * 100 * factor + q * SCALE_DEN) // (2 * q * SCALE_DEN)
        return total

    def _counts(self, part: Part, drawn, n: int, w: money.Work) -> np.ndarray:
        """Servers a month per draw, into w.counts (whole numbers as float64), as the
        engine sizes them: the same float operations in the same order."""
        servers = w.counts
        if part.mode == "fixed":
            servers[...] = part.count
            return servers
        t, r = self.table, part.row
        assert t is not None and r is not None
        if self.matched is not None and self.matched.capacity is not None:
            return self._matched_counts(t, r, w)
        volume = drawn.get("batch_volume", np.full(n, SCALE_DEN)) / SCALE_DEN
        util = drawn.get("utilisation_target", np.full(n, 0)) / RATE_DEN
        util = np.where(util > 0, util, t.utilisation)
        hours = np.zeros(n)
        floor = np.ones(n)
        for c in t.batch:
            tp = self._throughput(drawn, n, c.workload.kind, part.tier)
            per = np.nan_to_num(c.seconds_per_unit[r] / 3600 * c.threads[r])
            hours = hours + c.workload.per_month * volume * per / tp
            if c.deadline_forced is not None:
                deadline = c.workload.deadline_hours
                forced = np.ceil(np.nan_to_num(c.seconds_per_unit[r] / tp / 3600 / deadline) - EPS)
                floor = np.maximum(floor, forced)
            if type(c.workload).__name__ == "FeaturesWorkload" and not c.workload.must_fit_one_box:
                split = np.ceil(c.memory_gib[r] / t.ram_gib[r] - EPS)
                floor = np.maximum(floor, np.nan_to_num(split))
        rerun = 1 + t.spot_allowance if t.spot[r] else 1.0
        if t.spot[r] and SPOT in drawn:  # each draw's share of spot work re-run
            rerun = 1 + drawn[SPOT] / RATE_DEN
        # workers + hours × rerun × growth ÷ (730 × utilisation), then ⌈÷ vCPUs − ε⌉
        np.multiply((hours * rerun)[None, :], w.growth, out=servers)
        servers /= (HOURS_PER_MONTH * util)[None, :]
        for k, pool in enumerate(self.pools.get(r, [])):  # each draw's load sizes the pool
            lam = np.multiply(self._rps(drawn, n, pool)[None, :], w.growth)
            peak, first = self._sims[r, k]
            servers += pools.workers(pool, lam, w.growth, peak, first)
        servers /= t.vcpus[r]
        servers -= EPS
        np.ceil(servers, out=servers)
        if not np.isfinite(servers).all():
            np.nan_to_num(servers, copy=False)
        np.maximum(servers, floor[None, :], out=servers)
        if (servers[1:] < servers[:-1]).any():  # a count never falls: keep the peak so far
            np.maximum.accumulate(servers, axis=0, out=servers)
        if any(c.workload.n_plus_one for c in t.inference):
            servers += 1
        return servers

    def _size(self, slugs: Sequence[str]) -> capacity.CapacityTable:
        return engine.size_plan(self.plan, self.prices, slugs, self.measurements,
                                self.speed_factors)  # fmt: skip

    def _matched_counts(self, t: capacity.CapacityTable, r: int, w: money.Work) -> np.ndarray:
        """Servers that carry the bill's machines' work (`matched`): capacity × growth ÷ the
        row's share, as the engine counts them. The work's volume, utilisation and a class's
        throughput move every tier alike, so only each draw's growth moves the count."""
        servers = w.counts
        share = float(matched.shares(t)[r])
        np.multiply(self.matched.capacity, w.growth, out=servers)  # type: ignore[union-attr]
        servers /= share  # the engine's order: capacity × growth ÷ share
        servers -= EPS
        np.ceil(servers, out=servers)
        np.maximum(servers, 1, out=servers)
        np.maximum.accumulate(servers, axis=0, out=servers)
        return servers

    def _throughput(self, drawn, n: int, kind: str, tier: str) -> np.ndarray:
        """The drawn throughput factor of a workload class on a tier: the class's one input
        here (`next_runs` draws each estimated tier's own)."""
        return drawn.get(f"throughput:{kind}", np.full(n, SCALE_DEN)) / SCALE_DEN

    def _catalog(self, option: Option, drawn, n: int, w: money.Work) -> np.ndarray:
        """An option's own lines into w.lines; returns its set-up fees (cents per draw)."""
        lines = w.lines
        lines[...] = 0
        setup = np.zeros(n, dtype=np.int64)
        ones = np.ones(n, dtype=np.int64)
        for part in option.parts:
            num, den = self._factor(drawn, n, part.tier, part.converted)
            if part.mode == "usage":
                assert part.usage is not None
                rate = self._rate(drawn)
                usage = part.usage
                if part.spot and SPOT in drawn:  # the re-runs at each draw's share
                    usage = usage / (1 + Fraction(self.plan.spot_interruption_allowance))
                    num, den = num * (RATE_DEN + drawn[SPOT]), den * RATE_DEN
                lines += money.usage_cents(usage, num, den, w.growth, rate, w.cents, w.scratch)
                continue
            counts = self._counts(part, drawn, n, w)
            lines += money.line_cents(part.price, num, den, counts, w.cents, w.scratch)
            if part.ops:
                lines += money.line_cents(part.ops, ones, 1, counts, w.cents, w.scratch)
            if part.setup:
                added = w.added
                added[0] = 0
                np.subtract(counts[1:], counts[:-1], out=added[1:])
                np.maximum(added, 0, out=added)
                lines += money.line_cents(part.setup, ones, 1, added, w.cents, w.scratch)
                setup += money.line_cents(part.setup, ones, 1, counts[:1])[0]
                if part.renew:
                    renewed = tco.renewals(counts, part.renew)
                    lines += money.line_cents(part.setup, ones, 1, renewed, w.cents, w.scratch)
            if part.owed:
                lines[-1] += money.line_cents(part.price, num, den, counts[-1:])[0] * part.owed
        return setup

    def _rate(self, drawn: Mapping[str, np.ndarray]) -> Callable[[int], Fraction]:
        """Draw j's monthly growth, exact."""
        if "monthly_growth" not in drawn:
            return lambda _j: Fraction(self.plan.monthly_growth)
        grown = drawn["monthly_growth"]
        return lambda j: Fraction(int(grown[j]), RATE_DEN)


def _getter(drawn: Mapping[str, np.ndarray], n: int):
    def get(name: str, den: int, base: Decimal) -> np.ndarray:
        if name in drawn:
            return drawn[name] / den
        return np.full(n, float(base))

    return get


# --- summary -------------------------------------------------------------------------------


def percentile_month(months: np.ndarray, q: int, horizon: int) -> int | None:
    """The q-th percentile of payback months, never-paying draws counted as beyond the
    horizon; None where the percentile falls among them."""
    return percentile_months(months, [q], horizon)[0]


def percentile_months(months: np.ndarray, qs: Sequence[int], horizon: int) -> list[int | None]:
    """`percentile_month` for several percentiles at once (one partition of the draws)."""
    ranked = np.where(months > 0, months, horizon + 1)
    values = np.percentile(ranked, qs, method="inverted_cdf")
    return [None if v > horizon else int(v) for v in values]


def percentile_labels(
    months: np.ndarray, gaining: np.ndarray, qs: Sequence[int], horizon: int
) -> list[str]:
    """The payback percentiles in the words of the table's `payback_label` (the one rule
    of docs/design.md, "Payback"): "month m", then the draws with no payback within the
    horizon that are still gaining at its end ("not within the horizon"), then those that
    are not ("never")."""
    ranked = np.where(months > 0, months, np.where(gaining > 0, horizon + 1, horizon + 2))
    values = np.percentile(ranked, qs, method="inverted_cdf")
    return [
        f"month {int(v)}" if v <= horizon else (tco.BEYOND if v == horizon + 1 else "never")
        for v in values
    ]


def summary(model: Model, draws: int = DRAWS, seed: int = SEED) -> MonteCarlo:
    """What the page shows: the inputs drawn, the draws priced (`Model.run`), and per option
    the share that pays back with P10/P50/P90 of the saving and of the payback month."""
    drawn = draw(model.items, draws, seed)
    found = model.run(drawn)
    h = model.h
    options = []
    for k, key in enumerate(model.keys):
        p10, p50, p90 = np.percentile(found["saving"][:, k], PERCENTILES, method="inverted_cdf")
        months = found["payback"][:, k]
        m10, m50, m90 = percentile_months(months, PERCENTILES, h)
        l10, l50, l90 = percentile_labels(months, found["gaining"][:, k], PERCENTILES, h)
        options.append(
            OddsOption(
                option=key,
                pays_back=str((Decimal(int((months > 0).sum())) / draws).quantize(FOUR)),
                saving=MoneyPercentiles(p10=str(tco.money(int(p10))), p50=str(tco.money(int(p50))),
                                        p90=str(tco.money(int(p90)))),
                payback_month=MonthPercentiles(p10=m10, p50=m50, p90=m90),
                payback_label=LabelPercentiles(p10=l10, p50=l50, p90=l90),
            )
        )  # fmt: skip
    return MonteCarlo(
        seed=seed, draws=draws, numpy=np.__version__, horizon_months=h,
        currency=model.plan.currency, options=options,
        inputs=[RangeUsed.of(i) for i in model.items],
    )  # fmt: skip


FOUR = Decimal("0.0001")

__all__ = ["DRAWS", "SEED", "Model", "draw", "percentile_month", "summary", "values_of"]
