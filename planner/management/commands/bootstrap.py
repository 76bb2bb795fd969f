"""The set-up steps of `make run` after migrate: load what ships with the code.

Safe to repeat: every loader is idempotent (same key, same content: no change).
"""

import sys

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand

from planner.services.setup_steps import SETUP_STEPS


class Command(BaseCommand):
    help = "Load the default catalog and shipped benchmark profiles; offer to create an admin."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--no-input", action="store_true", help="never ask questions")

    def handle(self, *args, no_input: bool = False, **options) -> None:
        for label, step in SETUP_STEPS:
            self.stdout.write(f"{label}: {step()}")
        if not get_user_model().objects.filter(is_superuser=True).exists():
            if not no_input and sys.stdin.isatty():
                answer = input("No admin user yet. Create one now? [y/N] ").strip().lower()
                if answer in ("y", "yes"):
                    call_command("createsuperuser")
                    return
            self.stdout.write(
                f"To log in, create an admin user: {sys.executable} manage.py createsuperuser"
            )
