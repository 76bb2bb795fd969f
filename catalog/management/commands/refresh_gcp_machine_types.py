"""`manage.py refresh_gcp_machine_types --file LIST`: rewrite the GCP shape table.

LIST is `gcloud compute machine-types list --format=json` output (see
catalog/feeds/gcp_shapes.py); the table keeps its source comment and its families.
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from catalog.feeds import gcp_shapes
from common.django.clock import today


class Command(BaseCommand):
    help = "Rewrite catalog/data/gcp_machine_types.csv from a gcloud machine-types listing."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--file", type=Path, required=True)

    def handle(self, *args, file: Path, **options) -> None:
        try:
            count = gcp_shapes.refresh(file, today())
        except (gcp_shapes.RefreshError, OSError) as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"{count} machine types written to {gcp_shapes.TABLE}")
