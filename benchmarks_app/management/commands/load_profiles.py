from django.core.management.base import BaseCommand

from benchmarks_app.profiles_loader import load_shipped_profiles


class Command(BaseCommand):
    help = (
        "Load the benchmark profiles shipped in benchmarks_app/profiles/ (never overwrites edits)."
    )

    def handle(self, *args, **options) -> None:
        self.stdout.write(f"benchmark profiles: {load_shipped_profiles()}")
