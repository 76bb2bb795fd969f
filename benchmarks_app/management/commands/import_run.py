from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from benchmarks_app.run_files import ImportRefused, import_run
from common import safejson


class Command(BaseCommand):
    help = "Import a run file exported on another installation (labelled with its host)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file")

    def handle(self, *args, file: str, **options) -> None:
        try:
            # Floats, not decimals: the run is stored as JSON again.
            data = safejson.loads(Path(file).read_bytes(), decimals=False)
        except (OSError, ValueError) as exc:
            raise CommandError(f"cannot read {file}: {exc}") from None
        try:
            run = import_run(data)
        except ImportRefused as exc:
            raise CommandError("refused:\n  - " + "\n  - ".join(exc.problems)) from None
        self.stdout.write(
            f"imported run {run.pk}: {run.profile_version} {run.scale} measured on "
            f"{run.source_host} (target {run.target.name})"
        )
