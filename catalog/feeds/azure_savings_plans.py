"""Azure savings plan for compute: the Retail Prices API's `savingsPlan` terms.

With `api-version=2023-01-01-preview` (docs/formats.md §9) a pay-as-you-go row carries
`savingsPlan[] {term "1 Year"/"3 Years", retailPrice, unitPrice}`, each already a price
per hour. Each term of a Linux on-demand row becomes a price of the tier
`azure-<size>-<region>-savings-plan-1y` (or `-3y`): model `savings_plan_1y`/`_3y`, the
term in `min_term_months`, no set-up fee (Azure bills the plan hourly or monthly), the
row's `effectiveStartDate`, and `source_key` `meterId/skuId/savingsPlan <term>`. A size
whose row has no `savingsPlan` gets no savings plan tier: nothing is made up.

A `savingsPlan` that is not a list, or an entry lacking its term or price or naming an
unknown term, refuses the file like any other malformed row (the caller's `Problems`).
"""

from __future__ import annotations

import dataclasses
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from catalog.feeds.base import FeedPrice, Problems, non_negative_decimal
from common.messages import msg

YEARS = {"1 Year": 1, "3 Years": 3}
_MICRO = Decimal("0.000001")


def savings_plan_prices(
    item: dict[str, Any], on_demand: FeedPrice, where: str, problems: Problems
) -> list[FeedPrice]:
    """The savings plan prices of the on-demand row `item` (priced as `on_demand`)."""
    if "savingsPlan" not in item or on_demand.tier.get("pricing_model") != "on_demand":
        return []
    terms = item["savingsPlan"]
    if not isinstance(terms, list):
        problems.add(msg("feeds.json_value", where=where, key="savingsPlan", value=str(terms)))
        return []
    prices = []
    for index, term in enumerate(terms):
        at = f"{where}.savingsPlan[{index}]"
        if not isinstance(term, dict) or "term" not in term or "retailPrice" not in term:
            problems.add(msg("feeds.json_missing", where=at, key="term, retailPrice"))
            continue
        years = YEARS.get(str(term["term"]))
        amount = non_negative_decimal(term["retailPrice"])
        if years is None:
            problems.add(msg("feeds.json_value", where=at, key="term", value=str(term["term"])))
            continue
        if amount is None:
            problems.add(msg("feeds.json_value", where=at, key="retailPrice",
                             value=str(term["retailPrice"])))  # fmt: skip
            continue
        model = f"savings_plan_{years}y"
        prices.append(
            dataclasses.replace(
                on_demand,
                slug=on_demand.slug.removesuffix("-on-demand") + f"-{model.replace('_', '-')}",
                tier={**on_demand.tier, "pricing_model": model, "min_term_months": 12 * years},
                amount=amount.quantize(_MICRO, ROUND_HALF_UP),
                source_key=f"{on_demand.source_key}/savingsPlan {term['term']}"[:200],
            )
        )
    return prices
