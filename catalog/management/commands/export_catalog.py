"""`manage.py export_catalog [--history] FILE`: the catalog in its import format."""

import datetime as dt
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandParser

from catalog.io.exporter import export_catalog


class Command(BaseCommand):
    help = "Export the catalog as CSV or JSON (see catalog/FORMAT.md); FILE '-' is stdout."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")
        parser.add_argument(
            "--history", action="store_true", help="every price row, not only current ones"
        )
        parser.add_argument(
            "--format", choices=["csv", "json"], help="default: from the name, else csv"
        )
        parser.add_argument(
            "--as-of", type=dt.date.fromisoformat, help="current as of (YYYY-MM-DD)"
        )

    def handle(self, *args, file: str, history: bool, format: str | None,
               as_of: dt.date | None, **options) -> None:  # fmt: skip
        fmt = format or ("json" if file.lower().endswith(".json") else "csv")
        data = export_catalog(fmt, history=history, as_of=as_of)
        if file == "-":
            sys.stdout.buffer.write(data)
            return
        Path(file).write_bytes(data)
        self.stdout.write(f"wrote {len(data):,} bytes to {file}")
