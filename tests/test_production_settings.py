"""Production settings refuse to start without SECRET_KEY or ALLOWED_HOSTS (each host
would otherwise generate a key of its own), and pass `check --deploy` with them (issue 29,
item 10). Real processes: the settings module as gunicorn and manage.py load it."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SETUP = "import django; django.setup(); print('started')"


def start(**env: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "ALLOWED_HOSTS")}
    base.update(DJANGO_SETTINGS_MODULE="config.settings_production", PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-c", SETUP], cwd=ROOT, env={**base, **env},
                          capture_output=True, text=True, timeout=120)  # fmt: skip


@pytest.mark.parametrize(
    ("env", "missing"),
    [({}, "SECRET_KEY and ALLOWED_HOSTS"),
     ({"ALLOWED_HOSTS": "planner.example.com"}, "SECRET_KEY"),
     ({"SECRET_KEY": "k" * 50}, "ALLOWED_HOSTS"),
     ({"SECRET_KEY": "k" * 50, "ALLOWED_HOSTS": "  "}, "ALLOWED_HOSTS")],
)  # fmt: skip
def test_it_refuses_to_start_without_them(env, missing):
    started = start(**env)
    assert started.returncode != 0 and "started" not in started.stdout
    assert f"production settings need {missing} in the environment" in started.stderr


def test_with_them_the_deploy_check_passes_with_nothing_silenced():
    # Not DJANGO_ALLOW_ASYNC_UNSAFE: the browser tests set it for Playwright in this process.
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings_production",
        PYTHONPATH=str(ROOT),
        SECRET_KEY=secrets.token_hex(40),
        ALLOWED_HOSTS="planner.example.com",
        EMAIL_HOST="smtp.example.com",
    )  # fmt: skip  (else mail.E001: console mail)
    checked = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert checked.returncode == 0, checked.stderr
