"""OVHcloud's public order catalogue, eco range (docs/formats.md §4).

Where: `GET https://eu.api.ovh.com/v1/order/catalog/public/eco?ovhSubsidiary=FR`; the
"region" of this source is the subsidiary (FR), whose catalogue and currency it is.

A tier is a plan with the default add-on of each mandatory family (memory, storage,
bandwidth, vRack…), in each of its pricing modes: `default` (monthly, no commitment),
`degressivityN` (a lower monthly price for an N-month commitment) and `upfrontN` (one
payment for N months, stored as its monthly share so a plan's months add up the same).
Its monthly price is the plan's `renew` price plus its add-ons' in that mode; its set-up
fee the `installation` prices; the commitment goes in `min_term_months`. Prices are
integers in 10⁻⁸ of the currency, before VAT (`vat_included` false); temporary
`promotions` are left out. Specs: CPU brand, model, cores and threads from the plan's
product, RAM and disks from the default add-ons' products. `effective_from` is the
import's day, the feed's version its `catalogId`. The catalogue lists every plan on sale:
a plan no longer listed is retired.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from catalog.feeds import config
from catalog.feeds.base import FeedPrice, FeedRefused, Problems, Progress, Reading, Source
from catalog.feeds.plausible import SLUG_MAX, price_messages
from catalog.models import CURRENCIES, slug_validator
from common.django import clock
from common.messages import msg

PROVIDER = "OVHcloud"
TOP_KEYS = ("catalogId", "locale", "plans", "products", "addons")
UNIT = Decimal("100000000")  # prices are in 10^-8 of the currency
_GIB_PER_GB = Decimal(10**9) / Decimal(2**30)
_CENT = Decimal("0.01")
_MICRO = Decimal("0.000001")
_MODE = re.compile(r"^(default|degressivity(\d+)|upfront(\d+))$")
_CAPACITIES = {"renew", "installation", "release", "detach", "downgrade", "upgrade", "dynamic"}
# The currency each subsidiary's catalogue is in (OVHcloud's order API, `locale`).
SUBSIDIARY_CURRENCY = {
    "FR": "EUR", "DE": "EUR", "ES": "EUR", "IT": "EUR", "NL": "EUR", "IE": "EUR", "PT": "EUR",
    "FI": "EUR", "LT": "EUR", "PL": "PLN", "CZ": "CZK", "GB": "GBP", "CA": "CAD", "QC": "CAD",
    "US": "USD", "WS": "USD", "WE": "USD", "ASIA": "USD", "AU": "AUD", "SG": "SGD", "IN": "INR",
}  # fmt: skip


FORMATS = "OVHcloud's public order catalogue (/order/catalog/public/eco), JSON"


def _kind(document: Any) -> str:
    if isinstance(document, dict):
        return "a JSON object with the keys " + ", ".join(sorted(map(str, document))[:10])
    return f"a JSON {type(document).__name__}"


class OvhEco(Source):
    name = "ovh"
    provider = PROVIDER
    complete = True
    vat_included = False
    content_types = ("application/json", "text/json", "text/plain", "application/octet-stream")

    @property
    def default_regions(self) -> tuple[str, ...]:  # type: ignore[override]
        return config.ovh_subsidiaries()

    def url(self, region: str) -> str:
        return f"{config.ovh_base_url()}?ovhSubsidiary={region}"

    def read(self, path: Path, region: str, progress: Progress | None = None) -> Reading:
        try:
            document = json.loads(path.read_bytes())
        except (ValueError, UnicodeDecodeError) as exc:
            raise FeedRefused([msg("feeds.malformed_json", offset=getattr(exc, "pos", 0),
                                   error=str(exc)[:200])]) from None  # fmt: skip
        missing = [k for k in TOP_KEYS if not isinstance(document, dict) or k not in document]
        if len(missing) == len(TOP_KEYS):
            raise FeedRefused([msg("feeds.unsupported_format", source=self.name,
                                   found=_kind(document), formats=FORMATS)])  # fmt: skip
        if missing:
            raise FeedRefused([msg("feeds.missing_keys", keys=", ".join(missing))])
        records = _Catalogue(document, region, clock.today()).records()
        if progress:
            progress(path.stat().st_size, len(records))
        return Reading(records=iter(records), version=str(document["catalogId"]))


class _Catalogue:
    def __init__(self, document: dict[str, Any], region: str, today: dt.date) -> None:
        self.document = document
        self.region = region
        self.today = today
        self.problems = Problems()
        self.addons = {a.get("planCode"): a for a in document["addons"] if isinstance(a, dict)}
        self.products = {p.get("name"): p for p in document["products"] if isinstance(p, dict)}

    def records(self) -> list[FeedPrice]:
        locale = self.document["locale"]
        currency = locale.get("currencyCode") if isinstance(locale, dict) else None
        subsidiary = locale.get("subsidiary") if isinstance(locale, dict) else None
        if currency not in CURRENCIES:
            raise FeedRefused([msg("feeds.json_value", where="locale", key="currencyCode",
                                   value=str(currency))])  # fmt: skip
        if subsidiary != self.region:
            raise FeedRefused(
                [msg("feeds.wrong_region", found=str(subsidiary), expected=self.region)]
            )
        expected = SUBSIDIARY_CURRENCY.get(str(subsidiary))
        if expected and currency != expected:
            raise FeedRefused([msg("feeds.currency_mismatch", where="locale",
                                   key="currencyCode", found=currency, expected=expected,
                                   scope=str(subsidiary))])  # fmt: skip
        out: list[FeedPrice] = []
        for index, plan in enumerate(self.document["plans"]):
            out.extend(self._plan(plan, f"plans[{index}]", currency))
        self.problems.refuse_if_any()
        return out

    def _plan(self, plan: Any, where: str, currency: str) -> list[FeedPrice]:
        if not isinstance(plan, dict) or not {"planCode", "pricings", "addonFamilies"} <= set(plan):
            self.problems.add(msg("feeds.json_missing", where=where,
                                  key="planCode, pricings, addonFamilies"))  # fmt: skip
            return []
        parts = [plan]
        for family in plan["addonFamilies"]:
            if not isinstance(family, dict) or not family.get("mandatory"):
                continue
            addon = self.addons.get(family.get("default"))
            if addon is None:
                self.problems.add(msg("feeds.json_missing", where=f"{where} {family.get('name')}",
                                      key=f"addons.{family.get('default')}"))  # fmt: skip
                return []
            parts.append(addon)
        totals = self._totals(parts, where)
        if totals is None:
            return []
        spec = self._specs(plan, parts[1:])
        return [
            price
            for mode, (renew, install) in sorted(totals.items())
            if (price := self._price(plan, where, mode, renew, install, currency, spec))
        ]

    def _totals(self, parts: list[dict], where: str) -> dict[str, tuple[Decimal, Decimal]] | None:
        """mode → (the renew price a month, the installation price), over plan and add-ons.
        A mode counts only when the plan and every add-on price it. Each pricing of a mode
        must say what it is (`capacities`), a renewal its `interval` in months (N for
        `upfrontN`), and a part that prices a mode must renew in it."""
        per_part = []
        for part in parts:
            prices: dict[str, list[Decimal]] = {}
            renewed: set[str] = set()
            at = f"{where} {part['planCode']}"
            for pricing in part.get("pricings") or []:
                mode = pricing.get("mode") if isinstance(pricing, dict) else None
                if not mode or not (match := _MODE.match(mode)):
                    continue
                amount = pricing.get("price")
                if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
                    self.problems.add(msg("feeds.json_value", where=at, key="price",
                                          value=str(amount)[:40]))  # fmt: skip
                    return None
                capacities = pricing.get("capacities")
                if not isinstance(capacities, list) or not set(capacities) & _CAPACITIES:
                    self.problems.add(msg("feeds.json_missing", where=f"{at} {mode}",
                                          key="capacities (renew, installation)"))  # fmt: skip
                    return None
                slot = prices.setdefault(mode, [Decimal(0), Decimal(0)])
                value = Decimal(amount) / UNIT
                if "renew" in capacities:
                    months = _renew_months(pricing, match)
                    if months is None:
                        self.problems.add(msg("feeds.json_value", where=f"{at} {mode}",
                                              key="interval, intervalUnit",
                                              value=f"{pricing.get('interval')} "
                                              f"{pricing.get('intervalUnit')}"))  # fmt: skip
                        return None
                    slot[0] += value / months
                    renewed.add(mode)
                if "installation" in capacities:
                    slot[1] += value
            if unrenewed := sorted(set(prices) - renewed):
                self.problems.add(msg("feeds.json_missing", where=f"{at} {unrenewed[0]}",
                                      key="pricings (renew)"))  # fmt: skip
                return None
            per_part.append(prices)
        if not per_part[0].get("default"):
            self.problems.add(msg("feeds.json_missing", where=where, key="pricings (default)"))
            return None
        modes = set(per_part[0]).intersection(*per_part[1:])
        return {
            mode: (sum(p[mode][0] for p in per_part), sum(p[mode][1] for p in per_part))
            for mode in modes
        }

    def _specs(self, plan: dict, addons: list[dict]) -> dict[str, Any]:
        technical = _technical(self.products.get(plan.get("product")))
        cpu = (technical.get("server") or {}).get("cpu") or {}
        spec: dict[str, Any] = {
            "cpu_model": " ".join(str(cpu[k]) for k in ("brand", "model") if cpu.get(k)) or None,
            "vcpus": cpu.get("threads") if isinstance(cpu.get("threads"), int) else None,
            "cores": cpu.get("cores") if isinstance(cpu.get("cores"), int) else None,
            "ram_gib": None, "storage_gib": None, "storage_type": None, "network": None,
        }  # fmt: skip
        for addon in addons:
            detail = _technical(self.products.get(addon.get("product")))
            memory = detail.get("memory") or {}
            if isinstance(memory.get("size"), int | float):
                spec["ram_gib"] = Decimal(str(memory["size"]))  # GB: binary (docs/design.md)
            disks = (detail.get("storage") or {}).get("disks")
            if disks and spec["storage_type"] is None:
                spec["storage_gib"], spec["storage_type"] = _disks(disks)
            if str(addon.get("planCode", "")).startswith("bandwidth-"):
                spec["network"] = str(addon.get("invoiceName", ""))[:120] or None
        return spec

    def _price(self, plan: dict, where: str, mode: str, renew: Decimal, install: Decimal,
               currency: str, spec: dict[str, Any]) -> FeedPrice | None:  # fmt: skip
        match = _MODE.match(mode)
        months = int(match.group(2) or match.group(3) or 0) if match else 0
        variant = ""
        if match and match.group(2):
            variant = f"-{months}m-commitment"
        elif match and match.group(3):
            variant = f"-{months}m-upfront"
        code = str(plan["planCode"]).lower()
        slug = f"ovh-{code}-{self.region.lower()}{variant}-fixed-monthly"
        try:
            slug_validator(slug)
        except Exception:
            self.problems.add(msg("feeds.json_value", where=where, key="planCode",
                                  value=code[:80]))  # fmt: skip
            return None
        if len(slug) > SLUG_MAX:
            self.problems.add(msg("feeds.key_too_long", where=where, key="planCode",
                                  length=len(code), limit=SLUG_MAX))  # fmt: skip
            return None
        if problems := price_messages(f"{where} {mode}", renew, "month", currency, install):
            for problem in problems:
                self.problems.add(problem)
            return None
        return FeedPrice(
            slug=slug,
            provider=PROVIDER,
            tier={
                "name": str(plan.get("invoiceName") or plan["planCode"])[:200],
                "region": self.region,
                "pricing_model": "fixed_monthly",
                "kind": "dedicated",
                **spec,
                "min_term_months": months or None,
                "retired": False,
            },
            amount=renew.quantize(_MICRO, ROUND_HALF_UP),
            unit="month",
            currency=currency,
            effective_from=self.today,
            source_key=f"{plan['planCode']}.{mode}",
            setup_fee=install.quantize(_CENT, ROUND_HALF_UP),
            vat_included=False,
        )


def _renew_months(pricing: dict[str, Any], mode: re.Match[str]) -> int | None:
    """How many months one renewal pays for: a positive `interval` in months (N for an
    `upfrontN` mode), or None when the entry says otherwise."""
    interval, unit = pricing.get("interval"), pricing.get("intervalUnit")
    if unit != "month" or not isinstance(interval, int) or isinstance(interval, bool):
        return None
    if interval < 1 or (mode.group(3) and interval != int(mode.group(3))):
        return None
    return interval


def _technical(product: Any) -> dict[str, Any]:
    blobs = product.get("blobs") if isinstance(product, dict) else None
    technical = blobs.get("technical") if isinstance(blobs, dict) else None
    return technical if isinstance(technical, dict) else {}


def _disks(disks: list[Any]) -> tuple[Decimal | None, str | None]:
    total, labels = Decimal(0), []
    for disk in disks:
        if not isinstance(disk, dict) or not isinstance(disk.get("capacity"), int | float):
            return None, None
        count = int(disk.get("number") or 1)
        total += count * Decimal(str(disk["capacity"]))
        kind = " ".join(str(disk[k]) for k in ("technology", "interface") if disk.get(k))
        labels.append(f"{count} x {disk['capacity']} GB {kind}".strip())
    return (total * _GIB_PER_GB).quantize(_CENT), ", ".join(labels)[:120]
