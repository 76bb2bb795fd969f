"""A baseline from a bill: the FOCUS sample's AWS compute lines become catalog tiers,
count = hours a month ÷ 730, priced at the bill's effective cost; types with no tier listed;
the provenance names the bill, its period and its lines."""

from __future__ import annotations

from decimal import Decimal

import pytest

from bills.baseline import baseline_from_bill, hours_per_unit
from bills.models import BillLine
from bills.services.importing import import_bill
from catalog.defaults import load_default_catalog
from tests.support.bills import FOCUS, bill_sample

pytestmark = pytest.mark.django_db


def test_hours_are_read_from_each_exports_unit() -> None:
    assert hours_per_unit("Hours") == 1 and hours_per_unit("Hrs") == 1
    assert hours_per_unit("10 Hours") == 10 and hours_per_unit("1 Hour") == 1
    assert hours_per_unit("GB") is None and hours_per_unit("Seconds") is None


def test_the_focus_samples_aws_compute_lines_as_a_tier_baseline(owner) -> None:
    load_default_catalog()
    bill = import_bill(bill_sample(FOCUS), owner).bill
    aws = BillLine.objects.filter(bill=bill, provider="AWS")
    accounts = sorted(set(aws.values_list("account", flat=True)))
    baseline = baseline_from_bill(bill, accounts=accounts)
    by_type = {t.instance_type: t for t in baseline.tiers}
    assert "c5.2xlarge" in by_type
    c5 = by_type["c5.2xlarge"]
    assert c5.tier and c5.tier.startswith("aws-c5.2xlarge-")
    hours = sum(
        line.quantity
        for line in aws.filter(instance_type="c5.2xlarge", region=c5.region,
                               service_category="Compute", charge_category="Usage")
    )  # fmt: skip
    assert c5.hours_a_month == hours and c5.count == hours / 730
    cost = sum(
        line.cost
        for line in aws.filter(instance_type="c5.2xlarge", region=c5.region,
                               service_category="Compute", charge_category="Usage")
    )  # fmt: skip
    assert c5.monthly == cost  # one month: the bill's effective cost (its fallback said)
    # every compute line counted: as a tier, unmatched, or without an instance type
    total = sum(t.monthly for t in baseline.tiers + baseline.unmatched)
    assert baseline.monthly == (total + baseline.no_instance_type).quantize(Decimal("0.01"))
    assert baseline.plan_baseline() == {"monthly": str(baseline.monthly)}
    said = baseline.provenance()
    assert (said["bill"], said["sha256"], said["period_start"]) == (
        bill.pk,
        bill.sha256,
        "2024-09-01",
    )
    assert said["lines"] == baseline.lines > 0 and said["filters"] == {"accounts": accounts}


def test_instance_types_with_no_catalog_tier_are_listed_not_dropped(owner) -> None:
    bill = import_bill(bill_sample(FOCUS), owner).bill  # no catalog loaded: nothing matches
    baseline = baseline_from_bill(bill)
    assert not baseline.tiers
    assert {"c5.2xlarge", "t2.medium"} <= {t.instance_type for t in baseline.unmatched}
    assert baseline.monthly > 0


def test_the_baseline_through_the_api_names_the_bill_owner_only(owner, other_user) -> None:
    from tests.support.api import token_client

    load_default_catalog()
    bill = import_bill(bill_sample(FOCUS), owner).bill
    client = token_client(owner)[0]
    answer = client.get(f"/api/v1/bills/{bill.pk}/baseline?region=us-east-1&region=us-west-2")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    expected = baseline_from_bill(bill, regions=["us-east-1", "us-west-2"])
    assert body["baseline"] == {"monthly": str(expected.monthly)}
    said = body["provenance"]
    assert (said["bill"], said["sha256"], said["filters"]) == (
        bill.pk,
        bill.sha256,
        {"regions": ["us-east-1", "us-west-2"]},
    )
    assert {t["region"] for t in said["tiers"] + said["unmatched"]} <= {"us-east-1", "us-west-2"}
    other = token_client(other_user, "other")[0]
    assert other.get(f"/api/v1/bills/{bill.pk}/baseline").status_code == 404


def test_tags_choose_lines_with_any_of_them_and_the_other_filters_too(owner) -> None:
    """OR within the tags listed ("k=v", or "k" for any value), AND with the other choices,
    on the FOCUS sample, whose rows carry tags (application, environment, business_unit)."""
    bill = import_bill(bill_sample(FOCUS), owner).bill
    usage = BillLine.objects.filter(bill=bill, service_category="Compute",
                                     charge_category="Usage")  # fmt: skip
    with_tags = [(line.pk, set(line.tags.split(";"))) for line in usage.exclude(tags="")]
    assert with_tags
    dev, prod = "environment=dev", "environment=prod"

    def chosen(**given) -> set[int]:
        return set(baseline_from_bill(bill, **given).chosen.values_list("pk", flat=True))

    assert chosen(tags=[dev]) == {pk for pk, tags in with_tags if dev in tags}
    assert chosen(tags=[dev, prod]) == {pk for pk, tags in with_tags if tags & {dev, prod}}
    keyed = {pk for pk, tags in with_tags if any(t.startswith("environment=") for t in tags)}
    assert chosen(tags=["environment"]) == keyed
    assert chosen(tags=["environment=de"]) == set()  # a whole value, not a prefix
    aws = set(usage.filter(provider="AWS").values_list("pk", flat=True))
    assert chosen(tags=[dev], providers=["AWS"]) == chosen(tags=[dev]) & aws
    said = baseline_from_bill(bill, tags=[prod, dev]).provenance()
    assert said["filters"] == {"tags": [dev, prod]}
