"""The editor's tier search: by name words and slug prefix, prefix matches first, only for
a signed-in user, and current after a write (the data generation)."""

import pytest

from planner.web import tier_search
from tests.support.catalog import add_price, make_tier
from tests.support.dashboard import CLOUD, DEDICATED, days_ago, login

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("two_tier_catalog")]
URL = "/plans/tiers"


def slugs(client, query: str) -> list[str]:
    response = client.get(URL, {"q": query})
    assert response.status_code == 200
    return [row["slug"] for row in response.json()["results"]]


def test_it_finds_a_tier_by_the_words_of_its_name(owner):
    assert slugs(login(owner), "test extreme") == [DEDICATED]
    assert slugs(login(owner), "4xlarge") == [CLOUD]


def test_it_finds_a_tier_by_the_start_of_its_slug(owner):
    assert slugs(login(owner), CLOUD[:6]) == [CLOUD]


def test_every_word_must_match(owner):
    assert slugs(login(owner), "extreme c5") == []


def test_prefix_matches_come_before_matches_inside_a_word(owner):
    inside = make_tier("zz-box-large", name="Megabox large")
    add_price(inside, "0.10", days_ago(5))
    first = make_tier("box-small", name="Small")
    add_price(first, "0.20", days_ago(5))
    words = make_tier("aa-other", name="Box medium")
    add_price(words, "0.30", days_ago(5))
    assert slugs(login(owner), "box") == [
        "box-small",
        "aa-other",
        "zz-box-large",
    ]


def test_the_search_asks_for_a_login(client):
    response = client.get(URL, {"q": "extreme"})
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_a_new_tier_is_found_after_the_write(owner):
    client = login(owner)
    assert slugs(client, "brandnew") == []
    tier = make_tier("brandnew-tier", name="Brandnew 64")
    add_price(tier, "1.00", days_ago(1))
    assert slugs(client, "brandnew") == ["brandnew-tier"]


def test_htmx_gets_options_for_the_datalist(owner):
    html = login(owner).get(URL, {"q": "extreme"}, headers={"HX-Request": "true"}).content
    assert html.decode().strip().startswith(f'<option value="{DEDICATED}">Test Hosting Extreme')


def test_at_most_thirty_tiers_come_back(owner):
    for i in range(40):
        add_price(make_tier(f"many-{i:02d}", name=f"Many {i}"), "0.10", days_ago(5))
    response = login(owner).get(URL, {"q": "many"}).json()
    assert len(response["results"]) == tier_search.LIMIT
    assert response["total"] == 40


def test_a_small_catalog_keeps_its_full_list_and_a_large_one_is_searched(owner, monkeypatch):
    html = login(owner).get("/plans/new").content.decode()
    assert '<datalist id="tier-options" data-complete>' in html
    assert f'<option value="{CLOUD}">' in html
    assert 'hx-get="/plans/tiers"' in html
    monkeypatch.setattr(tier_search, "FULL_LIST_MAX", 1)
    html = login(owner).get("/plans/new").content.decode()
    assert '<datalist id="tier-options"></datalist>' in html


def test_words_beyond_ascii_are_found_inside_and_at_the_start_of_a_word(owner):
    """The index is searched as UTF-8 bytes: a word with umlauts is found by its start and
    by a piece inside it, and its label comes back whole."""
    tier = make_tier("gross-box", name="Größe Übermaß")
    add_price(tier, "0.10", days_ago(5))
    client = login(owner)
    assert slugs(client, "übermaß") == slugs(client, "röß") == ["gross-box"]
    label = client.get(URL, {"q": "größe"}).json()["results"][0]["label"]
    assert label.startswith("Größe Übermaß") or "Größe Übermaß" in label


def _plain_search(rows, query):
    """The search as its docstring says it, one tier at a time (the index does it over the
    bytes of all tiers at once): every word inside the text; slug prefix, then every word
    starting a word, then the rest."""
    query = query.strip().lower()
    terms = query.split()
    matched = [r for r in rows if all(t in r[2] for t in terms)]
    first = [r for r in matched if r[0].startswith(query)]
    words = [r for r in matched if r not in first and all(" " + t in r[2] for t in terms)]
    rest = [r for r in matched if r not in first and r not in words]
    return [r[0] for r in first + words + rest][: tier_search.LIMIT], len(matched)


@pytest.mark.parametrize(
    "query",
    ["", "b", "box", "box-s", "ox", "box small", "größe", "röß", "e ü", "1", "xyz", "9" * 300],
)
def test_the_index_search_finds_what_a_plain_scan_finds(query):
    rows = [
        (slug, label, tier_search.tier_text(slug, label, fields), model)
        for slug, label, fields, model in [
            ("box-small", "Small · 2 vCPU", ["Hetzner", "eu"], "on_demand"),
            ("aa-other", "Box medium", ["AWS", "us-east-1", "1 cores"], "spot"),
            ("zz-box-large", "Megabox\nlarge", ["OVH"], "on_demand"),
            ("gross-box", "Größe Übermaß", ["Hetzner", "ü"], "fixed_monthly"),
        ]
    ]
    index = tier_search.Index.of(rows)
    found = tier_search.search(index, query)
    assert ([slug for slug, _ in found.results], found.total) == _plain_search(rows, query)
    assert index.rows() == rows
    spot = tier_search.with_pricing(index, "spot")
    assert tier_search.search(spot, query).total == _plain_search(rows[1:2], query)[1]
    assert tier_search.search(tier_search.Index.of([]), query).total == 0
