"""Cancelling from the command line: `manage.py cancel_run RUN_ID` (exit status 0, 1 for a
run already over, 2 for no such run), and Ctrl-C on `run_profile --wait` / `run_suite
--wait` asks whether to cancel (at a terminal) or says how, never leaving silently."""

import getpass
import io
import os
import pty
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from benchmarks_app.models import Run
from tests.support.bench import content, finished_run, target, version, wait_for

ROOT = Path(__file__).resolve().parent.parent
ME = getpass.getuser()


def test_a_queued_run_is_cancelled_at_once_naming_the_command_line_user(db):
    run = finished_run(version(), target(), {}, scale="smoke", status="queued")
    out = io.StringIO()
    call_command("cancel_run", str(run.pk), stdout=out)
    run.refresh_from_db()
    assert out.getvalue() == f"run {run.pk} cancelled before it started\n"
    assert run.status == "cancelled" and run.cancel_requested
    assert run.reason_shown.code == "benchmarks.run_cancelled_before_start"
    assert run.reason == f"cancelled by {ME} on the command line before it started"


def test_a_running_run_gets_a_cancel_request_its_worker_acts_on(db):
    run = finished_run(version(), target(), {}, scale="smoke", status="running")
    out = io.StringIO()
    call_command("cancel_run", str(run.pk), stdout=out)
    run.refresh_from_db()
    assert out.getvalue() == f"run {run.pk}: cancel requested; its worker stops it\n"
    assert run.status == "running" and run.cancel_requested
    assert run.reason == f"cancelled by {ME} on the command line while running"


def test_an_unknown_or_malformed_run_id_exits_2(db):
    missing = uuid.uuid4()
    with pytest.raises(CommandError, match=f"^no run {missing}$") as unknown:
        call_command("cancel_run", str(missing))
    with pytest.raises(CommandError, match=r"^no run not-a-run$") as malformed:
        call_command("cancel_run", "not-a-run")
    assert unknown.value.returncode == malformed.value.returncode == 2


def test_a_finished_run_is_left_as_it_is_and_exits_1(db):
    run = finished_run(version(), target(), {1: 5.0}, scale="smoke")
    with pytest.raises(CommandError) as over:
        call_command("cancel_run", str(run.pk))
    assert over.value.returncode == 1
    assert str(over.value) == f"run {run.pk} is already succeeded: nothing to cancel"
    run.refresh_from_db()
    assert run.status == "succeeded" and not run.cancel_requested


def _ctrl_c_as_at_a_terminal() -> None:
    """The child takes Ctrl-C as a command started at a terminal does. A shell without job
    control starts a background job (`bash .ci/run &`) with SIGINT ignored, every process
    below it inherits that, and Python then never raises KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Command:
    """A manage.py command in its own process, its output collected as it comes."""

    def __init__(self, args: list[str], env: dict[str, str], stdin) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=env, stdin=stdin,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=_ctrl_c_as_at_a_terminal,
        )  # fmt: skip
        self.out, self.err = bytearray(), bytearray()
        for stream, into in ((self.proc.stdout, self.out), (self.proc.stderr, self.err)):
            threading.Thread(target=self._pump, args=(stream, into), daemon=True).start()

    @staticmethod
    def _pump(stream, into: bytearray) -> None:
        while chunk := stream.read1(4096):
            into.extend(chunk)

    def said(self, text: str, timeout: float = 60) -> None:
        try:
            wait_for(lambda: text in self.out.decode(), timeout, message=repr(text))
        except AssertionError as exc:  # what the command said by then (its stderr: why it died)
            said = f"stdout {bytes(self.out)!r}; stderr {bytes(self.err)!r}"
            raise AssertionError(f"{exc}; exit {self.proc.poll()}; {said}") from None

    def interrupt(self) -> None:
        time.sleep(0.5)  # inside the follow loop, not between two lines of it
        self.proc.send_signal(signal.SIGINT)

    def finish(self, timeout: float = 60) -> tuple[int, str, str]:
        code = self.proc.wait(timeout=timeout)
        time.sleep(0.2)
        return code, self.out.decode(), self.err.decode()


@pytest.fixture
def queued_toy(transactional_db):
    version(content("toy-gbm"))
    target("nobody")  # no worker: its runs stay queued


def test_ctrl_c_without_a_terminal_says_the_exact_command_and_leaves_the_run(
    queued_toy, child_environment
):
    command = Command(["run_profile", "toy-gbm", "--target", "nobody", "--wait"],
                      child_environment(), subprocess.DEVNULL)  # fmt: skip
    command.said("queued on bench.nobody")
    command.interrupt()
    code, _, err = command.finish()
    run = Run.objects.get()
    assert code == 130, err
    assert f"run {run.pk} goes on." in err
    assert f"To cancel: python manage.py cancel_run {run.pk}" in err
    assert "Traceback" not in err
    assert run.status == "queued"


def test_ctrl_c_at_a_terminal_asks_and_cancels_on_yes(queued_toy, child_environment):
    terminal, their_end = pty.openpty()
    command = Command(["run_profile", "toy-gbm", "--target", "nobody", "--wait"],
                      child_environment(), their_end)  # fmt: skip
    os.close(their_end)
    command.said("queued on bench.nobody")
    command.interrupt()
    run = Run.objects.get()
    command.said(f"Cancel run {run.pk}? [y/N] ")
    os.write(terminal, b"y\n")
    code, out, err = command.finish()
    os.close(terminal)
    run.refresh_from_db()
    assert run.status == "cancelled"
    assert run.reason == f"cancelled by {ME} on the command line before it started"
    assert f"cancel requested for run {run.pk}" in out and "toy-gbm: cancelled" in out
    assert code == 1 and f"run {run.pk} cancelled" in err


def test_ctrl_c_on_a_suite_names_a_cancel_command_for_each_run_not_over(
    queued_toy, child_environment
):
    version(content("toy-two"))
    command = Command(["run_suite", "--target", "nobody", "--wait"],
                      child_environment(), subprocess.DEVNULL)  # fmt: skip
    command.said("2 runs queued on nobody")
    command.interrupt()
    code, _, err = command.finish()
    first, second = Run.objects.order_by("created_at")
    assert code == 130 and "these 2 runs go on." in err
    assert (
        f"To cancel: python manage.py cancel_run {first.pk} && "
        f"python manage.py cancel_run {second.pk}"
    ) in err
