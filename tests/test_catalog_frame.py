"""catalog_frame: its columns, normalised prices, staleness and a fixed query count."""

import datetime as dt
from decimal import Decimal

import pytest
from django.test import override_settings

from catalog.pricing import FRAME_COLUMNS, catalog_frame
from catalog.staleness import is_stale
from tests.support.catalog import add_price, make_tier

pytestmark = pytest.mark.django_db
AS_OF = dt.date(2026, 2, 1)


def test_it_returns_the_documented_columns_in_order():
    add_price(make_tier(), "0.68", "2026-01-19")
    frame = catalog_frame(AS_OF)
    assert list(frame.columns) == FRAME_COLUMNS
    assert frame.attrs["dropped"] == []


def test_an_empty_catalog_gives_an_empty_frame_with_the_same_columns():
    frame = catalog_frame(AS_OF)
    assert frame.empty
    assert list(frame.columns) == FRAME_COLUMNS


def test_it_reads_a_p4d_as_2_74_per_gpu_hour():
    tier = make_tier(
        "aws-p4d.24xlarge-us-east-1-on-demand",
        kind="cloud_gpu",
        vcpus=96,
        cores=None,
        ram_gib=Decimal(1152),
        gpus=8,
        gpu_model="NVIDIA A100",
    )
    add_price(tier, "21.957642", "2026-01-19")
    row = catalog_frame(AS_OF).iloc[0]
    assert round(row["per_gpu_hour"], 2) == 2.74
    assert row["monthly_exact"] == Decimal("21.957642") * 730
    assert row["monthly"] == 16029.08
    assert row["per_vcpu_hour"] == pytest.approx(21.957642 / 96)
    assert row["per_gib_hour"] == pytest.approx(21.957642 / 1152)


def test_a_monthly_price_is_normalised_through_730_hours():
    tier = make_tier(
        "inmotion-extreme",
        kind="dedicated",
        pricing_model="fixed_monthly",
        vcpus=32,
        cores=16,
        ram_gib=Decimal(192),
        gpus=0,
    )
    add_price(tier, "349.99", "2026-11-30", unit="month", confirmed=False)
    row = catalog_frame(dt.date(2026, 11, 30)).iloc[0]
    assert row["monthly"] == 349.99
    assert row["per_vcpu_hour"] == pytest.approx(349.99 / 730 / 32)
    assert not row["confirmed"]


def test_unknown_or_zero_specs_give_no_normalised_figure():
    tier = make_tier("inmotion-essential", vcpus=None, ram_gib=None, gpus=0, cores=None)
    add_price(tier, "99.99", "2026-01-01", unit="month")
    row = catalog_frame(AS_OF).iloc[0]
    assert row["per_vcpu_hour"] != row["per_vcpu_hour"]  # NaN
    assert row["per_gib_hour"] != row["per_gib_hour"]
    assert row["per_gpu_hour"] != row["per_gpu_hour"]
    assert row["vcpus"] is not None and str(row["vcpus"]) == "<NA>"


def test_it_takes_each_tiers_newest_price_on_or_before_the_date():
    tier = make_tier()
    old = add_price(tier, "0.70", "2025-04-04")
    new = add_price(tier, "0.68", "2026-01-19")
    assert catalog_frame(dt.date(2026, 1, 19)).iloc[0]["price_id"] == new.pk
    assert catalog_frame(dt.date(2026, 1, 18)).iloc[0]["price_id"] == old.pk
    assert catalog_frame(dt.date(2025, 1, 1)).empty


def test_it_leaves_out_retired_tiers_unless_asked():
    add_price(make_tier("old-tier", retired=True), "1", "2025-01-01")
    add_price(make_tier("new-tier"), "1", "2025-01-01")
    assert list(catalog_frame(AS_OF)["slug"]) == ["new-tier"]
    with_retired = catalog_frame(AS_OF, include_retired=True)
    assert list(with_retired["slug"]) == ["new-tier", "old-tier"]
    assert list(with_retired["retired"]) == [False, True]


@override_settings(
    CATALOG_STALE_AFTER_DAYS={
        "spot": 7,
        "on_demand": 180,
        "reserved_1y": 180,
        "reserved_3y": 180,
        "fixed_monthly": 365,
    }
)
def test_a_spot_price_goes_stale_after_days_and_a_list_price_after_months():
    spot = make_tier("aws-c5.4xlarge-spot", pricing_model="spot")
    listed = make_tier("aws-c5.4xlarge-on-demand")
    dedicated = make_tier("dedicated", pricing_model="fixed_monthly", kind="dedicated")
    for tier in (spot, listed, dedicated):
        add_price(tier, "1", "2026-01-01")
    stale = lambda day: dict(  # noqa: E731
        catalog_frame(day)[["slug", "stale"]].itertuples(index=False, name=None)
    )
    assert stale(dt.date(2026, 1, 8)) == {
        "aws-c5.4xlarge-spot": False,
        "aws-c5.4xlarge-on-demand": False,
        "dedicated": False,
    }
    assert stale(dt.date(2026, 1, 9))["aws-c5.4xlarge-spot"] is True
    assert stale(dt.date(2026, 6, 30))["aws-c5.4xlarge-on-demand"] is False
    assert stale(dt.date(2026, 7, 1))["aws-c5.4xlarge-on-demand"] is True
    assert stale(dt.date(2026, 7, 1))["dedicated"] is False
    assert stale(dt.date(2027, 1, 2))["dedicated"] is True
    assert is_stale("spot", dt.date(2026, 1, 1), dt.date(2026, 1, 9))


def test_it_costs_the_same_few_queries_for_3_tiers_and_for_60(django_assert_max_num_queries):
    def build(count: int, prefix: str) -> None:
        for index in range(count):
            tier = make_tier(f"{prefix}-{index}")
            add_price(tier, "1.5", "2025-01-01")
            add_price(tier, "1.4", "2026-01-01")

    build(3, "small")
    with django_assert_max_num_queries(1):
        assert len(catalog_frame(AS_OF)) == 3
    build(57, "large")
    with django_assert_max_num_queries(1):
        assert len(catalog_frame(AS_OF)) == 60
    with django_assert_max_num_queries(2):
        assert len(catalog_frame(AS_OF, "USD")) == 60
