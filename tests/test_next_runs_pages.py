"""The plan page asks for "The next run worth making" after its results and lists at most
five runs, each with its cost, what it settles and the runner's command, in English and
German; a shared page shows the share's frozen runs without the commands."""

import html
import re

import pytest

from planner.services import plans as services
from tests.support.dashboard import login
from tests.support.next_runs import PLAN, fresh_install_with_estimates

pytestmark = pytest.mark.django_db
COMMAND = ".venv-runner/bin/python -m benchmarks_app.standalone --scale standard"


@pytest.fixture
def plan(owner, own_cache, settings):
    settings.UNCERTAINTY_RATE_LIMIT_PER_MINUTE = 10_000
    fresh_install_with_estimates()
    return services.plan_create(owner=owner, plan=services.parse(PLAN))


def section(client, plan) -> str:
    page = client.get(f"/plans/{plan.code}/").content.decode()
    [url] = re.findall(r'hx-get="(/plans/next-runs/[^"]+)"', page)
    response = client.get(url)
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def test_the_plan_page_lists_ranked_runs_with_cost_and_command(owner, plan):
    client = login(owner)
    found = section(client, plan)
    assert "The next run worth making" in found
    runs = re.findall(r'<li class="next-run" data-tier="([^"]+)" data-rank="(\d)"', found)
    assert 1 <= len(runs) <= 5 and [int(r) for _t, r in runs] == list(range(1, len(runs) + 1))
    assert found.count(COMMAND) == len(runs)
    assert "Decides between " in found and "% of the draws." in found
    assert "hours of the profile's time budget at $" in found
    assert f"import_run runs/gbm-xgboost.json --tier {runs[0][0]}" in found

    client.post("/i18n/setlang/", {"language": "de", "next": "/"})
    german = section(client, plan)
    assert "Der nächste lohnende Lauf" in german and "Entscheidet in " in german
    assert "Stunden Zeitbudget des Profils zu" in german and german.count(COMMAND) == len(runs)


def test_a_shared_page_shows_the_frozen_runs_without_commands(owner, plan, client):
    share = services.share_create(plan=plan, user=owner)
    assert share.snapshot["next_runs"]["runs"]
    page = html.unescape(client.get(f"/s/{share.token}/").content.decode())
    assert "The next run worth making" in page and "Decides between " in page
    assert COMMAND not in page and "import_run" not in page


def test_a_plan_whose_figures_are_all_measured_asks_for_no_runs(owner, own_cache, two_tier_catalog):
    from tests.support.dashboard import saved_plan

    plan = saved_plan(owner)  # a fixed count on one server: no estimate anywhere
    page = login(owner).get(f"/plans/{plan.code}/").content.decode()
    assert "/plans/next-runs/" not in page and "next-runs" not in page
