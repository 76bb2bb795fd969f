"""Feature engineering on Parquet files: group-by, join and window features, pandas or polars.

The input is ``files`` Parquet files on local disk (in the scratch workdir) holding ``rows``
rows of an entity key, a timestamp, a dimension key and ``float_cols`` float32 columns,
plus a small dimension table. One measurement reads them and builds:

- group-by features: mean, sum and max of every float column per entity;
- a join: the dimension table's attributes onto every row;
- window features per entity in time order: the previous value, the running sum and the
  rolling mean over the last 3 rows of the first float column;

then joins the group-by features back onto the rows (the frame a model would train on).

Metrics: input GB per second, where input GB is the decimal in-memory size of the input
columns (rows x bytes per row, as in "50 M rows x 200 float32 = 40 GB");
and in ``extra`` the peak RSS per input GB: (peak RSS - RSS before the first read) in GiB per
input GB. Threads: ``POLARS_MAX_THREADS`` for polars; pyarrow's CPU and I/O pools for
pandas, whose own operations run on one thread.
"""

from benchmarks_app.runners._harness import Context, InvalidParams, run
from common.messages import msg

BYTES_PER_ROW_FIXED = 4 + 8 + 4  # key int32, ts int64, dim_key int32
# Peak working set per input byte, with headroom: this pipeline measured 5.35 GiB (pandas)
# and 4.5 GiB (polars) of RSS per input GB at 0.43 GB (2 M rows x 50 float32, 2 threads).
MEMORY_FACTOR = {"pandas": 6.0, "polars": 5.0}


def input_bytes(params: dict) -> int:
    return int(params["rows"] * (BYTES_PER_ROW_FIXED + 4 * params["float_cols"]))


def estimate_bytes(params: dict, threads: int = 1) -> int:
    factor = MEMORY_FACTOR.get(params.get("library", "pandas"), 6.0)
    return int(input_bytes(params) * factor) + 300 * 2**20


def estimate_disk_bytes(params: dict) -> int:
    return input_bytes(params)  # Parquet of random floats barely compresses


def write_dataset(workdir, params: dict) -> list:
    """Deterministic Parquet files, written a file at a time so generation stays small."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows, n_files = int(params["rows"]), int(params["files"])
    entities, dims = int(params["entities"]), int(params["dim_rows"])
    rng = np.random.default_rng(int(params.get("seed", 0)))
    paths = []
    start = 0
    for i in range(n_files):
        n = rows // n_files + (1 if i < rows % n_files else 0)
        columns = {
            "key": rng.integers(0, entities, n, dtype=np.int32),
            "ts": np.arange(start, start + n, dtype=np.int64),
            "dim_key": rng.integers(0, dims, n, dtype=np.int32),
        }
        for c in range(int(params["float_cols"])):
            columns[f"f{c}"] = rng.standard_normal(n, dtype=np.float32)
        path = workdir / f"part-{i:04d}.parquet"
        pq.write_table(pa.table(columns), path, row_group_size=1_000_000)
        paths.append(path)
        start += n
    dim = pa.table({"dim_key": np.arange(dims, dtype=np.int32),
                    "dim_attr": rng.standard_normal(dims, dtype=np.float32)})  # fmt: skip
    pq.write_table(dim, workdir / "dim.parquet")
    return paths


def pandas_pipeline(paths: list, dim_path, float_cols: list[str]) -> int:
    import pandas as pd

    df = pd.concat([pd.read_parquet(p) for p in paths], ignore_index=True)
    dim = pd.read_parquet(dim_path)
    agg = df.groupby("key")[float_cols].agg(["mean", "sum", "max"])
    agg.columns = [f"{c}_{s}" for c, s in agg.columns]
    df = df.merge(dim, on="dim_key", how="left").sort_values(["key", "ts"], ignore_index=True)
    by_key = df.groupby("key", sort=False)["f0"]
    df = df.assign(
        f0_lag1=by_key.shift(1),
        f0_cumsum=by_key.cumsum(),
        f0_roll3=by_key.rolling(3, min_periods=1).mean().reset_index(level=0, drop=True),
    )
    out = df.merge(agg, left_on="key", right_index=True, how="left")
    return len(out)


def polars_pipeline(paths: list, dim_path, float_cols: list[str]) -> int:
    import polars as pl

    df = pl.scan_parquet([str(p) for p in paths])
    dim = pl.scan_parquet(str(dim_path))
    aggs = [getattr(pl.col(c), s)().alias(f"{c}_{s}") for c in float_cols
            for s in ("mean", "sum", "max")]  # fmt: skip
    agg = df.group_by("key").agg(aggs)
    rows = (
        df.join(dim, on="dim_key", how="left")
        .sort(["key", "ts"])
        .with_columns(
            pl.col("f0").shift(1).over("key").alias("f0_lag1"),
            pl.col("f0").cum_sum().over("key").alias("f0_cumsum"),
            pl.col("f0").rolling_mean(3, min_samples=1).over("key").alias("f0_roll3"),
        )
        .join(agg, on="key", how="left")
    )
    return rows.collect().height


class FeaturesBench:
    def __init__(self, ctx: Context) -> None:
        import psutil

        p = ctx.params
        self.library = p.get("library", "pandas")
        if self.library not in ("pandas", "polars"):
            why = msg(
                "benchmarks.runner_bad_library",
                runner="features",
                first="pandas",
                second="polars",
                value=repr(self.library),
            )
            raise InvalidParams(why)
        self.paths = write_dataset(ctx.workdir, p)
        self.dim_path = ctx.workdir / "dim.parquet"
        self.float_cols = [f"f{c}" for c in range(int(p["float_cols"]))]
        self.rows = int(p["rows"])
        self.input_gb = input_bytes(p) / 1e9
        threads = {}
        if self.library == "polars":
            import polars as pl

            self.pipeline = polars_pipeline
            threads["polars_threads"] = pl.thread_pool_size()
        else:
            import pandas  # noqa: F401  (imported before the baseline RSS is read)
            import pyarrow as pa

            pa.set_cpu_count(ctx.threads)
            pa.set_io_thread_count(ctx.threads)
            self.pipeline = pandas_pipeline
            threads["arrow_cpu_count"] = pa.cpu_count()
        self.baseline_rss = psutil.Process().memory_info().rss
        self.extra = ctx.extra
        ctx.extra.update({
            "library": self.library, "rows": self.rows, "float_cols": len(self.float_cols),
            "input_gb": self.input_gb, "files": len(self.paths),
            "parquet_bytes": sum(path.stat().st_size for path in self.paths), **threads,
        })  # fmt: skip

    def measure(self) -> tuple[float, float]:
        import time

        start = time.perf_counter()
        n = self.pipeline(self.paths, self.dim_path, self.float_cols)
        seconds = time.perf_counter() - start
        if n != self.rows:
            raise RuntimeError(f"pipeline returned {n} rows, expected {self.rows}")
        return self.input_gb / seconds, seconds

    def finish(self, result) -> None:
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        self.extra["rss_baseline_bytes"] = self.baseline_rss
        self.extra["rss_per_input_gb"] = (peak - self.baseline_rss) / 2**30 / self.input_gb


def setup(ctx: Context) -> FeaturesBench:
    return FeaturesBench(ctx)


if __name__ == "__main__":
    run(setup)
