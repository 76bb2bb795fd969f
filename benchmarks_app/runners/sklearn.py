"""scikit-learn: random-forest fits, alone or inside a cross-validated ``GridSearchCV``.

Metric: model fits per second at the profile's R0 rows x F0 features, as ``n_jobs`` = k.

- ``mode: "rf_fit"``: one ``RandomForestClassifier(n_jobs=k)`` fit; fits/s = 1 / seconds.
- ``mode: "grid_search"``: ``GridSearchCV(RandomForestClassifier(n_jobs=1), grid, cv=K,
  n_jobs=k, refit=False)``; fits/s = G·K / seconds (joblib's loky workers are started in
  setup and reused, so their start-up is not timed).

A team's search of G candidates x K folds on R x F takes G·K·(R·F)/(R0·F0) / X(k) seconds.
"""

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
            _start_workers(ctx.threads)
        ctx.extra.update({"rows": rows, "features": features, "trees": forest["n_estimators"],
                          "mode": self.mode, "fits_per_measurement": self.fits})  # fmt: skip

    def measure(self) -> tuple[float, float]:
        import time

        start = time.perf_counter()
        self.estimator.fit(self.X, self.y)
        seconds = time.perf_counter() - start
        return self.fits / seconds, seconds


def setup(ctx: Context) -> SklearnBench:
    return SklearnBench(ctx)


if __name__ == "__main__":
    run(setup)
