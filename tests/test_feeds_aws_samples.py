"""The AWS importer on the genuine samples in ../shared/reference/feeds (README there).

A1 and A2 are cuts of the real us-east-1 EC2 offer file of 2020-07-09 (JSON), A3 the
2025 region index, A4 a spreadsheet-mangled CSV fixture with deliberately corrupted
lines, A5 a genuine CSV offer file of another service. Skipped where the folder is
absent, failing under CI=true.
"""

import datetime as dt
from decimal import Decimal

import pytest

from catalog.feeds import aws
from catalog.feeds.sync import sync_source
from catalog.models import FeedImport, Price, Tier
from common.messages import Message, plain
from tests.support.feeds import catalog_state, sample

pytestmark = pytest.mark.django_db

A1 = "aws/ec2-us-east-1-20200709-first300.json"
A2 = "aws/ec2-us-east-1-20200709-selected.json"
A3 = "aws/region_index-AmazonEC2-20250523.json"
A4 = "aws/ligoj-test-ec2-eu-west-1-index.csv"
A5 = "aws/comprehend-ap-south-1-20260116160258.csv"


def texts(result: FeedImport) -> list[str]:
    return [plain(Message.from_json(m)) for m in result.messages]


def price(slug: str) -> Price:
    return Price.objects.select_related("tier").get(tier__slug=slug)


def test_a2_imports_each_linux_shared_type_on_demand_and_in_twelve_reservations():
    """Checked by hand in A2 (line numbers of the file):

    - c5.4xlarge, SKU QW4FHUGEZYB74TW8: on demand "$0.68 per On Demand Linux c5.4xlarge
      Instance Hour" (line 14112, 0.6800000000); 1yr standard Partial Upfront
      (HU7G6KETJZ): upfront 1787, hourly 0.2040000000 (lines 30635, 30646); 3yr
      convertible No Upfront (Z2E3P23VKM): 0.3280000000 (line 30376). Specs: vcpu 16,
      memory "32 GiB", "Intel AVX; Intel AVX2; Intel AVX512; Intel Turbo".
    - p3.2xlarge, SKU 6AUAERFUWRVM7MMK: $3.06 on demand (line 12558); vcpu 8, "61 GiB",
      gpu "1", "Intel Xeon E5-2686 v4 (Broadwell)", no AVX512 (line 2411).
    - 5 instance types pass the Linux/Shared filter, each with 12 reservations: 65 tiers.
    """
    result = sync_source("aws", ["us-east-1"], file=sample(A2))[0]
    assert result.status == "imported" and result.version == "20200709223013"
    assert (result.records, result.new_tiers, result.retired, result.refused_rows) == (65, 65, 0, 0)
    assert "AWS spot prices are not in the Price List bulk feed" in texts(result)[0]

    on_demand = price("aws-c5.4xlarge-us-east-1-on-demand")
    assert on_demand.amount == Decimal("0.68") and on_demand.unit == "hour"
    assert on_demand.effective_from == dt.date(2020, 7, 9)  # publicationDate
    assert on_demand.source_key == "QW4FHUGEZYB74TW8.JRTCKXETXF"
    assert on_demand.source_version == "20200709223013"
    assert on_demand.confirmed and on_demand.vat_included is False
    tier = on_demand.tier
    assert (tier.vcpus, tier.ram_gib, tier.gpus, tier.kind) == (16, Decimal(32), 0, "cloud_vm")
    assert "avx512" in tier.cpu_flags.split()

    partial = price("aws-c5.4xlarge-us-east-1-reserved-1y-partial-upfront")
    assert (partial.amount, partial.setup_fee) == (Decimal("0.204"), Decimal(1787))
    assert partial.tier.min_term_months == 12
    assert partial.tier.pricing_model == "reserved_1y_partial_upfront"
    convertible = price("aws-c5.4xlarge-us-east-1-reserved-3y-convertible-no-upfront")
    assert (convertible.amount, convertible.setup_fee) == (Decimal("0.328"), Decimal(0))
    assert convertible.tier.min_term_months == 36

    gpu = price("aws-p3.2xlarge-us-east-1-on-demand")
    assert gpu.amount == Decimal("3.06")
    assert (gpu.tier.kind, gpu.tier.gpus, gpu.tier.vcpus, gpu.tier.ram_gib) == (
        "cloud_gpu",
        1,
        8,
        Decimal(61),
    )
    assert gpu.tier.cpu_model == "Intel Xeon E5-2686 v4 (Broadwell)"
    assert "avx512" not in gpu.tier.cpu_flags.split()
    assert Tier.objects.filter(slug__startswith="aws-").count() == 65


def test_a1_imports_the_six_types_of_the_first_300_products():
    """A1's first 300 products hold six Linux/Shared/Used types (c5d.9xlarge, m5dn.24xlarge,
    m6g.large, m5.xlarge, a1.metal, t3.large), each with 12 reservations: 78 tiers.
    m5.xlarge: "$0.192 per On Demand Linux m5.xlarge Instance Hour"; t3.large: $0.0832;
    a1.metal is a "Compute Instance (bare metal)"-style metal size kept like the others."""
    result = sync_source("aws", ["us-east-1"], file=sample(A1))[0]
    assert (result.status, result.new_tiers) == ("imported", 78)
    assert price("aws-m5.xlarge-us-east-1-on-demand").amount == Decimal("0.192")
    assert price("aws-t3.large-us-east-1-on-demand").amount == Decimal("0.0832")
    names = set(Tier.objects.values_list("name", flat=True))
    assert names == {"c5d.9xlarge", "m5dn.24xlarge", "m6g.large", "m5.xlarge", "a1.metal",
                     "t3.large"}  # fmt: skip


def test_a1_then_a2_retires_what_the_later_complete_file_no_longer_lists():
    sync_source("aws", ["us-east-1"], file=sample(A1))
    result = sync_source("aws", ["us-east-1"], file=sample(A2))[0]
    assert (result.new_tiers, result.retired) == (65, 78)
    assert Tier.objects.filter(retired=True).count() == 78
    assert Price.objects.filter(tier__retired=True).count() == 78  # kept, never deleted


def test_a3_region_index_names_each_regions_current_file():
    """A3 (2025-05-23) lists 101 regions; us-east-1's currentVersionUrl is
    /offers/v1.0/aws/AmazonEC2/20250523232744/us-east-1/index.json."""
    regions = aws.region_index(sample(A3))
    assert len(regions) == 101
    assert regions["us-east-1"] == (
        "https://pricing.us-east-1.amazonaws.com"
        "/offers/v1.0/aws/AmazonEC2/20250523232744/us-east-1/index.json"
    )
    assert {"eu-central-1", "us-east-1"} <= set(regions)  # the default region set exists


def test_a4_is_refused_naming_its_corrupted_lines_and_nothing_changes():
    """A4's fake preamble, line 7 ("INVALID"), rows 8-104 short of the 83-column header
    (78 fields; 75 on the invented HOST lines 26-28), among them the corrupted 9, 12
    ("3 yr"), 17 ("AllUpfront"), 95, 96 (t9 types) and 98, and 113 ("INVALID_TYPE____",
    not an AWS SKU) are all named; the genuine 2021 EBS lines 106-112 are not."""
    before = catalog_state()
    result = sync_source("aws", ["eu-west-1"], file=sample(A4))[0]
    assert result.status == "refused"
    problems = texts(result)
    assert problems[0].startswith("Lines 1 to 5 are not the price list's metadata lines")
    assert "Line 7 has 1 field; the header has 83." in problems
    for line in (8, 9, 12, 17, 95, 96, 98):
        assert f"Line {line} has 78 fields; the header has 83." in problems
    for line in (26, 27, 28):  # the invented Dedicated Host lines are shorter still
        assert f"Line {line} has 75 fields; the header has 83." in problems
    assert "Line 113, column SKU: INVALID_TYPE____ is not a value this feed may hold." in problems
    assert not any(p.startswith(("Line 106", "Line 112")) for p in problems)  # genuine rows
    assert catalog_state() == before


def test_a5_is_refused_as_the_offer_file_of_another_service():
    before = catalog_state()
    result = sync_source("aws", ["ap-south-1"], file=sample(A5))[0]
    assert result.status == "refused"
    assert texts(result) == ["This is the offer file of comprehend, not of AmazonEC2."]
    assert catalog_state() == before
