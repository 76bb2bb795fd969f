"""A measured host is scored as the public data scores servers: stress-ng's cpu div16 with one
worker and with all, kept in the run's fingerprint, so a ratio to a public row can be formed
even when the host names only a CPU family."""

import io
import shutil

import pytest

from benchmarks_app import cpu_score, fingerprint, standalone
from estimates import model

needs_stress_ng = pytest.mark.skipif(
    shutil.which("stress-ng") is None,
    reason="stress-ng not installed (scripts/ensure_stress_ng.sh)",
)


@needs_stress_ng
def test_the_host_gets_both_div16_scores_with_stress_ngs_version():
    said = cpu_score.score_host(2, seconds=1)
    assert said["sng_div16_1core"] > 0 and said["sng_div16_all"] > 0
    assert said["workers_all"] == 2 and said["stress_ng_version"]
    assert said["method"].startswith("stress-ng --cpu N --cpu-method div16")
    assert isinstance(said["contended"], bool) and len(said["cpu_usage_percent"]) == 2


@needs_stress_ng
def test_the_runner_keeps_the_scores_in_the_fingerprint_and_an_estimate_uses_them():
    out = io.StringIO()
    host = fingerprint.collect()
    kept = standalone._cpu_score(host, out, 1)["speed_scores"]
    assert "CPU score:" in out.getvalue()
    side = model.host_side(host.get("cpu_model"), "this-host", kept)
    tier = model.cpu_side("", vendor="aws", server="c7a.4xlarge")
    found = model.estimate(100.0, 1, side, tier, 16, model.curve_for("gbm-xgboost"))
    assert found.metric == "sng_div16_1core"
    assert found.ratio == pytest.approx(tier.values["sng_div16_1core"] / kept["sng_div16_1core"])


def test_without_stress_ng_it_says_so(tmp_path):
    with pytest.raises(cpu_score.NoScore, match=r"stress-ng could not start|not installed"):
        cpu_score.run_div16(1, 1, binary=str(tmp_path / "no-such-stress-ng"))


def test_the_yaml_metrics_are_read():
    text = """---
system-info:
      stress-ng-version: 0.15.06
metrics:
    - stressor: cpu
      bogo-ops: 2497
      bogo-ops-per-second-usr-sys-time: 2165.078336
      bogo-ops-per-second-real-time: 499.382426
      cpu-usage-per-instance: 23.065328
"""
    said = cpu_score._metrics(text)
    assert said["stress-ng-version"] == "0.15.06"
    assert said["bogo-ops-per-second-real-time"] == pytest.approx(499.382426)
    assert said["cpu-usage-per-instance"] == pytest.approx(23.065328)
