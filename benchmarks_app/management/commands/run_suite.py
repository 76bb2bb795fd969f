from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from benchmarks_app.models import Run, Scale
from benchmarks_app.services import RunRefused, create_suite
from common.messages import plain

from ._follow import follow, on_interrupt, refused_to_send
from .run_profile import get_target


class Command(BaseCommand):
    help = "Queue every profile on a target, one after another; --wait follows them."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--target", default=settings.BENCH_TARGET_NAME)
        parser.add_argument("--scale", choices=Scale.values, default=Scale.SMOKE)
        parser.add_argument("--wait", action="store_true")

    def handle(self, *args, target: str, scale: str, wait: bool, **options) -> None:
        try:
            started = create_suite(target=get_target(target), scale=scale)
        except RunRefused as exc:
            raise CommandError("refused:\n  - " + "\n  - ".join(exc.problems)) from None
        if unsent := refused_to_send(started.runs, self.stderr):
            raise CommandError(
                f"{len(unsent)} of {len(started.runs)} runs of suite {started.suite.pk} "
                "were not queued"
            )
        self.stdout.write(f"suite {started.suite.pk}: {len(started.runs)} runs queued on {target}")
        for name, problems in started.refused.items():
            self.stderr.write(f"  {name} not queued: {'; '.join(map(plain, problems))}")
        if not wait:
            return
        failed = [run for run in self._follow(started.runs) if run.status != "succeeded"]
        if failed or started.refused:
            names = ", ".join(r.profile_name for r in failed) or "none"
            raise CommandError(f"not all profiles succeeded (failed: {names})")

    def _follow(self, runs: list[Run]) -> list[Run]:
        """Each run to its end in turn; Ctrl-C asks about all the runs not yet over."""
        followed: list[Run] = []
        try:
            for run in runs:
                followed.append(follow(run, self.stdout))
        except KeyboardInterrupt:
            on_interrupt(runs, self.stdout, self.stderr)
            followed += [follow(run, self.stdout) for run in runs[len(followed) :]]
        return followed
