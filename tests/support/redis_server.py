"""A redis-server of a test's own, on a free port: the fault suite and the Redis-down
tests stop and restart it without touching the Redis other tests use."""

import shutil
import socket
import subprocess
import time
from pathlib import Path


class RedisServer:
    """A redis-server of our own on a free port, without persistence: a restart loses
    every message, as a production Redis without AOF does."""

    def __init__(self, log: Path) -> None:
        self.binary = shutil.which("redis-server")
        if self.binary is None:
            raise FileNotFoundError("redis-server is not installed (apt-get install redis-server)")
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.log = log
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        cmd = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
               "--appendonly", "no", "--daemonize", "no"]  # fmt: skip
        self.proc = subprocess.Popen(cmd, stdout=self.log.open("a"), stderr=subprocess.STDOUT)
        self._wait(up=True)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=20)
        self._wait(up=False)

    def restart(self) -> None:
        self.stop()
        self.start()

    def _wait(self, *, up: bool) -> None:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                if up:
                    return
            except OSError:
                if not up:
                    return
            time.sleep(0.05)
        raise TimeoutError(f"redis-server on {self.port} did not come {'up' if up else 'down'}")
