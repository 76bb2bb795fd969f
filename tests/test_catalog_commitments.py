"""A tier's commitment alternatives in the catalog: the cheapest of each slot (reserved,
savings plan or committed use, 1 and 3 years, and spot), and a message where the catalog
has no price for a slot (no rate is made up). Over the default catalog and the real
Savings Plans sample."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from catalog.commitments import alternatives
from catalog.defaults import load_default_catalog
from catalog.feeds.sync import sync_source
from catalog.models import Price, Provider, Tier
from catalog.pricing import catalog_frame
from common.messages import plain
from tests.support.feeds import sample

pytestmark = pytest.mark.django_db
SP = "savings-plans/aws_compute_savings_plan_eu-west-1_trimmed_ligoj.json"


def slots(found) -> dict[tuple[str, int], object]:
    return {(a.group, a.years): a for a in found}


def test_c5_4xlarge_has_its_reservations_and_spot_and_no_savings_plan_said():
    load_default_catalog()
    frame = catalog_frame(dt.date(2026, 11, 30))
    got = slots(alternatives(frame, "aws-c5.4xlarge-us-east-1-on-demand"))
    assert got[("reserved", 1)].slug == "aws-c5.4xlarge-us-east-1-reserved-1y"
    assert got[("reserved", 1)].effective_hourly == pytest.approx(0.428)
    assert got[("reserved", 3)].slug == "aws-c5.4xlarge-us-east-1-reserved-3y"
    assert got[("spot", 0)].slug == "aws-c5.4xlarge-spot"  # keyed without a region
    for years in (1, 3):
        missing = got[("savings_plan", years)]
        assert (missing.slug, missing.effective_hourly) == (None, None)
        assert plain(missing.missing) == (
            f"No {years}-year savings plan price for c5.4xlarge in the catalog: no rate is made up."
        )


def test_c1_medium_eu_west_1_gets_the_samples_savings_plan(settings, tmp_path):
    settings.CATALOG_FEED_DIR = tmp_path
    aws, _ = Provider.objects.get_or_create(name="AWS")
    tier = Tier.objects.create(provider=aws, slug="aws-c1.medium-eu-west-1-on-demand",
                               name="c1.medium", region="eu-west-1", pricing_model="on_demand",
                               kind="cloud_vm", vcpus=2, ram_gib=Decimal("1.7"))  # fmt: skip
    Price.objects.create(tier=tier, amount=Decimal("0.148"), unit="hour", currency="USD",
                         effective_from=dt.date(2017, 5, 1), source="ligoj A4 line 8")  # fmt: skip
    assert sync_source("aws-savings-plans", ["eu-west-1"], file=sample(SP))[0].status == "imported"
    got = slots(alternatives(catalog_frame(dt.date(2026, 11, 30)), tier.slug))
    one = got[("savings_plan", 1)]
    assert one.slug == "aws-c1.medium-eu-west-1-savings-plan-compute-1y-all-upfront"
    # all upfront 858.48 over 8,760 hours: the sample's rate 0.098 per hour
    assert one.effective_hourly == pytest.approx(0.098)
    assert got[("savings_plan", 3)].slug is None
    assert "3-year savings plan" in plain(got[("savings_plan", 3)].missing)
    assert got[("reserved", 1)].slug is None and got[("spot", 0)].slug is None


def test_a_dedicated_tier_has_no_cloud_alternatives():
    load_default_catalog()
    frame = catalog_frame(dt.date(2026, 11, 30))
    dedicated = frame.loc[frame["kind"] == "dedicated", "slug"].iloc[0]
    assert alternatives(frame, dedicated) == []
    assert alternatives(frame, "no-such-tier") == []
