"""Gradient boosting training: XGBoost ``hist`` or LightGBM on R rows x F float32 features.

Metric: cell-trees per second, X = R·F·T / seconds per training, so a team's training of
R rows x F features x T trees takes R·F·T / X(k) seconds on the same host. The data matrix
and its binned form (XGBoost ``QuantileDMatrix``, LightGBM ``Dataset``) are built once per
process, outside the timing: a measurement is the boosting itself.

Memory: ``extra.rss_per_input_gb`` is the peak RSS above the baseline taken after the
library's import and before the data exist (GiB), per decimal GB of the float32 input
matrix (R·F·4 bytes): the planner's working set of a training of R x F is R·F·4 bytes
times this ratio. It covers the raw matrix, the binned copy, gradients and histograms.
"""

from benchmarks_app.runners._harness import Context, InvalidParams, run
from common.messages import msg

# Raw float32 matrix + the libraries' binned copy, gradients and histograms.
MEMORY_FACTOR = 2.5


def estimate_bytes(params: dict, threads: int = 1) -> int:
    return int(params["rows"] * params["features"] * 4 * MEMORY_FACTOR) + 300 * 2**20


class GbmBench:
    def __init__(self, ctx: Context) -> None:
        import numpy as np
        import psutil

        from benchmarks_app.runners._data import classification

        p = ctx.params
        self.rows, self.features, self.trees = int(p["rows"]), int(p["features"]), int(p["trees"])
        self.library = p.get("library", "xgboost")
        self.threads = ctx.threads
        self.lib = _import_library(self.library)  # its import is no part of the working set
        self.baseline_rss = psutil.Process().memory_info().rss
        X, y = classification(self.rows, self.features, int(p.get("seed", 0)))
        if self.library == "xgboost":
            xgb = self.lib
            self.data = xgb.QuantileDMatrix(X, y, max_bin=int(p.get("max_bin", 256)),
                                            nthread=self.threads)  # fmt: skip
            self.params = {
                "tree_method": "hist", "device": p.get("device", "cpu"),
                "objective": "binary:logistic", "max_depth": int(p.get("max_depth", 6)),
                "eta": float(p.get("learning_rate", 0.1)), "max_bin": int(p.get("max_bin", 256)),
                "nthread": self.threads, "seed": int(p.get("seed", 0)),
            }  # fmt: skip
        else:
            lgb = self.lib
            self.params = {
                "objective": "binary", "num_leaves": int(p.get("num_leaves", 63)),
                "learning_rate": float(p.get("learning_rate", 0.1)),
                "max_bin": int(p.get("max_bin", 255)), "num_threads": self.threads,
                "seed": int(p.get("seed", 0)), "deterministic": True, "verbose": -1,
            }  # fmt: skip
            self.data = lgb.Dataset(X, y, params=self.params, free_raw_data=False).construct()
        self.cells = float(np.float64(self.rows) * self.features * self.trees)
        ctx.extra.update({
            "rows": self.rows, "features": self.features, "trees": self.trees,
            "library": self.library, "library_version": self.lib.__version__,
            "params": {k: v for k, v in self.params.items() if k != "verbose"},
        })  # fmt: skip
        self.extra = ctx.extra

    def measure(self) -> tuple[float, float]:
        import time

        start = time.perf_counter()
        self.lib.train(self.params, self.data, num_boost_round=self.trees)
        seconds = time.perf_counter() - start
        return self.cells / seconds, seconds

    def finish(self, result) -> None:
        import resource
        import statistics

        self.extra["seconds_per_training"] = statistics.median(result.seconds)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        input_gb = self.rows * self.features * 4 / 1e9
        self.extra["input_gb"] = input_gb
        self.extra["rss_baseline_bytes"] = self.baseline_rss
        self.extra["rss_per_input_gb"] = (peak - self.baseline_rss) / 2**30 / input_gb


def _import_library(library: str):
    if library == "xgboost":
        import xgboost

        return xgboost
    if library == "lightgbm":
        import lightgbm

        return lightgbm
    why = msg("benchmarks.runner_bad_library", runner="gbm", first="xgboost",
              second="lightgbm", value=repr(library))  # fmt: skip
    raise InvalidParams(why)


def setup(ctx: Context) -> GbmBench:
    return GbmBench(ctx)


if __name__ == "__main__":
    run(setup)
