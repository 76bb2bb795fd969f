"""A dropped PostgreSQL connection is no 500 (issue 29, item 3): connections are checked
before a request's first query (CONN_HEALTH_CHECKS) and that first query is retried once
on a connection error (`planner.db.postgresql`). The backends are really terminated
(`pg_terminate_backend`), in process and under gunicorn."""

import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.db import OperationalError, connection, connections

from planner.db import postgresql as _engine  # noqa: F401  (the package the settings name)
from tests.support.api import token_client
from tests.support.dashboard import saved_plan
from tests.test_faults import answers, free_port

pytestmark = [pytest.mark.faults, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip("terminating backends needs PostgreSQL (DATABASE_URL)")


def terminate_other_backends() -> int:
    """Every other connection to the test database, terminated by the server."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]


def terminate(pid: int) -> None:
    """One backend terminated from a connection of its own, as an operator would."""
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
            assert cursor.fetchone()[0] is True
    finally:
        other.close()


def backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def test_a_request_whose_connection_was_terminated_is_answered(owner, two_tier_catalog):
    saved_plan(owner)
    client, _key = token_client(owner)
    assert client.get("/api/v1/plans").status_code == 200
    for _ in range(3):
        before = backend_pid()
        terminate(before)  # the connection the next request will use
        time.sleep(0.2)  # the server has closed it
        response = client.get("/api/v1/plans")
        assert response.status_code == 200, response.content
        assert len(response.json()["plans"]) == 1
        assert backend_pid() != before  # a new connection answered


def test_outside_a_request_a_lost_connection_is_an_error_as_ever(owner):
    terminate(backend_pid())
    time.sleep(0.2)
    with pytest.raises(OperationalError), connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    connection.close()


def test_gunicorn_answers_every_request_while_its_backends_are_terminated(
    tmp_path, owner, two_tier_catalog, child_environment
):
    saved_plan(owner)
    _client, key = token_client(owner)
    port, log = free_port(), tmp_path / "gunicorn.log"
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}",
         "--workers", "2", "--worker-class", "sync"],
        cwd=ROOT, env=child_environment(), stdout=log.open("w"), stderr=subprocess.STDOUT,
    )  # fmt: skip
    statuses: list[int] = []
    terminated = 0
    try:
        deadline = time.monotonic() + 60
        while not answers(f"http://127.0.0.1:{port}/healthz"):
            assert time.monotonic() < deadline and server.poll() is None, log.read_text()
            time.sleep(0.2)
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1/plans",
                                         headers={"Authorization": f"Bearer {key}"})  # fmt: skip
        for _ in range(60):
            try:
                with urllib.request.urlopen(request, timeout=10) as response:
                    statuses.append(response.status)
            except urllib.error.HTTPError as exc:
                statuses.append(exc.code)
            terminated += terminate_other_backends()  # each kept connection, dropped
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert terminated >= 30  # the workers' kept connections really were cut
    assert statuses == [200] * 60, log.read_text()[-3000:]
