"""`manage.py import_bill PATH… --owner USER`: import cost exports as bills, each all or
nothing, with a progress line; a refused file names its line or column and changes
nothing (the others still import). Exit status 1 if any file was refused. Each bill's
page figures are computed and kept right after its import, as the upload task does."""

from __future__ import annotations

import sys
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from bills import page
from bills.readers.errors import BillRefused
from bills.services.importing import import_bill
from common.messages import plain


class Command(BaseCommand):
    help = "Import cloud cost exports (FOCUS, AWS CUR, Azure, GCP) as bills of a user."

    def add_arguments(self, parser) -> None:
        parser.add_argument("paths", nargs="+", type=Path)
        parser.add_argument("--owner", required=True, help="the username the bills belong to")

    def handle(self, *args, paths: list[Path], owner: str, **options) -> None:
        user = get_user_model().objects.filter(username=owner).first()
        if user is None:
            raise CommandError(f"no user {owner!r}")
        refused = 0
        for path in paths:
            if not path.is_file():
                self.stderr.write(f"{path}: no such file")
                refused += 1
                continue

            def progress(rows: int, name: str = path.name) -> None:
                self.stdout.write(f"\r{name}: {rows:,} rows read", ending="")
                self.stdout.flush()

            try:
                result = import_bill(path, user, progress=progress)
            except BillRefused as refusal:
                self.stdout.write("")
                self.stderr.write(plain(refusal.message))
                refused += 1
                continue
            self.stdout.write("")
            self.stdout.write(plain(result.message))
            page.warm(result.bill.pk)  # the bill page's figures, ready for its first view
            for flag in result.bill.flags:
                from common.messages import Message

                self.stdout.write("  " + plain(Message.from_json(flag)))
        if refused:
            sys.exit(1)
