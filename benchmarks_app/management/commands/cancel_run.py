import uuid

from django.core.management.base import BaseCommand, CommandError

from benchmarks_app.models import Run
from benchmarks_app.services import cancel_run

from ._follow import command_line_user, follow

ALREADY_OVER, NO_SUCH_RUN = 1, 2


class Command(BaseCommand):
    help = (
        "Cancel a queued or running benchmark run (a running one is stopped by its worker "
        "within about a second). Exit status: 0 cancelled or cancel requested, "
        f"{ALREADY_OVER} the run is already over, {NO_SUCH_RUN} no such run."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("run_id")
        parser.add_argument("--wait", action="store_true", help="follow the run to its end")

    def handle(self, *args, run_id: str, wait: bool, **options) -> None:
        run = self._run(run_id)
        if run.is_over:
            raise CommandError(self._over(run), returncode=ALREADY_OVER)
        status = cancel_run(run, who=command_line_user())
        if status == Run.Status.CANCELLED:
            self.stdout.write(f"run {run.pk} cancelled before it started")
        elif status == Run.Status.RUNNING:
            self.stdout.write(f"run {run.pk}: cancel requested; its worker stops it")
            if wait:
                follow(run, self.stdout)
        else:  # it ended between our look and the cancel
            run.refresh_from_db()
            raise CommandError(self._over(run), returncode=ALREADY_OVER)

    def _run(self, run_id: str) -> Run:
        try:
            return Run.objects.select_related("profile_version__profile").get(pk=uuid.UUID(run_id))
        except (ValueError, Run.DoesNotExist):
            raise CommandError(f"no run {run_id}", returncode=NO_SUCH_RUN) from None

    def _over(self, run: Run) -> str:
        why = f" ({run.reason})" if run.reason else ""
        return f"run {run.pk} is already {run.status}{why}: nothing to cancel"
