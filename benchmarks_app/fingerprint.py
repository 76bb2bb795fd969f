"""The hardware fingerprint a benchmark target records on start, and each run keeps a copy of.

``collect()`` returns plain JSON-able data and never raises: a part it cannot read is None.
It reads /proc and /sys (Linux) and falls back to ``lscpu``, ``platform`` and ``psutil``;
nothing here imports numpy or a benchmark library except ``blas()``, so the child runners
can use the small helpers (``affinity``, ``cgroup_cpu_quota``, ``library_versions``) before
their thread environment is set.

``usable_cpus`` is what a benchmark may use: the CPUs in this process's affinity mask,
reduced by a cgroup CPU quota rounded down (a 1.5-CPU quota allows 1 thread without
throttling), and never below 1.
"""

import math
import os
import platform
import re
import socket
import subprocess
import sys
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

FLAGS = ("avx", "avx2", "avx512f", "avx512bw", "avx512_vnni", "avx512_bf16",
         "amx_tile", "amx_bf16", "amx_int8", "fma", "sse4_2")  # fmt: skip
# Distribution names, not module names: "xgboost-cpu" and "xgboost" both provide `xgboost`.
LIBRARIES = ("numpy", "scipy", "pandas", "polars", "pyarrow", "scikit-learn", "xgboost",
             "xgboost-cpu", "lightgbm", "optuna", "torch", "threadpoolctl", "joblib")  # fmt: skip
SYS_CPU = Path("/sys/devices/system/cpu")
CGROUP_ROOT = Path("/sys/fs/cgroup")


def _safe(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except Exception:
        return None


def _read(path: Path | str) -> str | None:
    try:
        return Path(path).read_text().strip()
    except OSError:
        return None


def _cpuinfo() -> list[dict[str, str]]:
    """/proc/cpuinfo as one dict per logical CPU."""
    text = _read("/proc/cpuinfo") or ""
    blocks = []
    for block in text.split("\n\n"):
        entry = {}
        for line in block.splitlines():
            key, sep, value = line.partition(":")
            if sep:
                entry[key.strip()] = value.strip()
        if entry:
            blocks.append(entry)
    return blocks


def _lscpu() -> dict[str, str]:
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, timeout=2).stdout
    except (OSError, subprocess.SubprocessError):
        return {}
    return {k.strip(): v.strip() for k, _, v in (line.partition(":") for line in out.splitlines())}


def affinity() -> list[int]:
    if hasattr(os, "sched_getaffinity"):
        return sorted(os.sched_getaffinity(0))
    return list(range(os.cpu_count() or 1))


def _cgroup_paths() -> dict[str, str]:
    """Controller → cgroup path from /proc/self/cgroup ("" is the v2 unified hierarchy)."""
    paths = {}
    for line in (_read("/proc/self/cgroup") or "").splitlines():
        _, _, rest = line.partition(":")
        controllers, _, path = rest.partition(":")
        for controller in controllers.split(",") if controllers else [""]:
            paths[controller] = path
    return paths


def _up_the_tree(root: Path, path: str) -> list[Path]:
    """The cgroup directory and each parent up to the hierarchy's root (a limit anywhere binds)."""
    here = root / path.lstrip("/")
    return [here, *(p for p in here.parents if p == root or root in p.parents)]


def _v2_root() -> Path:
    return CGROUP_ROOT if (CGROUP_ROOT / "cgroup.controllers").exists() else CGROUP_ROOT / "unified"


def cgroup_cpu_quota() -> float | None:
    """CPUs allowed by the tightest cgroup CPU quota up the tree (v2 and v1); None: no quota."""
    paths = _cgroup_paths()
    quotas = []
    if "" in paths:
        for directory in _up_the_tree(_v2_root(), paths[""]):
            quota, _, period = (_read(directory / "cpu.max") or "max").partition(" ")
            if quota != "max" and period:
                quotas.append(int(quota) / int(period))
    if "cpu" in paths:
        for directory in _up_the_tree(CGROUP_ROOT / "cpu", paths["cpu"]):
            quota = _read(directory / "cpu.cfs_quota_us")
            period = _read(directory / "cpu.cfs_period_us")
            if quota and period and int(quota) > 0:
                quotas.append(int(quota) / int(period))
    return min(quotas) if quotas else None


def cgroup_memory_limit() -> int | None:
    paths = _cgroup_paths()
    limits = []
    if "" in paths:
        for directory in _up_the_tree(_v2_root(), paths[""]):
            text = _read(directory / "memory.max")
            if text and text.isdigit():
                limits.append(int(text))
    if "memory" in paths:
        for directory in _up_the_tree(CGROUP_ROOT / "memory", paths["memory"]):
            text = _read(directory / "memory.limit_in_bytes")
            # v1 writes "no limit" as a page-rounded 2**63 - 1.
            if text and text.isdigit() and int(text) < 2**62:
                limits.append(int(text))
    return min(limits) if limits else None


def usable_cpus() -> int:
    cpus = len(affinity())
    quota = _safe(cgroup_cpu_quota)
    if quota is not None:
        cpus = min(cpus, math.floor(quota))
    return max(1, cpus)


def _physical_cores(cpuinfo: list[dict[str, str]]) -> int | None:
    cores = {(c.get("physical id"), c.get("core id")) for c in cpuinfo if "core id" in c}
    if cores:
        return len(cores)
    import psutil

    return psutil.cpu_count(logical=False)


def _cpu(cpuinfo: list[dict[str, str]]) -> dict:
    first = cpuinfo[0] if cpuinfo else {}
    flags = set(first.get("flags", "").split())
    lscpu: dict[str, str] = {}
    model = first.get("model name")
    if not model or "hypervisor" in flags:
        lscpu = _lscpu()
        model = model or lscpu.get("Model name") or platform.processor() or None
    hypervisor = "hypervisor" in flags or bool(lscpu.get("Hypervisor vendor"))
    # A VM may pass a generic name ("AMD EPYC", "Common KVM processor"); family/model/stepping
    # still identify the generation, so they are kept beside the name.
    masked = bool(model) and hypervisor and not re.search(r"\d{3,}", model)
    return {
        "cpu_model": model,
        "cpu_vendor": first.get("vendor_id"),
        "cpu_family": first.get("cpu family"),
        "cpu_model_number": first.get("model"),
        "cpu_stepping": first.get("stepping"),
        "cpu_model_masked": masked,
        "hypervisor": hypervisor,
        "hypervisor_vendor": lscpu.get("Hypervisor vendor") or _read("/sys/hypervisor/type"),
        "flags": {flag: flag in flags for flag in FLAGS} if flags else None,
    }


def _size_bytes(text: str | None) -> int | None:
    match = re.fullmatch(r"(\d+)([KMG]?)", text or "")
    if not match:
        return None
    return int(match[1]) * {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3}[match[2]]


def caches() -> dict:
    """Per-core L1d/L1i/L2 and one L3 slice from cpu0, plus the total L3 over all slices."""
    out: dict[str, int | None] = {}
    for index in sorted((SYS_CPU / "cpu0" / "cache").glob("index*")):
        level, kind = _read(index / "level"), _read(index / "type")
        name = f"l{level}" + {"Data": "d", "Instruction": "i"}.get(kind or "", "")
        out[f"{name}_bytes"] = _size_bytes(_read(index / "size"))
    slices = {}
    for index in SYS_CPU.glob("cpu[0-9]*/cache/index3"):
        shared = _read(index / "shared_cpu_list")
        slices[shared] = _size_bytes(_read(index / "size")) or 0
    out["l3_total_bytes"] = sum(slices.values()) if slices else None
    return out


def _ram() -> dict:
    ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    limit = _safe(cgroup_memory_limit)
    return {"ram_bytes": ram, "memory_limit_bytes": limit,
            "usable_ram_bytes": min(ram, limit) if limit else ram}  # fmt: skip


def disks() -> list[dict]:
    out = []
    for dev in sorted(Path("/sys/block").glob("*")):
        if dev.name.startswith(("loop", "ram", "zram", "dm-", "sr")):
            continue
        sectors = _read(dev / "size")
        out.append({
            "name": dev.name,
            "size_bytes": int(sectors) * 512 if sectors and sectors.isdigit() else None,
            "rotational": _read(dev / "queue" / "rotational") == "1",
            "model": _read(dev / "device" / "model"),
        })  # fmt: skip
    return out


def library_versions() -> dict[str, str | None]:
    versions = {}
    for dist in LIBRARIES:
        try:
            versions[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            versions[dist] = None
    return versions


def xgboost_build(versions: dict[str, str | None] | None = None) -> str | None:
    """Which distribution provides `xgboost`: "xgboost-cpu", "xgboost" (may have CUDA), None."""
    versions = versions if versions is not None else library_versions()
    cpu, full = versions.get("xgboost-cpu"), versions.get("xgboost")
    if cpu and full:
        return "both xgboost-cpu and xgboost (conflict: one overwrites the other's module)"
    return "xgboost-cpu" if cpu else "xgboost" if full else None


def blas() -> list[dict]:
    """BLAS and OpenMP libraries numpy loads, as threadpoolctl sees them (imports numpy)."""
    import numpy  # noqa: F401  (loads the BLAS threadpoolctl reports)
    from threadpoolctl import threadpool_info

    keys = ("user_api", "internal_api", "version", "num_threads", "threading_layer",
            "architecture", "filepath")  # fmt: skip
    return [{k: pool.get(k) for k in keys} for pool in threadpool_info()]


def _os() -> dict:
    pretty = None
    for line in (_read("/etc/os-release") or "").splitlines():
        if line.startswith("PRETTY_NAME="):
            pretty = line.split("=", 1)[1].strip('"')
    return {"os": platform.platform(), "kernel": platform.release(), "distro": pretty}


def collect() -> dict:
    """The full fingerprint; each part that cannot be read is None, never an exception."""
    cpuinfo = _safe(_cpuinfo) or []
    versions = _safe(library_versions) or {}
    fingerprint: dict[str, Any] = {
        "hostname": _safe(socket.gethostname),
        "machine": platform.machine(),
        "physical_cores": _safe(lambda: _physical_cores(cpuinfo)),
        "hardware_threads": os.cpu_count(),
        "usable_cpus": _safe(usable_cpus),
        "affinity": _safe(affinity),
        "cgroup_cpu_quota": _safe(cgroup_cpu_quota),
        "caches": _safe(caches),
        "disks": _safe(disks),
        "python": platform.python_version(),
        "python_implementation": platform.python_implementation(),
        "executable": sys.executable,
        "libraries": versions,
        "xgboost_build": _safe(lambda: xgboost_build(versions)),
        "blas": _safe(blas),
    }
    for part in (lambda: _cpu(cpuinfo), _ram, _os):
        fingerprint.update(_safe(part) or {})
    for key in ("cpu_model", "ram_bytes", "usable_ram_bytes", "os", "flags"):
        fingerprint.setdefault(key, None)
    return fingerprint


if __name__ == "__main__":
    import json

    print(json.dumps(collect(), indent=2))
