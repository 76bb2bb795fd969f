"""Gradient boosting training: XGBoost ``hist`` or LightGBM on R rows x F float32 features.

Metric: cell-trees per second, X = R·F·T / seconds per training, so a team's training of
R rows x F features x T trees takes R·F·T / X(k) seconds on the same host. The data matrix
and its binned form (XGBoost ``QuantileDMatrix``, LightGBM ``Dataset``) are built once per
process, outside the timing: a measurement is the boosting itself.
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

        from benchmarks_app.runners._data import classification

        p = ctx.params
        self.rows, self.features, self.trees = int(p["rows"]), int(p["features"]), int(p["trees"])
        self.library = p.get("library", "xgboost")
        self.threads = ctx.threads
        X, y = classification(self.rows, self.features, int(p.get("seed", 0)))
        if self.library == "xgboost":
            import xgboost as xgb

            self.lib = xgb
            self.data = xgb.QuantileDMatrix(X, y, max_bin=int(p.get("max_bin", 256)),
                                            nthread=self.threads)  # fmt: skip
            self.params = {
                "tree_method": "hist", "device": p.get("device", "cpu"),
                "objective": "binary:logistic", "max_depth": int(p.get("max_depth", 6)),
                "eta": float(p.get("learning_rate", 0.1)), "max_bin": int(p.get("max_bin", 256)),
                "nthread": self.threads, "seed": int(p.get("seed", 0)),
            }  # fmt: skip
        elif self.library == "lightgbm":
            import lightgbm as lgb

            self.lib = lgb
            self.params = {
                "objective": "binary", "num_leaves": int(p.get("num_leaves", 63)),
                "learning_rate": float(p.get("learning_rate", 0.1)),
                "max_bin": int(p.get("max_bin", 255)), "num_threads": self.threads,
                "seed": int(p.get("seed", 0)), "deterministic": True, "verbose": -1,
            }  # fmt: skip
            self.data = lgb.Dataset(X, y, params=self.params, free_raw_data=False).construct()
        else:
            why = msg(
                "benchmarks.runner_bad_library",
                runner="gbm",
                first="xgboost",
                second="lightgbm",
                value=repr(self.library),
            )
            raise InvalidParams(why)
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
        import statistics

        self.extra["seconds_per_training"] = statistics.median(result.seconds)


def setup(ctx: Context) -> GbmBench:
    return GbmBench(ctx)


if __name__ == "__main__":
    run(setup)
