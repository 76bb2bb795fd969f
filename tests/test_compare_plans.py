# ruff: noqa: RUF001, RUF003  (× in the option names on the pages)
"""Comparing two to four plans: inputs by their labels in the reader's formats, payback in
the plan page's words, a chart of the cumulative costs, and the comparison shown at once
after "Duplicate as a scenario"."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache

from planner.models import Plan
from planner.web import charts
from tests.support.dashboard import CLOUD, DEDICATED, charts_in, edit_url, login, saved_plan

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("two_tier_catalog")]
NBSP = "\u00a0"


def compare_url(*plans: Plan) -> str:
    return "/plans/compare?" + "&".join(f"plan={p.code}" for p in plans)


def inputs(html: str) -> dict[str, list[str]]:
    table = html.split('id="inputs"')[1].split("</table>")[0]
    rows = re.findall(r'<th scope="row">([^<]+)</th>(.*?)</tr>', table, re.S)
    return {label: re.findall(r"<td>([^<]*)</td>", cells) for label, cells in rows}


def summary(html: str, key: str) -> list[str]:
    row = re.search(rf'data-delta="{key}">(.*?)</tr>', html, re.S).group(1)
    return [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]


@pytest.fixture
def two_plans(owner):
    extreme = saved_plan(
        owner, name="Extreme", one_time={"migration_hours": 5, "migration_rate": 100}
    )
    cloud = saved_plan(owner, name="Cloud reserved", monthly="600", annual_discount_rate="0.05",
                       candidates=[{"tier": CLOUD, "count": 1}])  # fmt: skip
    return extreme, cloud


def test_inputs_are_said_by_their_labels_in_the_readers_formats(owner, two_plans):
    html = login(owner).get(compare_url(*two_plans)).content.decode()
    found = inputs(html)
    assert found["Current monthly spend"] == ["$480.00", "$600.00"]
    assert found["Discount rate"] == ["7%", "5%"]
    assert found["Candidate 1 · Tier"] == [
        "Test Hosting Extreme · monthly",
        "AWS c5.4xlarge · on-demand",
    ]
    assert found["Engineer rate"] == ["$100.00", "–"]
    assert found["Candidate 1 · Sizing"] == ["fixed count", "fixed count"]
    assert "candidates[0]" not in html and DEDICATED not in html.split('id="inputs"')[1]


def test_the_german_page_says_them_in_german_formats(owner, two_plans):
    client = login(owner)
    client.cookies["django_language"] = "de"
    found = inputs(client.get(compare_url(*two_plans)).content.decode())
    assert found["Aktuelle monatliche Ausgaben"] == [f"480,00{NBSP}$", f"600,00{NBSP}$"]
    assert found["Diskontsatz"] == [f"7{NBSP}%", f"5{NBSP}%"]


def test_payback_is_said_as_on_each_plans_page(owner, two_plans):
    client = login(owner)
    html = client.get(compare_url(*two_plans)).content.decode()
    for plan, said in zip(two_plans, summary(html, "payback_month"), strict=True):
        page = client.get(edit_url(plan)).content.decode()
        row = page.split('class="option best"')[1].split("</tr>")[0]
        assert f'<td data-label="Payback">{said}</td>' in row
    assert summary(html, "payback_month")[0] == "month 4"


def test_four_plans_side_by_side_and_a_fifth_is_left_out_saying_so(owner, two_plans):
    more = [saved_plan(owner, name=f"plan {i}", monthly=str(500 + i)) for i in range(3)]
    client = login(owner)
    html = client.get(compare_url(*two_plans, *more[:2])).content.decode()
    assert len(summary(html, "baseline_total")) == 4
    assert len(summary(html, "best")) == 4
    html = client.get(compare_url(*two_plans, *more)).content.decode()
    assert len(summary(html, "baseline_total")) == 4
    assert "At most 4 plans side by side" in html


def test_one_plan_asks_for_another(owner, two_plans):
    html = login(owner).get(compare_url(two_plans[0])).content.decode()
    assert "Choose at least two plans above." in html


def test_the_cumulative_chart_draws_each_plans_best_option_and_baseline_once(owner, two_plans):
    client = login(owner)
    html = client.get(compare_url(*two_plans)).content.decode()
    url = charts_in(html)["compare"]
    svg = client.get(url).content.decode()
    assert "Extreme: 1 × Test Hosting Extreme · monthly" in svg.replace("&#215;", "×")
    assert "Cloud reserved: today" in svg
    drawn = charts.render_count()
    client.get(compare_url(*two_plans))
    assert client.get(url).content.decode() == svg  # the same bytes, from the cache
    assert charts.render_count() == drawn
    cache.clear()


def test_plans_in_different_currencies_get_no_chart(owner, two_plans):
    from tests.support.catalog import add_rate

    add_rate("2020-01-01", "USD", "EUR", "0.9")
    euro = saved_plan(owner, name="in euros", currency="EUR")
    html = login(owner).get(compare_url(two_plans[0], euro)).content.decode()
    assert "compare" not in charts_in(html)
    assert "The plans use different currencies" in html


def test_after_duplicating_the_comparison_is_shown(owner, two_plans):
    original = two_plans[0]
    client = login(owner)
    response = client.post(f"{edit_url(original)}duplicate", follow=True)
    html = response.content.decode()
    compared = html.split('id="compared"')[1].split("</section>")[0]
    assert "Compared with “Extreme”" in compared
    assert compared.count("1 × Test Hosting Extreme · monthly") == 2
    assert "month 4" in compared
    copy = Plan.objects.exclude(pk__in=[p.pk for p in two_plans]).get()
    assert f"plan={original.code}&amp;plan={copy.code}" in compared


@pytest.mark.parametrize(
    ("path", "english", "german"),
    [
        ("owned[0].purchase_price", "Purchase price per server", "Kaufpreis je Server"),
        ("owned[0].count", "Servers", "Server"),
        ("baseline.commitments[0].monthly", "Commitment 1 · Monthly cost", None),
        ("workloads[0].name", "Workload 1 (CPU inference) · Name", None),
    ],
)
def test_compare_labels_are_the_editors_words_in_each_language(path, english, german):
    """The comparison names an input as the editor labels it, so German reads German
    (an owned server's price read "Purchase price" in both languages)."""
    from django.utils import translation

    from planner.web.compare import label_of

    plan = {"workloads": [{"kind": "inference", "name": ""}], "owned": [{}]}
    with translation.override("en"):
        assert label_of(path, plan) == english
    if german:
        with translation.override("de"):
            assert label_of(path, plan).endswith(german)
