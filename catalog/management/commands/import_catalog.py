"""`manage.py import_catalog FILE`: all of the file or, on any problem, nothing."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from catalog.io.formats import check_size, detect_format
from catalog.io.importer import import_catalog
from catalog.io.records import CatalogFileError


class Command(BaseCommand):
    help = "Import a catalog file (CSV or JSON, see catalog/FORMAT.md). All-or-nothing."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--format", choices=["csv", "json"], help="default: from the name")
        parser.add_argument(
            "--dry-run", action="store_true", help="check and report, write nothing"
        )

    def handle(self, *args, file: Path, format: str | None, dry_run: bool, **options) -> None:
        try:
            # The size is checked before a byte is read, so a huge file costs nothing.
            check_size(file.stat().st_size)
            data = file.read_bytes()
            fmt = format or detect_format(file.name, data)
            result = import_catalog(data, fmt, dry_run=dry_run)
        except OSError as exc:
            raise CommandError(f"{file}: {exc.strerror or exc}") from None
        except CatalogFileError as exc:
            count = len(exc.issues)
            raise CommandError(
                f"{file} refused, nothing imported ({count} problem{'s' * (count != 1)}):\n{exc}"
            ) from None
        prefix = "dry run, nothing written: " if dry_run else ""
        self.stdout.write(f"{prefix}{result.summary()}")
