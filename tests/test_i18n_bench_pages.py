"""The benchmarks pages in German: a shipped profile's title, metric, unit and scaling rule,
a run's failure, progress and fit notes, the chart and the refusals. A staff edit without
German shows its English, marked as English."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from benchmarks_app.lifecycle import finish
from benchmarks_app.models import Profile, Run, step_fields
from benchmarks_app.profiles_loader import load_shipped_profiles
from common.messages import Number, msg
from tests.support.bench import content, finished_run, target, version

pytestmark = pytest.mark.django_db
GERMAN = {"Accept-Language": "de"}
MARK = "(auf Englisch)"


@pytest.fixture
def staff_client(client, staff_user):
    client.force_login(staff_user)
    return client


def test_a_shipped_profile_is_listed_in_german(staff_client):
    load_shipped_profiles()
    page = staff_client.get(reverse("benchmarks:index"), headers=GERMAN).content.decode()
    assert '<html lang="de">' in page
    assert "XGBoost-Training (hist)" in page and "XGBoost hist training" not in page
    assert "Zell-Bäume pro Sekunde (Zell-Bäume/s)" in page
    assert "Zeit je Training = R·F·T / X(k)" in page
    assert "Feature-Engineering mit pandas auf Parquet" in page
    assert MARK not in page
    assert "— bitte wählen —" in page and "Select an option" not in page


def test_the_same_profile_stays_english_for_an_english_reader(staff_client):
    load_shipped_profiles()
    page = staff_client.get(reverse("benchmarks:index")).content.decode()
    assert "XGBoost hist training" in page and "cell-trees per second (cell-trees/s)" in page
    assert "XGBoost-Training" not in page and "(English)" not in page


def test_a_staff_edit_without_german_shows_its_english_marked(admin_client):
    load_shipped_profiles()
    base = Profile.objects.get(name="gbm-xgboost").current_version()
    edited = {**base.content, "title": "XGBoost hist training, deeper trees"}
    admin_client.post("/i18n/setlang/", {"language": "de", "next": "/"})
    url = reverse("admin:benchmarks_app_profileversion_change", args=[base.pk])
    assert (
        admin_client.post(url, {"content": json.dumps(edited), "bump": "patch"}).status_code == 302
    )

    page = admin_client.get(reverse("benchmarks:index")).content.decode()
    row = page[page.index("<strong>gbm-xgboost</strong>") :][:1500]
    assert '<span lang="en">XGBoost hist training, deeper trees</span>' in row
    assert MARK in row
    assert "Zell-Bäume pro Sekunde" in row  # the metric's German still says the same


def test_a_profile_without_any_german_is_marked_english(staff_client):
    version(content("toy-gbm", title="Toy GBM"))
    page = staff_client.get(reverse("benchmarks:index"), headers=GERMAN).content.decode()
    assert '<span lang="en">Toy GBM</span>' in page and MARK in page


def test_a_failed_run_and_its_fits_read_german(staff_client):
    load_shipped_profiles()
    pv = Profile.objects.get(name="gbm-xgboost").current_version()
    run = finished_run(pv, target("epyc"), {1: 100.0, 2: 190.0}, status="running")
    limit = msg("benchmarks.child_time_limit", limit=Number(1.5))
    finish(run.pk, Run.Status.FAILED, msg("benchmarks.run_failed_at", threads=4, why=limit))

    page = staff_client.get(reverse("benchmarks:run", args=[run.pk]), headers=GERMAN).text
    assert "bei 4 Threads: über dem Zeitlimit von 1,5 s (Prozessgruppe beendet)" in page
    assert "zu wenige Messpunkte: USL braucht ≥ 4 verschiedene Thread-Anzahlen" in page
    assert "Median (Zell-Bäume/s)" in page and "Streuung im Zielbereich" in page
    assert "XGBoost-Training (hist)" in page
    assert "over its time limit" not in page and "not enough points" not in page
    listing = staff_client.get(reverse("benchmarks:index"), headers=GERMAN).text
    assert "bei 4 Threads: über dem Zeitlimit" in listing


def test_a_running_runs_progress_reads_german(staff_client):
    run = finished_run(version(), target(), {}, scale="smoke", status="running")
    step = msg("benchmarks.step_at_threads", threads=2,
               step=msg("benchmarks.step_repetition", done=3, of=10))  # fmt: skip
    Run.objects.filter(pk=run.pk).update(progress=0.45, **step_fields(step))
    url = reverse("benchmarks:run", args=[run.pk])
    live = staff_client.get(url, headers={**GERMAN, "HX-Request": "true"}).text
    assert "Threads=2 Wiederholung 3/10" in live
    assert "threads=2 rep 3/10" in staff_client.get(url, headers={"HX-Request": "true"}).text


def test_the_scaling_chart_reads_german(staff_client):
    load_shipped_profiles()
    pv = Profile.objects.get(name="gbm-xgboost").current_version()
    run = finished_run(pv, target("epyc"), {1: 100.0, 2: 190.0, 4: 350.0})
    svg = staff_client.get(reverse("benchmarks:run_chart", args=[run.pk]), headers=GERMAN).text
    assert "Zell-Bäume/s" in svg and "Hardware-Threads" in svg
    assert "zu wenige Messpunkte: USL braucht" in svg
    english = staff_client.get(reverse("benchmarks:run_chart", args=[run.pk])).text
    assert "cell-trees/s" in english and "not enough points: USL needs" in english


def test_a_refused_run_is_explained_in_german(staff_client):
    pv, tgt = version(), target(usable_cpus=2)
    form = {"profile": pv.profile.pk, "scale": "smoke", "target": tgt.pk, "threads": "1,64"}
    response = staff_client.post(reverse("benchmarks:start_run"), form, headers=GERMAN)
    assert response.status_code == 400
    assert "64 Threads übersteigen die 2 nutzbaren CPUs dieses Hosts." in response.text
    assert not Run.objects.exists()


def test_a_refused_run_file_is_explained_in_german(staff_client):
    body = json.dumps({"format": "planner-run", "version": 7}).encode()
    upload = SimpleUploadedFile("run.json", body, "application/json")
    response = staff_client.post(reverse("benchmarks:import_run"), {"file": upload},
                                 headers=GERMAN)  # fmt: skip
    assert response.status_code == 400
    assert "nicht unterstützte Version der Laufdatei 7 (gelesen wird 1)" in response.text
