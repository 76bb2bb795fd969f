"""RHEL, SUSE and Windows prices for AWS and Azure, each its own tiers (issue 28): only
when configured (CATALOG_FEED_OPERATING_SYSTEMS; Linux by default), on the genuine A2 and
Z2 samples."""

from __future__ import annotations

from decimal import Decimal

import pytest

from catalog.feeds.sync import sync_source
from catalog.models import Price, Tier
from tests.support.feeds import sample

pytestmark = pytest.mark.django_db

A2 = "aws/ec2-us-east-1-20200709-selected.json"
Z2 = "azure/retail-eastus-Standard_D2s_v3-nofilter.json"
ALL = ("linux", "rhel", "suse", "windows")


def test_by_default_aws_imports_linux_only():
    assert sync_source("aws", ["us-east-1"], file=sample(A2))[0].new_tiers == 65
    assert set(Tier.objects.values_list("operating_system", flat=True)) == {"linux"}


def test_asked_for_aws_imports_each_system_as_its_own_tiers(settings):
    """A2: five instance types, each Linux, RHEL, SUSE and Windows (licence in the
    price; the four "Bring your own license" Windows products are left out)."""
    settings.CATALOG_FEED_OPERATING_SYSTEMS = ALL
    result = sync_source("aws", ["us-east-1"], file=sample(A2))[0]
    assert result.status == "imported"
    counts = {name: Tier.objects.filter(operating_system=name, pricing_model="on_demand").count()
              for name in ALL}  # fmt: skip
    assert counts == {"linux": 5, "rhel": 5, "suse": 5, "windows": 5}
    linux = Price.objects.get(tier__slug="aws-c5.4xlarge-us-east-1-on-demand")
    windows = Price.objects.get(tier__slug="aws-c5.4xlarge-us-east-1-on-demand-windows")
    assert linux.amount == Decimal("0.68") and windows.amount > linux.amount
    assert windows.tier.vcpus == linux.tier.vcpus == 16


def test_asked_for_azure_imports_windows_beside_linux(settings):
    settings.CATALOG_FEED_OPERATING_SYSTEMS = ("linux", "windows")
    result = sync_source("azure", ["eastus"], file=sample(Z2))[0]
    assert result.status == "imported"
    slugs = set(Tier.objects.values_list("slug", flat=True))
    assert "azure-standard-d2s-v3-eastus-on-demand" in slugs
    assert "azure-standard-d2s-v3-eastus-on-demand-windows" in slugs
    windows = Tier.objects.get(slug="azure-standard-d2s-v3-eastus-on-demand-windows")
    assert windows.operating_system == "windows" and windows.vcpus == 2


def test_the_csv_form_screened_in_blocks_gives_every_system_as_line_by_line(
    settings, tmp_path, monkeypatch
):
    """The CSV screen's needles leave the system's columns out when several are asked for."""
    from bench import aws_offer_synth
    from catalog.feeds import aws

    settings.CATALOG_FEED_OPERATING_SYSTEMS = ALL
    path = tmp_path / "offer.csv"
    aws_offer_synth.write_csv(path, 4)
    screened = list(aws._CsvOffer(path, "us-east-1", None).records())
    monkeypatch.setattr(aws, "_block_pattern", lambda columns: None)
    assert list(aws._CsvOffer(path, "us-east-1", None).records()) == screened
    systems = {p.tier["operating_system"] for p in screened}
    assert systems == set(ALL)
    assert any(p.slug.endswith("-on-demand-rhel") for p in screened)
