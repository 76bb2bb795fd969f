"""What every price feed hands the sync: staged records, refusals, and the source interface.

A source (one module per provider: `aws.py`, `ecb.py`) knows its published URL(s), its
default regions, how to read its file streaming, and whether a file lists every offer
of its scope (then a tier missing from it is retired). It yields `FeedPrice` or
`FeedRate` records and never touches the database; `stage.py` compares them with the
catalog and `apply.py` writes the difference.
"""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, ClassVar

from common.messages import Message, msg

# How many problems a refusal lists before "… and N more".
PROBLEMS_LISTED = 200

Progress = Callable[[int, int], None]  # (bytes read, records offered)


class FeedRefused(Exception):
    """The whole file (or download) is refused; `reasons` say why, nothing was written."""

    def __init__(self, reasons: list[Message]) -> None:
        self.reasons = reasons
        super().__init__("; ".join(str(reason) for reason in reasons))


@dataclass(frozen=True)
class FeedPrice:
    """One tier's price as a feed offers it.

    `tier` holds the Tier columns the feed knows; a value of None means "the feed does
    not say" and leaves what the catalog has (staff may have filled it in by hand).
    """

    slug: str
    provider: str
    tier: dict[str, Any]
    amount: Decimal
    unit: str
    currency: str
    effective_from: dt.date
    source_key: str
    setup_fee: Decimal = Decimal(0)
    vat_included: bool | None = None
    hourly_amount: Decimal | None = None  # billed by the hour up to `amount` a month


@dataclass(frozen=True)
class FeedRate:
    """1 `base` = `rate` `quote` on `date` (the ECB's reference rates: base EUR)."""

    date: dt.date
    base: str
    quote: str
    rate: Decimal


@dataclass
class Problems:
    """Problems found while reading a file: all of them refuse it, listed in file order."""

    found: list[Message] = field(default_factory=list)
    count: int = 0

    def add(self, message: Message) -> None:
        self.count += 1
        if len(self.found) < PROBLEMS_LISTED:
            self.found.append(message)

    def refuse_if_any(self) -> None:
        if self.count:
            more = self.count - len(self.found)
            tail = [msg("feeds.more_problems", count=more)] if more else []
            raise FeedRefused(self.found + tail)


@dataclass
class Reading:
    """A file being read: its records (a generator, consumed once) and what it said."""

    records: Iterator[FeedPrice | FeedRate]
    version: str = ""
    notes: list[Message] = field(default_factory=list)


class Source:
    """A price feed. Subclasses set the class attributes and implement `read`."""

    name: ClassVar[str]
    provider: ClassVar[str] = ""  # the catalog Provider its tiers belong to ("" for rates)
    # A complete file lists every offer of its scope: a tier of the scope missing from it
    # is retired. A feed that only adds (rates) is not complete.
    complete: ClassVar[bool] = False
    default_regions: ClassVar[tuple[str, ...]] = ("",)
    content_types: ClassVar[tuple[str, ...]] = ()
    vat_included: ClassVar[bool | None] = None

    def url(self, region: str) -> str:
        """The published URL of the file for `region`."""
        raise NotImplementedError

    def resolve_urls(self, regions: list[str], fetch: Callable[[str], Path]) -> dict[str, str]:
        """Region → URL; a source with an index (AWS) reads it through `fetch(url) → path`."""
        return {region: self.url(region) for region in regions}

    def fetch(
        self, url: str, dest: Path, progress: Callable[[int], None] | None, download: Callable
    ) -> Any:
        """Download `url` to `dest` with `download` (download.download, handed in by the sync)
        and return what it returns. A paged feed (Azure) follows its pages into one file."""
        return download(url, dest, content_types=self.content_types, progress=progress)

    def refuse_region(self, region: str, zones: bool) -> None:
        """Raise FeedRefused for a region this source does not import unless asked
        (`zones`: AWS Local and Wavelength Zones)."""

    def read(self, path: Path, region: str, progress: Progress | None = None) -> Reading:
        """Read a downloaded file streaming; raise FeedRefused (after listing every problem)."""
        raise NotImplementedError

    def scope_tiers(self, region: str) -> dict[str, Any]:
        """Which existing tiers the file speaks for (a Tier filter), for retiring."""
        return {"provider__name": self.provider, "region": region}


class CountingFile(io.RawIOBase):
    """A binary file that counts the bytes read from it (over every pass) and reports
    progress every 8 MiB; `records` is kept by the reader that uses it."""

    def __init__(self, path: Path, progress: Progress | None = None) -> None:
        super().__init__()
        self._file = path.open("rb", buffering=0)
        self.read_bytes = 0
        self.records = 0
        self._progress = progress
        self._reported = 0

    def rewind(self) -> None:
        self._file.seek(0)

    def readinto(self, buffer: Any) -> int:
        count = self._file.readinto(buffer)
        self.read_bytes += count
        if self._progress and self.read_bytes - self._reported >= 8 * 1024 * 1024:
            self._reported = self.read_bytes
            self._progress(self.read_bytes, self.records)
        return count

    def readable(self) -> bool:
        return True

    def close(self) -> None:
        self._file.close()
        super().close()


def regions_in_index(index: dict[str, str], regions: list[str], source: str) -> dict[str, str]:
    """{region: its file's URL} from a region index, refusing every region it lacks."""
    unknown = [region for region in regions if region not in index]
    if unknown:
        raise FeedRefused(
            [msg("feeds.unknown_region", region=region, source=source) for region in unknown]
        )
    return {region: index[region] for region in regions}


def non_negative_decimal(value: Any) -> Decimal | None:
    """A feed's number as a Decimal, exactly as written; None for what is not a finite
    number of at least zero (a bool, null, text, NaN, infinity, a negative)."""
    if isinstance(value, bool) or value is None:
        return None
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        return None
    return number if number.is_finite() and number >= 0 else None


def malformed_json(exc: Exception, file: CountingFile) -> FeedRefused:
    """ijson's error while streaming `file`, as the refusal naming where it stopped."""
    error = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else "?"
    return FeedRefused([msg("feeds.malformed_json", offset=file.read_bytes, error=error)])
