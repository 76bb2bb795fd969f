from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from benchmarks_app.models import Profile, Run, Scale, Target
from benchmarks_app.services import RunRefused, create_run

from ._follow import follow, on_interrupt, refused_to_send


def thread_list(value: str) -> list[int]:
    try:
        return [int(part) for part in value.split(",") if part.strip()]
    except ValueError as exc:
        raise CommandError(f"--threads takes whole numbers like 1,2,4: {value!r}") from exc


def get_target(name: str) -> Target:
    try:
        return Target.objects.get(name=name)
    except Target.DoesNotExist:
        raise CommandError(
            f"no target {name!r}: start its worker "
            f"(celery -A config worker -n {name}@%h -Q bench.{name})"
        ) from None


class Command(BaseCommand):
    help = "Queue one benchmark profile on a target's worker; --wait follows it to the end."

    def add_arguments(self, parser) -> None:
        parser.add_argument("profile", help="profile name, e.g. gbm-xgboost")
        parser.add_argument("--target", default=settings.BENCH_TARGET_NAME)
        parser.add_argument("--scale", choices=Scale.values, default=Scale.SMOKE)
        parser.add_argument(
            "--profile-version", dest="profile_version", help="X.Y.Z (default: newest)"
        )
        parser.add_argument("--threads", type=thread_list, help="e.g. 1,2,4 (default: the scale's)")
        parser.add_argument("--time-limit", type=float, help="seconds per measurement")
        parser.add_argument("--wait", action="store_true", help="follow the run to its end")

    def handle(self, *args, profile: str, target: str, scale: str, wait: bool, **options) -> None:
        try:
            owner = Profile.objects.get(name=profile)
        except Profile.DoesNotExist:
            names = ", ".join(Profile.objects.values_list("name", flat=True)) or "none loaded"
            raise CommandError(f"no profile {profile!r} (profiles: {names})") from None
        wanted = options.get("profile_version")
        version = (
            owner.versions.filter(version=wanted).first() if wanted else owner.current_version()
        )
        if version is None:
            raise CommandError(f"{profile} has no version {wanted}")
        try:
            run = create_run(
                version=version, scale=scale, target=get_target(target),
                threads=options.get("threads"), time_limit_s=options.get("time_limit"),
            )  # fmt: skip
        except RunRefused as exc:
            raise CommandError("refused:\n  - " + "\n  - ".join(exc.problems)) from None
        if refused_to_send([run], self.stderr):
            raise CommandError(f"run {run.pk} was not queued")
        self.stdout.write(
            f"run {run.pk} queued on {run.target.queue}: {version} {scale}, "
            f"threads {','.join(map(str, run.threads))}"
        )
        if wait and self._follow(run).status != Run.Status.SUCCEEDED:
            raise CommandError(f"run {run.pk} {run.status}: {run.reason}")

    def _follow(self, run: Run) -> Run:
        try:
            return follow(run, self.stdout)
        except KeyboardInterrupt:
            on_interrupt([run], self.stdout, self.stderr)
            return follow(run, self.stdout)  # to its end: a cancel takes about a second
