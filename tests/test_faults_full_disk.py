"""A full disk under the file cache (no REDIS_URL) is no 500 (issue 29, item 6): the
cache degrades as with Redis down (misses, dropped writes, the rate limiter counting in
the process) and /readyz reports the disk. The disk is a real, small tmpfs, filled up;
mounting one needs root (CAP_SYS_ADMIN): elsewhere the test is skipped, saying so."""

import errno
import os
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.test import Client

from common.django import file_cache
from tests.support.api import token_client
from tests.support.dashboard import login, saved_plan

pytestmark = [pytest.mark.faults, pytest.mark.django_db]


def fill(folder: Path) -> None:
    """Write until the disk says it is full."""
    with (folder / "filler").open("wb") as filler:
        try:
            while True:
                filler.write(b"\0" * 65536)
                filler.flush()
                os.fsync(filler.fileno())
        except OSError as exc:
            assert exc.errno == errno.ENOSPC, exc


@pytest.fixture
def full_disk(tmp_path, settings) -> Iterator[Path]:
    mount = tmp_path / "small"
    mount.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(mount)],
                             capture_output=True, text=True)  # fmt: skip
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here (needs root): {mounted.stderr.strip()}")
    try:
        cache_dir = mount / "cache"
        cache_dir.mkdir()
        settings.CACHES = {"default": {
            "BACKEND": "common.django.file_cache.TolerantFileBasedCache",
            "LOCATION": str(cache_dir), "KEY_PREFIX": f"test-{uuid.uuid4().hex[:8]}"}}  # fmt: skip
        settings.VAR_DIR = mount
        settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
        fill(mount)
        yield mount
    finally:
        file_cache.TolerantFileBasedCache._last_failure = float("-inf")
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_the_site_answers_uncached_and_readyz_reports_the_disk(full_disk, owner, settings,
                                                               two_tier_catalog):  # fmt: skip
    plan = saved_plan(owner)
    api, _key = token_client(owner)
    assert api.get("/api/v1/plans").status_code == 200  # the rate limiter's incr: no 500
    assert Client().get("/accounts/login/").status_code == 200
    page = login(owner).get(f"/plans/{plan.code}/")
    assert page.status_code == 200 and "$" in page.content.decode()
    ready = Client().get("/readyz")
    assert ready.status_code == 503
    assert ready.json()["disk"] == "down" and ready.json()["database"] == "ok"


def test_the_rate_limit_still_holds_in_the_process(full_disk, owner, settings):
    settings.API_RATE_LIMIT_PER_MINUTE = 3
    api, _key = token_client(owner)
    for _attempt in range(2):  # a minute boundary mid-test opens a new window: once more
        statuses = [api.get("/api/v1/plans").status_code for _ in range(4)]
        if statuses[-1] == 429:
            break
    assert statuses[-1] == 429 and 200 in statuses
