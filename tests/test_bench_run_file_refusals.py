"""A run file the standard JSON reader took silently or crashed on is refused, by the import
command and by the staff upload alike, naming the JSON path and line; nothing is written."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from benchmarks_app.models import Measurement, Profile, ProfileVersion, Run, Target
from benchmarks_app.run_files import export_run
from tests.support.bench import finished_run, target, version

pytestmark = pytest.mark.django_db


def run_file() -> str:
    """An exported run, removed here again, written one member a line."""
    tgt = target("epyc", hostname="epyc-4545p.example")
    run = finished_run(version(), tgt, {1: 100.0, 2: 195.0})
    Measurement.objects.create(run=run, threads=1, repetition=0, value=100.0, seconds=1.2)
    data = export_run(run)
    run.delete()
    tgt.delete()
    ProfileVersion.objects.all().delete()
    Profile.objects.all().delete()
    return json.dumps(data, indent=1)


def nothing_written() -> bool:
    return not (Run.objects.exists() or Target.objects.exists() or Profile.objects.exists())


CASES = {
    "100000-levels": (
        lambda text: text.replace('"reason": ""', '"reason": ' + "[" * 100_000 + "]" * 100_000),
        "nested deeper than 64 levels at $.run.reason[0]",
    ),
    "run-twice": (
        lambda text: text.replace('"run": {', '"run": {},\n "run": {', 1),
        "$.run is given twice (line ",
    ),
    "nul": (
        lambda text: text.replace('"name": "epyc"', '"name": "ep\\u0000yc"'),
        "a NUL character in the string at $.target.name (line ",
    ),
    "lone-surrogate": (
        lambda text: text.replace('"hostname": "epyc-4545p.example"', '"hostname": "\\udc00"'),
        "a lone UTF-16 surrogate in the string at $.target.hostname (line ",
    ),
    "10^400": (
        lambda text: text.replace('"value": 100.0', '"value": 1' + "0" * 400),
        "a number of more than 40 digits at $.measurements[0].value (line ",
    ),
}


def test_the_file_imports_as_written(tmp_path):
    path = tmp_path / "run.json"
    path.write_text(run_file())
    call_command("import_run", str(path))
    assert Run.objects.count() == 1


@pytest.mark.parametrize("case", CASES)
def test_the_import_command_refuses_it_naming_where(tmp_path, case):
    change, words = CASES[case]
    text = change(run_file())
    assert text != run_file()
    path = tmp_path / "run.json"
    path.write_text(text)
    with pytest.raises(CommandError) as caught:
        call_command("import_run", str(path))
    assert words in str(caught.value)
    assert nothing_written()


@pytest.mark.parametrize("case", CASES)
def test_the_staff_upload_refuses_it_naming_where(client, staff_user, case):
    change, words = CASES[case]
    upload = SimpleUploadedFile("run.json", change(run_file()).encode(), "application/json")
    client.force_login(staff_user)
    response = client.post(reverse("benchmarks:import_run"), {"file": upload})
    assert response.status_code == 400
    page = response.content.decode().replace("&#x27;", "'")
    assert "Not a JSON file" in page
    assert words in page
    assert nothing_written()
