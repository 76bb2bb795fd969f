"""The stand-alone runner measures on a bare server and its run files import here.

`python -m benchmarks_app.standalone` runs in a subprocess under a guard that refuses
any import of django or celery (in it and in its measurement children alike, and
records the attempt), at a tiny scale; `import_run` then files its run with the
host's fingerprint.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from benchmarks_app import models, run_files, standalone
from benchmarks_app.models import Run
from benchmarks_app.time_left import minutes_text, remaining_s

ROOT = Path(__file__).resolve().parent.parent
GUARD = """import os, sys
class _NoStack:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in ("django", "celery"):
            with open(os.environ["IMPORT_GUARD_LOG"], "a") as log:
                log.write(name + "\\n")
            raise ImportError(name + " is not for the stand-alone runner")
        return None
sys.meta_path.insert(0, _NoStack())
"""


def tiny_profile(directory: Path) -> Path:
    """The shipped matmul profile, renamed and shrunk to a second or two."""
    content = json.loads((ROOT / "benchmarks_app/profiles/micro-matmul.json").read_text())
    content.update(name="tiny-matmul", version="1.0.0")
    content["scales"]["smoke"] = {"n": 96, "iterations": 2, "threads": [1, 2],
                                  "time_budget_s": 2, "repetition": {"max_reps": 3}}  # fmt: skip
    directory.mkdir()
    (directory / "tiny-matmul.json").write_text(json.dumps(content))
    return directory


def guarded(tmp_path: Path) -> tuple[dict[str, str], Path]:
    """An environment whose Pythons refuse django and celery, and the log of who asked."""
    guard = tmp_path / "guard"
    guard.mkdir(exist_ok=True)
    (guard / "sitecustomize.py").write_text(GUARD)
    log = tmp_path / "imports-refused.log"
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    return env | {"PYTHONPATH": f"{guard}{os.pathsep}{ROOT}", "IMPORT_GUARD_LOG": str(log)}, log


def run_standalone(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess, Path]:
    env, log = guarded(tmp_path)
    command = [sys.executable, "-m", "benchmarks_app.standalone", *args]
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    return done, log


@pytest.mark.django_db
def test_it_runs_without_django_or_celery_and_its_file_imports(tmp_path, capsys):
    profiles = tiny_profile(tmp_path / "profiles")
    out = tmp_path / "run.json"
    done, refused = run_standalone(
        tmp_path, "--profiles", str(profiles), "--scale", "smoke", "--out", str(out),
        "--threads", "1,2", "--target", "rented-epyc",
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert not refused.exists(), refused.read_text()  # nothing even tried to import them
    assert re.search(r"\[1/1\] tiny-matmul 1\.0\.0 · 2 threads .* time left: ", done.stdout)
    assert "tiny-matmul 1.0.0: succeeded" in done.stdout

    call_command("import_run", str(out))
    run = Run.objects.get()
    assert run.imported and run.status == Run.Status.SUCCEEDED and run.scale == "smoke"
    assert sorted(run.summaries.values_list("threads", flat=True)) == [1, 2]
    assert run.measurements.filter(warmup=False).count() >= 6
    assert run.target.name == "rented-epyc"
    assert run.fingerprint["usable_cpus"] >= 1 and run.fingerprint["cpu_model"] is not None
    assert run.source_host == run.fingerprint["hostname"]
    assert run.executed_by.startswith("standalone@")
    assert "imported run" in capsys.readouterr().out


def test_the_guard_catches_a_django_import(tmp_path):
    """The test above would notice: the same guard refuses Django to any Python."""
    env, refused = guarded(tmp_path)
    failed = subprocess.run([sys.executable, "-c", "import django"], env=env, capture_output=True)
    assert failed.returncode != 0 and refused.read_text() == "django\n"


def test_a_dry_run_says_what_would_run_and_its_time_budget(tmp_path):
    profiles = tiny_profile(tmp_path / "profiles")
    done, _refused = run_standalone(
        tmp_path, "--profiles", str(profiles), "--scale", "standard", "--out", "runs",
        "--dry-run", "--threads", "1",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "1 profile(s) at scale standard" in done.stdout
    assert "time budget about 15 min" in done.stdout  # micro-matmul's 900 s
    assert not (tmp_path / "runs").exists()


def test_its_file_format_and_hash_are_the_importers():
    content = json.loads((ROOT / "benchmarks_app/profiles/gbm-xgboost.json").read_text())
    assert (standalone.FORMAT, standalone.FORMAT_VERSION) == (
        run_files.FORMAT,
        run_files.FORMAT_VERSION,
    )
    assert standalone.content_hash(content) == models.content_hash(content)


def requirement_lines(name: str) -> set[str]:
    lines = (ROOT / name).read_text().splitlines()
    return {line.split("#", 1)[0].strip() for line in lines} - {""}


def test_its_requirements_are_the_runtime_pins_without_the_stack():
    runner = requirement_lines("requirements-runner.txt")
    assert runner <= requirement_lines("requirements.txt")  # the same lines: the same versions
    named = {re.split(r"[\[=<>!~; ]", line, maxsplit=1)[0].lower() for line in runner}
    assert not named & {"django", "celery", "kombu", "redis", "psycopg", "gunicorn"}
    assert {"numpy", "psutil", "threadpoolctl", "lightgbm", "scikit-learn", "polars"} <= named


def test_the_time_left_comes_from_the_budget_then_from_the_pace():
    assert remaining_s(10, 0.0, 600) == 590  # no pace yet: the budget
    assert remaining_s(100, 0.25, 600) == 300  # a quarter done in 100 s: 300 s more
    assert remaining_s(700, 0.01, 600) is None  # past its budget with no pace: unknown
    assert remaining_s(5, 1.0, 600) == 0
    assert minutes_text(720) == "about 12 min" and minutes_text(30) == "under a minute"
