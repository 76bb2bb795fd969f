"""The data generation changes with any edit of a speed factor, even one of the same length.

A recompute's speed-factor rows are kept per data generation, so an edited factor
that left the generation unchanged would keep showing its old source.
"""

import datetime as dt
from decimal import Decimal

import pytest

from catalog.models import Tier
from changes.selectors import current_generation
from planner.models import SpeedFactor
from tests.support.bench import finished_run, target, version
from tests.support.catalog import add_price, make_tier
from tests.support.dashboard import DEDICATED, form_data, login

pytestmark = pytest.mark.django_db
ESTIMATED = "test-estimated-box"
POINTS = {k: 2.0e6 * k / (1 + 0.02 * (k - 1)) for k in (1, 2, 4, 8, 16, 32)}


@pytest.fixture
def speed_factor(two_tier_catalog):
    host = target("epyc-4545p", cpu_model="AMD EPYC 4545P", hardware_threads=32, usable_cpus=32)
    host.tier = Tier.objects.get(slug=DEDICATED)
    host.save(update_fields=["tier"])
    finished_run(version(), host, POINTS)
    box = make_tier(ESTIMATED, provider="Test", kind="dedicated", pricing_model="fixed_monthly",
                    vcpus=32, cores=16, ram_gib=Decimal(192))  # fmt: skip
    add_price(box, "300", dt.date.today() - dt.timedelta(days=5), unit="month",
              source="test price list")  # fmt: skip
    return SpeedFactor.objects.create(
        tier=box, relative_to=host.tier, factor=Decimal("0.5"),
        unit=SpeedFactor.Unit.THROUGHPUT_RATIO, source="vendor sheet A",
        author="staff", date=dt.date(2026, 5, 1),
    )  # fmt: skip


def estimated_plan():
    return form_data(
        cand_0__tier=ESTIMATED,
        cand_0__count="",  # sized by the model from the workload, through the factor
        wl_gbm_0__trainings_per_month="20",
        wl_gbm_0__rows="2000000",
        wl_gbm_0__features="200",
        wl_gbm_0__trees="500",
    )


def recompute(owner) -> str:
    response = login(owner).post("/plans/new", estimated_plan(), headers={"HX-Request": "true"})
    assert response.status_code == 200
    return response.content.decode()


def test_editing_a_factors_source_to_one_of_the_same_length_changes_the_generation(
    owner, speed_factor
):
    before = current_generation()
    html = recompute(owner)
    assert "badge figure-estimate" in html
    assert "source: vendor sheet A." in html

    speed_factor.source = "vendor sheet B"  # the same length as before
    speed_factor.save()

    assert current_generation() != before
    html = recompute(owner)
    assert "source: vendor sheet B." in html
    assert "vendor sheet A" not in html
