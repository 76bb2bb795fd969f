"""A host scored the way the public per-server data scores servers: stress-ng's `cpu` stressor
with the div16 method, one worker and one per usable CPU (Spare Cores' `sng_div16_1core` and
`sng_div16_all` columns), so a ratio to any public row can be formed even when the host
reports its CPU only as "AMD EPYC".

The figure is bogo operations per second of real time. stress-ng also says how much of the
run the workers really had the CPU (`cpu-usage-per-instance`); under 90 % the host was busy
with other work and the score is marked `contended` (it understates the CPU). stress-ng's
version is kept: bogo operations are only comparable within similar versions.

Needs the Debian package `stress-ng` (`scripts/ensure_stress_ng.sh` installs it); without
it `score_host` returns None and says why. No Django (the stand-alone runner uses it).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

SECONDS = 10
CONTENDED_BELOW = 90.0  # % of the run the workers had a CPU


class NoScore(RuntimeError):
    pass


def _metrics(yaml_text: str) -> dict[str, Any]:
    """The `cpu` stressor's metrics and the version from stress-ng's --yaml file (a flat
    `key: value` layout; read without a YAML library, which the runner does not install)."""
    out: dict[str, Any] = {}
    for line in yaml_text.splitlines():
        key, _, value = line.strip().lstrip("- ").partition(":")
        value = value.strip().strip("'\"")
        if key in ("stress-ng-version", "stressor"):
            out[key] = value
        elif key in ("bogo-ops", "bogo-ops-per-second-real-time",
                     "bogo-ops-per-second-usr-sys-time", "wall-clock-time",
                     "cpu-usage-per-instance"):  # fmt: skip
            with contextlib.suppress(ValueError):
                out[key] = float(value)
    return out


def run_div16(workers: int, seconds: int = SECONDS, binary: str | None = None) -> dict[str, Any]:
    """One stress-ng run: `--cpu N --cpu-method div16 -t Ss`, its metrics."""
    binary = binary or shutil.which("stress-ng")
    if not binary:
        raise NoScore("stress-ng is not installed (Debian: apt-get install stress-ng)")
    with tempfile.TemporaryDirectory(prefix="cpu-score-") as tmp:
        path = Path(tmp) / "metrics.yaml"
        try:
            done = subprocess.run(
                [binary, "--cpu", str(workers), "--cpu-method", "div16", "-t", f"{seconds}s",
                 "--metrics-brief", "--yaml", str(path)],
                capture_output=True, text=True, timeout=seconds * 3 + 30, check=False,
            )  # fmt: skip
        except OSError as exc:
            raise NoScore(f"stress-ng could not start: {exc}") from None
        if done.returncode != 0 or not path.exists():
            raise NoScore(f"stress-ng exited {done.returncode}: {done.stderr.strip()[-300:]}")
        metrics = _metrics(path.read_text())
    if "bogo-ops-per-second-real-time" not in metrics:
        raise NoScore("stress-ng wrote no bogo-ops-per-second-real-time")
    return metrics


def score_host(usable_cpus: int, seconds: int = SECONDS) -> dict[str, Any]:
    """`{"sng_div16_1core", "sng_div16_all", …}` for this host, as the public data has them."""
    one = run_div16(1, seconds)
    every = run_div16(max(1, usable_cpus), seconds)
    usage = [m.get("cpu-usage-per-instance", 100.0) for m in (one, every)]
    return {
        "sng_div16_1core": round(one["bogo-ops-per-second-real-time"], 2),
        "sng_div16_all": round(every["bogo-ops-per-second-real-time"], 2),
        "workers_all": max(1, usable_cpus),
        "cpu_usage_percent": [round(u, 1) for u in usage],
        "contended": min(usage) < CONTENDED_BELOW,
        "seconds": seconds,
        "stress_ng_version": one.get("stress-ng-version", ""),
        "measured_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "method": "stress-ng --cpu N --cpu-method div16 (bogo ops/s, real time)",
    }
