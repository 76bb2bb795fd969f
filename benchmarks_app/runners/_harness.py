"""What every runner child does around its own measurement.

A runner module defines ``estimate_bytes(params, threads=1)`` and
``setup(ctx: Context) -> Bench``, and calls ``run(setup)`` under
``if __name__ == "__main__"``. The harness, in order: reads SPEC.json, sets the thread environment
(before numpy or any library loads), skips when a required module is missing, lets the
runner build its deterministic data, then runs warm-up and adaptive repetitions inside a
threadpoolctl limit, records what actually ran, and writes RESULT.json.
"""

import argparse
import importlib.util
import json
import os
import resource
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from benchmarks_app import fingerprint
from benchmarks_app.runners import EXIT_ERROR, EXIT_INVALID, EXIT_OK, EXIT_SKIPPED
from common.messages import Message, msg, plain

# Every knob the libraries we run read for their thread pools. Set in the child before import.
THREAD_ENV_VARS = (
    "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS", "POLARS_MAX_THREADS", "RAYON_NUM_THREADS",
)  # fmt: skip
SAMPLES_CAP = 2000


class InvalidParams(ValueError):
    """Parameters the runner cannot use; reported as kind "invalid". Raise it with a Message
    (or, from library code, a text)."""


class Skipped(RuntimeError):
    """The measurement cannot run here (e.g. torch missing); reported as kind "skipped"."""


def _said(exc: Exception) -> Message:
    first = exc.args[0] if exc.args else None
    return first if isinstance(first, Message) else msg("common.text", text=str(exc))


class Bench(Protocol):
    def measure(self) -> tuple[float, float]: ...  # (metric value, seconds of work)


@dataclass
class Context:
    spec: dict
    params: dict
    threads: int
    workdir: Path
    inner_threads: int  # threads each process may use (1 for process-parallel runners)
    emit: Callable[[float, str], None]
    extra: dict = field(default_factory=dict)  # runner adds class-specific results here


def emit_progress(progress: float, step: Message | str) -> None:
    """A progress line: the step in English and, when it is one, as a message."""
    line: dict[str, Any] = {"progress": round(progress, 4), "step": str(step)}
    if isinstance(step, Message):
        line["message"] = step.to_json()
    print(json.dumps(line), flush=True)


def set_thread_env(n: int) -> dict[str, str]:
    for var in THREAD_ENV_VARS:
        os.environ[var] = str(n)
    return {var: os.environ[var] for var in THREAD_ENV_VARS}


def missing_modules(modules: list[str]) -> list[str]:
    return [m for m in modules if importlib.util.find_spec(m) is None]


def peak_rss() -> dict[str, int]:
    """ru_maxrss (KiB on Linux) of this process and of its largest finished child."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    return {"self": own, "children": children}


def threadpools() -> list[dict]:
    """threadpoolctl's view of the loaded BLAS/OpenMP libraries, trimmed to what matters."""
    from threadpoolctl import threadpool_info

    keys = ("user_api", "internal_api", "prefix", "version", "num_threads", "threading_layer",
            "architecture")  # fmt: skip
    return [{**{k: pool.get(k) for k in keys}, "file": Path(pool["filepath"]).name}
            for pool in threadpool_info()]  # fmt: skip


def runtime_info(env: dict[str, str], pools: list[dict]) -> dict:
    versions = fingerprint.library_versions()
    return {
        "threadpools": pools,
        "env": env,
        "affinity": fingerprint.affinity(),
        "cgroup_cpu_quota": fingerprint.cgroup_cpu_quota(),
        "library_versions": versions,
        "xgboost_build": fingerprint.xgboost_build(versions),
        "python": sys.version.split()[0],
        "pid": os.getpid(),
    }


def _write(path: Path, payload: dict) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(payload, default=float))
    tmp.replace(path)  # the caller never reads half a file


def _fail(out: Path, kind: str, why: Message, code: int) -> int:
    """RESULT.json says why in English ("error") and, unless it is only words from outside
    (an exception's text), as a message the parent's pages can translate."""
    result: dict[str, Any] = {"ok": False, "kind": kind, "error": plain(why)}
    if why.code != "common.text":
        result["message"] = why.to_json()
    _write(out, result)
    emit_progress(1.0, msg(f"benchmarks.step_{kind}", why=why))  # "invalid: ..."
    return code


def execute(spec: dict, out: Path, setup: Callable[[Context], Bench], *,
            process_parallel: bool = False) -> int:  # fmt: skip
    profile = spec["profile"]
    threads = int(spec["threads"])
    if threads < 1:
        why = msg("benchmarks.runner_threads_below_one", threads=threads)
        return _fail(out, "invalid", why, EXIT_INVALID)
    # Process-parallel runners (hpo, inference, membw) spread `threads` processes of one
    # thread each; the others run one process with `threads` threads.
    inner = 1 if process_parallel else threads
    env = set_thread_env(inner)
    missing = missing_modules(profile.get("requires", []))
    if missing:
        why = msg("benchmarks.runner_not_installed", modules=missing, profile=profile["name"])
        return _fail(out, "skipped", why, EXIT_SKIPPED)
    workdir = Path(spec["workdir"])
    workdir.mkdir(parents=True, exist_ok=True)
    from threadpoolctl import threadpool_limits

    from benchmarks_app.repetition import run_repetitions

    rep = spec.get("repetition", {})
    ctx = Context(spec=spec, params=spec["params"], threads=threads, workdir=workdir,
                  inner_threads=inner, emit=emit_progress)  # fmt: skip
    ctx.extra["trusted_range"] = profile.get("scaling_rule", {}).get("trusted_range")
    bench = None
    try:
        emit_progress(0.0, msg("benchmarks.step_setup"))
        bench = setup(ctx)
        with threadpool_limits(limits=inner):
            result = run_repetitions(
                bench.measure, warmup=rep.get("warmup", 1), min_reps=rep.get("min_reps", 3),
                max_reps=rep.get("max_reps", 10), cv_target=rep.get("cv_target", 0.035),
                time_budget_s=float(spec.get("time_budget_s", float("inf"))),
                on_step=emit_progress,
            )  # fmt: skip
            # Process-parallel benches report their workers' pools, not this idle parent's.
            pools = bench.threadpools() if hasattr(bench, "threadpools") else threadpools()
            runtime = runtime_info(env, pools)
            finish = getattr(bench, "finish", None)
            if finish is not None:
                finish(result)
    except InvalidParams as exc:
        return _fail(out, "invalid", _said(exc), EXIT_INVALID)
    except Skipped as exc:
        return _fail(out, "skipped", _said(exc), EXIT_SKIPPED)
    finally:
        if bench is not None and hasattr(bench, "close"):
            bench.close()
    rss = peak_rss()
    runtime["peak_rss_self_bytes"] = rss["self"]
    runtime["peak_rss_children_bytes"] = rss["children"]
    metric = profile["metric"]
    _write(out, {
        "ok": True,
        "metric": metric["name"],
        "unit": metric["unit"],
        "threads": threads,
        "repetitions": result.repetitions,
        "warmup": result.warmup,
        "summary": result.summary,
        "runtime": runtime,
        # Self plus the largest finished child: a bound for one process at a time.
        "peak_rss_bytes": rss["self"] + rss["children"],
        "extra": ctx.extra,
    })  # fmt: skip
    return EXIT_OK


def run(setup: Callable[[Context], Bench], *, process_parallel: bool = False) -> None:
    """Entry point of ``python -m benchmarks_app.runners.<runner> --spec ... --out ...``."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--spec", required=True, type=Path)
    parser.add_argument("--out", required=True, type=Path)
    args = parser.parse_args()
    try:
        spec: dict[str, Any] = json.loads(args.spec.read_text())
        code = execute(spec, args.out, setup, process_parallel=process_parallel)
    except Exception as exc:
        traceback.print_exc()
        crash = msg("common.text", text=f"{type(exc).__name__}: {exc}")
        code = _fail(args.out, "error", crash, EXIT_ERROR)
    sys.stdout.flush()
    sys.exit(code)


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


def percentile(sorted_values: list[float], q: float) -> float:
    """Linear-interpolated percentile (numpy's default) of already sorted values."""
    if not sorted_values:
        raise ValueError("no values")
    pos = (len(sorted_values) - 1) * q / 100
    lo = int(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def even_sample(values: list[float], cap: int = SAMPLES_CAP) -> list[float]:
    """At most ``cap`` values taken at even strides, so a long run keeps its whole spread."""
    if len(values) <= cap:
        return list(values)
    step = len(values) / cap
    return [values[int(i * step)] for i in range(cap)]
