"""An offline price sync (issue 22, item 5) says the network is unreachable, instead of
"refused" with "[Errno -2] Name or service not known", and changes nothing."""

import socket

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from catalog.feeds.base import FeedRefused
from catalog.feeds.download import download, offline_code
from common.messages import plain
from tests.support.feeds import catalog_state

# RFC 2606: a name under .invalid never resolves, online or not.
NOWHERE = "https://prices.planner-test.invalid/eurofxref-daily.xml"


@pytest.fixture(autouse=True)
def quick_retries(settings, tmp_path):
    settings.CATALOG_FEED_BACKOFF_SECONDS = 0
    settings.CATALOG_FEED_ATTEMPTS = 2
    settings.CATALOG_FEED_TIMEOUT_SECONDS = 5
    settings.CATALOG_FEED_DIR = tmp_path / "downloads"


def test_a_name_that_cannot_be_looked_up_is_an_unreachable_network(tmp_path):
    with pytest.raises(FeedRefused) as refused:
        download(NOWHERE, tmp_path / "x.xml")
    reason = refused.value.reasons[0]
    assert reason.code == "feeds.offline_dns"
    text = plain(reason)
    assert text.startswith("The network is unreachable: the name prices.planner-test.invalid")
    assert "Errno" not in text and "refused" not in text


def test_no_route_is_an_unreachable_network_and_other_failures_are_not():
    import errno

    assert offline_code(socket.gaierror(-2, "Name or service not known")) == "feeds.offline_dns"
    assert offline_code(OSError(errno.ENETUNREACH, "Network is unreachable")) == (
        "feeds.offline_route"
    )
    assert offline_code(ConnectionRefusedError(errno.ECONNREFUSED, "refused")) == ""


@pytest.mark.django_db
def test_the_command_says_network_unreachable_and_changes_nothing(capsys):
    before = catalog_state()
    with pytest.raises(CommandError) as failed:
        call_command("sync_prices", "ecb", "--url", NOWHERE)
    out = capsys.readouterr().out
    assert "ecb: network unreachable, 0 bytes" in out
    assert "The network is unreachable" in out
    assert "Errno" not in out
    assert "the network is unreachable; nothing changed" in str(failed.value)
    assert catalog_state() == before
