"""The ECB's euro foreign exchange reference rates (docs/formats.md §5).

Two sources: `ecb` reads the daily file (the XML `eurofxref-daily.xml`, or the CSV
inside `eurofxref.zip`), `ecb-history` the full history (`eurofxref-hist.zip`, or the CSV
in it), only when asked for by name. Each rate becomes `1 EUR = rate X` on the rate's
own date. Rates are never retired or overwritten; currencies the catalog does not offer
(`catalog.models.CURRENCIES`) are skipped and named in a note.
"""

from __future__ import annotations

import contextlib
import csv
import datetime as dt
import io
import re
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Iterator
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import IO, Any

from catalog.feeds import bounds
from catalog.feeds.base import FeedRate, FeedRefused, Problems, Progress, Reading, Source
from catalog.models import CURRENCIES
from common.messages import msg

BASE_URL = "https://www.ecb.europa.eu/stats/eurofxref"
_NS = "{http://www.ecb.int/vocabulary/2002-08-01/eurofxref}"
_CODE = re.compile(r"^[A-Z]{3}$")
FIRST_DAY = dt.date(1999, 1, 4)  # the euro's first reference rates


class _Ecb(Source):
    provider = ""
    # The first day of the ECB's series: a history file must reach back to it.
    first_day: dt.date | None = None
    complete = False
    content_types = ("text/xml", "application/xml", "application/zip",
                     "application/x-zip-compressed", "application/octet-stream", "text/csv",
                     "text/plain")  # fmt: skip

    def read(self, path: Path, region: str, progress: Progress | None = None) -> Reading:
        reader = _Rates(path, progress, self.first_day)
        return Reading(records=reader.records(), version="", notes=reader.notes)


class EcbDaily(_Ecb):
    name = "ecb"

    def url(self, region: str) -> str:
        return f"{BASE_URL}/eurofxref-daily.xml"


class EcbHistory(_Ecb):
    name = "ecb-history"
    first_day = FIRST_DAY

    def url(self, region: str) -> str:
        return f"{BASE_URL}/eurofxref-hist.zip"


class _Tail(io.RawIOBase):
    """A binary file that remembers the last byte read from it."""

    def __init__(self, file: IO[bytes]) -> None:
        super().__init__()
        self._file, self.last = file, b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self._file.read(len(buffer))
        buffer[: len(data)] = data
        if data:
            self.last = data[-1:]
        return len(data)


class _Rates:
    def __init__(
        self, path: Path, progress: Progress | None, first_day: dt.date | None = None
    ) -> None:
        self.first_day = first_day
        self.path = path
        self.progress = progress
        self.problems = Problems()
        self.skipped: set[str] = set()
        self.notes: list = []
        self.count = 0
        self.seen: set[tuple[dt.date, str]] = set()

    def records(self) -> Iterator[FeedRate]:
        if zipfile.is_zipfile(self.path):
            yield from self._zip()
        else:
            with self.path.open("rb") as file:
                start = file.read(64).lstrip()
            if start.startswith(b"<"):
                yield from self._xml()
            else:
                with self.path.open("rb") as file:
                    yield from self._csv(file)
        self.problems.refuse_if_any()
        if self.skipped:
            self.notes.append(msg("feeds.skipped_currencies", codes=sorted(self.skipped)))

    def _rate(self, day: dt.date, code: str, text: str, where: str) -> FeedRate | None:
        text = text.strip()
        if not text or text == "N/A":
            return None
        if not _CODE.match(code):
            self.problems.add(msg("feeds.json_value", where=where, key="currency", value=code))
            return None
        try:
            rate = Decimal(text)
        except InvalidOperation:
            rate = Decimal(-1)
        if not rate.is_finite() or rate <= 0:
            self.problems.add(msg("feeds.json_value", where=where, key=code, value=text))
            return None
        if code not in CURRENCIES:
            self.skipped.add(code)
            return None
        if bound := bounds.rate_problem(code, rate):
            self.problems.add(msg("feeds.implausible", where=where, key=code, value=text[:40],
                                  bound=bound))  # fmt: skip
            return None
        if (day, code) in self.seen:
            self.problems.add(msg("feeds.duplicate_rate", where=where, quote=code, date=day))
            return None
        self.seen.add((day, code))
        self.count += 1
        if self.progress and self.count % 10_000 == 0:
            self.progress(0, self.count)
        return FeedRate(date=day, base="EUR", quote=code, rate=rate)

    def _xml(self) -> Iterator[FeedRate]:
        day: dt.date | None = None
        try:
            for _event, element in ET.iterparse(self.path, events=("start",)):
                if element.tag != f"{_NS}Cube":
                    continue
                if "time" in element.attrib:
                    day = _date(element.attrib["time"])
                    if day is None:
                        self.problems.add(msg("feeds.json_value", where="Cube", key="time",
                                              value=element.attrib["time"]))  # fmt: skip
                elif "currency" in element.attrib and day is not None:
                    if "rate" not in element.attrib:  # a renamed attribute drops no currency
                        self.problems.add(
                            msg(
                                "feeds.json_missing",
                                key="rate",
                                where=f"Cube {day} {element.attrib['currency']}",
                            )
                        )
                        continue
                    rate = self._rate(day, element.attrib["currency"],
                                      element.attrib["rate"], f"Cube {day}")  # fmt: skip
                    if rate:
                        yield rate
        except ET.ParseError as exc:
            raise FeedRefused(
                [msg("feeds.malformed_json", offset=exc.position[0], error=f"XML: {exc}")]
            ) from None

    def _zip(self) -> Iterator[FeedRate]:
        with zipfile.ZipFile(self.path) as archive:
            members = [n for n in archive.namelist() if n.lower().endswith(".csv")]
            if len(members) != 1:
                raise FeedRefused([msg("feeds.missing_keys", keys="one .csv file in the zip")])
            with archive.open(members[0]) as file:
                yield from self._csv(file)

    def _csv(self, file: IO[bytes]) -> Iterator[FeedRate]:
        tail = _Tail(file)
        text = io.TextIOWrapper(tail, "utf-8-sig", newline="")
        reader = csv.reader(text, skipinitialspace=True)
        first: dt.date | None = None
        try:
            header = [cell.strip() for cell in next(reader, [])]
            if not header or header[0] != "Date":
                raise FeedRefused([msg("feeds.missing_keys", keys="Date")])
            for row in reader:
                if not row or not row[0].strip():
                    continue
                yield from self._csv_row(header, row, reader.line_num)
                day = _date(row[0].strip())
                if day and (first is None or day < first):
                    first = day
        except csv.Error as exc:
            raise FeedRefused(
                [msg("feeds.malformed_csv", line=reader.line_num, error=str(exc))]
            ) from None
        except UnicodeDecodeError:
            raise FeedRefused([msg("feeds.not_utf8", line=reader.line_num + 1)]) from None
        # The ECB ends every line, the last too, with a line break: without one the file
        # was cut off, perhaps in the middle of a number (19.38 of 19.3849).
        if tail.last not in (b"\n", b""):
            self.problems.add(msg("feeds.cut_off", line=reader.line_num))
        if self.first_day and first and first > self.first_day:
            self.problems.add(msg("feeds.history_starts_late", first=first,
                                  expected=self.first_day))  # fmt: skip

    def _csv_row(self, header: list[str], row: list[str], line: int) -> Iterator[FeedRate]:
        # Every line of the ECB's files has the header's fields (both end in a comma): a
        # shorter one is a cut-off file, whose last rate may be cut mid-number.
        if len(row) != len(header):
            self.problems.add(msg("feeds.line_fields", line=line, count=len(row),
                                  header=len(header)))  # fmt: skip
            return
        day = _date(row[0].strip())
        if day is None:
            self.problems.add(msg("feeds.line_value", line=line, column="Date", value=row[0]))
            return
        for code, text in zip(header[1:], row[1:], strict=False):
            if code:
                rate = self._rate(day, code, text, f"line {line}")
                if rate:
                    yield rate


def _date(text: str) -> dt.date | None:
    """ISO (the XML and the history file) or "13 April 2026" (the daily CSV). A zero-padded
    YYYY-MM-DD, which strptime's "%Y-%m-%d" reads the same, goes the fast way: the history
    asks twice for each of its 6,983 days, and strptime is slow."""
    digits = text.replace("-", "")
    if len(text) == 10 and text[4] == text[7] == "-" and digits.isascii() and digits.isdigit():
        with contextlib.suppress(ValueError):
            return dt.date.fromisoformat(text)
    for pattern in ("%Y-%m-%d", "%d %B %Y"):
        try:
            return dt.datetime.strptime(text, pattern).date()
        except ValueError:
            continue
    return None
