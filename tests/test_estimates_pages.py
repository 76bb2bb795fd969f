"""The tier's CPU on the catalog page and in the tier picker (both CPUs where public runs saw
another than the offer names), and the sources page naming the speed data's licence."""

import html
import re

import pytest

from catalog.defaults import load_default_catalog
from tests.support.catalog import add_price, make_tier
from tests.support.dashboard import login

pytestmark = pytest.mark.django_db


def row_of(page: str, slug: str) -> str:
    row = page[page.index(f'data-slug="{slug}"') :]
    return html.unescape(row[: row.index("</tr>")])


@pytest.fixture
def offer_names_another_cpu():
    """An AWS offer naming the 8124M (as the offer file does for c5); public runs saw the
    8223CL on c5.9xlarge."""
    load_default_catalog()
    tier = make_tier("aws-c5.9xlarge-test", provider="AWS", name="c5.9xlarge", vcpus=36,
                     cpu_model="Intel Xeon Platinum 8124M")  # fmt: skip
    add_price(tier, "1.53", "2026-01-01", source="test price list")
    return tier


def test_catalog_shows_both_cpus_where_runs_saw_another(client, offer_names_another_cpu):
    cols = ["price", "cpu"]  # the CPU column, chosen (not among the default columns)
    page = client.get(
        "/catalog/", {"as_of": "2026-11-30", "q": "c5", "cols": cols}
    ).content.decode()
    row = row_of(page, "aws-c5.9xlarge-test")
    assert "offer: Intel Xeon Platinum 8124M; runs saw Intel Xeon Platinum 8223CL" in row
    # an offer that names no CPU shows what public runs saw on that server type, said so
    row = row_of(page, "aws-c5.4xlarge-us-east-1-on-demand")
    assert "Intel Xeon Platinum 8275CL" in row and "(public runs)" in row
    # the offer's own CPU where no public row covers the server type
    page = client.get(
        "/catalog/", {"as_of": "2026-11-30", "q": "extreme", "cols": cols}
    ).content.decode()
    assert "AMD EPYC 4545P" in row_of(page, "inmotion-hosting-extreme-dedicated-fixed-monthly")


def test_the_tier_picker_names_the_cpu(owner, offer_names_another_cpu):
    response = login(owner).get("/plans/tiers", {"q": "c5.9xlarge"})
    [found] = response.json()["results"]
    assert "offer: Intel Xeon Platinum 8124M; runs saw Intel Xeon Platinum 8223CL" in found["label"]
    response = login(owner).get("/plans/tiers", {"q": "c7a.4xlarge on"})
    assert "AMD EPYC 9R14" in response.json()["results"][0]["label"]


def test_sources_page_names_the_speed_data_and_its_licence(client):
    page = html.unescape(client.get("/catalog/sources/").content.decode())
    section = page[page.index('data-testid="speed-data"') :]
    assert "Spare Cores (sparecores.com), sc-inspector-data" in section
    assert re.search(r'rel="license noopener">CC BY-SA 4.0</a>', section)
    assert "share-alike" in section and "ATTRIBUTION.md" in section
    assert "3613 server types" in section or "3,613 server types" in section


def test_sources_page_says_how_good_the_estimates_are(client):
    import json

    from estimates import scores

    band = json.loads((scores.DATA / "band.json").read_text())
    page = html.unescape(client.get("/catalog/sources/").content.decode())
    said = page[page.index('data-testid="how-good"') :]
    assert f"median error {round(100 * band['median_error'], 1)} %" in said
    assert f"covered {round(100 * band['coverage_left_out'], 1)} %" in said


def test_the_plan_page_marks_an_estimate_and_links_how_good_it_is(owner):
    from django.core.management import call_command

    from tests.support.dashboard import form_data
    from tests.support.runs import GBM_RUN, RUNS

    load_default_catalog()
    call_command("import_run", str(RUNS / f"{GBM_RUN}.json"))
    data = form_data(cand_0__tier="aws-c5.4xlarge-us-east-1-on-demand", cand_0__count="",
                     wl_gbm_0__trainings_per_month="200", wl_gbm_0__rows="2000000",
                     wl_gbm_0__features="50", wl_gbm_0__trees="100")  # fmt: skip
    response = login(owner).post("/plans/new", data)
    page = html.unescape(response.content.decode())
    assert 'class="badge figure-estimate"' in page
    assert "Estimate from published scores (Spare Cores sc-inspector-data (CC BY-SA 4.0))" in page
    assert "against AMD EPYC" in page
    assert 'href="/catalog/sources/#speed-data"' in page
