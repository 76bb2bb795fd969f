"""`manage.py sync_prices SOURCE [--region R …] [--file PATH | --url URL] [--dry-run]`.

A thin caller of `catalog.feeds.sync.sync_source`: prints a progress line (bytes and
records) while it reads, then per region the result and its summary (new tiers,
changed prices, unchanged, retired, refused rows with their reasons). A sync that changed
the catalog queues `catalog.warm_caches` on the control queue, as the admin's Sync now
does (issue 28). Exits non-zero when any region was refused.
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from catalog.feeds.registry import SOURCES
from catalog.feeds.sync import SyncUsageError, summary, sync_source
from catalog.models import FeedImport
from catalog.tasks import warm_after
from common.messages import Message, plain


class Command(BaseCommand):
    help = "Import prices or exchange rates from a provider's published feed (catalog/feeds)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("source", choices=sorted(SOURCES))
        parser.add_argument(
            "--region", action="append", default=[], help="repeat for several (default: the "
            "source's default set; see README, 'Price feeds')"
        )  # fmt: skip
        where = parser.add_mutually_exclusive_group()
        where.add_argument("--file", type=Path, help="read a downloaded copy instead")
        where.add_argument("--url", help="download this URL instead of the published one")
        parser.add_argument(
            "--dry-run", action="store_true", help="check and report, write nothing"
        )
        parser.add_argument(
            "--zones", action="store_true",
            help="import the AWS Local or Wavelength Zones named with --region (refused otherwise)",
        )  # fmt: skip

    def handle(self, *args, source: str, region: list[str], file: Path | None, url: str | None,
               dry_run: bool, zones: bool = False, **options) -> None:  # fmt: skip
        self._last = ""
        try:
            results = sync_source(source, region or None, file=file, url=url, dry_run=dry_run,
                                  report=self._progress, zones=zones)  # fmt: skip
        except SyncUsageError as exc:
            raise CommandError(str(exc)) from None
        self._end_progress()
        if not dry_run and warm_after(results):
            self.stdout.write("catalog changed: its caches warm on the control queue")
        failed = (FeedImport.Status.REFUSED, FeedImport.Status.FAILED)
        refused = [r for r in results if r.status in failed]
        for result in results:
            self._print(result)
        if refused and all(_offline(r) for r in refused):
            raise CommandError(
                f"{len(refused)} of {len(results)} not synced: the network is unreachable; "
                "nothing changed there"
            )
        if refused:
            raise CommandError(f"{len(refused)} of {len(results)} refused, nothing changed there")

    def _progress(self, stage: str, size: int, records: int) -> None:
        line = f"\r{stage}: {size / 1e6:,.1f} MB, {records:,} records"
        if line != self._last:
            self._last = line
            self.stdout.write(line, ending="")
            self.stdout.flush()

    def _end_progress(self) -> None:
        if self._last:
            self.stdout.write("")

    def _print(self, result: FeedImport) -> None:
        where = f" {result.region}" if result.region else ""
        status = "network unreachable" if _offline(result) else result.get_status_display()
        head = f"{result.source}{where}: {status}"
        if result.version:
            head += f" (version {result.version})"
        self.stdout.write(f"{head}, {result.bytes:,} bytes, {result.records:,} records")
        if result.status in (FeedImport.Status.IMPORTED, FeedImport.Status.DRY_RUN):
            prefix = "dry run, nothing written: " if result.status == "dry_run" else ""
            self.stdout.write(f"  {prefix}{plain(summary(result))}")
        for message in result.messages:
            self.stdout.write(f"  - {plain(Message.from_json(message))}")


def _offline(result: FeedImport) -> bool:
    """Refused because this machine could not reach the source at all (no DNS, no route)."""
    return any(str(m.get("code", "")).startswith("feeds.offline_") for m in result.messages)
