"""Reference runs ship as run files measured on a named machine; bootstrap imports them once,
labelled as reference runs, and a fresh install then scales estimates from them."""

import json

import pytest
from django.core.management import call_command

from benchmarks_app import reference
from benchmarks_app.models import Run
from tests.support.runs import GBM_RUN, relinked, run_file

pytestmark = pytest.mark.django_db


def test_every_shipped_reference_run_is_a_labelled_real_measurement():
    for path in reference.files():
        data = json.loads(path.read_text())
        assert data["format"] == "planner-run"
        assert data["target"]["name"].startswith(reference.PREFIX)
        assert "reference run" in data["run"]["executed_by"]
        assert data["run"]["status"] == "succeeded"
        assert data["run"]["scale"] in ("standard", "full")  # smoke never sizes or scales
        fingerprint = data["run"]["fingerprint"]
        assert fingerprint["cpu_model"] and fingerprint["usable_cpus"]
        assert data["summaries"] and data["measurements"]


def test_reference_runs_are_imported_once(tmp_path):
    data = relinked(run_file(GBM_RUN), "reference-test-host")
    (tmp_path / "ref.json").write_text(json.dumps(data))
    assert reference.import_reference_runs(tmp_path) == "1 imported, 0 already here (1 shipped)"
    assert reference.import_reference_runs(tmp_path) == "0 imported, 1 already here (1 shipped)"
    assert Run.objects.get().target.name == "reference-test-host"


def test_a_run_file_not_named_as_a_reference_is_refused(tmp_path):
    (tmp_path / "ref.json").write_text(json.dumps(run_file(GBM_RUN)))
    with pytest.raises(ValueError, match="must be named reference-"):
        reference.import_reference_runs(tmp_path)
    assert not Run.objects.exists()


def test_bootstrap_imports_the_shipped_reference_runs():
    call_command("bootstrap", "--no-input")
    shipped = {json.loads(p.read_text())["run"]["id"] for p in reference.files()}
    assert {str(pk) for pk in Run.objects.values_list("pk", flat=True)} == shipped
