"""Backup and restore as the README says (issue 29, item 11): `pg_dump -Fc` and
`pg_restore` on PostgreSQL, SQLite's online backup elsewhere. The restored database is
read by a fresh process: its share links resolve to the same snapshots, its plans give
the same figures, its timestamps are the same to the microsecond (dumpdata cuts them to
milliseconds: not a backup)."""

import json
import os
import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.db import connection

from planner.models import Plan, Share
from planner.services import evaluation
from planner.services import plans as services
from tests.support.dashboard import saved_plan

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parent.parent

READ_BACK = """
import json, django; django.setup()
from planner.models import Plan, Share
from planner.services import evaluation, plans
out = {}
for share in Share.objects.all():
    live = plans.shared(share.token)
    out[share.token] = {"resolves": live is not None, "snapshot": live.snapshot,
                        "created_at": live.created_at.isoformat()}
for plan in Plan.objects.all():
    figures = evaluation.comparison_json(plans.stored_plan(plan))
    out[str(plan.code)] = {"updated": plan.updated.isoformat(), "version": plan.version,
                           "figures": figures.decode() if isinstance(figures, bytes) else figures}
print(json.dumps(out, sort_keys=True, default=str))
"""


def state_now() -> dict:
    out = {}
    for share in Share.objects.all():
        out[share.token] = {"resolves": True, "snapshot": share.snapshot,
                            "created_at": share.created_at.isoformat()}  # fmt: skip
    for plan in Plan.objects.all():
        figures = evaluation.comparison_json(services.stored_plan(plan))
        out[str(plan.code)] = {"updated": plan.updated.isoformat(), "version": plan.version,
                               "figures": figures.decode() if isinstance(figures, bytes)
                               else figures}  # fmt: skip
    return json.loads(json.dumps(out, sort_keys=True, default=str))


def read_back(env: dict[str, str], tmp_path: Path) -> dict:
    env = {**os.environ, **env, "PYTHONPATH": str(ROOT), "PLANNER_VAR_DIR": str(tmp_path / "var"),
           "PLANNER_QUEUE_PREFIX": f"restore-{uuid.uuid4().hex[:8]}-"}  # fmt: skip
    env.pop("REDIS_URL", None)  # a cache of its own: nothing read from the original's
    done = subprocess.run([sys.executable, "-c", READ_BACK], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def restored(tmp_path: Path) -> dict[str, str]:
    """A backup taken and restored into a new database; the environment that reads it."""
    db = connection.settings_dict
    if connection.vendor == "postgresql":
        dump = tmp_path / "planner.dump"
        auth = ["-h", db.get("HOST") or "127.0.0.1", "-p", str(db.get("PORT") or 5432),
                "-U", db.get("USER") or "postgres"]  # fmt: skip
        pg_env = {**os.environ, "PGPASSWORD": db.get("PASSWORD") or ""}
        subprocess.run(["pg_dump", *auth, "-Fc", "-f", str(dump), db["NAME"]], env=pg_env,
                       check=True)  # fmt: skip
        name = f"{db['NAME']}_restored"
        subprocess.run(["dropdb", *auth, "--if-exists", name], env=pg_env, check=True)
        subprocess.run(["createdb", *auth, name], env=pg_env, check=True)
        subprocess.run(["pg_restore", *auth, "--no-owner", "-d", name, str(dump)], env=pg_env,
                       check=True)  # fmt: skip
        user = db.get("USER") or "postgres"
        password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
        host = f"{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}"
        return {"DATABASE_URL": f"postgres://{user}{password}@{host}/{name}"}
    copy = tmp_path / "backup.sqlite3"
    source, target = sqlite3.connect(db["NAME"]), sqlite3.connect(copy)
    with target:
        source.backup(target)  # what `sqlite3 var/planner.sqlite3 ".backup FILE"` does
    source.close()
    target.close()
    return {"SQLITE_PATH": str(copy), "DATABASE_URL": ""}


def test_a_restored_backup_resolves_its_shares_and_gives_the_same_figures(
    tmp_path, owner, two_tier_catalog
):
    plan = saved_plan(owner, name="to back up")
    share = services.share_create(plan=plan, user=owner)
    other = saved_plan(owner, name="second", monthly="612.35")
    assert Share.objects.count() == 1 and Plan.objects.count() == 2
    before = state_now()
    after = read_back(restored(tmp_path), tmp_path)
    assert after[share.token]["resolves"] is True
    assert after == before
    assert after[str(other.code)]["updated"] == other.updated.isoformat()  # microseconds kept
