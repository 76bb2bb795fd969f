"""Hostile values in otherwise genuine feed files (issue 28, "Crashes" and "Stored, and the
catalog breaks"): each file is derived at test time from a sample in
../shared/reference/feeds. A value no price or rate can be refuses the whole file, naming
the record and the field; nothing is written, the import record ends refused (or failed,
never "running"), and /catalog/ still answers."""

from __future__ import annotations

import pytest
from django.db import DataError

from catalog.feeds import apply as feed_apply
from catalog.feeds.sync import sync_source
from catalog.models import FeedImport
from common.messages import Message, plain
from tests.support.feeds import (
    A1,
    E1,
    H1,
    O1,
    Z1,
    aws_first_kept_on_demand,
    azure_on_demand,
    catalog_state,
    derive_json,
    derive_text,
)

pytestmark = pytest.mark.django_db


def texts(result: FeedImport) -> list[str]:
    return [plain(Message.from_json(m)) for m in result.messages]


def refused_and_nothing_written(client, result: FeedImport, before: dict) -> str:
    """The import ended refused, wrote nothing, and the catalog page answers; its text."""
    assert result.status == FeedImport.Status.REFUSED, texts(result)
    assert FeedImport.objects.get(pk=result.pk).status == FeedImport.Status.REFUSED
    assert catalog_state() == before
    assert client.get("/catalog/").status_code == 200
    return " | ".join(texts(result))


# Crashes --------------------------------------------------------------------------------


def test_an_azure_price_of_1e400_is_refused_naming_the_item(client, tmp_path):
    path = derive_json(tmp_path, Z1, lambda d: azure_on_demand(d).update(retailPrice="BIG"),
                       {"BIG": "1e400"})  # fmt: skip
    before = catalog_state()
    text = refused_and_nothing_written(client, sync_source("azure", ["eastus"], file=path)[0],
                                       before)  # fmt: skip
    assert "Items[" in text and "amount: 1E+400 is outside the plausible bounds" in text


def test_an_ovh_price_of_ten_to_the_thirty_is_refused_naming_the_plan(client, tmp_path):
    def change(document):
        plan = document["plans"][0]
        renew = next(p for p in plan["pricings"]
                     if p["mode"] == "default" and "renew" in p["capacities"])  # fmt: skip
        renew["price"] = 10**30 * 10**8  # 10^30 EUR in the feed's 10^-8 units

    path = derive_json(tmp_path, O1, change)
    before = catalog_state()
    text = refused_and_nothing_written(client, sync_source("ovh", ["FR"], file=path)[0], before)
    assert "plans[0] default, amount: 1E+30 is outside the plausible bounds" in text


def test_an_ecb_currency_given_twice_on_one_day_is_refused(client, tmp_path):
    path = derive_text(
        tmp_path,
        E1,
        lambda t: t.replace(
            "<Cube currency='JPY' rate='163.36'/>",
            "<Cube currency='JPY' rate='163.36'/>\n\t\t\t<Cube currency='USD' rate='1.1300'/>",
        ),
    )
    before = catalog_state()
    text = refused_and_nothing_written(client, sync_source("ecb", file=path)[0], before)
    assert "the rate of USD on 2025-05-09 is given a second time" in text


def test_a_100000_character_instance_type_is_refused_as_a_too_long_key(client, tmp_path):
    path = derive_json(tmp_path, A1, lambda d: aws_first_kept_on_demand(d)["product"][
        "attributes"].update(instanceType="c" * 100_000))  # fmt: skip
    before = catalog_state()
    result = sync_source("aws", ["us-east-1"], file=path)[0]
    text = refused_and_nothing_written(client, result, before)
    assert "instanceType: 100000 characters make a tier key longer than 120" in text


def test_a_price_too_large_for_the_price_column_is_refused_before_the_database(client, tmp_path):
    """10^9 USD an hour does not fit Price.amount (14 digits, 6 places): PostgreSQL would
    refuse the insert, SQLite would store it. It is refused on every database first."""
    path = derive_json(tmp_path, A1, lambda d: aws_first_kept_on_demand(d)["dimension"][
        "pricePerUnit"].update(USD="1000000000.0000000000"))  # fmt: skip
    before = catalog_state()
    result = sync_source("aws", ["us-east-1"], file=path)[0]
    text = refused_and_nothing_written(client, result, before)
    assert (
        "amount: 1000000000.0000000000 is outside the plausible bounds (<= 1000 USD/hour)" in text
    )


def test_an_unexpected_error_while_writing_ends_the_import_as_failed_with_its_reason(
    client, tmp_path, monkeypatch
):
    """Fault injection at the database boundary: the insert raises what PostgreSQL raises
    for a value its column cannot hold. The import ends failed, says why, wrote nothing."""

    def refuse(*args, **kwargs):
        raise DataError("numeric field overflow")

    monkeypatch.setattr(feed_apply, "_insert", refuse)
    before = catalog_state()
    result = sync_source("hetzner", file=derive_json(tmp_path, H1, lambda d: None))[0]
    stored = FeedImport.objects.get(pk=result.pk)
    assert stored.status == FeedImport.Status.FAILED and stored.finished_at is not None
    assert "unexpected error and changed nothing: DataError: numeric field overflow" in texts(
        stored)[0]  # fmt: skip
    assert catalog_state() == before
    assert client.get("/catalog/").status_code == 200


# Values that were stored and broke the catalog -------------------------------------------


def test_a_hetzner_price_of_ten_to_the_twelve_is_refused(client, tmp_path):
    path = derive_json(tmp_path, H1, lambda d: d[3].update(price=10**12))
    before = catalog_state()
    text = refused_and_nothing_written(client, sync_source("hetzner", file=path)[0], before)
    assert (
        "server[3], amount: 1000000000000 is outside the plausible bounds (<= 360000 EUR/month)"
        in text
    )


def test_an_aws_price_of_ten_to_the_twenty_is_refused(client, tmp_path):
    path = derive_json(tmp_path, A1, lambda d: aws_first_kept_on_demand(d)["dimension"][
        "pricePerUnit"].update(USD="100000000000000000000.0000000000"))  # fmt: skip
    before = catalog_state()
    text = refused_and_nothing_written(
        client, sync_source("aws", ["us-east-1"], file=path)[0], before
    )
    assert "terms.OnDemand." in text and "amount: 100000000000000000000.0000000000" in text


def test_an_ecb_rate_of_ten_to_the_thirty_is_refused(client, tmp_path):
    path = derive_text(tmp_path, E1, lambda t: t.replace("rate='1.1252'", "rate='1e30'"))
    before = catalog_state()
    text = refused_and_nothing_written(client, sync_source("ecb", file=path)[0], before)
    assert "Cube 2025-05-09, USD: 1e30 is outside the plausible bounds (<= 4.8)" in text


def test_plausible_values_of_the_same_files_still_import(tmp_path):
    """The bounds refuse no genuine value: every sample used above imports as it is."""
    assert sync_source("ecb", file=derive_text(tmp_path, E1, lambda t: t))[0].status == "imported"
    assert sync_source("hetzner", file=derive_json(tmp_path, H1, lambda d: None))[
        0].status == "imported"  # fmt: skip
    assert sync_source("ovh", ["FR"], file=derive_json(tmp_path, O1, lambda d: None))[
        0].status == "imported"  # fmt: skip


def test_an_interrupted_import_ends_failed_and_says_so(client, tmp_path, monkeypatch):
    """Ctrl-C on `sync_prices`, or a worker's shutdown, inside the write: the interruption
    goes on up, the record ends failed saying it was interrupted, nothing was written."""

    def interrupt(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(feed_apply, "_insert", interrupt)
    before = catalog_state()
    with pytest.raises(KeyboardInterrupt):
        sync_source("hetzner", file=derive_json(tmp_path, H1, lambda d: None))
    (stored,) = FeedImport.objects.filter(source="hetzner")
    assert stored.status == FeedImport.Status.FAILED and stored.finished_at is not None
    assert "interrupted (KeyboardInterrupt)" in texts(stored)[0]
    assert catalog_state() == before
    assert client.get("/catalog/").status_code == 200


def test_an_import_left_running_by_a_process_that_died_ends_failed_at_the_next_sync(tmp_path):
    """A worker killed mid-import (OOM, SIGKILL) leaves its record "running"; the next sync
    of that source and region marks it failed, saying why. A recent running one (another
    import in progress) and other regions' are left alone."""
    import datetime as dt

    from django.utils import timezone

    from catalog.feeds.sync import ORPHAN_AFTER

    now = timezone.now()
    dead = FeedImport.objects.create(source="hetzner", region="", url="x",
                                     started_at=now - ORPHAN_AFTER - dt.timedelta(minutes=1),
                                     status=FeedImport.Status.RUNNING)  # fmt: skip
    busy = FeedImport.objects.create(source="hetzner", region="", url="x",
                                     started_at=now - dt.timedelta(minutes=1),
                                     status=FeedImport.Status.RUNNING)  # fmt: skip
    other = FeedImport.objects.create(source="azure", region="eastus", url="x",
                                      started_at=now - ORPHAN_AFTER * 2,
                                      status=FeedImport.Status.RUNNING)  # fmt: skip
    (result,) = sync_source("hetzner", file=derive_json(tmp_path, H1, lambda d: None))
    assert result.status == FeedImport.Status.IMPORTED
    dead.refresh_from_db(), busy.refresh_from_db(), other.refresh_from_db()
    assert dead.status == FeedImport.Status.FAILED and dead.finished_at is not None
    assert "process ended before it finished: still running after 6 hours" in texts(dead)[0]
    assert busy.status == other.status == FeedImport.Status.RUNNING
