"""One measurement = one child process: start it, follow its progress, enforce its
time limit and cancellation by killing its whole process group. No Django here.

The child is `python -m benchmarks_app.runners.<runner> --spec SPEC --out RESULT`
(see benchmarks_app/profiles/README.md; the spec comes from runners.build_spec); it
prints JSON progress lines on stdout and writes RESULT.json.
"""

import contextlib
import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import psutil

from common.messages import Message, Number, msg, plain

PROJECT_ROOT = Path(__file__).resolve().parent.parent
# A measurement's hard limit, from its budget: repetitions stop at the budget, but
# the last one may overrun it and data generation comes on top.
LIMIT_FACTOR = 3.0
LIMIT_SLACK_S = 30.0


@dataclass
class ChildOutcome:
    result: dict | None  # RESULT.json, when the child wrote one
    returncode: int | None
    stopped: str | None  # "time_limit" or "cancelled" when we killed it
    stderr_tail: str
    seconds: float

    @property
    def ok(self) -> bool:
        return self.stopped is None and bool(self.result and self.result.get("ok"))

    def failure(self, limit_s: float) -> tuple[str, str]:
        """(kind, why in English) for an outcome that is not ok: skipped|cancelled|failed."""
        kind, why = self.failure_message(limit_s)
        return kind, plain(why)

    def failure_message(self, limit_s: float) -> tuple[str, Message]:
        """(kind, why) for an outcome that is not ok; kind: skipped|cancelled|failed."""
        if self.stopped == "cancelled":
            return "cancelled", msg("benchmarks.run_cancelled")
        if self.stopped == "time_limit":
            return "failed", msg("benchmarks.child_time_limit", limit=Number(limit_s))
        if self.result and not self.result.get("ok"):
            kind = "skipped" if self.result.get("kind") == "skipped" else "failed"
            return kind, _child_message(self.result, "error") or msg("benchmarks.child_failed")
        tail = self.stderr_tail.strip().splitlines()[-1:]
        last = tail[0] if tail else msg("benchmarks.child_no_output")
        return "failed", msg("benchmarks.child_exit", exit_code=self.returncode, line=last)


def time_limit(budget_s: float, override_s: float | None = None) -> float:
    return override_s if override_s else budget_s * LIMIT_FACTOR + LIMIT_SLACK_S


def runner_command(runner: str) -> list[str]:
    return [sys.executable, "-m", f"benchmarks_app.runners.{runner}"]


# The child runs in its own session (so a kill reaches its whole group), which also
# means a killed worker would leave it running unsupervised. On Linux it therefore
# asks to be killed when its parent dies, then becomes the real command.
_ORPHAN_GUARD = (
    "import ctypes, os, signal, sys\n"
    "ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG\n"
    "if os.getppid() != int(sys.argv[1]): os._exit(70)  # the parent died already\n"
    "os.execv(sys.argv[2], sys.argv[2:])\n"
)


def guarded(command: list[str]) -> list[str]:
    if not sys.platform.startswith("linux"):
        return command
    return [sys.executable, "-c", _ORPHAN_GUARD, str(os.getpid()), *command]


def run_child(
    command: list[str],
    spec: dict,
    workdir: Path,
    *,
    limit_s: float,
    on_progress: Callable[[float, Message | str], None] = lambda progress, step: None,
    should_cancel: Callable[[], bool] = lambda: False,
    cancel_every_s: float = 1.0,
) -> ChildOutcome:
    """Run one measurement child to its end, its time limit or a cancel."""
    workdir.mkdir(parents=True, exist_ok=True)
    spec_path, out_path = workdir / "spec.json", workdir / "result.json"
    spec_path.write_text(json.dumps(spec))
    out_path.unlink(missing_ok=True)
    started = time.monotonic()
    with (workdir / "stderr.log").open("w+") as stderr:
        proc = subprocess.Popen(
            guarded([*command, "--spec", str(spec_path), "--out", str(out_path)]),
            cwd=PROJECT_ROOT, stdout=subprocess.PIPE, stderr=stderr, text=True,
            start_new_session=True, env=_child_env(),
        )  # fmt: skip
        stopped = _follow(proc, started + limit_s, on_progress, should_cancel, cancel_every_s)
        stderr.seek(0)
        tail = stderr.read()[-4000:]
    return ChildOutcome(
        result=_read_json(out_path) if stopped is None else None,
        returncode=proc.returncode,
        stopped=stopped,
        stderr_tail=tail,
        seconds=time.monotonic() - started,
    )


def _child_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PROJECT_ROOT), env.get("PYTHONPATH")]))
    env["PYTHONUNBUFFERED"] = "1"
    return env


def _follow(
    proc: subprocess.Popen,
    deadline: float,
    on_progress: Callable[[float, Message | str], None],
    should_cancel: Callable[[], bool],
    cancel_every_s: float,
) -> str | None:
    lines: queue.Queue[str | None] = queue.Queue()
    reader = threading.Thread(target=_pump, args=(proc.stdout, lines), daemon=True)
    reader.start()
    next_cancel_check = 0.0
    stopped = None
    eof = False
    while True:
        # Sleep until something is due (a line wakes us at once): on a host whose every
        # core is measuring, each needless wake-up of this process is time taken from it.
        wait_s = min(max(0.01, min(next_cancel_check, deadline) - time.monotonic()), 1.0)
        if eof:
            try:
                proc.wait(timeout=min(wait_s, 0.1))
                break
            except subprocess.TimeoutExpired:
                pass
        else:
            try:
                line = lines.get(timeout=wait_s)
            except queue.Empty:
                line = ""
            if line is None:
                eof = True
            elif line:
                _report(line, on_progress)
            elif proc.poll() is not None:
                break  # exited, though a grandchild may still hold stdout open
        now = time.monotonic()
        if now > deadline:
            stopped = "time_limit"
            break
        if now >= next_cancel_check:
            next_cancel_check = now + cancel_every_s
            if should_cancel():
                stopped = "cancelled"
                break
    # Also reaps grandchildren (loky workers, trial processes) left in the group.
    _kill_group(proc.pid)
    proc.wait()
    reader.join(timeout=5)
    return stopped


def _pump(stream, lines: queue.Queue) -> None:
    for line in stream:
        lines.put(line)
    lines.put(None)


def _report(line: str, on_progress: Callable[[float, Message | str], None]) -> None:
    try:
        message = json.loads(line)
    except ValueError:
        return  # library chatter on stdout is not ours to parse
    if isinstance(message, dict) and "progress" in message:
        try:
            progress = min(1.0, max(0.0, float(message["progress"])))
        except (TypeError, ValueError):
            return
        on_progress(progress, _message_in(message) or str(message.get("step", ""))[:150])


def _message_in(data: dict) -> Message | None:
    """The message (code and parameters) a child sent beside its English text, if any."""
    try:
        return Message.from_json(data["message"])
    except (KeyError, TypeError, ValueError, AttributeError):
        return None  # an older child, or a code this side does not know


def _child_message(data: dict, text_key: str) -> Message | None:
    """What a child said: its message, else its text as words from outside; None when it
    said nothing."""
    text = str(data.get(text_key) or "")
    return _message_in(data) or (msg("common.text", text=text) if text else None)


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def _read_json(path: Path) -> dict | None:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


# Scratch folders ---------------------------------------------------------------------
# A run measures in /tmp/bench-<first 8 hex of its id>-<random>/. The folder goes with the
# run's end (success, failure, cancel); a worker killed mid-run cannot remove it, so the
# folder names the process that owns it and a sweep removes those whose owner is gone.
SCRATCH_NAME = re.compile(r"^bench-[0-9a-f]{8}-[a-z0-9_]+$")
OWNER_FILE = "owner.json"
# A folder without an owner file (made before owners were written) is swept after this.
UNOWNED_AFTER_S = 24 * 3600.0


@contextlib.contextmanager
def scratch_dir(run_hex: str) -> Iterator[Path]:
    """A run's scratch folder, owned by this process, removed when the block ends."""
    with tempfile.TemporaryDirectory(prefix=f"bench-{run_hex[:8]}-") as tmp:
        me = psutil.Process()
        owner = {"pid": me.pid, "started": me.create_time()}
        (Path(tmp) / OWNER_FILE).write_text(json.dumps(owner))
        yield Path(tmp)


def sweep_scratch(root: Path | None = None, now: float | None = None) -> list[Path]:
    """Remove the scratch folders whose owning process is gone; the folders removed."""
    root = Path(root or tempfile.gettempdir())
    now = time.time() if now is None else now
    removed = []
    with contextlib.suppress(OSError):
        for path in root.iterdir():
            ours = SCRATCH_NAME.match(path.name) and not path.is_symlink() and path.is_dir()
            if ours and _stale(path, now):
                shutil.rmtree(path, ignore_errors=True)
                removed.append(path)
    return removed


def _stale(path: Path, now: float) -> bool:
    try:
        owner = json.loads((path / OWNER_FILE).read_text())
        pid, started = int(owner["pid"]), float(owner["started"])
    except FileNotFoundError:
        # Being made this instant, or made before owners were written: go by age.
        try:
            return now - path.stat().st_mtime > UNOWNED_AFTER_S
        except OSError:
            return False
    except (OSError, ValueError, KeyError, TypeError):
        return False  # not ours to judge
    try:
        # A pid reused by another process is told apart by its start time.
        process = psutil.Process(pid)
        reused = abs(process.create_time() - started) > 1.0
        return reused or process.status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True
    except psutil.Error:
        return False
