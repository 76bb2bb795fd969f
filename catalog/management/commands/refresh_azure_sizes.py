"""`manage.py refresh_azure_sizes --docs CHECKOUT [--note TEXT] [--out FILE]`.

Rewrites catalog/data/azure_vm_sizes.csv from Microsoft's VM size pages: a checkout of
MicrosoftDocs/azure-compute-docs (`git clone --depth 1
https://github.com/MicrosoftDocs/azure-compute-docs`) or any folder holding its
`articles/virtual-machines/sizes/**/*-series.md` pages. A thin caller of catalog.azure_sizes.
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from catalog.azure_sizes import render, table_rows
from catalog.feeds.azure import SIZES_FILE
from common.django import clock


class Command(BaseCommand):
    help = "Rewrite the Azure VM size table from Microsoft's published size pages."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--docs", type=Path, required=True,
                            help="a checkout of MicrosoftDocs/azure-compute-docs")  # fmt: skip
        parser.add_argument("--out", type=Path, default=SIZES_FILE)
        parser.add_argument("--note", default="", help="said in the file's header")

    def handle(self, *args, docs: Path, out: Path, note: str, **options) -> None:
        root = docs / "articles" / "virtual-machines" / "sizes"
        if not root.is_dir():
            raise CommandError(f"{root} is not a folder: give a checkout of the docs")
        pages = sorted(root.rglob("*-series*.md"))
        sizes = table_rows(
            (str(page.relative_to(docs)), page.read_text(encoding="utf-8")) for page in pages
        )
        if not sizes:
            raise CommandError(f"no size table found in the {len(pages)} pages under {root}")
        out.write_text(render(sizes, clock.today(), note), encoding="utf-8")
        self.stdout.write(f"{len(sizes)} sizes from {len(pages)} pages written to {out}")
