"""The one shape every reader gives: Arrow columns with the names below, whatever the
export called them, and the helpers that type a text column with a refusal that names
the line and the column. Pure: no Django."""

from __future__ import annotations

import re

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from bills.readers.errors import BillRefused
from bills.readers.stream import MAX_CELL_CHARS

# The aggregate key: a bill line is one of each combination of these.
KEYS = [
    "day", "provider", "billing_account", "account", "region", "service_category",
    "service_name", "sku", "instance_type", "pricing_category", "charge_category", "unit",
    "currency",
]  # fmt: skip
AMOUNTS = ["billed", "effective", "list", "cost", "quantity"]
# Per row, which fallback a quality flag used (a count is summed per flag).
FLAGS = [
    "effective_zero", "effective_rounded", "effective_missing", "list_missing",
    "list_below_billed", "correction",
]  # fmt: skip
# The fallback each flag names.
FALLBACKS = {
    "effective_zero": "billed",
    "effective_rounded": "billed",
    "effective_missing": "billed",
    "list_missing": "billed",
    "list_below_billed": "as_given",
    "correction": "as_given",
}

_DATE_FORMATS = (
    (re.compile(r"^\d{4}-\d{2}-\d{2}"), None),
    (re.compile(r"^\d{1,2}/\d{1,2}/\d{4}"), "%m/%d/%Y"),
    (re.compile(r"^\d{8}$"), "%Y%m%d"),
)


def text(batch: pa.RecordBatch, column: str | None) -> pa.Array:
    if column is None or column not in batch.schema.names:
        return pa.nulls(batch.num_rows, pa.string())
    return batch.column(column)


def check_cells(batch: pa.RecordBatch, file: str, first: int) -> None:
    """Refuse a cell longer than MAX_CELL_CHARS or holding a NUL (Parquet: CSV bytes are
    screened as they are read), naming its line and column."""
    for name, array in zip(batch.schema.names, batch.columns, strict=True):
        lengths = pc.utf8_length(array)
        longest = pc.max(lengths).as_py()
        if longest is not None and longest > MAX_CELL_CHARS:
            at = int(np.argmax(np.asarray(lengths.fill_null(0)) > MAX_CELL_CHARS))
            raise BillRefused(
                "bills.cell.too_long",
                file=file,
                line=first + at,
                column=name,
                limit=MAX_CELL_CHARS,
            )
        nul = pc.match_substring(array, "\x00")
        if pc.any(nul).as_py():
            at = int(np.argmax(np.asarray(nul.fill_null(False))))
            raise BillRefused("bills.cell.nul", file=file, line=first + at, column=name)


def number(batch: pa.RecordBatch, column: str | None, file: str, first: int) -> pa.Array:
    """A text column as float64 (empty: null), refusing a value that is not a number."""
    values = text(batch, column)
    try:
        return pc.cast(pc.utf8_trim_whitespace(values), pa.float64())
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        for i, value in enumerate(values.to_pylist()):
            try:
                float(value.strip()) if value is not None and value.strip() else None
            except ValueError:
                raise BillRefused(
                    "bills.value.not_number",
                    file=file,
                    line=first + i,
                    column=column,
                    value=value[:40],
                ) from None
        raise


def day(batch: pa.RecordBatch, column: str | None, file: str, first: int) -> pa.Array:
    """The charge date (date32) of a timestamp or date column in any form exports use."""
    values = text(batch, column)
    sample = values[0].as_py() if len(values) else None  # one value, not the column
    if not sample:
        valid = pc.drop_null(values)
        sample = valid[0].as_py() if len(valid) else None
    if sample is None:
        raise BillRefused("bills.value.no_date", file=file, line=first, column=column or "")
    for pattern, fmt in _DATE_FORMATS:
        if pattern.match(sample):
            try:
                if fmt is None:
                    return pc.cast(pc.utf8_slice_codeunits(values, 0, 10), pa.date32())
                head = pc.utf8_slice_codeunits(values, 0, len(sample.split(" ")[0]))
                return pc.cast(pc.strptime(head, format=fmt, unit="s"), pa.date32())
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
                break
    for i, value in enumerate(values.to_pylist()):
        if value is None or not any(p.match(value) for p, _ in _DATE_FORMATS):
            raise BillRefused(
                "bills.value.not_date",
                file=file,
                line=first + i,
                column=column or "",
                value=(value or "")[:40],
            )
    raise BillRefused(
        "bills.value.not_date", file=file, line=first, column=column or "", value=sample[:40]
    )


def mapped(values: pa.Array, table: dict[str, str], default: str | None = None) -> pa.Array:
    """Values looked up in `table` (case-insensitive); others become `default` (None: kept).
    Looked up once per distinct value (an export repeats a few dozen), not once per row."""
    if not len(values):
        return pa.array([], pa.string())
    encoded = pc.dictionary_encode(values)
    distinct = encoded.dictionary
    keys = list(table)
    index = pc.index_in(pc.utf8_lower(distinct), value_set=pa.array([k.lower() for k in keys]))
    found = pc.take(pa.array([table[k] for k in keys], pa.string()), index)
    fallback = distinct if default is None else pa.array([default] * len(distinct), pa.string())
    result = pc.take(pc.if_else(pc.is_null(index), fallback, found), encoded.indices)
    if default is not None and encoded.null_count:  # a null value: the default too
        result = pc.fill_null(result, default)
    return result


def const(value: str | None, n: int) -> pa.Array:
    return pa.array([value] * n, pa.string())


def zeros_if_null(values: pa.Array) -> pa.Array:
    return pc.fill_null(values, 0.0)


def assemble(columns: dict[str, pa.Array]) -> pa.Table:
    """The canonical table, in KEYS + AMOUNTS + FLAGS order."""
    names = KEYS + AMOUNTS + FLAGS + ["line"]
    return pa.table({name: columns[name] for name in names})
