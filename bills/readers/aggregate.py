"""Folding a stream of canonical batches into the bill's aggregates, a batch at a time:
memory grows with the number of distinct lines (days, accounts, SKUs ...), never with
the file. Pure: no Django."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from bills.readers.columns import AMOUNTS, FALLBACKS, FLAGS, KEYS
from bills.readers.errors import BillRefused

_MERGE_ROWS = 500_000
# At most this many distinct tag sets a file: a line is one of each key combination, so
# tags could otherwise make a line of every row. Rows whose set comes after the first
# MAX_TAG_SETS keep no tags (untagged), and the bill's `tags_capped` flag counts them.
MAX_TAG_SETS = 1000
_CURRENCY = re.compile(r"^[A-Z]{3}$")


@dataclass
class Folded:
    rows: int = 0
    parts: list[pa.Table] = field(default_factory=list)
    part_rows: int = 0
    flags: dict[str, dict] = field(default_factory=dict)  # code → rows, first_line, fallback
    currencies: dict[str, int] = field(default_factory=dict)  # currency → first line
    tag_sets: set[str] = field(default_factory=set)

    def add(self, table: pa.Table, file: str, quantity_column: str) -> None:
        _check(table, file, quantity_column)
        self.rows += table.num_rows
        lines = table.column("line")
        for code in FLAGS:
            marks = table.column(code)
            count = pc.sum(marks).as_py() or 0
            if count:
                entry = self.flags.setdefault(
                    code, {"rows": 0, "first_line": None, "fallback": FALLBACKS[code]}
                )
                entry["rows"] += count
                if entry["first_line"] is None:
                    at = int(np.argmax(np.asarray(marks.combine_chunks()) > 0))
                    entry["first_line"] = lines[at].as_py()
        for currency in pc.unique(table.column("currency")).to_pylist():
            if currency not in self.currencies:
                at = pc.index(table.column("currency"), currency).as_py()
                if not _CURRENCY.match(currency):
                    raise BillRefused(
                        "bills.value.bad_currency", file=file, line=lines[at].as_py(),
                        value=currency[:20],
                    )  # fmt: skip
                self.currencies[currency] = lines[at].as_py()
        table = self._cap_tags(table)
        part = _group(table.drop_columns([*FLAGS, "line"]).append_column(
            "rows", pa.array(np.ones(table.num_rows, dtype=np.int64))
        ))  # fmt: skip
        self.parts.append(part)
        self.part_rows += part.num_rows
        if len(self.parts) > 16 or self.part_rows > _MERGE_ROWS:
            self.parts = [_group(pa.concat_tables(self.parts))]
            self.part_rows = self.parts[0].num_rows

    def _cap_tags(self, table: pa.Table) -> pa.Table:
        column = table.column("tags").combine_chunks()
        if column.null_count == len(column):
            return table
        encoded = pc.dictionary_encode(column)
        keep = []
        for value in encoded.dictionary.to_pylist():
            if value not in self.tag_sets and len(self.tag_sets) < MAX_TAG_SETS:
                self.tag_sets.add(value)
            keep.append(value in self.tag_sets)
        if all(keep):
            return table
        dropped = pc.fill_null(pc.invert(pc.take(pa.array(keep), encoded.indices)), False)
        entry = self.flags.setdefault(
            "tags_capped", {"rows": 0, "first_line": None, "fallback": "untagged"}
        )
        entry["rows"] += pc.sum(dropped).as_py() or 0
        if entry["first_line"] is None:
            at = int(np.argmax(np.asarray(dropped)))
            entry["first_line"] = table.column("line")[at].as_py()
        capped = pc.if_else(dropped, pa.nulls(len(column), pa.string()), column)
        return table.set_column(table.schema.get_field_index("tags"), "tags", capped)

    def result(self) -> pa.Table:
        if not self.parts:
            return _group(pa.table({k: pa.array([], pa.string()) for k in KEYS}
                                   | {a: pa.array([], pa.float64()) for a in AMOUNTS}
                                   | {"rows": pa.array([], pa.int64())}))  # fmt: skip
        return _group(pa.concat_tables(self.parts))


def _group(table: pa.Table) -> pa.Table:
    summed = table.group_by(KEYS, use_threads=False).aggregate(
        [(a, "sum") for a in AMOUNTS] + [("rows", "sum")]
    )
    return summed.rename_columns([name.removesuffix("_sum") for name in summed.column_names])


def _check(table: pa.Table, file: str, quantity_column: str) -> None:
    lines = table.column("line")
    # A negative quantity with a negative cost is a reversal (real exports have them: the
    # FOCUS sample's Microsoft rows); with a positive cost it is no bill's arithmetic.
    negative = pc.and_(pc.less(table.column("quantity"), 0), pc.greater(table.column("billed"), 0))
    if pc.any(negative).as_py():
        at = int(np.argmax(np.asarray(negative.combine_chunks())))
        raise BillRefused(
            "bills.value.negative_quantity", file=file, line=lines[at].as_py(),
            column=quantity_column,
        )  # fmt: skip
    for name in ("currency", "day"):
        absent = pc.is_null(table.column(name))
        if pc.any(absent).as_py():
            at = int(np.argmax(np.asarray(absent.combine_chunks())))
            raise BillRefused("bills.value.missing", file=file, line=lines[at].as_py(), column=name)
