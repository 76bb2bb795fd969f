"""The features runner builds group-by, join and window features from Parquet on local disk."""

import pyarrow.parquet as pq
import pytest

from benchmarks_app.runners import load_profile
from benchmarks_app.runners.features import input_bytes
from tests.support.runners import assert_measured, run_profile


@pytest.mark.parametrize("library", ["pandas", "polars"])
@pytest.mark.parametrize("threads", [1, 2])
def test_it_measures_input_gb_per_second_and_memory_per_gb(tmp_path, library, threads):
    profile = load_profile(f"features-{library}")
    child = run_profile(f"features-{library}", threads, tmp_path)
    extra = assert_measured(child, profile, threads)
    smoke = {**profile["params"], **profile["scales"]["smoke"]}
    assert extra["library"] == library
    assert extra["input_gb"] == pytest.approx(input_bytes(smoke) / 1e9)
    assert extra["rss_per_input_gb"] > 0
    # The data really went through Parquet files on disk, all rows of them.
    files = sorted((tmp_path / f"scratch-{threads}").glob("part-*.parquet"))
    assert len(files) == smoke["files"] == extra["files"]
    assert sum(pq.ParquetFile(f).metadata.num_rows for f in files) == smoke["rows"]
    if library == "polars":
        assert extra["polars_threads"] == threads
    else:
        assert extra["arrow_cpu_count"] == threads
