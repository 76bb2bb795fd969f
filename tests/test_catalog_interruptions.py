"""Spot interruption ranges from the ec2instances.info aggregator's `pct_interrupt`
buckets (issue 27, item 6), read from the reference file, and the inputs a plan's odds
draw from them."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pandas as pd
import pytest

from catalog import interruptions
from tests.support.feeds import sample

MOCK = "aggregator/ec2instances-info-mock-x2iedn.32xlarge.json"


def test_the_reference_files_linux_buckets_by_region():
    found = interruptions.read(sample(MOCK))
    assert found[("x2iedn.32xlarge", "us-east-1")] == "5-10%"
    assert set(found.values()) == {"<5%", "5-10%", "15-20%", ">20%"}
    assert len(found) == 23  # 25 regions, two without a Linux bucket


def spot_frame(*rows) -> pd.DataFrame:
    return pd.DataFrame(
        [{"slug": s, "name": n, "region": r, "provider": "AWS", "pricing_model": "spot"}
         for s, n, r in rows]
    )  # fmt: skip


def test_a_spot_tier_gets_its_regions_bucket_and_one_without_a_region_the_widest():
    found = interruptions.read(sample(MOCK))
    frame = spot_frame(("x-use1", "x2iedn.32xlarge", "us-east-1"),
                       ("x-any", "x2iedn.32xlarge", None),
                       ("c5-use1", "c5.4xlarge", "us-east-1"))  # fmt: skip
    got = interruptions.ranges_for(frame, found)
    assert got["x-use1"] == interruptions.Rate(Decimal("0.05"), Decimal("0.10"), "5-10%")
    assert got["x-any"].low == Decimal("0") and got["x-any"].high == Decimal("0.30")
    assert got["x-any"].bucket == "<5% / 5-10% / 15-20% / >20%"
    assert "c5-use1" not in got  # the file does not name it: no figure is made up


def test_an_unreadable_or_unset_file_gives_no_figures(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert interruptions.read(bad) == {} and interruptions.read(None) == {}


@pytest.mark.django_db
def test_a_catalog_spot_tier_the_file_names_gets_its_bucket_in_the_plans_inputs(
    settings, default_catalog_api
):
    """With the setting on, a spot tier of an instance and region the file names gets the
    aggregator's range; the default catalog's c5.4xlarge spot, which it does not name,
    keeps the planner's assumption (no range is made up for it)."""
    from catalog.models import Price, Provider, Tier
    from planner.compute.schema import parse_plan
    from planner.services import inputs

    settings.PLANNER_SPOT_INTERRUPTIONS_FILE = str(sample(MOCK))
    aws = Provider.objects.get(name="AWS")
    tier = Tier.objects.create(provider=aws, slug="aws-x2iedn.32xlarge-us-east-1-spot",
                               name="x2iedn.32xlarge", region="us-east-1", pricing_model="spot",
                               kind="cloud_vm", vcpus=128, ram_gib=Decimal(4096))  # fmt: skip
    Price.objects.create(tier=tier, amount=Decimal("8.5"), unit="hour", currency="USD",
                         effective_from=dt.date(2026, 11, 30), source="test row")  # fmt: skip
    plan = parse_plan({"currency": "USD",
                       "baseline": {"tier": "aws-c5.4xlarge-us-east-1-on-demand"},
                       "candidates": [{"tier": "aws-c5.4xlarge-spot", "count": 1}]})  # fmt: skip
    gathered = inputs.gather(plan, as_of=dt.date(2026, 12, 1))
    got = gathered.interruptions
    assert set(got) == {tier.slug}
    assert (got[tier.slug].low, got[tier.slug].high) == (Decimal("0.05"), Decimal("0.10"))
    assert (got[tier.slug].source, got[tier.slug].bucket) == ("aggregator", "5-10%")
    assert got[tier.slug].base == Decimal("0.10")  # the plan's allowance stays the figure
