"""Running a price feed: the one service behind the command, the task and (later) the admin.

`sync_source(name, regions, file=…, url=…, dry_run=…)` imports each region in turn and
returns one `FeedImport` per region (saved unless `dry_run`). Per region it is all or
nothing: a download or file refused, a malformed or changed format, or a record count
that fell by more than `CATALOG_FEED_MAX_DROP` against the last import of the same
source and region refuses the file with its reasons and writes nothing but the
`FeedImport` that says so. A file whose SHA-256 equals the last import's is reported
unchanged before it is parsed.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import time
from collections.abc import Callable
from pathlib import Path

from django.utils import timezone

from catalog.feeds import config
from catalog.feeds.apply import apply
from catalog.feeds.base import FeedRefused, Source
from catalog.feeds.download import download, file_digest
from catalog.feeds.plausible import check_records
from catalog.feeds.registry import get_source
from catalog.feeds.stage import stage
from catalog.models import FeedImport
from common.messages import Message, Percent, msg

# (stage, bytes so far, records so far): the command prints it, the admin may show it.
Report = Callable[[str, int, int], None]
logger = logging.getLogger(__name__)
DONE = (FeedImport.Status.IMPORTED, FeedImport.Status.UNCHANGED)


class SyncUsageError(ValueError):
    """The call itself is wrong (a file with two regions, an unknown source)."""


def sync_source(
    name: str,
    regions: list[str] | None = None,
    *,
    file: Path | None = None,
    url: str | None = None,
    dry_run: bool = False,
    report: Report | None = None,
    store_progress: bool = False,
    zones: bool = False,
) -> list[FeedImport]:
    """`zones`: import AWS Local and Wavelength Zones named in `regions` (refused otherwise).
    `store_progress` writes the bytes and records read so far onto each region's
    running FeedImport row (at most twice a second), for the admin's progress bar."""
    try:
        source = get_source(name)
    except KeyError as exc:
        raise SyncUsageError(exc.args[0]) from None
    regions = list(regions or source.default_regions)
    if (file or url) and len(regions) != 1:
        raise SyncUsageError("a file or URL holds one region: name it with --region")
    if store_progress and not dry_run:
        report = _Storing(report)
    for region in regions:
        try:
            source.refuse_region(region, zones)
        except FeedRefused as exc:
            return [_refused(source, r, "", exc.reasons, dry_run) for r in regions]
    if file:
        return [_sync_region(source, regions[0], file, None, dry_run, report)]
    if url:
        return [_sync_region(source, regions[0], None, url, dry_run, report)]
    try:
        urls = source.resolve_urls(regions, lambda index: _fetch_index(source, index))
    except FeedRefused as exc:
        return [_refused(source, region, "", exc.reasons, dry_run) for region in regions]
    return [_sync_region(source, r, None, urls[r], dry_run, report) for r in regions]


class _Storing:
    """A Report that also saves the progress on the region's running FeedImport row."""

    INTERVAL = 0.5  # seconds between writes: the page polls every second

    def __init__(self, inner: Report | None) -> None:
        self.inner, self.record, self.last = inner, None, 0.0
        self.bytes = 0

    def __call__(self, stage: str, size: int, count: int) -> None:
        if stage == "download":
            self.bytes = size
        now = time.monotonic()
        if self.record is not None and self.record.pk and now - self.last >= self.INTERVAL:
            self.last = now
            FeedImport.objects.filter(pk=self.record.pk).update(
                bytes=max(size, self.bytes), records=count
            )
        if self.inner:
            self.inner(stage, size, count)


def _fetch_index(source: Source, url: str) -> Path:
    dest = config.download_dir() / source.name / "index.json"
    return download(url, dest, content_types=source.content_types).path


def _refused(
    source: Source, region: str, where: str, reasons: list[Message], dry_run: bool
) -> FeedImport:
    now = timezone.now()
    record = FeedImport(source=source.name, region=region, url=where, started_at=now,
                        finished_at=now, status=FeedImport.Status.REFUSED,
                        messages=[m.to_json() for m in reasons])  # fmt: skip
    if not dry_run:
        record.save()
    return record


def _sync_region(
    source: Source,
    region: str,
    file: Path | None,
    url: str | None,
    dry_run: bool,
    report: Report | None,
) -> FeedImport:
    where = url or str(file)
    if not dry_run:
        _end_orphans(source.name, region)
    record = FeedImport(source=source.name, region=region, url=where[:1000],
                        started_at=timezone.now(), status=FeedImport.Status.RUNNING)  # fmt: skip
    if not dry_run:
        record.save()
    if isinstance(report, _Storing):
        report.record, report.bytes = record, 0
    path = file
    try:
        if file is None:
            path = config.download_dir() / source.name / f"{region or 'feed'}-{os.getpid()}"
            got = source.fetch(url, path, lambda n: report and report("download", n, 0), download)
            record.sha256, record.bytes = got.sha256, got.size
        else:
            record.sha256, record.bytes = _digest(file), file.stat().st_size
        _import(source, region, path, url or source.url(region), record, dry_run, report)
    except FeedRefused as exc:
        record.status = FeedImport.Status.REFUSED
        record.messages = [m.to_json() for m in exc.reasons]
    except Exception as exc:  # whatever it was, the record must not stay "running"
        # The write is one transaction (apply), so nothing of the file was kept. The record
        # says what broke; the log keeps the traceback.
        logger.exception("feed %s %s failed", source.name, region)
        record.status = FeedImport.Status.FAILED
        error = f"{type(exc).__name__}: {exc}".strip()
        record.messages = [msg("feeds.import_failed", error=error[:500]).to_json()]
    except BaseException as exc:  # interrupted (Ctrl-C, a worker's shutdown): say so, go on
        record.status = FeedImport.Status.FAILED
        why = type(exc).__name__
        record.messages = [msg("feeds.import_interrupted", reason=why).to_json()]
        record.finished_at = timezone.now()
        if not dry_run:
            record.save()
        raise
    finally:
        if file is None and path is not None:
            path.unlink(missing_ok=True)
    record.finished_at = timezone.now()
    if not dry_run:
        record.save()
    return record


# An import of the largest file takes minutes (download included); one still "running"
# after this long had its process killed (a worker's OOM, SIGKILL, a host restart).
ORPHAN_AFTER = dt.timedelta(hours=6)


def _end_orphans(source: str, region: str) -> int:
    """Mark the source's and region's imports left "running" by a process that died (older
    than ORPHAN_AFTER) as failed, saying so: no record stays "running" for ever (issue 28).
    Returns how many."""
    stale = FeedImport.objects.filter(source=source, region=region,
                                      status=FeedImport.Status.RUNNING,
                                      started_at__lt=timezone.now() - ORPHAN_AFTER)  # fmt: skip
    hours = int(ORPHAN_AFTER.total_seconds() // 3600)
    reason = msg("feeds.import_orphaned", hours=hours).to_json()
    return stale.update(status=FeedImport.Status.FAILED, messages=[reason],
                        finished_at=timezone.now())  # fmt: skip


def _digest(file: Path) -> str:
    try:
        return file_digest(file)
    except OSError as exc:
        raise FeedRefused(
            [msg("feeds.unreadable_file", path=str(file), error=exc.strerror or str(exc))]
        ) from None


def _last(source: Source, region: str) -> FeedImport | None:
    return (
        FeedImport.objects.filter(source=source.name, region=region, status__in=DONE)
        .order_by("-started_at", "-id")
        .first()
    )


def _import(
    source: Source,
    region: str,
    path: Path,
    origin: str,
    record: FeedImport,
    dry_run: bool,
    report: Report | None,
) -> None:
    last = _last(source, region)
    if last and last.sha256 == record.sha256:
        record.status = FeedImport.Status.UNCHANGED
        record.version, record.records = last.version, last.records
        when = timezone.localdate(last.finished_at or last.started_at)
        record.messages = [msg("feeds.already_imported", sha256=record.sha256[:16],
                               date=when).to_json()]  # fmt: skip
        return
    progress = (lambda n, count: report("read", n, count)) if report else None
    reading = source.read(path, region, progress)
    records = list(reading.records)
    record.version, record.records = reading.version, len(records)
    check_records(records)
    _check_count(len(records), last)
    changes = stage(source, region, records, reading.version)
    if not dry_run:
        apply(changes, source_name=source.name, url=origin, version=reading.version)
    record.status = FeedImport.Status.DRY_RUN if dry_run else FeedImport.Status.IMPORTED
    record.new_tiers = len(changes.new_tiers)
    record.changed_prices = (len(changes.new_prices) + len(changes.new_rates)
                             + len(changes.superseded))  # fmt: skip
    record.unchanged = changes.unchanged
    record.retired = len(changes.retire)
    record.refused_rows = len(changes.refused)
    notes = list(reading.notes)
    if changes.superseded:
        notes.append(msg("feeds.superseded", count=len(changes.superseded),
                         version=reading.version))  # fmt: skip
    record.messages = [m.to_json() for m in [*notes, *changes.refused]]


def _check_count(count: int, last: FeedImport | None) -> None:
    if not count:
        raise FeedRefused([msg("feeds.no_records")])
    if last is None or not last.records:
        return
    limit = config.max_drop()
    fell = (last.records - count) / last.records
    if fell > limit:
        when: dt.date = timezone.localdate(last.finished_at or last.started_at)
        raise FeedRefused(
            [msg("feeds.row_count_fell", count=count, share=Percent(round(fell, 4)),
                 last=last.records, date=when, limit=Percent(limit))]
        )  # fmt: skip


def summary(record: FeedImport) -> Message:
    return msg("feeds.summary", new_tiers=record.new_tiers, changed_prices=record.changed_prices,
               unchanged=record.unchanged, retired=record.retired,
               refused_rows=record.refused_rows)  # fmt: skip
