"""Which reader a file needs, by its header, and reading it to aggregates.

A file of no kind read here is refused with the kinds that are. A file of a known kind
whose header matches no version read here (its required columns missing) is refused
with the missing columns named. Pure: no Django."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pyarrow as pa
import pyarrow.compute as pc

from bills.readers import aws_cur, azure, focus, gcp
from bills.readers.aggregate import Folded
from bills.readers.columns import check_cells
from bills.readers.errors import BillRefused
from bills.readers.stream import batches, container_of, read_header

READERS: tuple[ModuleType, ...] = (focus, aws_cur, azure, gcp)
KINDS = (
    "FOCUS 1.0-1.4, AWS CUR (legacy, 2.0), Azure cost export (EA, MCA, pay-as-you-go), "
    "GCP billing export"
)
QUANTITY = {
    "focus": "ConsumedQuantity",
    "aws_cur": "lineItem/UsageAmount",
    "azure": "Quantity",
    "gcp": "usage.amount",
}


@dataclass(frozen=True)
class Sniffed:
    kind: str
    version: str
    container: str
    header: list[str]
    reader: ModuleType


@dataclass
class ReadBill:
    """A file read to its aggregates, with what was said about its quality."""

    name: str
    sha256: str
    size: int
    kind: str
    version: str
    container: str
    view: str  # "focus" (billed and effective both given), "actual" or "amortized"
    rows: int
    lines: pa.Table
    flags: dict[str, dict]
    currencies: dict[str, int]
    first_day: dt.date | None
    last_day: dt.date | None


def sniff(path: Path, name: str | None = None) -> Sniffed:
    name = name or path.name
    if path.stat().st_size == 0:
        raise BillRefused("bills.file.empty", file=name)
    container = container_of(path)
    header = read_header(path, container)
    header = [h.lstrip("\ufeff").strip() for h in header]
    first = (header[0] if header else "").lower()
    if first.startswith(("<!doctype", "<html", "<?xml", "<")):
        raise BillRefused("bills.file.wrong_kind", file=name, what="HTML/XML", kinds=KINDS)
    for reader in READERS:
        if reader.claims(header):
            version = reader.version(header)
            if version is None:
                raise BillRefused(
                    "bills.header.unknown_version", file=name, kind=reader.LABEL,
                    columns=", ".join(reader.missing(header)),
                )  # fmt: skip
            return Sniffed(reader.KIND, version, container, header, reader)
    what = (
        "a price list"
        if {"FormatVersion", "SKU", "OfferTermCode"} & set(header)
        else header[0][:40]
    )
    raise BillRefused("bills.file.wrong_kind", file=name, what=what, kinds=KINDS)


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def _azure_view(path: Path, sniffed: Sniffed, name: str) -> str:
    """An Azure file's view: by its name, else a pass over its pricing-model column."""
    state: dict = {}
    if azure.view_of(name, state) != "actual" or "actual" in name.lower():
        return azure.view_of(name, state)
    columns = sniffed.reader.wanted(sniffed.header)
    for first, batch in batches(path, sniffed.container, columns):
        azure.normalise(batch, name, first, state)
        if state.get("commitment_usage_cost"):
            break
    return azure.view_of(name, state)


def read_bill(
    path: Path,
    name: str | None = None,
    progress: Callable[[int], None] | None = None,
    sha256: str | None = None,
) -> ReadBill:
    """Read a bill file to aggregates (streaming), or raise BillRefused. `sha256`: the
    file's digest where the caller has it (the importer does: not read twice)."""
    name = name or path.name
    sniffed = sniff(path, name)
    reader = sniffed.reader
    columns = reader.wanted(sniffed.header)
    view = "focus"
    state: dict = {}
    if sniffed.kind == "azure":
        view = state["view"] = _azure_view(path, sniffed, name)
    elif sniffed.kind != "focus":
        view = "actual" if sniffed.kind == "gcp" else "amortized"
    folded = Folded()
    flatten = getattr(reader, "FLATTEN", frozenset())
    as_text = getattr(reader, "AS_TEXT", frozenset())
    for first, batch in batches(path, sniffed.container, columns, flatten, as_text):
        if sniffed.container == "parquet":
            check_cells(batch, name, first)
        if sniffed.kind == "azure":
            table = reader.normalise(batch, name, first, state)
        else:
            table = reader.normalise(batch, name, first)
        folded.add(table, name, QUANTITY[sniffed.kind])
        if progress:
            progress(folded.rows)
    if folded.rows == 0:
        raise BillRefused("bills.file.no_rows", file=name)
    lines = folded.result()
    days = lines.column("day")
    return ReadBill(
        name=name,
        sha256=sha256 or sha256_of(path),
        size=path.stat().st_size,
        kind=sniffed.kind,
        version=sniffed.version,
        container=sniffed.container,
        view=view,
        rows=folded.rows,
        lines=lines,
        flags=folded.flags,
        currencies=folded.currencies,
        first_day=pc.min(days).as_py(),
        last_day=pc.max(days).as_py(),
    )
