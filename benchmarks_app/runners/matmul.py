"""Dense matrix multiply through numpy's BLAS: GFLOPS in float64 (the metric) and float32.

Each repetition multiplies two n x n matrices ``iterations`` times in float64, then in
float32; GFLOPS = 2·n³·iterations / seconds / 1e9. The BLAS threads are fixed by the
environment and threadpoolctl at k, and the BLAS library, version and kernel architecture
threadpoolctl reports are named in ``extra.blas``.
"""

from benchmarks_app.runners._harness import Context, run


def estimate_bytes(params: dict, threads: int = 1) -> int:
    return int(3 * params["n"] ** 2 * (8 + 4)) + 200 * 2**20


class MatmulBench:
    def __init__(self, ctx: Context) -> None:
        import numpy as np
        from threadpoolctl import threadpool_info

        n = int(ctx.params["n"])
        rng = np.random.default_rng(int(ctx.params.get("seed", 0)))
        self.a64, self.b64 = rng.standard_normal((n, n)), rng.standard_normal((n, n))
        self.a32, self.b32 = self.a64.astype(np.float32), self.b64.astype(np.float32)
        self.np = np
        self.iterations = int(ctx.params["iterations"])
        self.flop = 2.0 * n**3 * self.iterations
        self.f32: list[float] = []
        self.extra = ctx.extra
        blas = [p for p in threadpool_info() if p.get("user_api") == "blas"]
        ctx.extra.update({
            "n": n, "iterations": self.iterations,
            "blas": ", ".join(f"{p.get('internal_api')} {p.get('version')} "
                              f"({p.get('architecture')}, {p.get('threading_layer')})"
                              for p in blas) or None,
        })  # fmt: skip

    def _gflops(self, a, b) -> tuple[float, float]:
        import time

        start = time.perf_counter()
        for _ in range(self.iterations):
            self.np.matmul(a, b)
        seconds = time.perf_counter() - start
        return self.flop / seconds / 1e9, seconds

    def measure(self) -> tuple[float, float]:
        value, seconds = self._gflops(self.a64, self.b64)
        self.f32.append(self._gflops(self.a32, self.b32)[0])
        return value, seconds

    def finish(self, result) -> None:
        import statistics

        timed = self.f32[len(result.warmup) :]
        self.extra["gflops_f32"] = statistics.median(timed)
        self.extra["gflops_f32_values"] = timed


def setup(ctx: Context) -> MatmulBench:
    return MatmulBench(ctx)


if __name__ == "__main__":
    run(setup)
