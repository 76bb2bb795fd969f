"""With Redis stopped the site answers uncached, never an HTML 500; /readyz says what is down.

Each test starts its own redis-server on a free port as the cache (and, for /readyz,
the broker), then stops it: the shared Redis of the other tests is never touched.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.cache import cache
from django.test import Client

from changes.services import record
from common.django.cache import TolerantRedisCache
from config.celery import app as celery_app
from planner.services import plans as services
from tests.support.api import token_client
from tests.support.dashboard import charts_in, edit_url, form_data, login, saved_plan, small_catalog
from tests.support.redis_server import RedisServer

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def redis_cache(settings, tmp_path) -> Iterator[RedisServer]:
    """The cache as production configures it (REDIS_URL set), on a Redis of this test."""
    try:
        server = RedisServer(tmp_path / "redis.log")
    except FileNotFoundError as missing:
        pytest.fail(str(missing)) if os.getenv("CI") == "true" else pytest.skip(str(missing))
    server.start()
    settings.CACHES = {
        "default": {
            "BACKEND": "common.django.cache.TolerantRedisCache",
            "LOCATION": server.url,
            "KEY_PREFIX": f"test-{uuid.uuid4().hex[:8]}",
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 2},
        }
    }
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    small_catalog()
    yield server
    server.stop()
    TolerantRedisCache._skip_until = 0.0  # the breaker this test opened is not the next one's


def test_settings_with_a_redis_url_use_the_cache_that_survives_a_redis_outage():
    code = "from django.conf import settings; print(settings.CACHES['default']['BACKEND'])"
    env = {**os.environ, "REDIS_URL": "redis://127.0.0.1:1/0", "PYTHONPATH": str(ROOT),
           "DJANGO_SETTINGS_MODULE": "config.settings"}  # fmt: skip
    setup = "import django; django.setup(); "
    out = subprocess.run([sys.executable, "-c", setup + code], env=env, cwd=ROOT,
                         capture_output=True, text=True, check=True)  # fmt: skip
    assert out.stdout.strip() == "common.django.cache.TolerantRedisCache"


def test_pages_charts_and_the_api_answer_while_redis_is_down(redis_cache, owner):
    plan = saved_plan(owner)
    share = services.share_create(plan=plan, user=owner)
    client = login(owner)
    page = client.get(edit_url(plan))  # cached while Redis is up: charts' data is stored
    assert page.status_code == 200
    chart = next(iter(charts_in(page.content.decode()).values()))
    assert client.get(chart).status_code == 200

    redis_cache.stop()
    record("test.new_generation")  # nothing kept in this process answers from here on
    assert cache.get("anything", "missing") == "missing"  # a miss, not an exception
    api = token_client(owner)[0]
    answers = {
        "home": client.get("/"),
        "editor": client.get(edit_url(plan)),
        "recompute": client.post("/plans/new", form_data(), HTTP_HX_REQUEST="true"),
        "new plan": client.get("/plans/new"),
        "chart": client.get(chart),
        "shared page": Client().get(f"/s/{share.token}/"),
        "shared csv": Client().get(f"/s/{share.token}/comparison.csv"),
        "api shared": Client().get(f"/api/v1/shared/{share.token}"),
        "api plans": api.get("/api/v1/plans"),
        "catalog": client.get("/catalog/"),
        "benchmarks": client.get("/benchmarks/"),
    }
    statuses = {name: response.status_code for name, response in answers.items()}
    assert statuses == {**dict.fromkeys(answers, 200), "chart": 404}  # its data was in Redis
    assert "$12,599.64" in answers["shared page"].content.decode()
    assert "$12,599.64" in answers["editor"].content.decode()
    new_chart = next(iter(charts_in(answers["editor"].content.decode()).values()))
    assert client.get(new_chart).status_code == 404  # no cache, no chart: the page still reads


def test_the_api_rate_limit_holds_per_process_while_redis_is_down(redis_cache, owner, settings):
    settings.API_RATE_LIMIT_PER_MINUTE = 3
    redis_cache.stop()
    api = token_client(owner)[0]
    for _attempt in range(2):  # a minute boundary mid-test opens a new window: once more
        statuses = [api.get("/api/v1/plans").status_code for _ in range(4)]
        if statuses[-1] == 429:
            break
    assert statuses[-1] == 429 and 200 in statuses
    assert "rate" in api.get("/api/v1/plans").json()["errors"]


def test_healthz_is_liveness_and_readyz_names_the_part_that_is_down(redis_cache, monkeypatch):
    monkeypatch.setitem(celery_app.conf, "broker_url", redis_cache.url)
    monkeypatch.setitem(celery_app.conf, "broker_transport_options", {})
    ready = Client().get("/readyz")
    assert ready.status_code == 200
    assert ready.json() == {"ok": True, "database": "ok", "disk": "ok", "cache": "ok",
                           "broker": "ok"}  # fmt: skip

    redis_cache.stop()
    assert Client().get("/healthz").json() == {"ok": True}
    ready = Client().get("/readyz")
    assert ready.status_code == 503
    assert ready.json() == {"ok": False, "database": "ok", "disk": "ok", "cache": "down",
                           "broker": "down"}  # fmt: skip


def test_readyz_tells_a_down_cache_from_a_working_broker(redis_cache, monkeypatch):
    redis_cache.stop()
    ready = Client().get("/readyz")
    assert ready.status_code == 503
    assert (ready.json()["cache"], ready.json()["broker"]) == ("down", "ok")
