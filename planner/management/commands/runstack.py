"""Run the web server, this host's Celery worker and Celery beat together.

One command, one Ctrl-C: the children share our process group, so the terminal's
SIGINT reaches them all; if one exits, the others are stopped too.
"""

import os
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Start gunicorn, a Celery worker for this host (its bench queue + default) and beat."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--port", type=int, default=int(os.getenv("PORT", "8000")))
        parser.add_argument("--host", default=os.getenv("HOST", "127.0.0.1"))

    def handle(self, *args, port: int, host: str, **options) -> None:
        name = settings.BENCH_TARGET_NAME
        var = settings.VAR_DIR
        commands = {
            "web": [
                sys.executable,
                "-m",
                "gunicorn",
                "planner.wsgi",
                "--bind",
                f"{host}:{port}",
                "--workers",
                "2",
                "--worker-class",  # as in production (README, DESIGN): one request per process
                "sync",
                "--access-logfile",
                "-",
            ],
            "worker": [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "planner",
                "worker",
                "-n",
                f"{name}@%h",
                "-Q",
                f"bench.{name},default",
                "--concurrency",
                "1",
                "--loglevel",
                "INFO",
            ],
            "beat": [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "planner",
                "beat",
                "--schedule",
                str(var / "celerybeat-schedule"),
                "--loglevel",
                "INFO",
            ],
        }
        procs = {label: subprocess.Popen(cmd) for label, cmd in commands.items()}
        self._banner(host, port, name)
        try:
            while all(p.poll() is None for p in procs.values()):
                time.sleep(0.5)
            dead = [label for label, p in procs.items() if p.poll() is not None]
            self.stderr.write(f"{', '.join(dead)} stopped; stopping the rest.")
        except KeyboardInterrupt:
            self.stdout.write("\nStopping web, worker and beat…")
        finally:
            for p in procs.values():
                if p.poll() is None:
                    p.send_signal(signal.SIGTERM)
            for p in procs.values():
                try:
                    p.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    p.kill()

    def _banner(self, host: str, port: int, name: str) -> None:
        has_admin = get_user_model().objects.filter(is_superuser=True).exists()
        login = (
            "Log in at /accounts/login/ with your admin user."
            if has_admin
            else f"No admin user yet: create one with `{sys.executable} manage.py createsuperuser`."
        )
        self.stdout.write(
            self.style.SUCCESS(f"\nplanner is running at http://{host}:{port}/\n")
            + f"Benchmark worker for this host: target '{name}' (queue bench.{name}).\n"
            + login
            + "\nPress Ctrl-C to stop everything.\n"
        )
