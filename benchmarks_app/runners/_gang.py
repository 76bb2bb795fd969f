"""A gang of worker processes that start each task together (process-parallel runners).

hpo, inference and membw measure N single-thread processes at once. The gang starts N
processes once (spawn: no inherited thread pools or locks), lets each build its state, then
for each call sends the same task to all of them; each waits at a barrier and runs it, so
they start together and each process runs exactly one share. Functions are named as
"module:function" strings and imported in the worker, which keeps them picklable under
``python -m``.
"""

import contextlib
import importlib
import multiprocessing
import traceback
from collections.abc import Callable
from typing import Any


def _resolve(path: str) -> Callable:
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def _worker(conn, barrier, init: str, init_args: dict, index: int) -> None:
    try:
        state = _resolve(init)(init_args, index)
        conn.send(("ready", None))
    except Exception:
        conn.send(("error", traceback.format_exc()))
        return
    while True:
        message = conn.recv()
        if message is None:
            return
        fn, args = message
        try:
            barrier.wait(timeout=600)
            conn.send(("ok", _resolve(fn)(state, args)))
        except Exception:
            conn.send(("error", traceback.format_exc()))


def worker_threadpools(state: Any, args: Any) -> list[dict]:
    from benchmarks_app.runners._harness import threadpools

    return threadpools()


class GangError(RuntimeError):
    pass


class Gang:
    def __init__(self, size: int, init: str, init_args: dict) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.barrier = ctx.Barrier(size)
        self.conns = []
        self.procs = []
        for index in range(size):
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=_worker, args=(child, self.barrier, init, init_args, index),
                               daemon=True)  # fmt: skip
            proc.start()
            self.conns.append(parent)
            self.procs.append(proc)
        self._gather()

    def _gather(self) -> list[Any]:
        results = []
        for conn in self.conns:
            status, payload = conn.recv()
            if status == "error":
                self.close()
                raise GangError(f"a worker process failed:\n{payload}")
            results.append(payload)
        return results

    def call(self, fn: str, args: Any = None) -> list[Any]:
        """Run ``fn(state, args)`` in every worker at once; their results in worker order."""
        for conn in self.conns:
            conn.send((fn, args))
        return self._gather()

    def threadpools(self) -> list[dict]:
        """Each worker's thread pools, tagged with its index: what really ran there."""
        pools = self.call(f"{__name__}:worker_threadpools")
        return [{**pool, "process": i} for i, worker in enumerate(pools) for pool in worker]

    def close(self) -> None:
        for conn in self.conns:
            with contextlib.suppress(OSError):
                conn.send(None)
        for proc in self.procs:
            proc.join(timeout=5)
            if proc.is_alive():
                proc.kill()
        self.conns, self.procs = [], []
