"""Self-service (issue 22, item 1): a manager is offered only what a manager can do, and
linking a benchmark target to a tier whose specs differ says so."""

import html as html_lib

import pytest
from django.contrib.auth.models import Permission

from benchmarks_app.hardware_match import cpus_differ, model_numbers, tier_mismatches
from catalog.models import Tier
from tests.support.bench import content, target, version
from tests.support.dashboard import CLOUD, DEDICATED, form_data, login

GBM = {"trainings_per_month": 60, "rows": 2_000_000, "features": 50, "trees": 100}


def results_page(client) -> str:
    data = form_data(cand_0__tier=CLOUD, cand_0__count="",
                     **{f"wl_gbm_0__{k}": str(v) for k, v in GBM.items()})  # fmt: skip
    response = client.post("/plans/new", data)
    assert response.status_code == 200
    return html_lib.unescape(response.content.decode())


@pytest.fixture
def profile():
    return version(content())


@pytest.mark.django_db
@pytest.mark.usefixtures("two_tier_catalog")
class TestTheWaysOffered:
    def test_a_manager_sees_no_admin_only_link(self, owner, profile):
        page = results_page(login(owner))
        assert "/admin/" not in page
        assert 'data-testid="speed-factor-link"' not in page
        assert "Only staff declare speed factors: ask one, or run the stand-alone runner" in page
        assert 'href="/benchmarks/#standalone"' in page

    def test_a_manager_who_may_run_benchmarks_is_sent_to_them(self, owner, profile):
        owner.user_permissions.add(Permission.objects.get(codename="add_run"))
        page = results_page(login(owner))
        assert "/admin/" not in page
        assert "You can start the benchmark suite yourself:" in page
        assert 'href="/benchmarks/"' in page

    def test_staff_get_the_speed_factor_form(self, staff_user, profile):
        page = results_page(login(staff_user))
        tier = Tier.objects.get(slug=CLOUD)
        assert f'href="/admin/planner/speedfactor/add/?tier={tier.pk}"' in page
        assert "Only staff declare" not in page

    def test_the_german_reader_is_told_in_german(self, owner, profile):
        client = login(owner)
        client.cookies["django_language"] = "de"
        page = results_page(client)
        assert "Nur Mitarbeitende mit Adminrechten" in page


def test_model_numbers_are_read_from_the_names_providers_and_hosts_write():
    assert model_numbers("AMD EPYC 4545P 16-Core Processor") == {"4545P"}
    assert model_numbers("Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz") == {"8375C"}
    assert model_numbers("AMD EPYC") == set()
    assert not cpus_differ("AMD EPYC 4545P 16-Core Processor", "AMD EPYC 4545P")
    assert cpus_differ("Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz", "AMD EPYC 4545P")
    assert cpus_differ("Intel Xeon Processor (Cascadelake)", "AMD EPYC 4545P")  # by vendor
    assert not cpus_differ("AMD EPYC", "AMD EPYC 4545P")  # a masked VM: cannot tell
    assert not cpus_differ(None, "AMD EPYC 4545P")


@pytest.mark.django_db
@pytest.mark.usefixtures("two_tier_catalog")
class TestLinkingWarns:
    def test_the_check_returns_codes_with_typed_parameters(self):
        tier = Tier.objects.get(slug=DEDICATED)  # 32 vCPUs
        tier.cpu_model = "AMD EPYC 4545P"
        found = tier_mismatches("vm2", {"hardware_threads": 2, "cpu_model": "Intel Xeon 8375C"},
                                tier)  # fmt: skip
        assert [m.code for m in found] == ["benchmarks.link_vcpus_differ",
                                           "benchmarks.link_cpu_differs"]  # fmt: skip
        assert found[0].params["cpus"] == 2 and found[0].params["vcpus"] == 32
        assert found[0].params["tier"].slug == DEDICATED
        same = {"hardware_threads": 32, "cpu_model": "AMD EPYC 4545P 16-Core Processor"}
        assert tier_mismatches("box", same, tier) == []

    def test_the_staff_action_warns_when_a_small_vm_is_linked_to_a_big_tier(
        self, staff_user, profile
    ):
        box = target("vm2", hardware_threads=2, usable_cpus=2)
        client = login(staff_user)
        response = client.post("/evidence/link-target", {"target": box.pk, "tier": DEDICATED},
                               follow=True)  # fmt: skip
        page = html_lib.unescape(response.content.decode())
        assert "Target vm2 has 2 CPUs but tier Extreme lists 32 vCPUs" in page
        box.refresh_from_db()
        assert box.tier.slug == DEDICATED  # a warning, not a refusal

    def test_a_matching_link_says_nothing(self, staff_user, profile):
        box = target("big", hardware_threads=32, usable_cpus=32)
        response = login(staff_user).post(
            "/evidence/link-target", {"target": box.pk, "tier": DEDICATED}, follow=True
        )
        assert "lists 32 vCPUs" not in html_lib.unescape(response.content.decode())

    def test_the_admin_warns_when_a_target_is_linked(self, staff_user):
        staff_user.is_superuser = True
        staff_user.save()
        box = target("vm2", hardware_threads=2, cpu_model="Intel(R) Xeon(R) Platinum 8375C")
        tier = Tier.objects.get(slug=DEDICATED)
        tier.cpu_model = "AMD EPYC 4545P"
        tier.save()
        response = login(staff_user).post(
            f"/admin/benchmarks_app/target/{box.pk}/change/", {"tier": tier.pk}, follow=True
        )
        page = html_lib.unescape(response.content.decode())
        assert "Target vm2 has 2 CPUs but tier Extreme lists 32 vCPUs" in page
        assert (
            "The CPU of target vm2 is Intel(R) Xeon(R) Platinum 8375C but tier Extreme "
            "lists AMD EPYC 4545P"
        ) in page
        box.refresh_from_db()
        assert box.tier == tier
