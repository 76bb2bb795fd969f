"""Shared fixtures: personas, small catalogs, a per-test cache, real services and workers."""

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent
IN_CI = os.getenv("CI") == "true"


def need_service(name: str, env_var: str) -> str:
    """A test that needs Redis/PostgreSQL fails under CI=true when missing, else skips."""
    value = os.getenv(env_var, "")
    if not value:
        message = f"{name} not configured ({env_var} unset)"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    return value


@pytest.fixture
def redis_url() -> str:
    url = need_service("Redis", "REDIS_URL")
    import redis

    try:
        redis.Redis.from_url(url).ping()
    except redis.exceptions.ConnectionError as exc:
        if IN_CI:
            pytest.fail(f"Redis at {url} not answering: {exc}")
        pytest.skip(f"Redis at {url} not answering")
    return url


def child_env(**extra: str) -> dict[str, str]:
    """Environment for a child process that must see the test database and broker."""
    env = dict(os.environ)
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        env["SQLITE_PATH"] = str(db["NAME"])
        env.pop("DATABASE_URL", None)
    else:
        user = db.get("USER") or ""
        auth = f"{user}:{db.get('PASSWORD')}@" if db.get("PASSWORD") else f"{user}@" if user else ""
        host = f"{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}"
        env["DATABASE_URL"] = f"postgres://{auth}{host}/{db['NAME']}"
    env["PLANNER_QUEUE_PREFIX"] = settings.QUEUE_PREFIX
    env["PYTHONPATH"] = str(ROOT)
    env.update(extra)
    return env


@pytest.fixture(scope="session", autouse=True)
def _fast_password_hasher() -> Iterator[None]:
    """MD5 for every test's passwords (the fixtures' users, each sign-in through the form):
    PBKDF2 costs 0.7 s a hash on the busy two-core CI machine, two or three a test that
    signs a user in, and no test is about the hashing. A test that starts a server of its
    own (gunicorn, a worker) checks no password in it: tokens and pages only."""
    from django.test.utils import override_settings

    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(scope="session")
def child_environment() -> Callable[..., dict[str, str]]:
    """child_env for tests that start other processes (a manage.py command, say)."""
    return child_env


class WorkerProcess:
    def __init__(self, name: str, queues: list[str], log: Path, **env: str) -> None:
        self.name = name
        self.log_path = log
        cmd = [sys.executable, "-m", "celery", "-A", "config", "worker", "-n", f"{name}@%h",
               "-Q", ",".join(queues), "--concurrency", "1", "--loglevel", "INFO",
               "--without-gossip", "--without-mingle"]  # fmt: skip
        self.proc = subprocess.Popen(
            cmd, cwd=ROOT, env=child_env(**env), stdout=log.open("w"),
            stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"worker {self.name} exited:\n{self.log()}")
            if " ready." in self.log():
                return
            time.sleep(0.2)
        raise TimeoutError(f"worker {self.name} not ready in {timeout}s:\n{self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Kill the worker and every process it started (its session's group)."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, sig)
            self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def start_worker(tmp_path: Path) -> Iterator[Callable[..., WorkerProcess]]:
    """Start real `celery worker` processes against the test database and broker."""
    started: list[WorkerProcess] = []

    def start(name: str, queues: list[str] | None = None, **env: str) -> WorkerProcess:
        worker = WorkerProcess(name, queues or ["default"], tmp_path / f"worker-{name}.log", **env)
        started.append(worker)
        worker.wait_ready()
        return worker

    yield start
    for worker in started:
        worker.stop()


@pytest.fixture
def staff_user(django_user_model):
    return django_user_model.objects.create_user(
        "staff", "staff@example.com", "pw-staff-1", is_staff=True
    )


@pytest.fixture
def owner(django_user_model):
    return django_user_model.objects.create_user("owner", "owner@example.com", "pw-owner-1")


@pytest.fixture
def other_user(django_user_model):
    return django_user_model.objects.create_user("other", "other@example.com", "pw-other-1")


@pytest.fixture
def own_cache(settings):
    """A fresh in-process cache for one test, so cached charts and pages start empty.

    Also a fast password hasher: the personas' PBKDF2 hashing costs about a second a
    test on a busy two-core machine, and no dashboard test is about hashing.
    """
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"dashboard-{uuid.uuid4()}",
        }
    }


@pytest.fixture
def two_tier_catalog(own_cache) -> None:
    """The dashboard tests' catalog, in a fresh cache: a dedicated tier and a cloud VM."""
    from tests.support.dashboard import small_catalog

    small_catalog()


@pytest.fixture
def one_box_catalog(settings) -> None:
    """The API tests' catalog: one dedicated tier, TEST_BOX, at 100 a month.

    Also a rate limit no test reaches.
    """
    from tests.support.api import TEST_BOX
    from tests.support.catalog import add_price, make_tier

    settings.API_RATE_LIMIT_PER_MINUTE = 10_000
    tier = make_tier(TEST_BOX, provider="Test", kind="dedicated", pricing_model="fixed_monthly")
    add_price(tier, "100", "2026-01-01", unit="month")


@pytest.fixture
def default_catalog_api(owner, settings):
    """A client with the owner's API token over the shipped default catalog, and a rate
    limit no test reaches."""
    from catalog.defaults import load_default_catalog
    from tests.support.api import token_client

    settings.API_RATE_LIMIT_PER_MINUTE = 10_000
    load_default_catalog()
    return token_client(owner)[0]


@pytest.fixture
def api(owner):
    """A client that calls the API with a fresh token of the owner."""
    from tests.support.api import token_client

    return token_client(owner)[0]


@pytest.fixture(autouse=True)
def _default_language_after_each_test() -> Iterator[None]:
    """Each test ends in the default language, whatever it activated: under pytest-xdist
    any test may follow any other in a worker, so none may inherit German."""
    yield
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
