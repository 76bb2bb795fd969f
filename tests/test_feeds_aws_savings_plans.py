"""AWS Savings Plans as a feed source: the trimmed real eu-west-1 file and region index from
../shared/reference/feeds/savings-plans/, and files GENERATED here in the layout its README
describes (us-west-2, joined to the EC2 fixture's tiers), for the options the sample lacks.
"""

from __future__ import annotations

import copy
import datetime as dt
import json
from decimal import Decimal
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from catalog.feeds import aws_savings_plans as sp
from catalog.feeds.sync import sync_source
from catalog.models import FeedImport, Price, Provider, Tier
from common.messages import Message, plain
from tests.support.feeds import AWS_JSON, catalog_state, sample

pytestmark = pytest.mark.django_db

REGION_FILE = "savings-plans/aws_compute_savings_plan_eu-west-1_trimmed_ligoj.json"
INDEX_FILE = "savings-plans/aws_compute_savings_plan_region_index_trimmed_ligoj.json"
C1 = "aws-c1.medium-eu-west-1-savings-plan-compute-1y-all-upfront"


@pytest.fixture(autouse=True)
def downloads(settings, tmp_path):
    settings.CATALOG_FEED_BACKOFF_SECONDS = 0
    settings.CATALOG_FEED_DIR = tmp_path / "downloads"


def texts(result: FeedImport) -> list[str]:
    return [plain(Message.from_json(m)) for m in result.messages]


def c1_medium_on_demand() -> Tier:
    """The EC2 tier the sample's rates join: c1.medium in eu-west-1, Linux, shared, as the
    ligoj EC2 CSV (A4, line 8: SKU HB5V2X8TXQUTDZBV, 2 vCPUs, 1.7 GiB, $0.148/h) gives it.
    Entered here because A4 itself is a deliberately corrupted file the EC2 feed refuses."""
    aws, _ = Provider.objects.get_or_create(name="AWS")
    tier = Tier.objects.create(provider=aws, slug="aws-c1.medium-eu-west-1-on-demand",
                               name="c1.medium", region="eu-west-1", pricing_model="on_demand",
                               kind="cloud_vm", vcpus=2, ram_gib=Decimal("1.7"))  # fmt: skip
    Price.objects.create(tier=tier, amount=Decimal("0.148"), unit="hour", currency="USD",
                         effective_from=dt.date(2017, 5, 1), source="ligoj A4 line 8")  # fmt: skip
    return tier


def import_sample(path: Path | None = None) -> FeedImport:
    return sync_source("aws-savings-plans", ["eu-west-1"], file=path or sample(REGION_FILE))[0]


# The real sample --------------------------------------------------------------------------


def test_the_c1_medium_rate_of_the_sample_becomes_a_compute_savings_plan_tier():
    c1_medium_on_demand()
    result = import_sample()
    assert result.status == FeedImport.Status.IMPORTED, texts(result)
    assert result.version == "20200220220300"
    tier = Tier.objects.get(slug=C1)
    assert (tier.name, tier.region, tier.pricing_model) == (
        "c1.medium", "eu-west-1", "savings_plan_compute_1y_all_upfront",
    )  # fmt: skip
    assert (tier.vcpus, tier.ram_gib, tier.min_term_months) == (2, Decimal("1.70"), 12)
    (price,) = tier.prices.all()
    # discountedRate.price "0.098" for EUW1-BoxUsage:c1.medium, all upfront: the whole year
    # as the set-up fee (0.098 x 8,760 = 858.48), nothing per hour.
    assert (price.amount, price.setup_fee, price.currency) == (Decimal(0), Decimal("858.48"), "USD")
    assert price.effective_from == dt.date(2020, 2, 20)
    assert price.source_key == "8GU23DFTKP2N43SD.29QDFBY626457QNP"
    assert any("names no operation" in t for t in texts(result))


def test_no_rate_in_the_file_means_no_savings_plan_tier():
    """The sample's EC2 Instance plan prices only dedicated and unused usage of c1 and its
    3-year Compute plan only Fargate and Lambda: none of them becomes a tier."""
    c1_medium_on_demand()
    import_sample()
    savings = set(Tier.objects.filter(pricing_model__startswith="savings_plan").values_list(
        "slug", flat=True))  # fmt: skip
    assert savings == {C1}


def test_rates_without_an_ec2_tier_in_the_catalog_are_left_out_not_made_up():
    before = catalog_state()
    result = import_sample()
    assert result.status == FeedImport.Status.REFUSED
    assert "no prices or rates" in " ".join(texts(result))
    assert catalog_state() == before


def test_the_region_index_names_each_regions_file(settings):
    settings.CATALOG_FEED_AWS_BASE_URL = "https://pricing.us-east-1.amazonaws.com"
    urls = sp.region_index(sample(INDEX_FILE))
    assert urls["eu-west-1"] == (
        "https://pricing.us-east-1.amazonaws.com"
        "/savingsPlan/v1.0/aws/AWSComputeSavingsPlan/current/eu-west-1/index.json"
    )
    assert len(urls) == 3


def test_sync_reads_the_index_then_the_regions_file(httpserver, settings):
    c1_medium_on_demand()
    settings.CATALOG_FEED_AWS_BASE_URL = httpserver.url_for("").rstrip("/")
    httpserver.expect_request(sp.INDEX_PATH).respond_with_data(
        sample(INDEX_FILE).read_bytes(), content_type="application/json"
    )
    httpserver.expect_request(
        "/savingsPlan/v1.0/aws/AWSComputeSavingsPlan/current/eu-west-1/index.json"
    ).respond_with_data(sample(REGION_FILE).read_bytes(), content_type="application/json")
    (result,) = sync_source("aws-savings-plans", ["eu-west-1"])
    assert result.status == FeedImport.Status.IMPORTED, texts(result)
    assert Tier.objects.filter(slug=C1).exists()
    (refused,) = sync_source("aws-savings-plans", ["ap-south-7"])
    assert refused.status == FeedImport.Status.REFUSED


# Drift: refused, nothing changed -------------------------------------------------------------


def drifted(tmp_path: Path, change) -> Path:
    document = json.loads(sample(REGION_FILE).read_text())
    change(document)
    path = tmp_path / "drifted.json"
    path.write_text(json.dumps(document, indent=2))
    return path


def rename_rate_price(document):
    rate = document["terms"]["savingsPlan"][1]["rates"][0]
    rate["discountRate"] = rate.pop("discountedRate")


def drop_rate_price(document):
    del document["terms"]["savingsPlan"][1]["rates"][0]["discountedRate"]["price"]


def drop_term(document):
    del document["terms"]["savingsPlan"][0]


def rename_usage_type(document):
    for rate in document["terms"]["savingsPlan"][2]["rates"]:
        rate["usageType"] = rate.pop("discountedUsageType")


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (rename_rate_price, "discountedRate"),
        (drop_rate_price, "discountedRate.price"),
        (drop_term, "terms.savingsPlan"),
        (rename_usage_type, "discountedUsageType"),
    ],
)
def test_a_drifted_file_is_refused_and_changes_nothing(tmp_path, change, said):
    c1_medium_on_demand()
    before = catalog_state()
    result = import_sample(drifted(tmp_path, change))
    assert result.status == FeedImport.Status.REFUSED
    assert said in " ".join(texts(result))
    assert catalog_state() == before


def test_a_truncated_file_is_refused_and_changes_nothing(tmp_path):
    c1_medium_on_demand()
    before = catalog_state()
    text = sample(REGION_FILE).read_bytes()
    cut = tmp_path / "cut.json"
    cut.write_bytes(text[: len(text) * 2 // 3])
    result = import_sample(cut)
    assert result.status == FeedImport.Status.REFUSED
    assert "Not valid JSON" in " ".join(texts(result))
    assert catalog_state() == before


# Generated files (us-west-2), every plan and option --------------------------------------------

GENERATED_RATE = Decimal("0.0613")  # made up for the fixture, not an AWS price


def generated_file(tmp_path: Path, options: list[tuple[str, str, str]]) -> Path:
    """GENERATED in the README's layout: one product and term per (family, term, option),
    each with a rate for USW2-BoxUsage:m6i.large RunInstances (the EC2 fixture's Linux
    type) and one for its Windows operation (left out)."""
    products, terms = [], []
    for index, (family, term, option) in enumerate(options):
        sku = f"GENERATEDSKU{index:04d}"
        products.append({"sku": sku, "productFamily": family, "serviceCode": "ComputeSavingsPlans",
                         "usageType": f"ComputeSP:{term}{option.replace(' ', '')}", "operation": "",
                         "attributes": {"purchaseOption": option, "purchaseTerm": term,
                                        "location": "Any"}})  # fmt: skip
        rates = [
            {"discountedSku": "8D49XP354UEYTHGM", "discountedServiceCode": "AmazonEC2",
             "discountedUsageType": "USW2-BoxUsage:m6i.large", "discountedOperation": operation,
             "rateCode": f"{sku}.{suffix}", "unit": "Hrs",
             "discountedRate": {"price": str(price), "currency": "USD"}}
            for operation, suffix, price in (("RunInstances", "LINUX0000000000", GENERATED_RATE),
                                             ("RunInstances:0002", "WINDOWS00000000", Decimal(1)))
        ]  # fmt: skip
        terms.append({"sku": sku, "description": "generated",
                      "leaseContractLength": {"duration": int(term[0]), "unit": "year"},
                      "rates": rates})  # fmt: skip
    document = {"version": "20260401000000", "publicationDate": "2026-04-01T00:00:00Z",
                "products": products, "terms": {"savingsPlan": terms}}  # fmt: skip
    path = tmp_path / "generated-us-west-2.json"
    path.write_text(json.dumps(document, indent=2))
    return path


ALL_OPTIONS = [(family, term, option)
               for family in ("ComputeSavingsPlans", "EC2InstanceSavingsPlans")
               for term in ("1yr", "3yr")
               for option in ("No Upfront", "Partial Upfront", "All Upfront")]  # fmt: skip


def import_generated(tmp_path: Path, options=ALL_OPTIONS) -> FeedImport:
    ec2 = sync_source("aws", ["us-west-2"], file=AWS_JSON)[0]
    assert ec2.status == FeedImport.Status.IMPORTED
    return sync_source("aws-savings-plans", ["us-west-2"], file=generated_file(tmp_path, options))[
        0
    ]


def test_every_plan_term_and_payment_option_is_a_pricing_model_with_its_fee_and_term(tmp_path):
    result = import_generated(tmp_path)
    assert result.status == FeedImport.Status.IMPORTED, texts(result)
    tiers = Tier.objects.filter(pricing_model__startswith="savings_plan").order_by("slug")
    assert tiers.count() == 12  # 2 plans x 2 terms x 3 options; Windows left out, g5 has no rate
    on_demand = Tier.objects.get(slug="aws-m6i.large-us-west-2-on-demand")
    for tier in tiers:
        price = tier.prices.get()
        years = 3 if "-3y-" in tier.slug else 1
        assert tier.min_term_months == 12 * years
        assert (tier.vcpus, tier.ram_gib, tier.cpu_model) == (
            on_demand.vcpus, on_demand.ram_gib, on_demand.cpu_model,
        )  # fmt: skip
        # set-up fee spread over the term + hourly = the rate, to the cent of the fee
        effective = price.amount + price.setup_fee / (8760 * years)
        assert abs(effective - GENERATED_RATE) < Decimal("0.000001")
    hourly = {t.pricing_model: t.prices.get() for t in tiers}
    assert hourly["savings_plan_compute_1y_no_upfront"].amount == GENERATED_RATE
    assert hourly["savings_plan_compute_1y_no_upfront"].setup_fee == 0
    assert hourly["savings_plan_instance_3y_all_upfront"].amount == 0
    assert hourly["savings_plan_instance_3y_all_upfront"].setup_fee == Decimal("1610.96")
    assert hourly["savings_plan_compute_1y_partial_upfront"].amount == Decimal("0.030650")
    assert hourly["savings_plan_compute_1y_partial_upfront"].setup_fee == Decimal("268.49")


def test_an_ec2_sync_does_not_retire_the_savings_plans_and_a_plan_gone_is_retired(
    tmp_path, settings
):
    settings.CATALOG_FEED_MAX_DROP = 0.6  # the second file lists half the plans
    import_generated(tmp_path)
    document = json.loads(AWS_JSON.read_text())
    changed = copy.deepcopy(document)
    changed["version"] = "changed"
    again = tmp_path / "ec2-again.json"
    again.write_text(json.dumps(changed, indent=2))
    assert sync_source("aws", ["us-west-2"], file=again)[0].status == FeedImport.Status.IMPORTED
    assert not Tier.objects.filter(pricing_model__startswith="savings_plan", retired=True).exists()
    fewer = generated_file(tmp_path, ALL_OPTIONS[:6])
    result = sync_source("aws-savings-plans", ["us-west-2"], file=fewer)[0]
    assert result.retired == 6, texts(result)
    assert Tier.objects.get(slug="aws-m6i.large-us-west-2-on-demand").retired is False


def test_the_command_imports_the_sample_and_says_what_it_left_out(tmp_path):
    c1_medium_on_demand()
    out = StringIO()
    call_command("sync_prices", "aws-savings-plans", "--region", "eu-west-1",
                 "--file", str(sample(REGION_FILE)), stdout=out)  # fmt: skip
    text = out.getvalue()
    assert "aws-savings-plans eu-west-1: imported (version 20200220220300)" in text
    assert "new tiers: 1" in text
    assert "1 Savings Plan rate names no operation" in text
    (price,) = Tier.objects.get(slug=C1).prices.all()
    # the file's discountedRate "0.098" a c1.medium hour, all upfront: 0.098 x 8,760 = 858.48
    assert (price.amount, price.setup_fee, price.currency) == (Decimal(0), Decimal("858.48"), "USD")
    assert price.source_key == "8GU23DFTKP2N43SD.29QDFBY626457QNP"


@pytest.mark.parametrize(
    ("index", "said"),
    [
        (lambda text: text.replace(b'"versionUrl"', b'"currentVersionUrl"'), "region index"),
        (lambda text: text[: len(text) // 2], "region index"),
    ],
    ids=["renamed-field", "truncated"],
)
def test_a_drifted_or_truncated_region_index_is_refused_and_changes_nothing(
    httpserver, settings, index, said
):
    """The region index is the feed's first page: drifted (a renamed field) or cut short,
    the sync is refused, the region's file is never read, and nothing changes."""
    c1_medium_on_demand()
    before = catalog_state()
    settings.CATALOG_FEED_AWS_BASE_URL = httpserver.url_for("").rstrip("/")
    httpserver.expect_request(sp.INDEX_PATH).respond_with_data(
        index(sample(INDEX_FILE).read_bytes()), content_type="application/json"
    )
    (result,) = sync_source("aws-savings-plans", ["eu-west-1"])
    assert result.status == FeedImport.Status.REFUSED
    assert said in " ".join(texts(result)), texts(result)
    assert catalog_state() == before
