"""The one shape every reader gives: Arrow columns with the names below, whatever the
export called them, and the helpers that type a text column with a refusal that names
the line and the column. Pure: no Django."""

from __future__ import annotations

import json
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
    "currency", "commitment_status", "tags",
]  # fmt: skip
# `contracted`: null where the file gives no contracted cost (a sum of nulls stays null);
# `eligible`: the list cost a row adds to the usage a commitment could cover (FOCUS: a
# resource-hour's list cost once, see focus.eligible); `unused`: unused commitment cost.
AMOUNTS = ["billed", "effective", "list", "cost", "quantity", "contracted", "eligible", "unused"]
# A row's commitment status, as FOCUS's CommitmentDiscountStatus names it.
USED, UNUSED = "Used", "Unused"
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


MAX_TAG_CHARS = 500  # a line's tag set, "k=v;k=v" sorted: cut at a whole tag beyond this


def _tag_text(value: str | None) -> str | None:
    """One tag cell (FOCUS/CUR 2.0 JSON, Azure's JSON without braces, or "k=v;k=v") as
    "k=v;k=v" sorted by key, empty values kept, ";" and "=" in keys and values replaced by
    ","; cut at a whole tag to MAX_TAG_CHARS; None when it holds no tag."""
    if value is None:
        return None
    text = value.strip()
    pairs: dict[str, str] = {}
    if text.startswith(("{", '"')):
        try:
            found = json.loads(text if text.startswith("{") else "{" + text + "}")
        except ValueError:
            found = None
        if isinstance(found, dict):
            pairs = {str(k): "" if v is None else str(v) for k, v in found.items()}
    elif "=" in text:
        for part in text.split(";"):
            k, _, v = part.partition("=")
            if k.strip():
                pairs[k.strip()] = v.strip()
    clean = lambda s: s.replace(";", ",").replace("=", ",").strip()  # noqa: E731
    tags = sorted(f"{clean(k)}={clean(v)}" for k, v in pairs.items() if clean(k))
    out = ""
    for tag in tags:
        if len(out) + len(tag) + 1 > MAX_TAG_CHARS:
            break
        out = f"{out};{tag}" if out else tag
    return out or None


def tags(values: pa.Array) -> pa.Array:
    """A tag column normalised (see `_tag_text`), once per distinct cell, not per row."""
    if not len(values) or values.null_count == len(values):
        return pa.nulls(len(values), pa.string())
    encoded = pc.dictionary_encode(values)
    distinct = pa.array([_tag_text(v) for v in encoded.dictionary.to_pylist()], pa.string())
    return pc.take(distinct, encoded.indices)


def tag_columns(batch: pa.RecordBatch, columns: dict[str, str]) -> pa.Array:
    """Tags spread over one column per key (AWS CUR `resourceTags/user:team`): `columns`
    maps a column to its tag key; a row's non-empty values joined "k=v;k=v" in key order."""
    n = batch.num_rows
    parts = []
    for column, key in sorted(columns.items(), key=lambda kv: kv[1]):
        values = batch.column(column)
        given = pc.and_(pc.is_valid(values), pc.not_equal(pc.fill_null(values, ""), ""))
        tag = pc.binary_join_element_wise(const(key.replace(";", ","), n), values, "=")
        parts.append(pc.if_else(given, tag, pa.nulls(n, pa.string())))
    if not parts:
        return pa.nulls(n, pa.string())
    joined = parts[0]  # pairwise: pyarrow's null_handling="skip" loses rows (21.0)
    for part in parts[1:]:
        both = pc.binary_join_element_wise(joined, part, ";")
        joined = pc.coalesce(both, joined, part)
    return tags(joined)


def const(value: str | None, n: int) -> pa.Array:
    return pa.array([value] * n, pa.string())


def zeros_if_null(values: pa.Array) -> pa.Array:
    return pc.fill_null(values, 0.0)


def assemble(columns: dict[str, pa.Array]) -> pa.Table:
    """The canonical table, in KEYS + AMOUNTS + FLAGS order."""
    names = KEYS + AMOUNTS + FLAGS + ["line"]
    return pa.table({name: columns[name] for name in names})
