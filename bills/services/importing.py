"""Importing a bill: all or nothing.

- The same file (same owner, same SHA-256) again changes nothing.
- A file covering exactly the (provider, billing account, month) set of a bill already
  held, in a view that could be added to it, replaces that bill (its rows go with it).
- A file overlapping a held bill without covering the same set is refused: neither
  replacing nor adding would be right.
- Actual and amortized exports of one account and month are kept as separate bills and
  never added together: `selectors` sums one view at a time; each says the other exists.
- Lines in another currency are converted at the ECB rate of their charge date.

Reading (pure, streaming) happens before the transaction; the writes are one transaction.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
from django.db import connection, transaction

from bills.models import Bill, BillLine
from bills.readers.dispatch import ReadBill, read_bill, sha256_of
from bills.readers.errors import BillRefused
from bills.services.currency import bill_currency, factors
from common.messages import Message, msg

BATCH = 5000
_PLACES = Decimal("1e-10")
# Views that would double count if added: FOCUS gives both billed and effective.
ADDS_TO = {"focus": {"focus", "actual", "amortized"}, "actual": {"focus", "actual"},
           "amortized": {"focus", "amortized"}}  # fmt: skip


@dataclass(frozen=True)
class Imported:
    bill: Bill
    outcome: str  # "imported", "same" or "replaced"
    message: Message


def _month_after(day: dt.date) -> dt.date:
    return dt.date(day.year + (day.month == 12), day.month % 12 + 1, 1)


def _scope(read: ReadBill) -> list[list[str]]:
    keys = zip(
        read.lines.column("provider").to_pylist(),
        read.lines.column("billing_account").to_pylist(),
        read.lines.column("day").to_pylist(),
        strict=True,
    )
    return sorted({(p or "", a or "", f"{d:%Y-%m}") for p, a, d in keys})


def _decimal(value: float) -> Decimal:
    return Decimal(repr(value)).quantize(_PLACES)


def _money(value: float, factor: Decimal) -> Decimal:
    amount = _decimal(value)
    return amount if factor == 1 else (amount * factor).quantize(_PLACES)


def _flags(read: ReadBill) -> list[dict]:
    out = []
    for code, entry in sorted(read.flags.items()):
        out.append(msg(f"bills.flag.{code}", rows=entry["rows"], line=entry["first_line"],
                       fallback=entry["fallback"]).to_json())  # fmt: skip
    return out


def import_bill(
    path: Path, owner, name: str | None = None, progress: Callable[[int], None] | None = None
) -> Imported:
    """Import one file for `owner`, or raise BillRefused (nothing changed)."""
    name = name or path.name
    digest = sha256_of(path)
    held = Bill.objects.filter(owner=owner, sha256=digest).first()
    if held is not None:
        return Imported(held, "same", msg("bills.import.same", file=name, bill=held.pk))
    read = read_bill(path, name, progress, sha256=digest)
    currency = bill_currency(read)
    per_line, converted = factors(read, currency)
    scope = _scope(read)
    flags = _flags(read) + converted
    with transaction.atomic():
        replaced, apart = _conflicts(owner, read, scope, name)
        for other in apart:
            flags.append(msg("bills.flag.views_apart", other=other.view, bill=other.pk).to_json())
        if replaced is not None:
            replaced_id = replaced.pk
            replaced.delete()
        bill = Bill.objects.create(
            owner=owner, name=shown_name(name), sha256=digest, size=read.size, kind=read.kind,
            version=read.version, container=read.container, view=read.view, currency=currency,
            period_start=read.first_day.replace(day=1), period_end=_month_after(read.last_day),
            first_day=read.first_day, last_day=read.last_day, rows=read.rows, scope=scope,
            flags=flags,
        )  # fmt: skip
        _write_lines(bill, read, per_line)
    if replaced is not None:
        return Imported(bill, "replaced", msg("bills.import.replaced", file=name, bill=replaced_id))
    done = msg("bills.import.done", file=name, bill=bill.pk, rows=read.rows,
               lines=read.lines.num_rows)  # fmt: skip
    return Imported(bill, "imported", done)


def _conflicts(owner, read: ReadBill, scope: list[list[str]], name: str):
    """The held bill this file replaces (or None) and the bills of the other view it
    overlaps (kept apart); refuses a partial overlap."""
    mine = {tuple(s) for s in scope}
    replaced, apart = None, []
    held = Bill.objects.select_for_update().filter(
        owner=owner, period_start__lt=_month_after(read.last_day),
        period_end__gt=read.first_day.replace(day=1),
    )  # fmt: skip
    for bill in held:
        theirs = {tuple(s) for s in bill.scope}
        common = mine & theirs
        if not common:
            continue
        if bill.view not in ADDS_TO[read.view]:
            apart.append(bill)
            continue
        if theirs != mine or replaced is not None:
            provider, account, month = sorted(common)[0]
            raise BillRefused(
                "bills.period.overlap", file=name, bill=bill.pk, provider=provider,
                account=account, month=month,
            )  # fmt: skip
        replaced = bill
    return replaced, apart


_TEXT = {"provider": 100, "billing_account": 200, "account": 200, "region": 100,
         "service_category": 100, "service_name": 200, "sku": 300, "instance_type": 100,
         "pricing_category": 30, "charge_category": 30, "unit": 100, "commitment_status": 10,
         "tags": 1000}  # fmt: skip
_AMOUNTS = {
    "billed": "billed",
    "effective": "effective",
    "list_cost": "list",
    "cost": "cost",
    "contracted": "contracted",
    "eligible_list": "eligible",
    "unused": "unused",
}


def _write_lines(bill: Bill, read: ReadBill, per_line: list[Decimal]) -> None:
    """The lines, a batch at a time, through the cursor's executemany (portable SQL, the
    ORM's own table and column names). Hand-written rather than bulk_create: measured on
    bench/bill_import.py, bulk_create spent ~0.5 ms a line compiling its SQL (80 % of an
    import of 40,000 lines); executemany takes a few µs. The values are made a column at
    a time by pyarrow (texts cut to their field, days as ISO dates, amounts rounded to the
    field's ten places), not a line at a time in Python: 195,000 lines of the bench's
    FOCUS month took ~9 CPU-s the old way."""
    meta = BillLine._meta
    names = ["bill", "day", *_TEXT, "source_currency", *_AMOUNTS, "quantity", "rows"]
    columns = [meta.get_field(n).column for n in names]
    quote = connection.ops.quote_name
    sql = (f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(c) for c in columns)}) "
           f"VALUES ({', '.join(['%s'] * len(columns))})")  # fmt: skip
    lines = read.lines
    n = lines.num_rows
    values: list[list] = [[bill.pk] * n, pc.cast(lines.column("day"), pa.string()).to_pylist()]
    for key, size in _TEXT.items():
        text = pc.utf8_slice_codeunits(pc.fill_null(lines.column(key), ""), 0, size)
        values.append(text.to_pylist())
    values.append(lines.column("currency").to_pylist())
    for column in _AMOUNTS.values():
        values.append(_amounts(lines.column(column), per_line))
    values.append(_amounts(lines.column("quantity"), None))
    values.append(lines.column("rows").to_pylist())
    rows = list(zip(*values, strict=True))
    with connection.cursor() as cursor:
        for start in range(0, n, BATCH):
            cursor.executemany(sql, rows[start : start + BATCH])


def _amounts(column: pa.ChunkedArray, per_line: list[Decimal] | None) -> list[Decimal]:
    """A column of float amounts as Decimals of ten places; a converted line (factor not 1)
    multiplied by its exact rate first, as before."""
    texts = pc.cast(pc.round(column, 10), pa.string()).to_pylist()
    out = [None if t is None else Decimal(t).quantize(_PLACES) for t in texts]
    if per_line is not None:
        floats = None
        for i, factor in enumerate(per_line):
            if factor != 1 and out[i] is not None:
                floats = floats if floats is not None else column.to_pylist()
                out[i] = _money(floats[i], factor)
    return out


def delete_bill(bill: Bill) -> None:
    """Delete a bill and its lines (the owner's call: views check ownership)."""
    bill.delete()


def shown_name(name: str) -> str:
    """The file's name as kept: control characters (a NUL, which PostgreSQL text refuses,
    line breaks) left out, at most 255 characters, "upload" when nothing is left."""
    kept = "".join(ch for ch in name if ch >= " " and ch != "\x7f").strip()
    return kept[:255] or "upload"
