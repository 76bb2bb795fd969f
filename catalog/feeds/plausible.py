"""The last check before staging: every record a reader made is within the plausible
bounds (`bounds.py`) and fits the catalog's columns, whatever the reader checked.

The readers check their values where they can name the line or key; this is the net
under them, naming the record by its `source_key` (a rate by its date and currency).
"""

from __future__ import annotations

from catalog.feeds import bounds
from catalog.feeds.base import FeedPrice, FeedRate, Problems
from common.messages import msg

SLUG_MAX = 120  # Tier.slug's max_length
NAME_MAX = 200  # Tier.name's max_length


def check_records(records: list[FeedPrice | FeedRate]) -> None:
    """Refuse (FeedRefused) when any record is implausible or would not fit."""
    problems = Problems()
    seen_rates: set[tuple] = set()
    for record in records:
        if isinstance(record, FeedRate):
            where = f"{record.date} {record.quote}"
            key = (record.date, record.base, record.quote)
            if key in seen_rates:
                problems.add(msg("feeds.duplicate_rate", where=where, quote=record.quote,
                                 date=record.date))  # fmt: skip
            seen_rates.add(key)
            if bound := bounds.rate_problem(record.quote, record.rate):
                problems.add(msg("feeds.implausible", where=where, key="rate",
                                 value=str(record.rate), bound=bound))  # fmt: skip
            continue
        _check_price(problems, record)
    problems.refuse_if_any()


def _check_price(problems: Problems, record: FeedPrice) -> None:
    where = record.source_key or record.slug[:SLUG_MAX]
    if len(record.slug) > SLUG_MAX:
        problems.add(msg("feeds.key_too_long", where=where, key="slug",
                         length=len(record.slug), limit=SLUG_MAX))  # fmt: skip
    if len(str(record.tier.get("name") or "")) > NAME_MAX:
        problems.add(msg("feeds.key_too_long", where=where, key="name",
                         length=len(str(record.tier["name"])), limit=NAME_MAX))  # fmt: skip
    upfront = str(record.tier.get("pricing_model", "")).endswith("all_upfront")
    if bound := bounds.price_problem(record.amount, record.unit, record.currency,
                                     upfront_only=upfront):  # fmt: skip
        problems.add(msg("feeds.implausible", where=where, key="amount",
                         value=str(record.amount), bound=bound))  # fmt: skip
    if bound := bounds.fee_problem(record.setup_fee, record.currency, required=upfront):
        problems.add(msg("feeds.implausible", where=where, key="setup_fee",
                         value=str(record.setup_fee), bound=bound))  # fmt: skip
    for name in bounds.SPEC_RANGE:
        if bound := bounds.spec_problem(name, record.tier.get(name)):
            problems.add(msg("feeds.implausible", where=where, key=name,
                             value=str(record.tier.get(name))[:40], bound=bound))  # fmt: skip


def price_messages(where: str, amount, unit: str, currency: str, fee=None, model: str = ""):
    """What a reader says of an implausible price before it rounds it (a value such as
    1e400 cannot be rounded to the column's places): [] when it is plausible."""
    upfront = model.endswith("all_upfront")
    out = []
    if bound := bounds.price_problem(amount, unit, currency, upfront_only=upfront):
        out.append(msg("feeds.implausible", where=where, key="amount", value=_shown(amount),
                       bound=bound))  # fmt: skip
    if fee is not None and (bound := bounds.fee_problem(fee, currency, required=upfront)):
        out.append(msg("feeds.implausible", where=where, key="setup_fee", value=_shown(fee),
                       bound=bound))  # fmt: skip
    return out


def _shown(value) -> str:
    """A value as the feed gave it, an exponent form in its shortest spelling."""
    text = str(value)
    return (str(value.normalize()) if "E" in text else text)[:40]
