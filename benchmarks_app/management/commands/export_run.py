import json
import uuid
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from benchmarks_app.models import Run
from benchmarks_app.run_files import export_run


class Command(BaseCommand):
    help = "Write one run, with its fingerprint and profile content, to a JSON file."

    def add_arguments(self, parser) -> None:
        parser.add_argument("run_id")
        parser.add_argument("file", help="path to write, or - for standard output")

    def handle(self, *args, run_id: str, file: str, **options) -> None:
        try:
            run = Run.objects.select_related("profile_version__profile", "target").get(
                pk=uuid.UUID(run_id)
            )
        except (ValueError, Run.DoesNotExist):
            raise CommandError(f"no run {run_id}") from None
        try:
            text = json.dumps(export_run(run), indent=1, sort_keys=True)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        if file == "-":
            self.stdout.write(text)
        else:
            Path(file).write_text(text)
            self.stdout.write(f"run {run.pk} written to {file}")
