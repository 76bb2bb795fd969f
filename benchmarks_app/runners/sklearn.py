"""scikit-learn: random-forest fits, alone or inside a cross-validated ``GridSearchCV``.

Metric: model fits per second at the profile's R0 rows x F0 features, as ``n_jobs`` = k.

- ``mode: "rf_fit"``: one ``RandomForestClassifier(n_jobs=k)`` fit; fits/s = 1 / seconds.
- ``mode: "grid_search"``: ``GridSearchCV(RandomForestClassifier(n_jobs=1), grid, cv=K,
  n_jobs=k, refit=False)``; fits/s = G·K / seconds (joblib's loky workers are started in
  setup and reused, so their start-up is not timed).

A team's search of G candidates x K folds on R x F takes G·K·(R·F)/(R0·F0) / X(k) seconds.

Memory: ``extra.rss_per_input_gb`` is the memory the fits took above the baseline (GiB),
per decimal GB of the float32 input matrix (R·F·4 bytes), at this k: this process's peak
RSS above its own baseline, plus, in a grid search, the peak of the joblib workers' summed
RSS (sampled every 20 ms) above theirs. The baselines are taken once sklearn is imported
and the workers are up, before the data exist, so interpreters and imports are not counted.
Pages a worker shares with another count in each, so the figure errs on the high side.
"""

import threading

from benchmarks_app.runners._harness import Context, InvalidParams, run
from common.messages import msg


def estimate_bytes(params: dict, threads: int = 1) -> int:
    data = params["rows"] * params["features"] * 4
    # Each loky worker holds its fold copies and trees; ~150 MiB interpreter + sklearn each.
    per_worker = data * 2 + 150 * 2**20
    workers = threads if params.get("mode") == "grid_search" else 1
    return int(data * 2 + workers * per_worker)


def _grid_size(grid: dict) -> int:
    size = 1
    for values in grid.values():
        size *= len(values)
    return size


def _import_forest() -> int:
    import os

    import sklearn.ensemble  # noqa: F401

    return os.getpid()


def _start_workers(n_jobs: int) -> None:
    """Start joblib's reusable loky workers (and their sklearn import) before any timing."""
    from joblib import Parallel, delayed

    Parallel(n_jobs=n_jobs)(delayed(_import_forest)() for _ in range(2 * n_jobs))


class TreeMemory:
    """Peak memory above a baseline: this process's by ru_maxrss and, with `workers`, its
    child processes' (joblib's workers) by sampling their summed RSS on a thread."""

    INTERVAL_S = 0.02
    RELIST_EVERY = 50  # samples between listings of the children (a full /proc scan)

    def __init__(self, *, workers: bool) -> None:
        import psutil

        self.process = psutil.Process()
        self.own_baseline = self.process.memory_info().rss
        self.children = self.process.children(recursive=True) if workers else []
        self.children_baseline = self.children_peak = self._children_rss()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        if workers:
            self._thread.start()

    def _children_rss(self) -> int:
        import psutil

        total = 0
        for child in self.children:
            try:
                total += child.memory_info().rss
            except psutil.Error:  # a worker that ended since the last listing
                continue
        return total

    def _sample(self) -> None:
        samples = 0
        while not self._stop.wait(self.INTERVAL_S):
            samples += 1
            if samples % self.RELIST_EVERY == 0:  # loky may replace a worker
                self.children = self.process.children(recursive=True)
            self.children_peak = max(self.children_peak, self._children_rss())

    def stop(self) -> int:
        """Bytes above the baselines at the peak (own peak + the workers' summed peak)."""
        import resource

        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()
        own_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        workers = max(0, self.children_peak - self.children_baseline)
        return max(0, own_peak - self.own_baseline) + workers


class SklearnBench:
    def __init__(self, ctx: Context) -> None:
        from sklearn.ensemble import RandomForestClassifier

        from benchmarks_app.runners._data import classification

        p = ctx.params
        self.mode = p.get("mode", "rf_fit")
        if self.mode not in ("rf_fit", "grid_search"):
            why = msg(
                "benchmarks.runner_bad_mode",
                first="rf_fit",
                second="grid_search",
                value=repr(self.mode),
            )
            raise InvalidParams(why)
        rows, features = int(p["rows"]), int(p["features"])
        if self.mode == "grid_search":
            _start_workers(ctx.threads)  # before the baseline: their interpreters are not data
        self.memory = TreeMemory(workers=self.mode == "grid_search")
        self.input_gb = rows * features * 4 / 1e9
        self.X, self.y = classification(rows, features, int(p.get("seed", 0)))
        forest = {"n_estimators": int(p["trees"]), "max_depth": p.get("max_depth"),
                  "random_state": int(p.get("seed", 0))}  # fmt: skip
        if self.mode == "rf_fit":
            self.estimator = RandomForestClassifier(n_jobs=ctx.threads, **forest)
            self.fits = 1
        else:
            from sklearn.model_selection import GridSearchCV, KFold

            grid = p["grid"]
            folds = int(p["folds"])
            self.estimator = GridSearchCV(
                RandomForestClassifier(n_jobs=1, **forest), grid, n_jobs=ctx.threads,
                cv=KFold(folds, shuffle=True, random_state=0), refit=False,
            )  # fmt: skip
            self.fits = _grid_size(grid) * folds
        ctx.extra.update({"rows": rows, "features": features, "trees": forest["n_estimators"],
                          "mode": self.mode, "fits_per_measurement": self.fits})  # fmt: skip
        self.extra = ctx.extra

    def measure(self) -> tuple[float, float]:
        import time

        start = time.perf_counter()
        self.estimator.fit(self.X, self.y)
        seconds = time.perf_counter() - start
        return self.fits / seconds, seconds

    def finish(self, result) -> None:
        self.extra["input_gb"] = self.input_gb
        self.extra["rss_baseline_bytes"] = self.memory.own_baseline
        self.extra["rss_per_input_gb"] = self.memory.stop() / 2**30 / self.input_gb

    def close(self) -> None:
        self.memory.stop()  # an error before finish must not leave the sampler running


def setup(ctx: Context) -> SklearnBench:
    return SklearnBench(ctx)


if __name__ == "__main__":
    run(setup)
