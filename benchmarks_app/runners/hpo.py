"""Hyperparameter search: Optuna with one single-thread trial per process, P processes at once.

``threads`` is P, the number of concurrent trial processes (each limited to one thread). The P
worker processes start once, share one Optuna study through a journal file in the scratch
workdir (Optuna's multi-process storage), and for each measurement every process runs
``trials_per_process`` trials of a fresh study; the study is new per measurement so each
repetition does the same work.

A trial: an ExtraTreesClassifier (one thread) with sampled size and leaf parameters, scored on
a held-out split of a synthetic R rows x F features set.

Metric: trials per hour X(P) = P·m / wall seconds x 3600. ``extra.t0_seconds`` is the median
single-trial length seen in this measurement: at P = 1 it is the profile's single-thread trial
length t₀ the planner scales a team's trial length by; its growth with P shows how much
concurrent trials slow each other.
"""

from benchmarks_app.runners._harness import Context, run

GANG_INIT = "benchmarks_app.runners.hpo:worker_init"
GANG_TRIALS = "benchmarks_app.runners.hpo:worker_trials"
PROCESS_BYTES = 250 * 2**20  # interpreter + numpy + sklearn + optuna per trial process


def estimate_bytes(params: dict, threads: int = 1) -> int:
    data = params["rows"] * params["features"] * 4
    return int(threads * (PROCESS_BYTES + 3 * data) + data)


def worker_init(args: dict, index: int) -> dict:
    import numpy as np
    import optuna
    import sklearn.ensemble  # noqa: F401  (its import is start-up, not trial time)

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    data = np.load(args["data"])
    split = int(len(data["y"]) * 0.75)
    storage = optuna.storages.JournalStorage(
        optuna.storages.journal.JournalFileBackend(args["journal"])
    )
    return {"X": data["X"], "y": data["y"], "split": split, "storage": storage,
            "seed": args["seed"] + index, "trees_max": args["trees_max"]}  # fmt: skip


def worker_trials(state: dict, args: dict) -> dict:
    import time

    import optuna
    from sklearn.ensemble import ExtraTreesClassifier

    X, y, split = state["X"], state["y"], state["split"]
    durations: list[float] = []

    def objective(trial: optuna.Trial) -> float:
        t0 = time.perf_counter()
        model = ExtraTreesClassifier(
            n_estimators=trial.suggest_int("n_estimators", 4, state["trees_max"]),
            max_depth=trial.suggest_int("max_depth", 2, 16),
            min_samples_leaf=trial.suggest_int("min_samples_leaf", 1, 20),
            max_features=trial.suggest_float("max_features", 0.2, 1.0),
            n_jobs=1, random_state=trial.number,
        )  # fmt: skip
        score = model.fit(X[:split], y[:split]).score(X[split:], y[split:])
        durations.append(time.perf_counter() - t0)
        return score

    study = optuna.create_study(
        study_name=args["study"], storage=state["storage"], direction="maximize",
        sampler=optuna.samplers.TPESampler(seed=state["seed"] + args["rep"]), load_if_exists=True,
    )  # fmt: skip
    start = time.monotonic()  # CLOCK_MONOTONIC: one clock for all processes on the host
    study.optimize(objective, n_trials=args["trials"])
    return {"start": start, "end": time.monotonic(), "durations": durations}


class HpoBench:
    def __init__(self, ctx: Context) -> None:
        import numpy as np

        from benchmarks_app.runners._data import classification
        from benchmarks_app.runners._gang import Gang

        p = ctx.params
        X, y = classification(int(p["rows"]), int(p["features"]), int(p.get("seed", 0)))
        data = ctx.workdir / "hpo-data.npz"
        np.savez(data, X=X, y=y)
        self.processes = ctx.threads
        self.trials = int(p["trials_per_process"])
        self.rep = 0
        self.durations: list[float] = []
        self.gang = Gang(self.processes, GANG_INIT, {
            "data": str(data), "journal": str(ctx.workdir / "optuna-journal.log"),
            "seed": int(p.get("seed", 0)), "trees_max": int(p["trees_max"]),
        })  # fmt: skip
        ctx.extra.update({"concurrency": self.processes, "trials_per_process": self.trials,
                          "rows": int(p["rows"]), "features": int(p["features"])})  # fmt: skip
        self.extra = ctx.extra

    def measure(self) -> tuple[float, float]:
        self.rep += 1
        args = {"study": f"rep-{self.rep}", "trials": self.trials, "rep": self.rep}
        results = self.gang.call(GANG_TRIALS, args)
        wall = max(r["end"] for r in results) - min(r["start"] for r in results)
        self.last = [d for r in results for d in r["durations"]]
        self.durations.extend(self.last)
        return len(self.last) / wall * 3600, wall

    def finish(self, result) -> None:
        import statistics

        # The warm-up's trials paid for first imports and page faults: keep the timed ones.
        timed = self.durations[self.processes * self.trials * len(result.warmup) :]
        self.extra["t0_seconds"] = statistics.median(timed)
        self.extra["trial_seconds_mean"] = statistics.fmean(timed)
        self.extra["trials_timed"] = len(timed)

    def threadpools(self) -> list[dict]:
        return self.gang.threadpools()

    def close(self) -> None:
        self.gang.close()


def setup(ctx: Context) -> HpoBench:
    return HpoBench(ctx)


if __name__ == "__main__":
    run(setup, process_parallel=True)
