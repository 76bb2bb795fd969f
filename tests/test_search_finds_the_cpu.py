"""Search finds the CPU (issue 22, item 2): the editor's tier picker and the catalog page
search the CPU model, provider, region and the other specs, not only names and keys."""

import re

import pytest

from catalog.defaults import load_default_catalog
from tests.support.catalog import add_price, make_tier
from tests.support.dashboard import days_ago, login

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("own_cache")]
EXTREME = "inmotion-hosting-extreme-dedicated-fixed-monthly"  # AMD EPYC 4545P, shipped


@pytest.fixture
def catalog():
    load_default_catalog()


def picked(client, query: str) -> list[str]:
    response = client.get("/plans/tiers", {"q": query})
    assert response.status_code == 200
    return [row["slug"] for row in response.json()["results"]]


def listed(client, query: str) -> list[str]:
    response = client.get("/catalog/", {"q": query, "as_of": "2026-11-30"})
    assert response.status_code == 200
    return re.findall(r'<tr class="tier" data-slug="([^"]+)"', response.content.decode())


@pytest.mark.parametrize("query", ["EPYC", "4545P", "epyc 4545p", "amd 32 vcpu"])
def test_the_picker_finds_the_extreme_tier_by_its_cpu(owner, catalog, query):
    assert EXTREME in picked(login(owner), query)


@pytest.mark.parametrize("query", ["EPYC", "4545P", "epyc 4545p", "amd 32 vcpu"])
def test_the_catalog_page_finds_the_extreme_tier_by_its_cpu(client, catalog, query):
    assert EXTREME in listed(client, query)


def test_a_cpu_it_does_not_have_finds_it_nowhere(owner, client, catalog):
    assert EXTREME not in picked(login(owner), "xeon")
    assert EXTREME not in listed(client, "xeon")
    assert EXTREME not in picked(login(owner), "4545p graviton")


def test_provider_region_and_gpu_are_searched_too(owner, client):
    specs = {"cpu_model": "Intel Xeon Platinum 8358", "gpu_model": "NVIDIA A10", "gpus": 1}
    tier = make_tier("box-gpu-1", provider="Lambda", name="gpu_1x_a10", region="us-south-1",
                     **specs)  # fmt: skip
    add_price(tier, "0.75", days_ago(3))
    for query in ("lambda", "us-south", "a10", "nvidia", "8358", "ice lake"):
        assert picked(login(owner), query) == ["box-gpu-1"], query
        response = client.get("/catalog/", {"q": query})
        assert 'data-slug="box-gpu-1"' in response.content.decode(), query
