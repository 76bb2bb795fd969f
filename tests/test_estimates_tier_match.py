"""Importing a run asks which tier the host is: suggestions by CPU model and vCPUs, and the
differences to warn of when the importer names another."""

from estimates.tier_match import TierRow, compare, suggest

ROWS = [
    TierRow("aws-c5.4xlarge", "AWS", "c5.4xlarge", "", 16),
    TierRow("aws-c5.2xlarge", "AWS", "c5.2xlarge", "", 8),
    TierRow("aws-c7a.4xlarge", "AWS", "c7a.4xlarge", "", 16),
    TierRow("inmotion-extreme", "InMotion Hosting", "Extreme Dedicated", "AMD EPYC 4545P", 32),
]


def test_suggests_the_tiers_with_the_hosts_cpu_model_same_vcpus_first():
    found = suggest("Intel(R) Xeon(R) Platinum 8275CL CPU @ 3.00GHz", 8, ROWS)
    assert [m.slug for m in found] == ["aws-c5.2xlarge", "aws-c5.4xlarge"]
    assert found[0].same_vcpus and not found[1].same_vcpus


def test_a_dedicated_server_matches_by_its_offers_cpu():
    [found] = suggest("AMD EPYC 4545P 16-Core Processor", 32, ROWS)
    assert found.slug == "inmotion-extreme" and found.differences == ()


def test_warns_when_the_named_tier_differs():
    match = compare("AMD EPYC 4545P 16-Core Processor", 32, ROWS[0])
    assert match.differences == ("cpu_differs", "vcpus_differ")
    assert match.tier_cpu.startswith("Intel Xeon Platinum 8275CL")


def test_a_host_naming_only_a_family_gets_no_guess():
    assert suggest("AMD EPYC", 2, ROWS) == []
    assert compare("AMD EPYC", 2, ROWS[2]).differences == ("cpu_unknown", "vcpus_differ")
