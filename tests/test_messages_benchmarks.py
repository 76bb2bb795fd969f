# ruff: noqa: RUF001  (the messages use the multiplication sign and the en dash)
"""What benchmarks_app tells a person is a message: a code and typed parameters, kept
beside the English the API, the admin and the commands have always shown, and said in
the reader's language on a page."""

import json
import sys
from datetime import timedelta

import pytest
from django.utils import timezone

from benchmarks_app import scaling
from benchmarks_app.execution import run_child, runner_command
from benchmarks_app.lifecycle import check_targets
from benchmarks_app.models import Run
from benchmarks_app.profiles_loader import edit_profile, load_shipped_profiles
from benchmarks_app.run_files import ImportRefused, export_run, import_run
from benchmarks_app.runners import build_spec, load_profile
from benchmarks_app.services import RunRefused, cancel_run, create_run
from common.django.message_render import render
from common.messages import Message, Number, plain
from tests.support.bench import content, finished_run, target, version

AMDAHL = {k: 100 * k / (1 + 0.05 * (k - 1)) for k in (1, 2, 4, 8)}


def test_a_fit_with_too_few_points_says_why_as_a_message_beside_the_english():
    fit = scaling.fit_usl([1, 2, 4], [100, 190, 350])
    assert fit.reason_message.code == "benchmarks.fit_too_few_points"
    assert dict(fit.reason_message.params) == {"model": "USL", "need": 4, "got": 3}
    assert fit.reason == plain(fit.reason_message)
    assert render(fit.reason_message, "de") == (
        "zu wenige Messpunkte: USL braucht ≥ 4 verschiedene Thread-Anzahlen, vorhanden: 3"
    )


def test_a_prediction_beyond_the_sweep_is_labelled_with_its_factor_as_a_number():
    fit = scaling.fit_amdahl(list(AMDAHL), list(AMDAHL.values()), host="epyc")
    beyond = scaling.predict(fit, 32, host="epyc")
    assert beyond.label_message.code == "benchmarks.fit_extrapolated_beyond"
    assert beyond.label_message.params["factor"] == Number(4.0, 1)
    assert beyond.label == "extrapolated 4.0× beyond the largest measured 8 threads"
    assert render(beyond.label_message, "de").startswith("4,0× über die größte gemessene")
    inside = scaling.predict(fit, 4, host="epyc")
    assert (inside.label_message.code, inside.label) == (
        "benchmarks.fit_interpolated",
        "interpolated within the measured 1–8 threads",
    )


def test_a_fit_asked_about_another_machine_refuses_with_a_message():
    fit = scaling.fit_amdahl(list(AMDAHL), list(AMDAHL.values()), host="epyc")
    with pytest.raises(scaling.FitError) as refused:
        scaling.predict(fit, 4, host="laptop")
    assert refused.value.message.code == "benchmarks.fit_other_host"
    assert str(refused.value) == "a fit on epyc never predicts another machine (laptop)"


def test_a_runner_child_refusing_its_parameters_sends_its_message_to_the_parent(tmp_path):
    spec = build_spec(load_profile("micro-matmul"), "smoke", 1, str(tmp_path / "scratch"))
    spec["threads"] = 0
    outcome = run_child(runner_command("matmul"), spec, tmp_path, limit_s=60)
    kind, why = outcome.failure_message(60)
    assert kind == "failed" and why.code == "benchmarks.runner_threads_below_one"
    assert outcome.failure(60) == ("failed", "threads must be ≥ 1 (got 0)")
    assert render(why, "de") == "die Thread-Anzahl muss ≥ 1 sein (angegeben: 0)"


def test_a_runner_child_reports_its_steps_as_messages(tmp_path):
    spec = build_spec(load_profile("micro-matmul"), "smoke", 1, str(tmp_path / "scratch"))
    steps: list = []
    outcome = run_child(
        runner_command("matmul"), spec, tmp_path, limit_s=90,
        on_progress=lambda progress, step: steps.append(step),
    )  # fmt: skip
    assert outcome.ok
    assert all(isinstance(step, Message) for step in steps)
    codes = [step.code for step in steps]
    assert codes[0] == "benchmarks.step_setup" and codes[-1] == "benchmarks.step_done"
    assert "benchmarks.step_repetition" in codes
    repetition = next(step for step in steps if step.code == "benchmarks.step_repetition")
    assert plain(repetition) == f"rep 1/{spec['repetition']['max_reps']}"
    assert render(repetition, "de").startswith("Wiederholung 1/")


def test_a_child_that_dies_without_a_result_is_shown_by_its_last_words(tmp_path):
    child = "import sys; sys.stderr.write('first\\nlast words\\n'); sys.exit(5)"
    spec = build_spec(content(), "smoke", 1, tmp_path)
    outcome = run_child([sys.executable, "-c", child], spec, tmp_path, limit_s=30)
    kind, why = outcome.failure_message(30)
    assert kind == "failed" and why.code == "benchmarks.child_exit"
    assert why.params == {"exit_code": 5, "line": "last words"}
    assert render(why, "de") == "der Runner endete mit Code 5: last words"


@pytest.mark.django_db
def test_a_vanished_workers_run_keeps_its_reason_as_a_message_and_in_english(settings):
    settings.BENCH_HEARTBEAT_SECONDS = 10
    quiet = target("quiet")
    quiet.last_seen = timezone.now() - timedelta(seconds=31)
    quiet.save()
    run = finished_run(version(), quiet, {}, scale="smoke", status="running")
    check_targets()
    run.refresh_from_db()
    assert run.reason_message["code"] == "benchmarks.run_worker_vanished"
    assert run.reason_message["params"]["target"] == "quiet"
    assert run.reason == plain(run.reason_shown)
    assert run.reason.startswith("worker vanished: no heartbeat from quiet since ")
    assert render(run.reason_shown, "de").startswith("Worker verschwunden: kein Lebenszeichen")


@pytest.mark.django_db
def test_a_cancel_says_who_as_a_parameter(staff_user):
    run = finished_run(version(), target(), {}, scale="smoke", status="queued")
    cancel_run(run, staff_user)
    run.refresh_from_db()
    assert run.reason_shown.code == "benchmarks.run_cancelled_before_start"
    assert run.reason_shown.params == {"who": "staff"}
    assert run.reason == "cancelled by staff before it started"
    assert render(run.reason_shown, "de") == "von staff vor dem Start abgebrochen"


@pytest.mark.django_db
def test_a_run_from_before_messages_shows_its_english_reason():
    run = finished_run(version(), target(), {}, scale="smoke", status="failed")
    Run.objects.filter(pk=run.pk).update(reason="at 1 threads: old words")
    run.refresh_from_db()
    assert run.reason_message is None
    assert render(run.reason_shown, "de") == "at 1 threads: old words"


@pytest.mark.django_db
def test_a_refused_run_gives_messages_and_the_same_english_problems():
    tgt = target(usable_cpus=2)
    with pytest.raises(RunRefused) as refused:
        create_run(version=version(), scale="smoke", target=tgt, threads=[1, 64])
    [problem] = refused.value.messages
    assert problem.code == "benchmarks.threads_over_cpus"
    assert problem.params == {"threads": 64, "usable": 2}
    assert refused.value.problems == ["64 threads exceed this host's 2 usable CPUs."]
    assert not Run.objects.exists()


@pytest.mark.django_db
def test_a_profile_file_that_is_not_json_is_named_with_its_line_and_column(tmp_path):
    (tmp_path / "broken.json").write_text('{\n  "name": "x",\n  oops\n}')
    report = load_shipped_profiles(tmp_path)
    [problem] = report.invalid_messages
    assert problem.code == "benchmarks.profile_file_unreadable"
    assert problem.params["file"] == "broken.json"
    why = problem.params["error"]
    assert (why.code, why.params["line"], why.params["column"]) == ("common.json.malformed", 3, 3)
    # The English the load_profiles command prints names the line and column too.
    assert report.invalid == [
        "broken.json: Expecting property name enclosed in double quotes (line 3, column 3)"
    ]
    assert "Zeile 3, Spalte 3" in render(problem, "de")


@pytest.mark.django_db
def test_an_invalid_profile_file_lists_each_problem_as_a_message(tmp_path):
    body = content("toy-a", version="one", i18n={"de": {"description": "Beschreibung"}})
    (tmp_path / "toy-a.json").write_text(json.dumps(body))
    report = load_shipped_profiles(tmp_path)
    [problem] = report.invalid_messages
    codes = [p.code for p in problem.params["problems"]]
    assert codes == ["benchmarks.profile_bad_version", "benchmarks.profile_i18n_field"]
    assert report.invalid[0].startswith("toy-a.json: version must be X.Y.Z, i18n.de.description")


@pytest.mark.django_db
def test_a_run_file_with_a_bad_summary_is_refused_naming_the_summary():
    run = finished_run(version(), target(), {1: 100.0, 2: 190.0})
    data = json.loads(json.dumps(export_run(run)))
    run.delete()
    data["summaries"][1]["threads"] = 0
    with pytest.raises(ImportRefused) as refused:
        import_run(data)
    assert [m.code for m in refused.value.messages] == ["benchmarks.runfile_summary_threads"]
    assert refused.value.messages[0].params == {"index": "1"}
    assert refused.value.problems == ["summary 1: threads must be a positive whole number"]


@pytest.mark.django_db
def test_a_run_file_carries_the_reason_as_a_message_to_the_next_installation(staff_user):
    run = finished_run(version(), target(), {}, scale="smoke", status="queued")
    cancel_run(run, staff_user)
    data = json.loads(json.dumps(export_run(Run.objects.get(pk=run.pk))))
    Run.objects.filter(pk=run.pk).delete()
    imported = import_run(data)
    assert imported.reason_shown.code == "benchmarks.run_cancelled_before_start"
    assert imported.reason == "cancelled by staff before it started"


@pytest.mark.django_db
def test_a_staff_edit_of_the_english_title_drops_its_outdated_german(staff_user):
    german = {"de": {"title": "Spielzeug-GBM", "metric.unit": "Zell-Bäume/s"}}
    base = version(content(i18n=german))
    edited = edit_profile(base, {**base.content, "title": "Toy GBM, deeper"}, part="patch",
                          user=staff_user)  # fmt: skip
    assert edited.content["i18n"] == {"de": {"metric.unit": "Zell-Bäume/s"}}
    both = edit_profile(
        edited,
        {**edited.content, "title": "Toy GBM 3", "i18n": {"de": {"title": "Spielzeug-GBM 3"}}},
        part="patch", user=staff_user,
    )  # fmt: skip
    assert both.content["i18n"] == {"de": {"title": "Spielzeug-GBM 3"}}
