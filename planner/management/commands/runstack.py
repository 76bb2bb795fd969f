"""Run the web server, this host's benchmark worker, a control worker and Celery beat
together, and keep them running.

One command, one Ctrl-C: the children share our process group, so the terminal's SIGINT
reaches them all. A child that crashes is restarted after a back-off (1 s, 2 s, 4 s, …,
30 s at most), saying so on the terminal; after MAX_QUICK_CRASHES crashes in a row, each
within QUICK_S of its start, it is given up on, saying so, and the rest keeps running
(all but the web server: without it there is nothing to serve, so everything stops).

Quiet unless asked: the terminal shows the banner, restarts, warnings and errors; the
access log, the workers' banners and each periodic task's INFO lines only with
`VERBOSE=1` (`--verbose`). Started in the background by a shell that ignores SIGINT, it
puts Python's default handler back first, so Ctrl-C (or `kill -INT`) stops it and its
children, which then inherit a working SIGINT too.

The benchmark worker consumes only its target's queue (`bench.NAME`) and the control
worker only the default queue, where beat sends the periodic checks: a benchmark that
runs for an hour never delays them.
"""

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

QUICK_S = 60.0
MAX_QUICK_CRASHES = 5
BACKOFF_S = (1.0, 2.0, 4.0, 8.0, 16.0, 30.0)
ESSENTIAL = frozenset({"web"})


def celery(*args: str, verbose: bool = True) -> list[str]:
    if verbose:
        return [sys.executable, "-m", "celery", "-A", "config", *args, "--loglevel", "INFO"]
    # --quiet: no start-up banner; WARNING: no line per task received and succeeded.
    return [sys.executable, "-m", "celery", "-A", "config", "--quiet", *args,
            "--loglevel", "WARNING"]  # fmt: skip


def stack_commands(
    name: str, host: str, port: int, var: Path, *, verbose: bool = True
) -> dict[str, list[str]]:
    """The processes of `make run`, by label; quiet ones unless `verbose`."""
    web_log = (["--access-logfile", "-", "--log-level", "info"] if verbose
               else ["--log-level", "warning"])  # fmt: skip
    return {
        "web": [
            sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"{host}:{port}",
            # as in production (README; docs/design.md, "Running it"): one request per process
            "--workers", "2", "--worker-class", "sync", *web_log,
        ],
        # This host's benchmark target: its own queue only, one run at a time.
        "worker": celery("worker", "-n", f"{name}@%h", "-Q", f"bench.{name}",
                         "--concurrency", "1", verbose=verbose),
        # The periodic checks (beat sends them to the default queue): short tasks, so one
        # process without a pool.
        "control": celery("worker", "-n", f"control-{name}@%h", "-Q", "default",
                          "--pool", "solo", verbose=verbose),
        "beat": celery("beat", "--schedule", str(var / "celerybeat-schedule"),
                       verbose=verbose),
    }  # fmt: skip


def describe_exit(code: int) -> str:
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


@dataclass
class Child:
    label: str
    command: list[str]
    proc: subprocess.Popen | None = None
    started: float = 0.0
    quick_crashes: int = 0
    restart_at: float | None = None
    given_up: bool = False


@dataclass
class Supervisor:
    """Starts the children and restarts those that exit, with a back-off and a word."""

    commands: dict[str, list[str]]
    say: Callable[[str], None]
    quick_s: float = QUICK_S
    max_quick_crashes: int = MAX_QUICK_CRASHES
    backoff_s: tuple[float, ...] = BACKOFF_S
    essential: frozenset[str] = ESSENTIAL
    children: dict[str, Child] = field(init=False)

    def __post_init__(self) -> None:
        self.children = {label: Child(label, cmd) for label, cmd in self.commands.items()}

    def start(self) -> None:
        for child in self.children.values():
            self._spawn(child)

    def tick(self, now: float | None = None) -> bool:
        """Look after each child once; False when an essential one was given up on."""
        now = time.monotonic() if now is None else now
        for child in self.children.values():
            if child.given_up:
                continue
            if child.restart_at is not None:
                if now >= child.restart_at:
                    self._spawn(child)
                    self.say(f"{child.label} restarted (pid {child.proc.pid}).")
            elif child.proc is not None and (code := child.proc.poll()) is not None:
                self._crashed(child, code, now)
        return not any(self.children[label].given_up for label in self.essential)

    def stop(self, timeout_s: float = 15.0) -> None:
        running = [c.proc for c in self.children.values() if c.proc and c.proc.poll() is None]
        for proc in running:
            proc.send_signal(signal.SIGTERM)
        for proc in running:
            try:
                proc.wait(timeout=timeout_s)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def _spawn(self, child: Child) -> None:
        child.proc = subprocess.Popen(child.command)
        child.started, child.restart_at = time.monotonic(), None

    def _crashed(self, child: Child, code: int, now: float) -> None:
        # Each crash in a row within quick_s of its start doubles the wait; a crash after
        # a longer life starts over.
        quick = now - child.started < self.quick_s
        in_a_row = child.quick_crashes if quick else 0
        child.quick_crashes = in_a_row + 1 if quick else 0
        how = describe_exit(code)
        if child.quick_crashes >= self.max_quick_crashes:
            child.given_up = True
            rest = (
                "stopping everything"
                if child.label in self.essential
                else "the rest keeps running; restart `make run` once it is fixed"
            )
            self.say(
                f"{child.label} stopped ({how}) and crashed {child.quick_crashes} times in a "
                f"row within {self.quick_s:g} s of starting: giving up on it; {rest}."
            )
            return
        delay = self.backoff_s[min(in_a_row, len(self.backoff_s) - 1)]
        child.restart_at = now + delay
        self.say(f"{child.label} stopped ({how}); restarting it in {delay:g} s.")


class Command(BaseCommand):
    help = (
        "Start gunicorn, a Celery worker for this host's bench queue, a control worker for "
        "the periodic checks and beat; restart any that crashes."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--port", type=int, default=int(os.getenv("PORT", "8000")))
        parser.add_argument("--host", default=os.getenv("HOST", "127.0.0.1"))
        parser.add_argument(
            "--verbose",
            action="store_true",
            default=os.getenv("VERBOSE", "") not in ("", "0"),
            help="the access log and every worker's INFO lines too (VERBOSE=1)",
        )

    def handle(self, *args, port: int, host: str, verbose: bool, **options) -> None:
        # A shell that starts a job in the background (`make run &`, a script) sets SIGINT
        # to "ignored", which the children would inherit: Ctrl-C would stop nothing.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        name = settings.BENCH_TARGET_NAME
        commands = stack_commands(name, host, port, settings.VAR_DIR, verbose=verbose)
        supervisor = Supervisor(commands, say=lambda text: self.stderr.write(text))
        # `kill` (SIGTERM) stops the children too, as Ctrl-C does.
        signal.signal(signal.SIGTERM, _interrupt)
        supervisor.start()
        self._verbose = verbose
        self._banner(host, port, name)
        try:
            while supervisor.tick():
                time.sleep(0.5)
        except KeyboardInterrupt:
            self.stdout.write("\nStopping web, workers and beat…")
        finally:
            supervisor.stop()

    def _banner(self, host: str, port: int, name: str) -> None:
        has_admin = get_user_model().objects.filter(is_superuser=True).exists()
        login = (
            "Log in at /accounts/login/ with your admin user."
            if has_admin
            else f"No admin user yet: create one with `{sys.executable} manage.py createsuperuser`."
        )
        self.stdout.write(
            self.style.SUCCESS(f"\nplanner is running at http://{host}:{port}/\n")
            + f"Benchmark worker for this host: target '{name}' (queue bench.{name}); "
            + "a control worker runs the periodic checks.\n"
            + login
            + "\nPress Ctrl-C to stop everything."
            + (
                ""
                if self._verbose
                else " Quiet: VERBOSE=1 make run shows the access log and each task."
            )
            + "\n"
        )


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt
