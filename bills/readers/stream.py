"""Opening a bill file as a stream of Arrow record batches, never the whole file at once.

CSV (plain or gzip) is read by pyarrow's streaming CSV reader a block at a time, through
`Screen`, a file wrapper that checks the raw bytes as they pass (NUL bytes, over-long
lines) and counts lines, so a refusal names a line. Parquet is read by row groups in
batches. Every column is read as text and typed by the format's reader, so a value a
block's type inference would not expect never stops an import half way.

The engine (pyarrow in batches rather than DuckDB) was chosen by bench/bill_import.py:
see docs/design.md (Bills).
"""

from __future__ import annotations

import csv
import gzip
import io
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from bills.readers.errors import BillRefused

BLOCK_BYTES = 8 << 20  # pyarrow's CSV block: batches of about this much text
MAX_CELL_CHARS = 64 * 1024  # a real export's longest cells (tags, JSON) are a few KiB
MAX_LINE_BYTES = 256 * 1024  # a real export line is a few KiB (tags, JSON)
NULLS = ["", "NULL", "null", "None"]
PARQUET_MAGIC = b"PAR1"
GZIP_MAGIC = b"\x1f\x8b"


@dataclass(frozen=True)
class Opened:
    """A file opened for reading: its container, header and a batch iterator."""

    name: str
    container: str  # "csv", "csv.gz" or "parquet"
    header: list[str]


def container_of(path: Path) -> str:
    with path.open("rb") as handle:
        start = handle.read(4)
    if start == PARQUET_MAGIC:
        return "parquet"
    if start[:2] == GZIP_MAGIC:
        return "csv.gz"
    return "csv"


def _raw(path: Path, container: str):
    return gzip.open(path, "rb") if container == "csv.gz" else path.open("rb")


def read_header(path: Path, container: str) -> list[str]:
    """The header row's names (a UTF-8 BOM dropped), without reading further."""
    name = path.name
    if container == "parquet":
        try:
            return list(pq.ParquetFile(path).schema_arrow.names)
        except (pa.ArrowInvalid, OSError) as exc:
            raise BillRefused("bills.file.bad_parquet", file=name, reason=str(exc)[:200]) from exc
    try:
        with _raw(path, container) as raw:
            head = raw.read(256 * 1024)
    except (OSError, EOFError, zlib.error) as exc:
        raise BillRefused("bills.file.truncated", file=name, line=1) from exc
    if b"\x00" in head.split(b"\n", 1)[0]:
        raise BillRefused("bills.file.nul", file=name, line=1)
    text = head.decode("utf-8", errors="replace").lstrip("\ufeff")
    first = text.split("\n", 1)[0].strip("\r")
    if not first.strip():
        raise BillRefused("bills.file.empty", file=name)
    return next(csv.reader([first]))


class Screen(io.RawIOBase):
    """Passes a binary stream through, refusing NUL bytes and lines longer than
    MAX_LINE_BYTES, and counting lines (C speed: bytes' own searches). Hand-written:
    pyarrow's reader neither refuses NULs nor reports physical line numbers."""

    def __init__(self, raw, name: str) -> None:
        self.raw = raw
        self.name = name
        self.lines = 0  # complete lines seen so far
        self.run = 0  # length of the current, unfinished line

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        try:
            data = self.raw.read(len(buffer))
        except (OSError, EOFError, zlib.error) as exc:
            raise BillRefused("bills.file.truncated", file=self.name, line=self.lines + 1) from exc
        n = len(data)
        if not n:
            return 0
        # Every search below is C's (bytes.find/rfind/count): a line longer than the
        # limit is found by jumping from a line start to the last newline within the limit.
        nul = data.find(b"\x00")
        if nul >= 0:
            line = self.lines + 1 + data.count(b"\n", 0, nul)
            raise BillRefused("bills.file.nul", file=self.name, line=line)
        limit = MAX_LINE_BYTES
        first = data.find(b"\n")
        if first < 0:
            self.run += n
            if self.run > limit:
                self._too_long(self.lines + 1)
        else:
            if self.run + first > limit:
                self._too_long(self.lines + 1)
            start = first + 1  # a line's start
            while n - start > limit:
                last = data.rfind(b"\n", start, start + limit + 1)
                if last < 0:
                    self._too_long(self.lines + 1 + data.count(b"\n", 0, start))
                start = last + 1
            self.run = n - 1 - data.rfind(b"\n")
        self.lines += data.count(b"\n")
        buffer[:n] = data
        return n

    def _too_long(self, line: int) -> None:
        raise BillRefused("bills.file.long_line", file=self.name, line=line, limit=MAX_CELL_CHARS)


def csv_batches(
    path: Path, container: str, columns: list[str], threads: bool = True
) -> Iterator[tuple[int, pa.RecordBatch]]:
    """(first data line, batch) for the named columns, every value as text. Parsed on
    threads; a malformed row's line is then unknown to pyarrow, so the file is read
    again on one thread (the refusal path only) to name it."""
    name = path.name
    screen = Screen(_raw(path, container), name)
    bad: list[int] = []
    rescan: list[bool] = []

    def invalid(row) -> str:  # a row with the wrong number of fields
        if row.number is None and threads:
            rescan.append(True)
            return "error"  # pyarrow raises ArrowInvalid: rescanned below
        bad.append(row.number or 0)
        return "skip"

    try:
        reader = pacsv.open_csv(
            io.BufferedReader(screen, buffer_size=1 << 20),
            read_options=pacsv.ReadOptions(block_size=BLOCK_BYTES, use_threads=threads),
            parse_options=pacsv.ParseOptions(newlines_in_values=False, invalid_row_handler=invalid),
            convert_options=pacsv.ConvertOptions(
                include_columns=columns,
                column_types={c: pa.string() for c in columns},
                null_values=NULLS,
                strings_can_be_null=True,
                quoted_strings_can_be_null=True,
            ),
        )
        line = 2
        for batch in reader:
            if bad:
                raise BillRefused("bills.file.truncated", file=name, line=bad[0] or line)
            yield line, batch
            line += batch.num_rows
        if bad:
            raise BillRefused("bills.file.truncated", file=name, line=bad[0] or line)
    except pa.ArrowInvalid as exc:
        if rescan:
            for _ in csv_batches(path, container, columns, threads=False):
                pass
        text = str(exc)
        if "straddling" in text or "block" in text:
            raise BillRefused(
                "bills.file.long_line", file=name, line=screen.lines + 1, limit=MAX_CELL_CHARS
            ) from exc
        raise BillRefused("bills.file.unreadable", file=name, reason=text[:200]) from exc
    finally:
        screen.raw.close()


def parquet_batches(
    path: Path,
    columns: list[str],
    flatten: frozenset[str] = frozenset(),
    as_text: frozenset[str] = frozenset(),
) -> Iterator[tuple[int, pa.RecordBatch]]:
    """(first row number, batch) for the named columns, every value cast to text. A map
    column (AWS CUR 2.0's `product`, `resource_tags`) gives one text column per key
    whose `<column>_<key>` name is in `flatten` (`product` → `product_instance_type`);
    the map itself is not kept, unless named in `as_text` (CUR 2.0's `resource_tags`):
    then it is one text column, "k=v;k=v" per row."""
    try:
        source = pq.ParquetFile(path)
        row = 1
        for batch in source.iter_batches(batch_size=256 * 1024, columns=columns):
            names, arrays = [], []
            for name, array in zip(batch.schema.names, batch.columns, strict=True):
                if pa.types.is_map(array.type) and name in as_text:
                    names.append(name)
                    arrays.append(_map_text(array))
                    continue
                if pa.types.is_map(array.type):
                    own = frozenset(batch.schema.names)  # a column of its own comes first
                    for key, values in _map_columns(array, name, flatten - own):
                        names.append(key)
                        arrays.append(values)
                    continue
                names.append(name)
                arrays.append(array if pa.types.is_string(array.type) else array.cast(pa.string()))
            yield row, pa.RecordBatch.from_arrays(arrays, names=names)
            row += batch.num_rows
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, OSError) as exc:
        raise BillRefused("bills.file.bad_parquet", file=path.name, reason=str(exc)[:200]) from exc


def _map_text(array: pa.MapArray) -> pa.Array:
    """A map column as text, "k=v;k=v" per row (null: an empty or null map), vectorised."""
    pairs = pc.binary_join_element_wise(
        array.keys.cast(pa.string()), array.items.cast(pa.string()).fill_null(""), "="
    )
    listed = pa.ListArray.from_arrays(array.offsets, pairs, mask=array.is_null())
    joined = pc.binary_join(listed, ";")
    return pc.if_else(pc.equal(joined, ""), pa.nulls(len(array), pa.string()), joined)


def _map_columns(array: pa.MapArray, name: str, flatten: frozenset[str]):
    """(`<name>_<key>`, the key's values as text) for each key of the map named in
    `flatten` (a key missing on a row: null; a key given twice: its first value)."""
    for key in pc.unique(array.keys).to_pylist():
        flat = f"{name}_{key}"
        if key is None or flat not in flatten:
            continue
        values = pc.map_lookup(array, pa.scalar(key, array.type.key_type), "first")
        yield flat, values if pa.types.is_string(values.type) else values.cast(pa.string())


def batches(
    path: Path,
    container: str,
    columns: list[str],
    flatten: frozenset[str] = frozenset(),
    as_text: frozenset[str] = frozenset(),
):
    if container == "parquet":
        return parquet_batches(path, columns, flatten, as_text)
    return csv_batches(path, container, columns)
