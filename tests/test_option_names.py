# ruff: noqa: RUF001, RUF003  (× in the option names under test)
"""Options name themselves: c5.4xlarge spot, on-demand, reserved 1 y and 3 y are four names.

Each tier in an option's name carries its provider and pricing model ("AWS c5.4xlarge ·
reserved 3 y"), in the results table, the headline, the charts' legends and labels, and
both CSV exports; and every option shown gets its own bar, however alike two read.
The API's `label` keeps the bare name it always had; the name is its added `title`.
"""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import translation

from planner.compute.engine import compare
from planner.compute.schema import parse_plan
from planner.services import plans as services
from planner.web import charts, dashboard
from tests.support.catalog import add_price, make_tier
from tests.support.dashboard import charts_in, days_ago, edit_url, login, saved_plan
from tests.support.engine import AS_OF, C5_2X, EXTREME, R5_4X, frame, tier

pytestmark = pytest.mark.django_db
NBSP = "\u00a0"
C5 = {
    "aws-c5.4xlarge-spot": ("spot", "150", "month", ""),
    "aws-c5.4xlarge-us-east-1-on-demand": ("on_demand", "0.68", "hour", "us-east-1"),
    "aws-c5.4xlarge-us-east-1-reserved-1y": ("reserved_1y", "0.428", "hour", "us-east-1"),
    "aws-c5.4xlarge-us-east-1-reserved-3y": ("reserved_3y", "0.29", "hour", "us-east-1"),
}
NAMES = {
    "1 × AWS c5.4xlarge · spot",
    "1 × AWS c5.4xlarge · on-demand",
    "1 × AWS c5.4xlarge · reserved 1 y",
    "1 × AWS c5.4xlarge · reserved 3 y",
}
GERMAN = {
    f"1{NBSP}× AWS c5.4xlarge · Spot",
    f"1{NBSP}× AWS c5.4xlarge · On-Demand",
    f"1{NBSP}× AWS c5.4xlarge · reserviert 1 J.",
    f"1{NBSP}× AWS c5.4xlarge · reserviert 3 J.",
}


@pytest.fixture
def four_c5(own_cache):
    for slug, (model, amount, unit, region) in C5.items():
        box = make_tier(slug, name="c5.4xlarge", pricing_model=model, region=region)
        add_price(box, amount, days_ago(5), unit=unit)


@pytest.fixture
def plan(owner, four_c5):
    candidates = [{"tier": slug, "count": 1} for slug in C5]
    return saved_plan(owner, name="which c5", monthly="800", candidates=candidates)


def option_cells(html: str) -> list[str]:
    rows = re.findall(r'<tr class="option[^"]*" data-key="[^"]+">\s*<td>(.*?)<', html, re.S)
    return [row.strip() for row in rows]


def headline(html: str) -> str:
    return re.search(r'data-testid="headline">(.*?)</p>', html, re.S).group(1)


def chart_svg(client: Client, html: str, kind: str) -> str:
    return client.get(charts_in(html)[kind]).content.decode()


def svg_texts(svg: str) -> list[str]:
    return [t.replace("&#215;", "×") for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg)]


def server_bars(svg: str) -> set[float]:
    """The rows holding a bar's servers part: patches in the servers colour inside the axes
    (the legend's swatch is unclipped), by the height they start at: two bars drawn on one
    row are one bar to the reader."""
    starts = re.findall(
        r'<path d="M [\d.]+ ([\d.]+)[^"]*" clip-path="[^"]+" style="fill: #1f77b4', svg
    )
    return {round(float(y), 1) for y in starts}


def test_the_table_and_the_headline_name_each_option_by_provider_tier_and_pricing(owner, plan):
    html = login(owner).get(edit_url(plan)).content.decode()
    assert set(option_cells(html)) == NAMES
    assert "<strong>1 × AWS c5.4xlarge · spot</strong> saves" in headline(html)


def test_the_german_page_says_the_pricing_models_in_german(owner, plan):
    client = login(owner)
    client.cookies["django_language"] = "de"
    html = client.get(edit_url(plan)).content.decode()
    assert set(option_cells(html)) == GERMAN
    assert f"<strong>1{NBSP}× AWS c5.4xlarge · Spot</strong> spart" in headline(html)


def test_the_legend_and_the_bars_name_four_options_and_draw_four_bars(owner, plan):
    client = login(owner)
    html = client.get(edit_url(plan)).content.decode()
    cumulative = svg_texts(chart_svg(client, html, "cumulative"))
    legend = {re.sub(r" \(break-even: month \d+\)$", "", t) for t in cumulative}
    assert legend >= NAMES
    monthly = chart_svg(client, html, "monthly")
    labels = [t for t in svg_texts(monthly) if t.startswith("1 × ")]
    assert sorted(labels) == sorted(NAMES)
    # Four option bars and the baseline's, each a servers patch of its own.
    assert len(server_bars(monthly)) == 5


def test_both_csv_exports_name_each_option(owner, plan):
    client = login(owner)
    for what in ("comparison", "cumulative"):
        text = client.get(f"/plans/{plan.code}/{what}.csv").content.decode()
        named = {row["option"] for row in csv.DictReader(io.StringIO(text))}
        assert named == {"baseline", *NAMES}, what
    share = services.share_create(plan=plan, user=owner)
    for what in ("comparison", "cumulative"):
        text = Client().get(f"/s/{share.token}/{what}.csv").content.decode()
        named = {row["option"] for row in csv.DictReader(io.StringIO(text))}
        assert named == {"baseline", *NAMES}, what


def test_the_api_keeps_its_label_and_adds_the_title(owner, plan):
    from tests.support.api import token_client

    api = token_client(owner)[0]
    options = api.get(f"/api/v1/plans/{plan.code}").json()["comparison"]["options"]
    assert {o["label"] for o in options} == {"1 × c5.4xlarge"}
    assert {o["title"] for o in options} == NAMES


def test_a_region_is_said_only_where_two_tiers_would_read_alike():
    east = tier("aws-m5-east", "100", name="m5", model="on_demand", kind="cloud_vm", vcpus=16)
    west = {**tier("aws-m5-west", "110", name="m5", model="on_demand", kind="cloud_vm",
                   vcpus=16), "region": "eu-west-1"}  # fmt: skip
    east["region"] = "us-east-1"
    data = {"currency": "USD", "baseline": {"monthly": 480},
            "candidates": [{"tier": "aws-m5-east", "count": 1}, {"tier": "aws-m5-west", "count": 1},
                           {"tier": "inmotion-extreme", "count": 1}]}  # fmt: skip
    found = (
        compare(parse_plan(data), frame(east, west, EXTREME), {}, as_of=AS_OF).output().model_dump()
    )
    assert {o["title"] for o in found["options"]} == {
        "1 × aws m5 · on-demand · us-east-1",
        "1 × aws m5 · on-demand · eu-west-1",
        "1 × inmotion Extreme Dedicated · monthly",
    }


def test_every_option_shown_gets_its_own_bar_and_the_rest_are_counted():
    rows = [tier(f"aws-box{i}", 100 + i, name=f"box {i}", kind="cloud_vm", vcpus=8)
            for i in range(11)]  # fmt: skip
    data = {"currency": "USD", "baseline": {"monthly": 480},
            "candidates": [{"tier": f"aws-box{i}", "count": 1} for i in range(11)]}  # fmt: skip
    comparison = compare(parse_plan(data), frame(*rows, C5_2X, R5_4X), {}, as_of=AS_OF).output()
    with translation.override("en"):
        monthly = dashboard.results(comparison).charts["monthly"]
    assert len(monthly["bars"]) == 1 + 8  # the baseline and the leading eight
    assert monthly["more"] == "3 more options in the table"
    svg = charts.render("monthly", monthly, "en").decode()
    assert "3 more options in the table" in svg
    assert len(server_bars(svg)) == 9
    with translation.override("de"):
        said = dashboard.results(comparison).charts["monthly"]["more"]
    assert said == "3 weitere Optionen in der Tabelle"
    cache.clear()


def test_a_tier_with_no_name_reads_as_its_slug_and_alike_by_it_alone():
    """Tiers of an empty name read as their slugs (never alike each other), while two named
    alike beside them still say their regions."""
    rows = []
    for slug, name, region in (("aws-x-east", "", "us-east-1"), ("aws-x-west", "", "eu-west-1"),
                               ("aws-m5-east", "m5", "us-east-1"),
                               ("aws-m5-west", "m5", "eu-west-1")):  # fmt: skip
        row = tier(slug, "100", name=name, model="on_demand", kind="cloud_vm", vcpus=16)
        rows.append({**row, "region": region})
    data = {"currency": "USD", "baseline": {"monthly": 480},
            "candidates": [{"tier": r["slug"], "count": 1} for r in rows]}  # fmt: skip
    found = compare(parse_plan(data), frame(*rows), {}, as_of=AS_OF).output().model_dump()
    assert {o["title"] for o in found["options"]} == {
        "1 × aws-x-east · on-demand",
        "1 × aws-x-west · on-demand",
        "1 × aws m5 · on-demand · us-east-1",
        "1 × aws m5 · on-demand · eu-west-1",
    }
