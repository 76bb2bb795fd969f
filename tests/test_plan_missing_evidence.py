"""A workload plan with no measured tier says what is missing and how to get it."""

import html as html_lib

import pytest

from benchmarks_app.models import Run, Suite
from catalog.models import Tier
from tests.support.bench import content, finished_run, target, version
from tests.support.dashboard import CLOUD, form_data, login

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("two_tier_catalog")]
GBM = {"trainings_per_month": 60, "rows": 2_000_000, "features": 50, "trees": 100}


def workload_form() -> dict[str, str]:
    return form_data(cand_0__tier=CLOUD, cand_0__count="",
                     **{f"wl_gbm_0__{k}": str(v) for k, v in GBM.items()})  # fmt: skip


def results_page(client) -> str:
    response = client.post("/plans/new", workload_form())
    assert response.status_code == 200
    return html_lib.unescape(response.content.decode())


@pytest.fixture
def profile():
    # a standard scale of 600 s over threads 1, 2, 4, 8: 4 child starts of 4.5 s
    # (estimate.START_S) at least, the budget and 4 times those starts at most: 1-12 min
    return version(content())


def test_the_summary_says_in_plain_words_what_is_missing(owner, profile):
    page = results_page(login(owner))
    assert 'data-testid="missing-summary"' in page
    assert "No figure yet: 1 tier has none for this workload" in page
    assert "below: why, and the cheapest way to a figure." in page
    assert "AWS c5.4xlarge · on-demand: no benchmark run of gradient boosting yet." in page


def test_the_summary_is_in_german_for_a_german_reader(owner, profile):
    client = login(owner)
    client.cookies["django_language"] = "de"
    page = results_page(client)
    assert "1 Tarif hat für diese Arbeitslast keine, daher" in page
    assert "noch kein Benchmark-Lauf" in page
    assert "Den Kandidaten auf eine feste Serverzahl umstellen" in page


def test_it_offers_the_cheapest_way_for_the_tier_and_the_other_ways_once(staff_user, profile):
    """Issue 23: no host has a run to scale from, so the cheapest way is one run of the
    class's profile on any server (then every covered tier is estimated), not the whole
    standard suite on a server of the tier; the speed factor and fixed count said once."""
    page = results_page(login(staff_user))  # the speed factor's form is the admin's
    way = ("Cheapest way to a figure: one run of Toy GBM on any server (the stand-alone "
           "runner, 1 to 12 minutes), its run file imported on the Benchmarks page; every "
           "tier whose CPU the public scores cover is then estimated from it.")  # fmt: skip
    assert way in page
    assert "standard benchmark suite" not in page
    assert page.count('data-way="speed-factor"') == page.count('data-way="fixed-count"') == 1
    tier = Tier.objects.get(slug=CLOUD)
    assert f'href="/admin/planner/speedfactor/add/?tier={tier.pk}"' in page
    assert "Switch the candidate to a fixed count of servers" in page


def test_a_linked_target_is_named_in_the_suite_way(owner, profile):
    box = target("cloudbox")
    box.tier = Tier.objects.get(slug=CLOUD)
    box.save()
    page = results_page(login(owner))
    assert "Run the standard benchmark suite on cloudbox, the server linked to this tier" in page


def test_the_suite_range_on_a_linked_server_uses_its_cpus_and_its_own_earlier_runs(owner, profile):
    """Issue 22 item 7: a range from the budgets and the host's measured times, and the
    thread counts above its CPUs said as left out."""
    box = target("cloudbox", usable_cpus=2)
    box.tier = Tier.objects.get(slug=CLOUD)
    box.save()
    other = version(content("toy-sk", workload_class="sklearn"))
    finished_run(other, box, {1: 5.0, 2: 9.0})  # 240 s there: 192-300 s now
    page = results_page(login(owner))
    # toy-gbm at 1 and 2 threads: 9-636 s; toy-sk as measured: 192-300 s; 201-936 s in all
    assert ("Run the standard benchmark suite on cloudbox, the server linked to this tier: "
            "3 to 16 minutes of its time (thread counts above its 2 CPUs are left out: 4, 8)."
            ) in page  # fmt: skip


def test_only_staff_see_the_link_and_queue_action(owner, staff_user, profile):
    target("cloudbox")
    assert "/evidence/link-target" not in results_page(login(owner))
    assert 'action="/evidence/link-target"' in results_page(login(staff_user))


def test_the_staff_action_links_the_target_and_queues_its_standard_suite(staff_user, profile):
    box = target("cloudbox")
    response = login(staff_user).post("/evidence/link-target", {"target": box.pk, "tier": CLOUD})
    suite = Suite.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/benchmarks/suites/{suite.pk}/"
    box.refresh_from_db()
    assert box.tier.slug == CLOUD
    assert suite.target == box
    assert suite.scale == "standard"
    run = Run.objects.get()
    assert run.suite == suite
    assert run.status == Run.Status.QUEUED
    assert run.profile_version == profile


def test_a_user_who_is_not_staff_gets_a_404_and_nothing_changes(owner, profile):
    box = target("cloudbox")
    response = login(owner).post("/evidence/link-target", {"target": box.pk, "tier": CLOUD})
    assert response.status_code == 404
    box.refresh_from_db()
    assert box.tier is None
    assert Suite.objects.count() == 0
    assert Run.objects.count() == 0


def test_the_staff_action_takes_only_a_post(staff_user):
    assert login(staff_user).get("/evidence/link-target").status_code == 405
