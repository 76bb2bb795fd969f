# ruff: noqa: RUF001, RUF003  (× in the labels on the pages under test)
"""The plan pages say the engine's messages in German: notes, option labels, payback and
why a tier has no figure, with German dates and decimals, live and from a share's
frozen snapshot (and a snapshot from before messages still shows, in its English)."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.test import Client
from django.utils import translation

from catalog.models import Tier
from common import formatting
from planner.compute.engine import compare
from planner.compute.schema import parse_plan
from planner.services import plans as services
from planner.web import dashboard
from tests.support.bench import finished_run, target, version
from tests.support.catalog import add_price, make_tier
from tests.support.dashboard import DEDICATED, days_ago, edit_url, login, saved_plan
from tests.support.engine import AS_OF, C5_4X_SPOT, frame
from tests.support.engine import EXTREME as EXTREME_ROW

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("two_tier_catalog")]

NBSP = "\u00a0"
OLD = "test-old-box"
SPOT = "test-c5-spot"
GPU = "test-gpu-box"
AMDAHL = {k: 100 * k / (1 + 0.05 * (k - 1)) for k in (1, 2, 4, 8)}


@pytest.fixture
def old_box():
    """A self-managed server on an unconfirmed price dated 400 days ago (stale)."""
    tier = make_tier(OLD, provider="Test", name="Old Box", kind="dedicated",
                     pricing_model="fixed_monthly", vcpus=8, ram_gib=Decimal(16), managed=False,
                     region="")  # fmt: skip
    return add_price(tier, "99.50", days_ago(400), unit="month", confirmed=False)


@pytest.fixture
def spot_and_gpu():
    spot = make_tier(SPOT, name="c5 spot", pricing_model="spot")
    add_price(spot, "0.25", days_ago(1))
    gpu = make_tier(GPU, name="GPU Box", kind="cloud_gpu", gpus=8)
    add_price(gpu, "8", days_ago(1))


def german(user) -> Client:
    client = login(user)
    assert client.post("/i18n/setlang/", {"language": "de", "next": "/"}).status_code == 302
    return client


def old_box_plan(owner):
    return saved_plan(
        owner, monthly="900", candidates=[{"tier": OLD, "count": 2}],
        one_time={"migration_hours": 10, "migration_rate": 100},
    )  # fmt: skip


def test_notes_come_in_german_with_a_german_date_and_grouping(owner, old_box):
    html = german(owner).get(edit_url(old_box_plan(owner))).content.decode()
    day = old_box.effective_from
    assert "<li>Old Box: Preis unbestätigt (genannt, nicht aus einer datierten Quelle)</li>" in html
    assert f"<li>Old Box: Preis veraltet (gültig ab {formatting.date(day, 'de')})</li>" in html
    assert (
        "Old Box: Betrieb zum veröffentlichten Standardwert von 1.690 pro Server und Jahr" in html
    )
    assert day.isoformat() not in html  # the price's popover says the date the German way too
    assert "price stale" not in html and "operations at the published default" not in html


def test_the_english_page_says_the_same_notes_in_english(owner, old_box):
    html = login(owner).get(edit_url(old_box_plan(owner))).content.decode()
    day = old_box.effective_from
    assert "<li>Old Box: price unconfirmed (quoted, not from a dated source)</li>" in html
    assert f"<li>Old Box: price stale (effective {formatting.date(day, 'en')})</li>" in html
    assert "2 × Test Old Box · monthly" in html


def test_labels_and_payback_come_in_german(owner, old_box):
    html = german(owner).get(edit_url(old_box_plan(owner))).content.decode()
    assert f"2{NBSP}× Test Old Box · monatlich" in html  # the option's title
    # 2 × (99.50 + 140.83 operations) a month against 900: 1,000 of migration, paid in month 3.
    row = html.split('data-key="candidate:0"')[1].split("</tr>")[0]
    assert '<td data-label="Amortisation">Monat 3</td>' in row
    assert "amortisiert sich: <strong>Monat 3</strong>" in html


def test_usage_labels_and_the_spot_allowance_come_in_german(owner, spot_and_gpu):
    plan = saved_plan(
        owner,
        candidates=[{"parts": [{"tier": SPOT, "count": 1},
                               {"tier": GPU, "gpu_hours_per_month": "12.5"}]}],
    )  # fmt: skip
    html = german(owner).get(edit_url(plan)).content.decode()
    assert (
        f"1{NBSP}× AWS c5 spot · Spot{NBSP}+ 12,5 GPU-Stunden im Monat auf AWS GPU Box · On-Demand"
        in html
    )
    assert f"c5 spot: Spot, 10,00{NBSP}% der Arbeit für Wiederholungen nach Unterbrechungen" in html
    assert "GPU-hours a month" not in html and "re-runs" not in html


def test_a_tier_ruled_out_says_why_in_german_with_german_figures(owner):
    host = target("epyc-4545p", hardware_threads=32, usable_cpus=32)
    host.tier = Tier.objects.get(slug=DEDICATED)
    host.save(update_fields=["tier"])
    finished_run(version(), host, AMDAHL)
    nightly = {"kind": "gbm", "name": "nightly", "trainings_per_month": 20, "rows": 2_000_000,
               "features": 200, "trees": 500, "deadline_hours": 1.5}  # fmt: skip
    plan = saved_plan(owner, candidates=[{"tier": DEDICATED}], workloads=[nightly])
    html = german(owner).get(edit_url(plan)).content.decode()
    assert "1 Tarif hat für diese Arbeitslast keine" in html
    assert re.search(
        r"<strong>Test Hosting Extreme · monatlich:</strong> <span class=\"muted reasons\">"
        r"Arbeitslast nightly: "
        r"ein Job dauert \d{1,3}(\.\d{3})*,\d\d h auf einem Server mit 32 Threads, "
        r"länger als seine Frist von 1,5 h, und ein Gradient Boosting-Job lässt sich nicht "
        r"auf mehrere Server aufteilen</span>",
        html,
    )
    assert "Es fehlt kein Benchmark-Lauf: nach seiner Zahl trägt der Tarif" in html


def test_a_shared_snapshot_is_said_in_german_from_its_frozen_messages(owner, old_box):
    plan = old_box_plan(owner)
    share = services.share_create(plan=plan, user=owner)
    [option] = share.snapshot["results"]["options"]
    title = next(m for m in option["messages"] if m["field"] == "title")
    rename_tiers(title, "Frozen Box")  # only the snapshot knows this name
    share.save(update_fields=["snapshot"])
    html = Client().get(f"/s/{share.token}/?lang=de").content.decode()
    assert f"2{NBSP}× Test Frozen Box · monatlich" in html
    day = old_box.effective_from
    assert f"Old Box: Preis veraltet (gültig ab {formatting.date(day, 'de')})" in html
    assert '<td data-label="Amortisation">Monat 3</td>' in html


def test_a_share_frozen_before_messages_shows_its_english_and_is_not_changed(owner, old_box):
    share = services.share_create(plan=old_box_plan(owner), user=owner)
    assert share.snapshot["results"]["options"][0]["messages"]  # what an older share lacks
    share.snapshot = strip_messages(share.snapshot)
    share.save(update_fields=["snapshot"])
    response = Client().get(f"/s/{share.token}/?lang=de")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="de">' in html
    assert f"Old Box: price stale (effective {old_box.effective_from})" in html  # as stored
    assert "2 × Test Old Box · monthly" in html
    assert '<td data-label="Amortisation">Monat 3</td>' in html  # payback is rebuilt from its month
    assert 'id="today"' not in html  # nothing moved: missing messages are no change


def test_the_compare_page_names_the_best_options_in_german(owner, old_box):
    left = old_box_plan(owner)
    right = saved_plan(owner, name="stay on Extreme")
    html = german(owner).get(f"/plans/compare?a={left.code}&b={right.code}").content.decode()
    assert f"<td>2{NBSP}× Test Old Box · monatlich</td>" in html


def test_chart_labels_are_said_in_the_readers_language():
    spot = frame(EXTREME_ROW, C5_4X_SPOT)
    data = {"currency": "USD", "baseline": {"monthly": 480},
            "candidates": [{"tier": "inmotion-extreme", "count": 2}]}  # fmt: skip
    comparison = compare(parse_plan(data), spot, {}, as_of=AS_OF).output()
    with translation.override("de"):
        bars = dashboard.results(comparison).charts["monthly"]["bars"]
    assert bars[1]["label"] == f"2{NBSP}× inmotion Extreme Dedicated · monatlich"
    with translation.override("en"):
        bars = dashboard.results(comparison).charts["monthly"]["bars"]
    assert bars[1]["label"] == "2 × inmotion Extreme Dedicated · monthly"


def test_a_share_frozen_before_option_titles_shows_its_label(owner, old_box):
    share = services.share_create(plan=old_box_plan(owner), user=owner)
    [option] = share.snapshot["results"]["options"]
    del option["title"]
    for part in option["parts"]:
        del part["title"]
    option["messages"] = [m for m in option["messages"] if not m["field"].endswith("title")]
    del share.snapshot["uncertainty"]  # frozen before titles: long before the sensitivity
    share.save(update_fields=["snapshot"])
    html = Client().get(f"/s/{share.token}/?lang=de").content.decode()
    frozen = html.split('id="frozen"')[1].split('id="today"')[0]  # today's figures: titled
    assert f"2{NBSP}× Old Box" in frozen and "Test Old Box" not in frozen


def rename_tiers(message, name):
    """Every tier a message (JSON) names, renamed."""
    for value in message["params"].values():
        if isinstance(value, dict) and "tier" in value and "code" not in value:
            value["name"] = name
        elif isinstance(value, dict) and "code" in value:
            rename_tiers(value, name)


def strip_messages(value):
    if isinstance(value, dict):
        return {k: strip_messages(v) for k, v in value.items() if k != "messages"}
    if isinstance(value, list):
        return [strip_messages(v) for v in value]
    return value
