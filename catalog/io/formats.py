"""Reading and writing catalog files, CSV or JSON: bytes to checked records and cells to text.

`parse` reads a file into cells and has `records` check every one of them. On the way
out, `csv_cell` and `json_value` write one value; `neutralise` keeps a spreadsheet
from running a text cell as a formula.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
from decimal import Decimal
from typing import Any

from django.conf import settings

from catalog.io.records import (
    FEED_FIELDS,
    PRICE_RECORD_FIELDS,
    RATE_FIELDS,
    RATE_RECORD_FIELDS,
    TEXT_CELLS,
    CatalogFileError,
    Issue,
    ParsedCatalog,
    check_records,
)
from common import safejson
from common.csv_cells import neutralise  # a leading "'" too: import undoes it exactly
from common.messages import Message, msg

FORMAT_NAME = "planner-catalog"
FORMAT_VERSION = 1

CSV_COLUMNS = ("record", *PRICE_RECORD_FIELDS, *RATE_FIELDS)  # required in every file
# What export writes: the required columns and the optional feed provenance.
EXPORT_COLUMNS = ("record", *PRICE_RECORD_FIELDS, *FEED_FIELDS, *RATE_FIELDS)


# Reading ---------------------------------------------------------------------------


def detect_format(filename: str, data: bytes) -> str:
    lowered = filename.lower()
    if lowered.endswith(".json"):
        return "json"
    if lowered.endswith(".csv"):
        return "csv"
    return "json" if data.lstrip()[:1] == b"{" else "csv"


def check_size(size: int) -> None:
    limit = settings.CATALOG_IMPORT_MAX_BYTES
    if size > limit:
        raise CatalogFileError(
            [Issue("file", None, msg("catalog.file_too_big", size=size, limit=limit))]
        )


def parse(data: bytes, fmt: str) -> ParsedCatalog:
    """Check every record of a CSV or JSON catalog file; raise CatalogFileError on any problem."""
    check_size(len(data))
    if not data.strip():
        raise CatalogFileError([Issue("file", None, msg("catalog.file_empty"))])
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise CatalogFileError([Issue(f"line {line}", None, msg("catalog.not_utf8"))]) from None
    records, issues = _csv_records(text) if fmt == "csv" else _json_records(text)
    # Records that did parse are still checked, so one refusal names every problem.
    parsed, more = check_records(records, quoted=fmt == "csv")
    issues = sorted(issues + more, key=_issue_order)
    if issues:
        raise CatalogFileError(issues)
    return parsed


def _issue_order(issue: Issue) -> tuple[int, int]:
    """File and header problems first, then by line (CSV) or by record (JSON)."""
    match = re.fullmatch(r"(line |prices\[|exchange_rates\[)(\d+)\]?", issue.where)
    if not match:
        return (0, 0)
    return ({"line ": 1, "prices[": 2}.get(match.group(1), 3), int(match.group(2)))


def _csv_records(text: str) -> tuple[list[tuple[str, dict[str, str]]], list[Issue]]:
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    issues: list[Issue] = []
    records: list[tuple[str, dict[str, str]]] = []
    header: list[str] | None = None
    start = 1
    try:
        for row in reader:
            where, start = f"line {start}", reader.line_num + 1
            if not row or row == [""]:
                continue
            if header is None:
                header = [cell.strip() for cell in row]
                _check_header(header)
                continue
            if len(row) != len(header):
                issues.append(Issue(where, None, _row_length(row, header)))
                continue
            records.append((where, dict(zip(header, row, strict=True))))
    except csv.Error as exc:
        unreadable = msg("catalog.unreadable_csv", error=str(exc))
        issues.append(Issue(f"line {reader.line_num}", None, unreadable))
    if header is None:
        raise CatalogFileError([Issue("file", None, msg("catalog.file_empty"))])
    if not records and not issues:
        raise CatalogFileError([Issue("file", None, msg("catalog.no_rows"))])
    return records, issues


def _row_length(row: list[str], header: list[str]) -> Message:
    if len(row) < len(header):
        return msg("catalog.row_short", fields=len(row), header=len(header),
                   first_missing=header[len(row)])  # fmt: skip
    return msg("catalog.row_long", fields=len(row), header=len(header))


def _check_header(header: list[str]) -> None:
    issues = []
    missing = [c for c in CSV_COLUMNS if c not in header]
    unknown = [c for c in header if c not in EXPORT_COLUMNS]
    repeated = sorted({c for c in header if header.count(c) > 1})
    if missing:
        issues.append(Issue("header", None, msg("catalog.columns_missing", columns=missing)))
    if unknown:
        issues.append(Issue("header", None, msg("catalog.columns_unknown", columns=unknown)))
    if repeated:
        issues.append(Issue("header", None, msg("catalog.columns_repeated", columns=repeated)))
    if issues:
        raise CatalogFileError(issues)


def _json_records(text: str) -> tuple[list[tuple[str, dict[str, str]]], list[Issue]]:
    try:
        # Duplicate keys, deep nesting, NUL, lone surrogates, NaN: refused with line and path.
        document = safejson.loads(text)
    except (json.JSONDecodeError, ValueError) as exc:
        line = getattr(exc, "lineno", None)
        raise CatalogFileError(
            [Issue(f"line {line}" if line else "file", None, f"not valid JSON: {exc}")]
        ) from None
    if not isinstance(document, dict):
        raise CatalogFileError([Issue("file", None, msg("catalog.not_json_object"))])
    issues = []
    if document.get("format") != FORMAT_NAME:
        issues.append(Issue("file", "format", msg("catalog.must_be", value=repr(FORMAT_NAME))))
    if document.get("version") != FORMAT_VERSION:
        issues.append(Issue("file", "version", msg("catalog.must_be", value=str(FORMAT_VERSION))))
    unknown = sorted(set(document) - {"format", "version", "prices", "exchange_rates"})
    if unknown:
        issues.append(Issue("file", None, msg("catalog.keys_unknown", keys=unknown)))
    records: list[tuple[str, dict[str, str]]] = []
    for key, record_type, names in (
        ("prices", "price", PRICE_RECORD_FIELDS),
        ("exchange_rates", "rate", RATE_RECORD_FIELDS),
    ):
        items = document.get(key, [])
        if not isinstance(items, list):
            issues.append(Issue("file", key, msg("catalog.not_a_list")))
            continue
        for index, item in enumerate(items):
            where = f"{key}[{index}]"
            if not isinstance(item, dict):
                issues.append(Issue(where, None, msg("catalog.not_an_object")))
                continue
            missing = [name for name in names if name not in item]
            optional = FEED_FIELDS if record_type == "price" else ()
            extra = sorted(set(item) - set(names) - set(optional))
            issues += [Issue(where, name, msg("catalog.field_missing")) for name in missing]
            issues += [Issue(where, name, msg("catalog.field_unknown")) for name in extra]
            if missing or extra:
                continue
            cells = {"record": record_type}
            for name in (*names, *(n for n in optional if n in item)):
                value = item[name]
                if isinstance(value, (dict, list)):
                    issues.append(Issue(where, name, msg("catalog.not_a_scalar")))
                cells[name] = _json_cell(value)
            records.append((where, cells))
    if not records and not issues:
        raise CatalogFileError([Issue("file", None, msg("catalog.nothing_in_file"))])
    return records, issues


def _json_cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# Writing ------------------------------------------------------------------------------


def format_decimal(value: Decimal | None) -> str:
    if value is None:
        return ""
    text = format(value, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text or "0"


def csv_cell(name: str, value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Decimal):
        return format_decimal(value)
    if isinstance(value, dt.date):
        return value.isoformat()
    text = str(value)
    return neutralise(text) if name in TEXT_CELLS else text


def json_value(value: Any) -> Any:
    if isinstance(value, Decimal):
        return format_decimal(value)  # a string: JSON numbers would lose exactness
    if isinstance(value, dt.date):
        return value.isoformat()
    return value
