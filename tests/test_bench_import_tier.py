"""Importing a run file asks which catalog tier the host is: suggestions by CPU model and
vCPUs when none is named, a link and a warning of the differences when one is."""

import html
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from benchmarks_app.models import Target
from catalog.defaults import load_default_catalog
from tests.support.catalog import make_tier
from tests.test_bench_run_files import epyc_run_file

pytestmark = pytest.mark.django_db
EXTREME = "inmotion-hosting-extreme-dedicated-fixed-monthly"


def upload(data: dict) -> SimpleUploadedFile:
    return SimpleUploadedFile("run.json", json.dumps(data).encode(), "application/json")


def test_without_a_tier_it_suggests_those_with_the_hosts_cpu(client, staff_user):
    load_default_catalog()
    data = epyc_run_file()  # fingerprint: AMD EPYC 4545P, 32 usable CPUs
    client.force_login(staff_user)
    response = client.post(reverse("benchmarks:import_run"), {"file": upload(data)}, follow=True)
    assert "Tiers with this host&#x27;s CPU model: " + EXTREME in response.text
    assert Target.objects.get().tier is None  # nothing linked without the importer's word


def test_a_named_tier_is_linked_and_its_differences_said(client, staff_user):
    load_default_catalog()
    make_tier("aws-c5.4xlarge-test", provider="AWS", name="c5.4xlarge", vcpus=16)
    data = epyc_run_file()
    client.force_login(staff_user)
    response = client.post(
        reverse("benchmarks:import_run"),
        {"file": upload(data), "tier": "aws-c5.4xlarge-test"},
        follow=True,
    )
    page = html.unescape(response.text)
    assert "Linked the host to tier aws-c5.4xlarge-test." in page
    # the admin link's warnings ("A manager's first hour, round two"), the tier's CPU being
    # the one public runs saw on c5.4xlarge
    assert "Target epyc has 32 CPUs but tier c5.4xlarge lists 16 vCPUs" in page
    assert ("The CPU of target epyc is AMD EPYC 4545P 16-Core Processor but tier c5.4xlarge "
            "lists Intel Xeon Platinum 8275CL") in page  # fmt: skip
    assert Target.objects.get().tier.slug == "aws-c5.4xlarge-test"


def test_an_unknown_tier_refuses_the_import_and_changes_nothing(client, staff_user):
    data = epyc_run_file()
    client.force_login(staff_user)
    response = client.post(reverse("benchmarks:import_run"), {"file": upload(data), "tier": "nope"})
    assert response.status_code == 400 and "No offered tier has the key nope." in response.text
    assert not Target.objects.exists()


def test_the_command_without_a_tier_suggests_those_with_the_hosts_cpu(tmp_path, capsys):
    load_default_catalog()
    path = tmp_path / "run.json"
    path.write_text(json.dumps(epyc_run_file()))
    call_command("import_run", str(path))
    said = capsys.readouterr().out
    assert f"tiers with this host's CPU model: {EXTREME}" in said and "--tier TIER" in said
    assert Target.objects.get().tier is None  # nothing linked without the importer's word


def test_the_command_links_the_named_tier_and_warns_of_the_differences(tmp_path, capsys):
    load_default_catalog()
    make_tier("aws-c5.4xlarge-test", provider="AWS", name="c5.4xlarge", vcpus=16)
    path = tmp_path / "run.json"
    path.write_text(json.dumps(epyc_run_file()))
    call_command("import_run", str(path), "--tier", "aws-c5.4xlarge-test")
    said = capsys.readouterr().out
    assert "linked target epyc to tier aws-c5.4xlarge-test" in said
    assert "warning: target epyc has 32 CPUs but tier c5.4xlarge lists 16 vCPUs" in said
    assert "warning: the CPU of target epyc is AMD EPYC 4545P 16-Core Processor" in said
    target = Target.objects.get()
    assert target.tier.slug == "aws-c5.4xlarge-test" and target.tier_confirmed  # a command


def test_the_command_says_when_no_tier_has_the_hosts_cpu(tmp_path, capsys):
    path = tmp_path / "run.json"
    path.write_text(json.dumps(epyc_run_file()))  # an empty catalog
    call_command("import_run", str(path))
    assert "no catalog tier has this host's CPU model" in capsys.readouterr().out
