"""Tabular-model inference: single requests and small batches from a trained LightGBM model.

``threads`` is the number of serving processes, each single-threaded (the usual way to serve
a CPU model: one request per worker at a time). The first serving process trains the model
once in setup and saves it to the scratch workdir; every serving process loads it and
answers requests in a closed loop (the next request right after the previous answer), all
processes at once.

Metric: requests per second over all processes. ``extra`` keeps the service-time samples
(seconds per single request, at most 2000, evenly spread over the run) for the planner's
queue model, their mean/p50/p95/p99, and the median time of small batches.
"""

from benchmarks_app.runners._harness import Context, even_sample, percentile, run

GANG_INIT = "benchmarks_app.runners.inference:worker_init"
GANG_TRAIN = "benchmarks_app.runners.inference:worker_train"
GANG_LOAD = "benchmarks_app.runners.inference:worker_load"
GANG_SERVE = "benchmarks_app.runners.inference:worker_serve"
GANG_BATCHES = "benchmarks_app.runners.inference:worker_batches"
PROCESS_BYTES = 250 * 2**20


def estimate_bytes(params: dict, threads: int = 1) -> int:
    data = params["train_rows"] * params["features"] * 4
    return int(3 * data + (threads + 1) * PROCESS_BYTES)


def worker_init(args: dict, index: int) -> dict:
    import lightgbm  # noqa: F401  (start-up cost, paid before any timing)
    import numpy  # noqa: F401

    return {"index": index, **args}


def worker_train(state: dict, args: dict) -> None:
    """Worker 0 trains and saves the model (the parent never loads lightgbm)."""
    if state["index"] != 0:
        return
    import lightgbm as lgb
    import numpy as np

    from benchmarks_app.runners._data import classification

    p = args["params"]
    X, y = classification(int(p["train_rows"]), int(p["features"]), int(p.get("seed", 0)))
    params = {"objective": "binary", "num_leaves": int(p["num_leaves"]), "num_threads": 1,
              "verbose": -1, "seed": int(p.get("seed", 0)), "deterministic": True}  # fmt: skip
    booster = lgb.train(params, lgb.Dataset(X, y), num_boost_round=int(p["trees"]))
    booster.save_model(state["model"])
    np.save(state["requests"], X[: int(p["request_pool"])])


def worker_load(state: dict, args: dict) -> None:
    import lightgbm as lgb
    import numpy as np

    booster = lgb.Booster(model_file=state["model"])
    pool = np.load(state["requests"])
    booster.predict(pool[:1], num_threads=1)  # first call allocates; not a service time
    state.update({"booster": booster, "pool": pool, "offset": state["index"] * 997})


def worker_serve(state: dict, args: dict) -> dict:
    import time

    booster, pool = state["booster"], state["pool"]
    times = []
    start = time.monotonic()
    for i in range(args["requests"]):
        j = (state["offset"] + i) % len(pool)
        row = pool[j : j + 1]
        t0 = time.perf_counter()
        booster.predict(row, num_threads=1)
        times.append(time.perf_counter() - t0)
    state["offset"] += args["requests"]
    return {"start": start, "end": time.monotonic(), "times": times}


def worker_batches(state: dict, args: dict) -> dict:
    import statistics
    import time

    booster, pool = state["booster"], state["pool"]
    out = {}
    for size in args["sizes"]:
        times = []
        for i in range(args["repeats"]):
            j = (i * size) % max(1, len(pool) - size)
            t0 = time.perf_counter()
            booster.predict(pool[j : j + size], num_threads=1)
            times.append(time.perf_counter() - t0)
        out[str(size)] = statistics.median(times)
    return out


class InferenceBench:
    def __init__(self, ctx: Context) -> None:
        from benchmarks_app.runners._gang import Gang

        p = ctx.params
        files = {"model": str(ctx.workdir / "model.txt"),
                 "requests": str(ctx.workdir / "requests.npy")}  # fmt: skip
        self.gang = Gang(ctx.threads, GANG_INIT, files)
        self.gang.call(GANG_TRAIN, {"params": p})
        self.gang.call(GANG_LOAD)
        self.requests = int(p["requests_per_process"])
        self.batch_sizes = [int(b) for b in p.get("batch_sizes", [8, 32])]
        self.times: list[float] = []
        self.extra = ctx.extra
        ctx.extra.update({"model": "lightgbm", "trees": int(p["trees"]),
                          "features": int(p["features"]), "processes": ctx.threads,
                          "requests_per_process": self.requests})  # fmt: skip

    def measure(self) -> tuple[float, float]:
        results = self.gang.call(GANG_SERVE, {"requests": self.requests})
        wall = max(r["end"] for r in results) - min(r["start"] for r in results)
        times = [t for r in results for t in r["times"]]
        self.times.extend(times)
        return len(times) / wall, wall

    def finish(self, result) -> None:
        import statistics

        timed = self.times[len(result.warmup) * self.requests * len(self.gang.procs) :]
        ordered = sorted(timed)
        batches = self.gang.call(GANG_BATCHES, {"sizes": self.batch_sizes, "repeats": 50})
        self.extra.update({
            "service_times_s": even_sample(timed),
            "samples_total": len(timed),
            "mean_s": statistics.fmean(timed),
            "p50_s": percentile(ordered, 50),
            "p95_s": percentile(ordered, 95),
            "p99_s": percentile(ordered, 99),
            "batch_p50_s": {size: statistics.median(b[size] for b in batches)
                            for size in batches[0]},
        })  # fmt: skip

    def threadpools(self) -> list[dict]:
        return self.gang.threadpools()

    def close(self) -> None:
        self.gang.close()


def setup(ctx: Context) -> InferenceBench:
    return InferenceBench(ctx)


if __name__ == "__main__":
    run(setup, process_parallel=True)
