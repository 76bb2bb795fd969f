"""The benchmarks pages help a newcomer: the one target chosen already, the jargon
explained where it appears, the time a running run has left, a result that contradicts
its neighbours flagged, and the stand-alone runner's command shown."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from benchmarks_app.models import Run
from tests.support.bench import finished_run, shipped, target, version

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(staff_user) -> Client:
    client = Client()
    client.force_login(staff_user)
    return client


def german(client: Client) -> Client:
    client.cookies["django_language"] = "de"
    return client


def selected_target(html: str, form: str) -> str | None:
    block = html.split(f'id="{form}"')[1].split("</form>")[0]
    select = re.search(r'<select name="target"[^>]*>(.*?)</select>', block, re.S).group(1)
    chosen = re.search(r'<option value="([^"]*)" selected>', select)
    return chosen.group(1) if chosen and chosen.group(1) else None


def test_the_one_target_is_chosen_already(staff):
    only = target("epyc")
    html = staff.get("/benchmarks/").content.decode()
    assert selected_target(html, "start-run") == str(only.pk)
    assert selected_target(html, "start-suite") == str(only.pk)


def test_with_two_targets_none_is_chosen_for_you(staff):
    target("epyc")
    target("xeon", hostname="other")
    html = staff.get("/benchmarks/").content.decode()
    assert selected_target(html, "start-run") is None


def test_an_imported_target_does_not_count_as_a_choice(staff):
    target("rented", hostname="rented-host").__class__.objects.filter(name="rented").update(
        imported=True
    )
    local = target("epyc")
    html = staff.get("/benchmarks/").content.decode()
    assert selected_target(html, "start-run") == str(local.pk)


def test_the_jargon_is_explained_where_it_appears(staff):
    version(shipped("gbm-xgboost"))
    version(shipped("inference-tabular"))
    html = staff.get("/benchmarks/").content.decode()
    assert re.search(
        r'<abbr title="cell-trees per second: how many cells \(row \u00d7 feature\)[^"]*">'
        r"<code[^>]*>cell_trees_per_s</code></abbr>",
        html,
    )
    terms = html.split('id="terms"')[1].split("</dl>")[0]
    assert "X(k): the profile&#x27;s metric measured with k threads" in terms
    assert "M/M/c: the standard queue model" in terms
    html = german(staff).get("/benchmarks/").content.decode()
    assert "Zell-Bäume pro Sekunde: wie viele Zellen" in html
    assert "M/M/c: das Standardmodell einer Warteschlange" in html


def running(progress: float, elapsed_s: float) -> Run:
    run = finished_run(version(), target(), {1: 100.0}, status=Run.Status.RUNNING)
    started = timezone.now() - timedelta(seconds=elapsed_s)
    Run.objects.filter(pk=run.pk).update(progress=progress, started_at=started, finished_at=None)
    return run


def test_a_running_run_says_how_long_it_has_left(staff):
    run = running(0.25, 100)  # a quarter in 100 s: about 300 s more
    page = staff.get(f"/benchmarks/runs/{run.pk}/").content.decode()
    assert re.search(r'id="run-time-left">about 5 minutes left<', page)
    assert "about 5 minutes left" in staff.get("/benchmarks/").content.decode()
    page = german(staff).get(f"/benchmarks/runs/{run.pk}/").content.decode()
    assert re.search(r'id="run-time-left">noch etwa 5 Minuten<', page)


def test_before_it_has_a_pace_the_budget_says_it(staff):
    run = running(0.0, 60)  # the toy profile's standard budget is 600 s
    page = staff.get(f"/benchmarks/runs/{run.pk}/").content.decode()
    assert re.search(r'id="run-time-left">about 9 minutes left<', page)


def test_a_run_over_says_no_time_left(staff):
    run = finished_run(version(), target(), {1: 100.0, 2: 190.0})
    assert 'id="run-time-left"' not in staff.get(f"/benchmarks/runs/{run.pk}/").content.decode()


def test_a_result_that_contradicts_its_neighbours_is_flagged(staff):
    run = finished_run(version(), target(), {1: 100.0, 2: 10.0, 4: 38.0})
    page = staff.get(f"/benchmarks/runs/{run.pk}/").content.decode()
    warning = page.split('id="run-contradictions"')[1].split("</div>")[0]
    assert "2 threads measured 10.0 times less than 1: this result contradicts" in warning
    # 4 threads is held against 1 (not the bad 2): 38 against 100 is a drop too.
    assert "4 threads measured 2.6 times less than 1" in warning
    assert page.count('class="contradicts"') == 2
    page = german(staff).get(f"/benchmarks/runs/{run.pk}/").content.decode()
    assert "Mit 2 Threads wurde 10,0-mal weniger gemessen als mit 1" in page


def test_a_sweep_that_jumps_beyond_its_threads_is_flagged_too(staff):
    run = finished_run(version(), target(), {1: 10.0, 2: 100.0})
    page = staff.get(f"/benchmarks/runs/{run.pk}/").content.decode()
    assert "2 threads measured 10.0 times more than 1, more than the added threads" in page


def test_a_consistent_sweep_has_no_warning(staff):
    # Gains that flatten and even fall a little past the cores are no contradiction.
    run = finished_run(version(), target(), {1: 100.0, 2: 190.0, 4: 340.0, 8: 300.0})
    assert (
        'id="run-contradictions"' not in staff.get(f"/benchmarks/runs/{run.pk}/").content.decode()
    )


def test_the_page_shows_the_stand_alone_runners_command(staff):
    html = staff.get("/benchmarks/").content.decode()
    section = html.split('id="standalone"')[1].split("</section>")[0]
    assert "pip install -r requirements-runner.txt" in section
    assert "python -m benchmarks_app.standalone --scale standard --out runs/" in section
    assert "python manage.py import_run FILE" in section
    html = german(staff).get("/benchmarks/").content.decode()
    assert "Auf einem Server messen, den Sie nur für einen Tag mieten" in html
