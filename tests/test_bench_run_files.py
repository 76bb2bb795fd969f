"""Runs export and import as JSON with their fingerprint and profile content, so a
run measured on another host shows up here labelled with that host."""

import copy
import json
import uuid

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from benchmarks_app.models import Measurement, Profile, ProfileVersion, Run, Target
from benchmarks_app.run_files import ImportRefused, export_run, import_run
from benchmarks_app.selectors import best_measurement
from tests.support.bench import finished_run, target, version

pytestmark = pytest.mark.django_db
EPYC = {"hostname": "epyc-4545p.example", "cpu_model": "AMD EPYC 4545P 16-Core Processor",
        "usable_cpus": 32, "physical_cores": 16, "hardware_threads": 32}  # fmt: skip


def epyc_run_file() -> dict:
    """A run as exported by an installation on a 16-core EPYC, then removed here."""
    tgt = target("epyc", **EPYC)
    run = finished_run(version(), tgt, {1: 100.0, 2: 195.0, 4: 380.0, 8: 700.0})
    Measurement.objects.create(run=run, threads=1, repetition=0, value=100.0, seconds=1.2)
    data = export_run(run)
    run.delete()
    tgt.delete()
    ProfileVersion.objects.all().delete()
    Profile.objects.all().delete()
    return json.loads(json.dumps(data))


def test_an_exported_run_carries_its_fingerprint_profile_summaries_and_measurements():
    data = epyc_run_file()
    assert (data["format"], data["version"]) == ("planner-run", 1)
    assert data["target"] == {"name": "epyc", "hostname": EPYC["hostname"],
                              "fingerprint": data["run"]["fingerprint"]}  # fmt: skip
    assert data["run"]["fingerprint"]["cpu_model"] == EPYC["cpu_model"]
    assert data["profile"]["content"]["name"] == "toy-gbm"
    assert data["profile"]["content_hash"] == data["run"]["content_hash"]
    assert [s["threads"] for s in data["summaries"]] == [1, 2, 4, 8]
    assert data["measurements"] == [
        {"threads": 1, "repetition": 0, "warmup": False, "value": 100.0, "seconds": 1.2}
    ]


def test_a_run_from_another_host_imports_labelled_with_that_host_and_sizes_plans():
    data = epyc_run_file()
    run = import_run(data)
    assert str(run.pk) == data["run"]["id"] and run.imported
    assert run.source_host == EPYC["hostname"] and run.status == "succeeded"
    assert run.target.name == "epyc" and run.target.imported and not run.target.online
    assert run.profile_version.source == "imported"
    assert run.profile_version.content_hash == data["profile"]["content_hash"]
    assert [s.median for s in run.summaries.all()] == [100.0, 195.0, 380.0, 700.0]
    assert run.measurements.count() == 1
    best = best_measurement("gbm", run.target, 8)
    assert best.measured and best.value == 700.0 and best.cpu_model == EPYC["cpu_model"]


def test_an_import_reuses_a_known_profile_version_and_keeps_apart_a_same_named_other_host():
    data = epyc_run_file()
    local = target("epyc", hostname="a-laptop")  # a different machine with the same node name
    known = version()
    run = import_run(data)
    assert run.profile_version == known
    assert run.target != local and run.target.name == "epyc@epyc-4545p.example"


def test_it_refuses_a_run_it_already_has():
    data = epyc_run_file()
    import_run(copy.deepcopy(data))
    with pytest.raises(ImportRefused, match="already here"):
        import_run(data)
    assert Run.objects.count() == 1


def test_it_refuses_content_that_does_not_match_its_hash_and_changes_nothing():
    data = epyc_run_file()
    data["profile"]["content"]["params"]["trees"] = 1  # edited after export
    with pytest.raises(ImportRefused, match="does not match its hash"):
        import_run(data)
    assert not Run.objects.exists() and not Target.objects.exists()


def test_it_refuses_malformed_files_with_reasons():
    data = epyc_run_file()
    with pytest.raises(ImportRefused, match="not a run file"):
        import_run({"format": "something-else"})
    broken = copy.deepcopy(data)
    broken["summaries"][0]["median"] = "fast"
    broken["run"]["status"] = "running"
    with pytest.raises(ImportRefused) as refused:
        import_run(broken)
    assert "only ended runs" in str(refused.value) and "finite numbers" in str(refused.value)


def test_a_running_run_cannot_be_exported():
    run = finished_run(version(), target(), {}, status="running")
    with pytest.raises(ValueError, match="still running"):
        export_run(run)


def test_the_commands_export_and_import_a_run(tmp_path, capsys):
    tgt = target("epyc", **EPYC)
    run = finished_run(version(), tgt, {1: 100.0})
    path = tmp_path / "run.json"
    call_command("export_run", str(run.pk), str(path))
    run_id = run.pk
    run.delete()
    call_command("import_run", str(path))
    assert "measured on epyc-4545p.example" in capsys.readouterr().out
    assert Run.objects.get(pk=run_id).imported
    with pytest.raises(CommandError, match="already here"):
        call_command("import_run", str(path))
    with pytest.raises(CommandError, match="no run"):
        call_command("export_run", str(uuid.uuid4()), str(path))


def test_staff_import_a_run_file_from_the_page_and_see_its_host(client, staff_user):
    data = epyc_run_file()
    upload = SimpleUploadedFile("run.json", json.dumps(data).encode(), "application/json")
    # Signed out: the login page, nothing imported (any signed-in user may import: a
    # manager's run sizes their own plans until staff confirm, test_bench_imported_runs_whose)
    assert "/accounts/login/" in client.post(reverse("benchmarks:import_run"),
                                             {"file": upload})["Location"]  # fmt: skip
    assert not Run.objects.exists()
    client.force_login(staff_user)
    upload.seek(0)
    response = client.post(reverse("benchmarks:import_run"), {"file": upload}, follow=True)
    assert response.status_code == 200
    assert "Imported run, measured on host epyc-4545p.example." in response.text
    assert "imported from epyc-4545p.example" in client.get(reverse("benchmarks:index")).text

    bad = SimpleUploadedFile("run.json", b"{nope", "application/json")
    refused = client.post(reverse("benchmarks:import_run"), {"file": bad})
    assert refused.status_code == 400 and "Not a JSON file" in refused.text


def test_a_run_exports_from_its_page_as_a_download(client, staff_user):
    run = finished_run(version(), target(), {1: 100.0})
    client.force_login(staff_user)
    response = client.get(reverse("benchmarks:run_export", args=[run.pk]))
    assert response["Content-Disposition"].startswith('attachment; filename="run-toy-gbm-standard')
    assert json.loads(response.content)["run"]["id"] == str(run.pk)
