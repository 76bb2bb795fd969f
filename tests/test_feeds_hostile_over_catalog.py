"""Issue 28, "Done when": each hostile value refused over a catalog that already holds the
genuine file's prices. The refusal names the record and field, leaves every catalog row as
it was (no price added, no tier retired), no import record stays "running", and /catalog/
answers 200 showing the prices held before, in the tiers' own currency and converted.
Each hostile file is derived at test time from a sample in ../shared/reference/feeds."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

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


def _ovh_renew(document: dict, price: int) -> None:
    plan = document["plans"][0]
    renew = next(p for p in plan["pricings"]
                 if p["mode"] == "default" and "renew" in p["capacities"])  # fmt: skip
    renew["price"] = price


def _aws_price(value: str):
    return lambda d: aws_first_kept_on_demand(d)["dimension"]["pricePerUnit"].update(USD=value)


# (source, regions, sample, change, literals for derive_json, a fragment of the refusal)
CASES = {
    "azure-1e400": ("azure", ["eastus"], Z1,
                    lambda d: azure_on_demand(d).update(retailPrice="BIG"), {"BIG": "1e400"},
                    "amount: 1E+400 is outside the plausible bounds"),
    "azure-zero": ("azure", ["eastus"], Z1, lambda d: azure_on_demand(d).update(retailPrice=0.0),
                   None, "amount: 0.0 is outside the plausible bounds"),
    "aws-1e20": ("aws", ["us-east-1"], A1, _aws_price("100000000000000000000.0000000000"), None,
                 "amount: 100000000000000000000.0000000000"),
    "aws-1e3": ("aws", ["us-east-1"], A1, _aws_price("1e3"), None, "1e3"),
    "hetzner-1e12": ("hetzner", None, H1, lambda d: d[3].update(price=10**12), None,
                     "server[3], amount: 1000000000000 is outside the plausible bounds"),
    "hetzner-zero": ("hetzner", None, H1, lambda d: d[0].update(price=0), None,
                     "server[0], amount: 0 is outside the plausible bounds"),
    "ovh-1e30": ("ovh", ["FR"], O1, lambda d: _ovh_renew(d, 10**30 * 10**8), None,
                 "plans[0] default, amount: 1E+30 is outside the plausible bounds"),
    "ecb-1e30": ("ecb", None, E1, "rate='1.1252'|rate='1e30'", None,
                 "Cube 2025-05-09, USD: 1e30 is outside the plausible bounds"),
    "ecb-twice": ("ecb", None, E1,
                  "<Cube currency='JPY' rate='163.36'/>|<Cube currency='JPY' rate='163.36'/>"
                  "<Cube currency='USD' rate='1.1300'/>", None,
                  "the rate of USD on 2025-05-09 is given a second time"),
}  # fmt: skip


def _slugs(response) -> list[str]:
    return re.findall(r'<tr class="tier" data-slug="([^"]+)"', response.content.decode())


def _sync(source: str, regions: list[str] | None, path: Path) -> FeedImport:
    return sync_source(source, regions, file=path)[0] if regions else sync_source(
        source, file=path)[0]  # fmt: skip


def _derive(tmp_path: Path, name: str, change, literals) -> Path:
    if isinstance(change, str):
        old, new = change.split("|")
        return derive_text(tmp_path, name, lambda t: t.replace(old, new))
    return derive_json(tmp_path, name, change, literals)


@pytest.mark.parametrize("case", CASES)
def test_a_hostile_file_over_a_held_catalog_changes_nothing_and_the_page_answers(
    case, client, tmp_path
):
    source, regions, name, change, literals, fragment = CASES[case]
    genuine = tmp_path / "genuine"
    genuine.mkdir()
    held = _sync(source, regions, _derive(genuine, name, lambda d: None, None)
                 if not isinstance(change, str) else _derive(genuine, name, "|", None))  # fmt: skip
    assert held.status == "imported"
    if source == "ecb":  # a rate to convert with, beside a tier priced in USD
        _sync("hetzner", None, derive_json(genuine, H1, lambda d: None))
    before = catalog_state()
    shown = _slugs(client.get("/catalog/"))
    assert shown

    hostile = tmp_path / "hostile"
    hostile.mkdir()
    result = _sync(source, regions, _derive(hostile, name, change, literals))
    text = " | ".join(plain(Message.from_json(m)) for m in result.messages)
    assert result.status == FeedImport.Status.REFUSED, text
    assert fragment in text
    assert catalog_state() == before
    assert not FeedImport.objects.filter(status=FeedImport.Status.RUNNING).exists()
    for url in ("/catalog/", "/catalog/?currency=EUR", "/catalog/?currency=USD"):
        response = client.get(url)
        assert response.status_code == 200, url
    assert _slugs(client.get("/catalog/")) == shown  # the prices held before, as before
