"""Memory bandwidth: STREAM-style copy and triad over arrays far larger than the last-level cache.

``threads`` is the number of worker processes (processes, not threads: numpy's kernels are
single-threaded and the GIL would serialise a Python loop over blocks), each owning an equal
share of three float64 arrays a, b, c and running its share at the same moment (a barrier
starts them together; the wall time is from the first start to the last end).

- copy:  a = b        counted as 16 bytes per element (read b, write a);
- triad: a = b + s·c  counted as 24 bytes per element (read b and c, write a),

as STREAM counts them: write-allocate traffic is not counted, so the figures are comparable
with published STREAM results. The triad runs in cache-sized blocks (s·c into a small
buffer, then a = b + buffer), so memory sees one pass over each array; the per-block Python
overhead (a few microseconds per 256 KiB block) makes it a slight underestimate.

Each array is at least ``llc_multiple`` (default 4, STREAM's rule) times the host's total
last-level cache, and at least ``array_mib``.
"""

from benchmarks_app import fingerprint
from benchmarks_app.runners._harness import Context, run

GANG_INIT = "benchmarks_app.runners.membw:worker_init"
GANG_COPY = "benchmarks_app.runners.membw:worker_copy"
GANG_TRIAD = "benchmarks_app.runners.membw:worker_triad"
BLOCK = 32768  # float64 elements: 256 KiB stays in L2 on any current core
SCALAR = 3.0


def array_bytes(params: dict) -> int:
    llc = (fingerprint.caches() or {}).get("l3_total_bytes") or 0
    return int(max(params["array_mib"] * 2**20, params.get("llc_multiple", 4) * llc))


def estimate_bytes(params: dict, threads: int = 1) -> int:
    return 3 * array_bytes(params) + threads * 100 * 2**20


def worker_init(args: dict, index: int) -> dict:
    import numpy as np

    n = args["elements"] // args["workers"] + (
        1 if index < args["elements"] % args["workers"] else 0
    )
    # np.full writes every page now, so page faults are not timed later.
    return {"a": np.full(n, 0.0), "b": np.full(n, 1.0), "c": np.full(n, 2.0),
            "tmp": np.empty(BLOCK)}  # fmt: skip


def worker_copy(state: dict, args: dict) -> tuple[float, float]:
    import time

    import numpy as np

    start = time.monotonic()
    np.copyto(state["a"], state["b"])
    return start, time.monotonic()


def worker_triad(state: dict, args: dict) -> tuple[float, float]:
    import time

    import numpy as np

    a, b, c, tmp = state["a"], state["b"], state["c"], state["tmp"]
    n = len(a)
    start = time.monotonic()
    for i in range(0, n, BLOCK):
        j = min(i + BLOCK, n)
        t = tmp[: j - i]
        np.multiply(c[i:j], SCALAR, out=t)
        np.add(b[i:j], t, out=a[i:j])
    return start, time.monotonic()


def _wall(results: list[tuple[float, float]]) -> float:
    return max(end for _, end in results) - min(start for start, _ in results)


class MembwBench:
    def __init__(self, ctx: Context) -> None:
        from benchmarks_app.runners._gang import Gang

        size = array_bytes(ctx.params)
        self.elements = size // 8
        self.gang = Gang(ctx.threads, GANG_INIT, {"elements": self.elements,
                                                   "workers": ctx.threads})  # fmt: skip
        self.copy: list[float] = []
        self.extra = ctx.extra
        llc = (fingerprint.caches() or {}).get("l3_total_bytes")
        ctx.extra.update({
            "array_bytes": self.elements * 8, "arrays": 3, "llc_bytes": llc,
            "array_to_llc": self.elements * 8 / llc if llc else None, "processes": ctx.threads,
            "bytes_counted": "STREAM: copy 16 B/element, triad 24 B/element",
        })  # fmt: skip

    def measure(self) -> tuple[float, float]:
        copy = _wall(self.gang.call(GANG_COPY))
        self.copy.append(16 * self.elements / copy / 1e9)
        triad = _wall(self.gang.call(GANG_TRIAD))
        return 24 * self.elements / triad / 1e9, triad

    def finish(self, result) -> None:
        import statistics

        timed = self.copy[len(result.warmup) :]
        self.extra["copy_gb_per_s"] = statistics.median(timed)
        self.extra["copy_values"] = timed

    def threadpools(self) -> list[dict]:
        return self.gang.threadpools()

    def close(self) -> None:
        self.gang.close()


def setup(ctx: Context) -> MembwBench:
    return MembwBench(ctx)


if __name__ == "__main__":
    run(setup, process_parallel=True)
