"""Benchmark runners: one module per workload class, each run as its own child process.

    python -m benchmarks_app.runners.<runner> --spec SPEC.json --out RESULT.json

The caller (a Celery task) builds SPEC.json with ``build_spec``, refuses to start when
``validate`` returns problems, starts one child per thread count, reads the progress lines
the child prints (``{"progress": 0.0..1.0, "step": "rep 3/10"}``) and then RESULT.json.
Exit codes: 0 ok, 1 error, 2 invalid parameters, 3 skipped (a required module is missing).
The formats are in ``benchmarks_app/profiles/README.md``.

Nothing heavy is imported here: a child sets its thread environment before numpy loads.
"""

import importlib
import json
import numbers
import shutil
from pathlib import Path

from common.messages import Message, Number, msg, plain

PROFILES_DIR = Path(__file__).resolve().parent.parent / "profiles"
SCALES = ("smoke", "standard", "full")
WORKLOAD_CLASSES = ("gbm", "sklearn", "features", "hpo", "inference", "nn", "micro")
RAM_HEADROOM = 0.85  # of the host's usable RAM; the OS, the worker and page cache need the rest
EXIT_OK, EXIT_ERROR, EXIT_INVALID, EXIT_SKIPPED = 0, 1, 2, 3


def load_profile(name: str) -> dict:
    return json.loads((PROFILES_DIR / f"{name}.json").read_text())


def load_profiles() -> dict[str, dict]:
    """Every shipped profile by name, in name order."""
    return {p.stem: json.loads(p.read_text()) for p in sorted(PROFILES_DIR.glob("*.json"))}


def runner_module(profile: dict):
    return importlib.import_module(f"{__name__}.{profile['runner']}")


def merged_params(profile: dict, scale: str) -> dict:
    """The profile's common params overlaid by the scale's (without the scale's bookkeeping)."""
    scale_params = dict(profile["scales"][scale])
    for key in ("threads", "time_budget_s", "repetition"):
        scale_params.pop(key, None)
    return {**profile.get("params", {}), **scale_params}


def merged_repetition(profile: dict, scale: str) -> dict:
    return {**profile.get("repetition", {}), **profile["scales"][scale].get("repetition", {})}


def plan_threads(requested: list[int], usable: int) -> list[int]:
    """The requested thread counts this host can run, ascending.

    Counts above ``usable`` are dropped; when any was, 1 and ``usable`` itself are kept so the
    sweep still spans the host (a 1-32 list on a 12-CPU host runs 1, 2, 4, 8, 12).
    """
    usable = max(1, int(usable))
    planned = {k for k in requested if 1 <= k <= usable}
    if any(k > usable for k in requested):
        planned |= {1, usable}
    return sorted(planned)


def measurement_budget_s(profile: dict, scale: str, n_measurements: int) -> float:
    """A scale's time budget covers the whole sweep: each measurement gets an equal share."""
    return float(profile["scales"][scale]["time_budget_s"]) / max(1, n_measurements)


def build_spec(profile: dict, scale: str, threads: int, workdir: str, *,
               n_measurements: int = 1, time_budget_s: float | None = None) -> dict:  # fmt: skip
    """SPEC.json for one measurement (one thread count) of ``profile`` at ``scale``."""
    if time_budget_s is None:
        time_budget_s = measurement_budget_s(profile, scale, n_measurements)
    return {
        "profile": profile,
        "scale": scale,
        "params": merged_params(profile, scale),
        "threads": int(threads),
        "workdir": str(workdir),
        "repetition": merged_repetition(profile, scale),
        "time_budget_s": float(time_budget_s),
    }


def _gb(n: float) -> Number:
    return Number(n / 1e9, 1)


def _size_problems(params: dict, path: str = "params") -> list[Message]:
    problems = []
    for key, value in params.items():
        where = f"{path}.{key}"
        if key == "seed" or isinstance(value, bool):
            continue
        if isinstance(value, numbers.Real) and value <= 0:
            problems.append(msg("benchmarks.param_not_positive", param=where, value=str(value)))
        elif isinstance(value, list) and any(
            isinstance(v, numbers.Real) and not isinstance(v, bool) and v <= 0 for v in value
        ):
            problems.append(msg("benchmarks.params_not_positive", param=where, value=str(value)))
        elif isinstance(value, dict):
            problems.extend(_size_problems(value, where))
    return problems


def validate(profile: dict, scale: str, host: dict, threads: list[int] | None = None,
             workdir: str | None = None) -> list[str]:  # fmt: skip
    """Human-readable reasons not to start, in English; empty when the run may start."""
    return [plain(m) for m in validation_messages(profile, scale, host, threads, workdir)]


def validation_messages(profile: dict, scale: str, host: dict, threads: list[int] | None = None,
                        workdir: str | None = None) -> list[Message]:  # fmt: skip
    """Reasons not to start, as messages; empty when the run may start.

    ``host`` is a fingerprint (``usable_cpus``, ``usable_ram_bytes`` or ``ram_bytes``).
    ``threads`` are the counts that will run (default: the scale's list through
    ``plan_threads``); each must lie within the host's usable CPUs. With ``workdir`` the
    scratch data must also fit its free disk space.
    """
    if scale not in profile.get("scales", {}):
        return [
            msg("benchmarks.no_such_scale", profile=str(profile.get("name")), scale=repr(scale))
        ]
    params = merged_params(profile, scale)
    problems = _size_problems(params)
    usable = host.get("usable_cpus") or 1
    requested = profile["scales"][scale].get("threads") or []
    threads = plan_threads(requested, usable) if threads is None else list(threads)
    if not threads:
        problems.append(msg("benchmarks.no_thread_counts"))
    for k in threads:
        if not isinstance(k, int) or isinstance(k, bool) or k < 1:
            problems.append(msg("benchmarks.thread_count_not_whole", value=repr(k)))
        elif k > usable:
            problems.append(msg("benchmarks.threads_over_cpus", threads=k, usable=usable))
    budget = profile["scales"][scale].get("time_budget_s")
    if not isinstance(budget, numbers.Real) or budget <= 0:
        problems.append(msg("benchmarks.time_budget_not_positive", value=repr(budget)))
    if problems:
        return problems  # sizes feed the estimates below: stop at bad ones
    runner = runner_module(profile)
    top = max(threads)
    ram = host.get("usable_ram_bytes") or host.get("ram_bytes")
    need = runner.estimate_bytes(params, top)
    if ram and need > RAM_HEADROOM * ram:
        problems.append(msg(
            "benchmarks.dataset_over_ram", scale=scale, need=_gb(need), threads=top,
            percent=round(100 * RAM_HEADROOM), ram=Number(ram / 2**30, 1),
        ))  # fmt: skip
    disk_need = getattr(runner, "estimate_disk_bytes", lambda p: 0)(params)
    if workdir and disk_need:
        free = shutil.disk_usage(workdir).free
        if disk_need > free:
            problems.append(msg(
                "benchmarks.data_over_disk", scale=scale, need=_gb(disk_need), workdir=workdir,
                free=_gb(free),
            ))  # fmt: skip
    return problems
