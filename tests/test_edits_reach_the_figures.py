# ruff: noqa: RUF001, RUF003  (the engine writes "3 × Extreme")
"""Each kind of edit reaches the next editor recompute and the next API answer, and the
change log records it.

Every test asks both before the edit (so a cached answer exists), makes the edit through
the path a person or a worker takes (a model save, the admin, an import, the run
lifecycle), and asks both again.
"""

import datetime as dt
import re
from decimal import Decimal
from typing import NamedTuple

import pytest
from django.test import Client

from benchmarks_app import lifecycle
from benchmarks_app.models import Target
from benchmarks_app.profiles_loader import edit_profile
from benchmarks_app.run_files import import_run
from catalog.io.importer import import_catalog
from catalog.models import Tier
from changes.selectors import changes_since, current_generation
from planner.models import SpeedFactor
from tests.support.api import post_json
from tests.support.bench import content, finished_run, target, version
from tests.support.catalog import add_price, add_rate, csv_bytes, make_tier, price_record
from tests.support.dashboard import CLOUD, DEDICATED, days_ago, form_data, login
from tests.support.runs import GBM_RUN, run_file

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("two_tier_catalog")]
POINTS = {k: 2.0e6 * k / (1 + 0.02 * (k - 1)) for k in (1, 2, 4, 8, 16, 32)}
GBM = {"trainings_per_month": 1000, "rows": 2_000_000, "features": 200, "trees": 500}
SMALL_GBM = {"trainings_per_month": 20, "rows": 2_000_000, "features": 50, "trees": 100}
FIXED = {
    "currency": "USD",
    "baseline": {"monthly": "480"},
    "candidates": [{"tier": DEDICATED, "count": 1}, {"tier": CLOUD, "count": 1}],
}


def sized(tier: str, gbm: dict = GBM) -> tuple[dict, dict]:
    """A plan that sizes `tier` for a GBM workload: as the API takes it, as the editor posts it."""
    plan = {
        "currency": "USD",
        "baseline": {"monthly": "480"},
        "candidates": [{"tier": tier}],
        "workloads": [{"kind": "gbm", **gbm}],
    }
    form = form_data(cand_0__tier=tier, cand_0__count="",
                     **{f"wl_gbm_0__{k}": str(v) for k, v in gbm.items()})  # fmt: skip
    return plan, form


FIXED_FORM = form_data(cand_1__tier=CLOUD, cand_1__count="1")


class Answers(NamedTuple):
    page: str  # the editor's recompute (the results partial)
    body: dict  # the API's comparison

    def option(self, tier: str) -> dict | None:
        found = [o for o in self.body["options"] if o["parts"][0]["tier"] == tier]
        return found[0] if found else None

    def reasons(self, tier: str) -> str:
        return " ".join(
            r for n in self.body["no_number"] if n["tier"] == tier for r in n["reasons"]
        )


@pytest.fixture
def ask(owner, api, settings):
    settings.API_RATE_LIMIT_PER_MINUTE = 10_000
    editor = login(owner)

    def answers(plan: dict, form: dict) -> Answers:
        page = editor.post("/plans/new", form, headers={"HX-Request": "true"})
        assert page.status_code == 200
        body = post_json(api, "/api/v1/evaluate", plan)
        assert body.status_code == 200, body.content[:300]
        return Answers(page.content.decode(), body.json())

    return answers


@pytest.fixture
def since() -> int:
    """The generation before the edit: the log lists what changed after it."""
    return current_generation().number


def logged(since: int) -> list[tuple[str, str]]:
    return [(c.kind, c.label) for c in reversed(changes_since(since))]


def measured(tier_slug: str, name: str = "epyc", **run) -> object:
    """A target linked to the tier, with a finished standard run of the toy GBM profile."""
    host = target(name)
    host.tier = Tier.objects.get(slug=tier_slug)
    host.save()
    return finished_run(version(), host, POINTS, **run)


def dollars(amount: str) -> str:
    return f"${Decimal(amount):,.2f}"


# --- tiers -------------------------------------------------------------------------------


def test_a_renamed_tier(ask, since):
    before = ask(FIXED, FIXED_FORM)
    tier = Tier.objects.get(slug=DEDICATED)
    tier.name = "Extreme Gen 2"
    tier.save()
    after = ask(FIXED, FIXED_FORM)
    assert before.option(DEDICATED)["label"] == "1 × Extreme"
    assert after.option(DEDICATED)["label"] == "1 × Extreme Gen 2"
    assert "Extreme Gen 2" not in before.page and "Extreme Gen 2" in after.page
    assert logged(since) == [("tier.saved", DEDICATED)]


def test_a_tier_set_to_spot(ask, since):
    before = ask(FIXED, FIXED_FORM)
    tier = Tier.objects.get(slug=CLOUD)
    tier.pricing_model = "spot"  # its 20-day-old price is stale for a spot tier
    tier.save()
    after = ask(FIXED, FIXED_FORM)
    stale = [a.option(CLOUD)["parts"][0]["price"]["stale"] for a in (before, after)]
    assert stale == [False, True]
    assert 'class="badge stale"' not in before.page and 'class="badge stale"' in after.page
    assert logged(since) == [("tier.saved", CLOUD)]


def test_two_tiers_swapping_their_vcpus(ask, since):
    measured(DEDICATED)
    plan, form = sized(DEDICATED)
    before = ask(plan, form)
    box, vm = Tier.objects.get(slug=DEDICATED), Tier.objects.get(slug=CLOUD)
    box.vcpus, vm.vcpus = vm.vcpus, box.vcpus
    box.save()
    vm.save()
    after = ask(plan, form)
    assert (before.option(DEDICATED)["servers"], after.option(DEDICATED)["servers"]) == (3, 5)
    # The table's Servers cell of the option (a sized option is named without a count).
    servers_cell = re.compile(r'data-key="candidate:0".*?<td class="num"[^>]*>(\d+)', re.S)
    assert [servers_cell.search(a.page).group(1) for a in (before, after)] == ["3", "5"]
    assert logged(since)[-2:] == [("tier.saved", DEDICATED), ("tier.saved", CLOUD)]


def test_a_tier_that_becomes_a_self_managed_dedicated_server(ask, since):
    before = ask(FIXED, FIXED_FORM)
    tier = Tier.objects.get(slug=CLOUD)
    tier.kind, tier.managed = "dedicated", False  # now it needs its own operations
    tier.save()
    after = ask(FIXED, FIXED_FORM)
    was, now = (
        before.option(CLOUD)["money"]["monthly"][0],
        after.option(CLOUD)["money"]["monthly"][0],
    )
    assert Decimal(now) - Decimal(was) == Decimal("140.83")  # 1,690 a server a year ÷ 12
    assert dollars(now) not in before.page and dollars(now) in after.page
    assert logged(since) == [("tier.saved", CLOUD)]


def test_a_tier_moved_to_another_region_is_recomputed_and_no_figure_rests_on_it(ask, since):
    before = ask(FIXED, FIXED_FORM)
    generation = current_generation()
    tier = Tier.objects.get(slug=CLOUD)
    tier.region = "eu-west-1"
    tier.save()
    assert current_generation().key != generation.key  # nothing cached is served again
    after = ask(FIXED, FIXED_FORM)
    assert after == before
    assert logged(since) == [("tier.saved", CLOUD)]


# --- prices and exchange rates -----------------------------------------------------------


def test_a_price_added(ask, since):
    before = ask(FIXED, FIXED_FORM)
    add_price(Tier.objects.get(slug=DEDICATED), "299.99", days_ago(0), unit="month")
    after = ask(FIXED, FIXED_FORM)
    assert before.option(DEDICATED)["money"]["monthly"][0] == "349.99"
    assert after.option(DEDICATED)["money"]["monthly"][0] == "299.99"
    assert "$299.99" not in before.page and "$299.99" in after.page
    assert logged(since) == [("price.saved", f"{DEDICATED} from {days_ago(0)}")]


def test_a_newer_exchange_rate(ask, since):
    box = make_tier(
        "test-euro-box", provider="Test", kind="dedicated", pricing_model="fixed_monthly"
    )
    add_price(box, "100", days_ago(5), unit="month", currency="EUR")
    add_rate(days_ago(5).isoformat(), "EUR", "USD", "1.10")
    plan = {**FIXED, "candidates": [{"tier": "test-euro-box", "count": 1}]}
    form = form_data(cand_0__tier="test-euro-box")
    before = ask(plan, form)
    add_rate(days_ago(0).isoformat(), "EUR", "USD", "1.20")
    after = ask(plan, form)
    monthly = [a.option("test-euro-box")["money"]["monthly"][0] for a in (before, after)]
    assert monthly == ["110.00", "120.00"]
    assert "$120.00" not in before.page and "$120.00" in after.page
    assert logged(since)[-1] == ("exchange_rate.saved", f"1 EUR = 1.20 USD on {days_ago(0)}")


def test_a_catalog_import_is_one_change(ask, since):
    before = ask(FIXED, FIXED_FORM)
    record = price_record(
        slug=DEDICATED, provider="Test Hosting", name="Extreme", region="", kind="dedicated",
        pricing_model="fixed_monthly", vcpus="32", cores="16", ram_gib="192", amount="279.99",
        unit="month", effective_from=days_ago(0).isoformat(), source="test import",
    )  # fmt: skip
    import_catalog(csv_bytes([record]), "csv", update_tiers=False)
    after = ask(FIXED, FIXED_FORM)
    assert before.option(DEDICATED)["money"]["monthly"][0] == "349.99"
    assert after.option(DEDICATED)["money"]["monthly"][0] == "279.99"
    assert "$279.99" in after.page
    [(kind, _label)] = logged(since)
    assert kind == "catalog.imported"


# --- runs and what links them to tiers ---------------------------------------------------


def test_a_run_finishing(ask, since):
    run = measured(DEDICATED, status="running")  # its summaries stored, not yet succeeded
    plan, form = sized(DEDICATED)
    before = ask(plan, form)
    assert lifecycle.finish(run.pk, "succeeded")
    after = ask(plan, form)
    assert before.option(DEDICATED) is None
    assert after.option(DEDICATED)["provenance"]["runs"][0]["run_id"] == str(run.pk)
    assert str(run.pk) not in before.page and str(run.pk) in after.page
    assert logged(since)[-1] == ("run.succeeded", f"run {run.pk}")


def test_a_run_cancelled_while_running_never_sizes_the_plan(ask, since):
    run = measured(DEDICATED, status="running")
    plan, form = sized(DEDICATED)
    before = ask(plan, form)
    generation = current_generation()
    assert lifecycle.finish(run.pk, "cancelled", "cancelled by staff while running")
    assert current_generation().key != generation.key
    after = ask(plan, form)
    for answers in (before, after):
        assert answers.option(DEDICATED) is None
        assert "no succeeded standard or full run of gbm" in answers.reasons(DEDICATED)
        # The page names the workload class by its label (issue 14 item 6); the API keeps "gbm".
        assert "no succeeded standard or full run of gradient boosting" in answers.page
    assert logged(since)[-1] == ("run.cancelled", f"run {run.pk}")


def test_a_run_retired_in_the_admin_stops_sizing_the_plan_and_restored_sizes_it_again(
    ask, since, admin_client
):
    run = measured(DEDICATED)
    plan, form = sized(DEDICATED)
    before = ask(plan, form)
    staff = admin_client
    changelist = "/admin/benchmarks_app/run/"
    staff.post(changelist, {"action": "retire", "_selected_action": [run.pk]})
    retired = ask(plan, form)
    staff.post(changelist, {"action": "restore", "_selected_action": [run.pk]})
    restored = ask(plan, form)
    assert before.option(DEDICATED)["provenance"]["runs"][0]["run_id"] == str(run.pk)
    assert retired.option(DEDICATED) is None
    assert "no succeeded standard or full run of gbm" in retired.reasons(DEDICATED)
    assert restored.option(DEDICATED)["provenance"]["runs"][0]["run_id"] == str(run.pk)
    assert [kind for kind, _label in logged(since)][-2:] == ["run.retired", "run.restored"]


def test_a_run_imported(ask, since):
    data = run_file(GBM_RUN)
    small = make_tier("test-small-box", provider="Test", kind="dedicated",
                      pricing_model="fixed_monthly", vcpus=2, ram_gib=Decimal(16))  # fmt: skip
    add_price(small, "40", days_ago(3), unit="month")
    # The run's own node, already known here and linked to the tier.
    Target.objects.create(name=data["target"]["name"], hostname=data["target"]["hostname"],
                          tier=small, imported=True)  # fmt: skip
    plan, form = sized("test-small-box", SMALL_GBM)
    before = ask(plan, form)
    run = import_run(data)
    after = ask(plan, form)
    assert before.option("test-small-box") is None
    assert after.option("test-small-box")["provenance"]["runs"][0]["run_id"] == str(run.pk)
    assert str(run.pk) in after.page
    assert logged(since)[-1] == ("run.imported", f"run {run.pk}")


def test_a_target_linked_to_a_tier(ask, since):
    host = target("epyc")
    run = finished_run(version(), host, POINTS)
    plan, form = sized(DEDICATED)
    before = ask(plan, form)
    host.tier = Tier.objects.get(slug=DEDICATED)
    host.save()
    after = ask(plan, form)
    assert before.option(DEDICATED) is None
    assert after.option(DEDICATED)["provenance"]["runs"][0]["host"] == "epyc"
    assert str(run.pk) in after.page
    assert logged(since)[-1] == ("target.saved", "epyc")


def test_a_new_minor_profile_version(ask, since, staff_user):
    run = measured(DEDICATED)
    plan, form = sized(DEDICATED)
    before = ask(plan, form)
    edit_profile(run.profile_version, content(title="Toy GBM, new data"), part="minor",
                 user=staff_user)  # fmt: skip
    after = ask(plan, form)
    assert before.option(DEDICATED)["figure"] == "measured"
    assert after.option(DEDICATED) is None
    assert "older profile versions" in after.reasons(DEDICATED)
    assert "older profile versions" in after.page
    assert ("profile_version.saved", "toy-gbm 1.1.0") in logged(since)


# --- declared speed factors, through the admin --------------------------------------------


@pytest.fixture
def estimated_box():
    box = make_tier("test-estimated-box", provider="Test", kind="dedicated",
                    pricing_model="fixed_monthly", vcpus=32, ram_gib=Decimal(192))  # fmt: skip
    add_price(box, "300", days_ago(5), unit="month")
    measured(DEDICATED)
    return box


def admin(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_speed_factor_saved_in_the_admin(ask, since, staff_user, estimated_box):
    plan, form = sized("test-estimated-box")
    before = ask(plan, form)
    response = admin(staff_user).post(
        "/admin/planner/speedfactor/add/",
        {"tier": estimated_box.pk, "relative_to": Tier.objects.get(slug=DEDICATED).pk,
         "factor": "0.5", "unit": "throughput_ratio", "source": "vendor sheet A",
         "author": "staff", "date": "2026-05-01"},
    )  # fmt: skip
    assert response.status_code == 302
    after = ask(plan, form)
    assert before.option("test-estimated-box") is None
    assert after.option("test-estimated-box")["figure"] == "estimate"
    assert "badge figure-estimate" not in before.page and "badge figure-estimate" in after.page
    assert logged(since)[-1] == ("speed_factor.saved", "test-estimated-box")


def test_a_speed_factor_deleted_in_the_admin(ask, since, staff_user, estimated_box):
    factor = SpeedFactor.objects.create(
        tier=estimated_box, relative_to=Tier.objects.get(slug=DEDICATED), factor=Decimal("0.5"),
        unit="throughput_ratio", source="vendor sheet A", author="staff", date=dt.date(2026, 5, 1),
    )  # fmt: skip
    plan, form = sized("test-estimated-box")
    before = ask(plan, form)
    url = f"/admin/planner/speedfactor/{factor.pk}/delete/"
    assert admin(staff_user).post(url, {"post": "yes"}).status_code == 302
    after = ask(plan, form)
    assert before.option("test-estimated-box")["figure"] == "estimate"
    assert after.option("test-estimated-box") is None
    assert "badge figure-estimate" in before.page and "badge figure-estimate" not in after.page
    assert logged(since)[-1] == ("speed_factor.deleted", "test-estimated-box")
