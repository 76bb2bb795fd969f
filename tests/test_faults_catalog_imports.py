"""Two catalog imports at once (issue 29, item 5): the changes are staged and written in
one transaction under a lock per catalog, so the second import stages against what the
first wrote; one that cannot get the lock in time is told to retry (the command and the
admin), never an IntegrityError, a traceback or a 500."""

import io
import re
import threading

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import connection, connections

from catalog.defaults import DEFAULT_CATALOG
from catalog.io import importer
from tests.support.catalog import table_counts

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]
ONE_IMPORT = {"Provider": 3, "Tier": 18, "Price": 19, "ExchangeRate": 2}
BUSY = "another import of the catalog was being written"
URL = "/admin/catalog/price/import/"


def import_in_thread(path, outcomes: list, start: threading.Barrier) -> None:
    try:
        start.wait()
        out = io.StringIO()
        call_command("import_catalog", str(path), stdout=out)
        outcomes.append(("imported", out.getvalue()))
    except CommandError as exc:
        outcomes.append(("refused", str(exc)))
    except Exception as exc:  # what the issue saw: an IntegrityError's traceback
        outcomes.append(("crashed", repr(exc)))
    finally:
        connections.close_all()


def test_two_imports_at_once_write_the_file_once_and_neither_crashes(tmp_path):
    path = tmp_path / "catalog.csv"
    path.write_bytes(DEFAULT_CATALOG.read_bytes())
    for _round in range(3):
        outcomes: list = []
        start = threading.Barrier(2)
        threads = [threading.Thread(target=import_in_thread, args=(path, outcomes, start))
                   for _ in range(2)]  # fmt: skip
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        assert len(outcomes) == 2 and not [o for o in outcomes if o[0] == "crashed"], outcomes
        for kind, said in outcomes:
            assert kind == "imported" or BUSY in said, said
        assert "imported" in {kind for kind, _ in outcomes}
        assert table_counts() == ONE_IMPORT  # the second staged against the first: no dupes


@pytest.fixture
def catalog_held(monkeypatch):
    """Another import's transaction holding the catalog's lock (PostgreSQL only)."""
    if connection.vendor != "postgresql":
        pytest.skip("the catalog's lock is PostgreSQL's (SQLite's writers take turns)")
    monkeypatch.setattr(importer, "LOCK_WAIT", "300ms")
    other = connections.create_connection("default")
    other.set_autocommit(False)
    with other.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [importer.CATALOG_LOCK])
    yield
    other.rollback()
    other.close()


def test_the_command_tells_the_loser_to_retry_and_writes_nothing(tmp_path, catalog_held):
    path = tmp_path / "catalog.csv"
    path.write_bytes(DEFAULT_CATALOG.read_bytes())
    with pytest.raises(CommandError, match=BUSY):
        call_command("import_catalog", str(path), stdout=io.StringIO())
    assert table_counts() == dict.fromkeys(ONE_IMPORT, 0)


def test_the_admin_confirm_tells_the_loser_to_retry(client, staff_user, tmp_path, monkeypatch,
                                                    catalog_held):  # fmt: skip
    monkeypatch.setattr("catalog.admin.IMPORT_DIR", tmp_path / "imports")
    perms = Permission.objects.filter(codename__in=["add_price", "view_price"])
    staff_user.user_permissions.add(*perms)
    client.force_login(staff_user)
    data = DEFAULT_CATALOG.read_bytes()
    preview = client.post(URL, {"file": SimpleUploadedFile("catalog.csv", data, "text/csv")})
    token = re.search(r'name="token" value="([^"]+)"', preview.content.decode()).group(1)
    confirm = client.post(URL, {"token": token})
    assert confirm.status_code == 200
    assert BUSY in confirm.content.decode()
    assert table_counts() == dict.fromkeys(ONE_IMPORT, 0)
