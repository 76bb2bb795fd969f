"""A plan sized from a measured run says which run, on which host, with which profile version."""

import re

import pytest

from catalog.models import Tier
from tests.support.bench import finished_run, target, version
from tests.support.dashboard import CLOUD, DEDICATED, form_data, login

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("two_tier_catalog")]
# cell-trees per second at 1..32 threads on the Extreme's target: near-linear.
POINTS = {k: 2.0e6 * k / (1 + 0.02 * (k - 1)) for k in (1, 2, 4, 8, 16, 32)}


@pytest.fixture
def measured_run():
    host = target("epyc-4545p", cpu_model="AMD EPYC 4545P", hardware_threads=32, usable_cpus=32)
    host.tier = Tier.objects.get(slug=DEDICATED)
    host.save(update_fields=["tier"])
    return finished_run(version(), host, POINTS)


def gbm_plan(**changes):
    return form_data(
        cand_0__count="",  # sized by the model from the workload
        wl_gbm_0__trainings_per_month="20",
        wl_gbm_0__rows="2000000",
        wl_gbm_0__features="200",
        wl_gbm_0__trees="500",
        **changes,
    )


def test_a_sized_option_shows_its_run_host_and_profile_version(owner, measured_run):
    response = login(owner).post("/plans/new", gbm_plan(), headers={"HX-Request": "true"})
    html = response.content.decode()
    row = re.search(r'<tr class="option best" data-key="candidate:0">(.*?)</tr>', html, re.S)
    assert row, html
    cells = row.group(1)
    assert "badge figure-measured" in cells
    assert f"Run {measured_run.pk} on host epyc-4545p" in cells
    assert "profile toy-gbm 1.0.0 (standard), 32 threads" in cells
    assert "test price list" in cells  # and the price row's source beside the money
    assert 'data-chart="capacity"' in html  # a sized option has capacity to chart


def test_without_a_run_the_tier_gets_no_figure_and_says_why(owner):
    response = login(owner).post("/plans/new", gbm_plan(), headers={"HX-Request": "true"})
    html = response.content.decode()
    assert "No option has a figure yet." in html
    assert "1 tier has none for this workload" in html  # and it says why, once
    assert DEDICATED in html


@pytest.mark.parametrize(
    ("language", "monthly", "hourly"),
    [("en", "$349.99 / month", "$0.68 / hour"), ("de", "349,99 $ / Monat", "0,68 $ / Stunde")],
)
def test_a_price_row_reads_with_the_decimals_it_needs(owner, language, monthly, hourly):
    """The ᵖ pop-up shows a catalog price as money in the reader's format, never the
    stored column's trailing zeros ("349.9900 USD")."""
    client = login(owner)
    client.post("/i18n/setlang/", {"language": language, "next": "/"})
    data = form_data(cand_1__tier=CLOUD, cand_1__count="1")
    html = client.post("/plans/new", data, headers={"HX-Request": "true"}).content.decode()
    bodies = " ".join(re.findall(r'<div class="prov-body">(.*?)</div>', html, re.S))
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", bodies))  # a no-break space too
    assert monthly in text, text
    assert hourly in text, text
    assert "349.9900" not in text and "349,9900" not in text
