"""Regions, zones and hosts kept apart (issue 28), on files derived at test time from the
genuine samples in ../shared/reference/feeds."""

from __future__ import annotations

import json

import pytest

from catalog.feeds.sync import sync_source
from catalog.models import FeedImport, Tier
from common.messages import Message, plain
from tests.support.feeds import A1, Z1, catalog_state, derive_json, sample

pytestmark = pytest.mark.django_db

Z5 = "azure/finfocus-cut-dsv3-dedicated-host-reservation-spaincentral.json"
ZONE = "us-east-1-bos-1"


def text(result: FeedImport) -> str:
    return " | ".join(plain(Message.from_json(m)) for m in result.messages)


def test_an_aws_file_imported_for_another_region_is_refused():
    """The 2020 file has no regionCode: its products' location names the region."""
    before = catalog_state()
    result = sync_source("aws", ["eu-west-1"], file=sample(A1))[0]
    assert result.status == FeedImport.Status.REFUSED
    assert "This offer file is for us-east-1, not for eu-west-1." in text(result)
    assert catalog_state() == before


def in_the_zone(document: dict) -> None:
    """A1's compute products moved into a Local Zone, as newer files list a zone's."""
    for product in document["products"].values():
        attributes = product["attributes"]
        if attributes.get("locationType") == "AWS Region":
            attributes.update(locationType="AWS Local Zone", regionCode=ZONE,
                              location="US East (Boston)")  # fmt: skip


def test_a_local_zone_is_refused_unless_asked_for(tmp_path):
    before = catalog_state()
    refused = sync_source("aws", [ZONE], file=sample(A1))[0]
    assert refused.status == FeedImport.Status.REFUSED
    assert f"{ZONE} is a Local or Wavelength Zone, not a Region" in text(refused)
    assert catalog_state() == before

    zone_file = derive_json(tmp_path, A1, in_the_zone)
    assert sync_source("aws", [ZONE], file=zone_file)[0].status == FeedImport.Status.REFUSED
    asked = sync_source("aws", [ZONE], file=zone_file, zones=True)[0]
    assert asked.status == FeedImport.Status.IMPORTED and asked.new_tiers > 0
    assert set(Tier.objects.values_list("region", flat=True)) == {ZONE}


def test_the_regions_own_file_imports_none_of_its_zones(tmp_path):
    """A Region's file also lists its zones' products: importing the Region keeps none."""

    def one_zone_product(document):
        sku = next(iter(document["products"]))
        document["products"][sku]["attributes"].update(
            locationType="AWS Local Zone", regionCode=ZONE, location="US East (Boston)"
        )

    result = sync_source("aws", ["us-east-1"], file=derive_json(tmp_path, A1, one_zone_product))[0]
    assert result.status == FeedImport.Status.IMPORTED
    assert set(Tier.objects.values_list("region", flat=True)) == {"us-east-1"}


def test_azure_dedicated_host_reservations_are_not_vm_tiers(tmp_path):
    """Z5's four Dsv3_Type3/Type4 host reservations, put into Z1's eastus page."""
    hosts = json.loads(sample(Z5).read_text())["Items"]

    def add_hosts(document):
        document["Items"] += [dict(item, armRegionName="eastus") for item in hosts]
        document["Count"] = len(document["Items"])

    result = sync_source("azure", ["eastus"], file=derive_json(tmp_path, Z1, add_hosts))[0]
    assert result.status == FeedImport.Status.IMPORTED
    assert "4 Dedicated Host prices were left out: a host is not a VM size." in text(result)
    assert not Tier.objects.filter(name__startswith="Dsv3_Type").exists()
    assert Tier.objects.filter(name="Standard_D2s_v3").exists()
