"""Write docs/openapi.yaml from the code, or check that it is up to date (`--check`)."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from planner.api.openapi import render


class Command(BaseCommand):
    help = "Write the API's OpenAPI document (from planner/api and the plan schema) to FILE."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="where to write it, e.g. docs/openapi.yaml")
        parser.add_argument(
            "--check",
            action="store_true",
            help="write nothing; fail when FILE differs from what the code would write",
        )

    def handle(self, *args: Any, file: str, check: bool, **options: Any) -> None:
        path = Path(file)
        text = render()
        if not check:
            path.write_text(text)
            self.stdout.write(f"wrote {path}")
            return
        current = path.read_text() if path.exists() else ""
        if current != text:
            diff = difflib.unified_diff(
                current.splitlines(), text.splitlines(), str(path), "generated", lineterm="", n=1
            )
            shown = "\n".join(list(diff)[:40])
            raise CommandError(
                f"{path} is out of date; run: python manage.py openapi {file}\n{shown}"
            )
        self.stdout.write(f"{path} is up to date")
