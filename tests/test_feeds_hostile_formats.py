"""Files in a format a source does not read are refused saying which formats it reads
(issue 28): the aggregator samples G1-G3 in ../shared/reference/feeds, given to AWS, and
feeds given to each other."""

from __future__ import annotations

import pytest

from catalog.feeds.sync import sync_source
from catalog.models import FeedImport
from common.messages import Message, plain
from tests.support.feeds import A1, catalog_state, derive_json, sample

pytestmark = pytest.mark.django_db

G1 = "aggregator/ec2instances-info-mock-x2iedn.32xlarge.json"
G2 = "aggregator/ec2shop-us-east-1-ondemand.json"
G3 = "aggregator/ec2shop-us-east-1-reservedinstance-1y.json"
AWS_READS = "it reads the AWS Price List bulk API's AmazonEC2 offer file, JSON (index.json) or CSV"


def refusal(result: FeedImport) -> str:
    assert result.status == FeedImport.Status.REFUSED
    return " | ".join(plain(Message.from_json(m)) for m in result.messages)


@pytest.mark.parametrize(
    ("name", "found"),
    [(G2, "AWS's pricing-page JSON (meteredUnitMaps, as ec2.shop saves it)"),
     (G3, "AWS's pricing-page JSON (meteredUnitMaps, as ec2.shop saves it)"),
     (G1, "an ec2instances.info instance record")],
)  # fmt: skip
def test_aggregator_files_given_to_aws_name_what_aws_reads(name, found):
    before = catalog_state()
    text = refusal(sync_source("aws", ["us-east-1"], file=sample(name))[0])
    assert text.startswith(f"This file is {found}, not a format the aws feed reads: {AWS_READS}")
    assert "required keys are missing" not in text
    assert catalog_state() == before


def test_ec2instances_infos_array_given_to_aws_names_what_aws_reads(tmp_path):
    """instances.json itself is an array of such records."""
    path = tmp_path / "instances.json"
    path.write_text("[" + sample(G1).read_text() + "]")
    text = refusal(sync_source("aws", ["us-east-1"], file=path)[0])
    assert text.startswith("This file is a JSON array (as ec2instances.info's instances.json)")


def test_other_feeds_given_an_aggregator_file_name_their_formats(tmp_path):
    ovh = refusal(sync_source("ovh", ["FR"], file=sample(G2))[0])
    assert "not a format the ovh feed reads: it reads OVHcloud's public order catalogue" in ovh
    azure = refusal(sync_source("azure", ["eastus"], file=sample(G1))[0])
    assert "not a format the azure feed reads: it reads the Azure Retail Prices API" in azure


def test_an_offer_file_that_lost_one_header_key_is_still_a_changed_format(tmp_path):
    path = derive_json(tmp_path, A1, lambda d: d.pop("formatVersion"))
    text = refusal(sync_source("aws", ["us-east-1"], file=path)[0])
    assert "required keys are missing: formatVersion" in text
