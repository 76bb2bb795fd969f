"""The stand-alone runner's time estimates (issue 22, item 7): a range from the profile's
own budget and this host's measured start-up, or from its last run here; and a thread
count above the host's CPUs is said to be dropped, not dropped in silence."""

import io
import json
from pathlib import Path

from benchmarks_app import standalone
from benchmarks_app.estimate import child_start_s, estimate, range_text

ROOT = Path(__file__).resolve().parent.parent
XGB = json.loads((ROOT / "benchmarks_app/profiles/gbm-xgboost.json").read_text())


def test_ranges_read_in_seconds_minutes_or_hours():
    assert range_text(4, 38.2) == "4-39 s"
    assert range_text(70, 200) == "1-4 min"
    assert range_text(700, 730) == "11-13 min"
    assert range_text(780, 780) == "about 13 min"
    assert range_text(6 * 3600, 9 * 3600) == "6.0-9.0 h"


def test_without_a_run_here_the_range_spans_the_start_ups_to_the_budget():
    guess = estimate(XGB, "smoke", [1, 2], start_s=3.0)
    assert guess.basis == "budget"
    assert (guess.low_s, guess.high_s) == (6.0, 12 + 4 * 6.0)  # budget 12 s, two children


def test_the_start_up_is_measured_on_this_host():
    seconds = child_start_s("matmul")  # a real child importing the runner
    assert 0 < seconds < 120


def run_file(folder: Path, seconds: float, *, scale="smoke", host="box", threads=(1, 2)):
    minutes, rest = divmod(int(seconds), 60)
    document = {
        "profile": {"name": "gbm-xgboost"}, "target": {"hostname": host},
        "run": {"scale": scale, "status": "succeeded", "threads": list(threads),
                "started_at": "2026-12-03T10:00:00+00:00",
                "finished_at": f"2026-12-03T10:{minutes:02d}:{rest:02d}+00:00"},
    }  # fmt: skip
    (folder / f"run-{scale}-{host}-{seconds}.json").write_text(json.dumps(document))


def test_a_run_here_before_sets_the_range(tmp_path):
    run_file(tmp_path, 106)  # 1 min 46 s, as the smoke run took
    run_file(tmp_path, 50, host="elsewhere")
    run_file(tmp_path, 30, scale="standard")
    guess = estimate(XGB, "smoke", [1, 2], hostname="box", folder=tmp_path, start_s=1.0)
    assert guess.basis == "measured here"
    assert (round(guess.low_s, 1), round(guess.high_s, 1)) == (84.8, 132.5)
    other = estimate(XGB, "smoke", [1, 2, 4], hostname="box", folder=tmp_path, start_s=1.0)
    assert other.basis == "budget"  # other thread counts: not the same sweep


def test_thread_counts_above_the_cpus_are_said_to_be_dropped():
    out = io.StringIO()
    host = {"usable_cpus": 2}
    planned = standalone.plan([XGB], "standard", host, None, out)
    assert planned[0].threads == [1, 2]
    assert "gbm-xgboost: thread counts 4, 8, 16, 32 dropped: above this host's 2 usable CPUs" in (
        out.getvalue()
    )
    quiet = io.StringIO()
    standalone.plan([XGB], "smoke", host, None, quiet)
    assert "dropped" not in quiet.getvalue()
