"""What the planner reads from benchmarks: one measured (or same-host predicted)
throughput with its provenance. Plain data; `selectors.best_measurement` builds it.

Metrics per workload class (DESIGN's mapping table):

- `gbm`: `cell_trees_per_s` (cell-trees/s); extra `rows`, `features`, `trees` (R0, F0, T0)
- `sklearn`: `fits_per_s` (model fits/s); extra `rows`, `features` (R0, F0)
- `features`: `input_gb_per_s` (decimal GB/s); extra `rss_per_input_gb` (peak RSS GiB per GB)
- `hpo`: `trials_per_hour` (trials/h); extra `t0_seconds` (single-thread trial), `concurrency`
- `inference`: `requests_per_s`; extra `service_times_s` (samples, s), `mean_s`, `p50_s`, `p99_s`
- `nn`: `samples_per_s`; extra `batch_size`, `parameters`

`trusted_range` in `extra` (e.g. {"param": "rows", "min": 1e4, "max": 1e7}) bounds where
the profile's scaling rule holds; outside it a planner figure is labelled extrapolated.
"""

from dataclasses import dataclass, field
from datetime import datetime

METRICS: dict[str, tuple[str, str]] = {
    "gbm": ("cell_trees_per_s", "cell-trees/s"),
    "sklearn": ("fits_per_s", "model fits/s"),
    "features": ("input_gb_per_s", "GB/s"),
    "hpo": ("trials_per_hour", "trials/h"),
    "inference": ("requests_per_s", "requests/s"),
    "nn": ("samples_per_s", "samples/s"),
}


@dataclass(frozen=True)
class BestMeasurement:
    profile_class: str
    metric: str
    unit: str
    value: float  # throughput at `threads` hardware threads (higher is better)
    threads: int
    measured: bool  # False: predicted by a same-host fit
    run_id: str
    host: str  # the target's node name
    cpu_model: str
    profile_name: str
    profile_version: str  # X.Y.Z
    scale: str  # "standard" or "full" (never "smoke")
    measured_at: datetime
    fit: str | None = None  # "usl" / "amdahl" when predicted
    extrapolation: str | None = None  # e.g. "extrapolated: 2.0x beyond the largest measured 16"
    extra: dict = field(default_factory=dict)

    @property
    def provenance(self) -> dict:
        return {
            "kind": "measured" if self.measured else "predicted",
            "run_id": self.run_id,
            "host": self.host,
            "profile": f"{self.profile_name} {self.profile_version}",
            "scale": self.scale,
            "threads": self.threads,
            "fit": self.fit,
            "extrapolation": self.extrapolation,
        }


class NoMeasurement(LookupError):
    """No usable measurement; str(exc) is the reason shown to the user."""
