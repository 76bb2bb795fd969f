# ruff: noqa: RUF003  (hand calculations written with × and ÷)
"""A plan built from the FOCUS sample's AWS compute lines (issue 25, item 4), through the
API on the real database: the baseline's machines by catalog tier (`baseline.tiers`),
options sized to carry what they carry (`baseline.sizing: "matched"`), the bill and its
tiers named in the provenance; a share shows the bill's aggregates only when its owner
chooses (`include_bill`), and a share of a matched plan is not "changed" by being
recomputed."""

from __future__ import annotations

import json
import math
from decimal import Decimal

import pytest
from django.test import Client

from bills.baseline import baseline_from_bill
from catalog.defaults import load_default_catalog
from catalog.models import Tier
from planner.models import Plan, Share
from planner.services import plans as services
from planner.services.bills import plan_tiers
from tests.support.api import token_client
from tests.support.bills import GBM_WORK, aws_compute_accounts, focus_bill
from tests.support.runs import GBM_RUN, import_copy

pytestmark = pytest.mark.django_db


def _alternative() -> Tier:
    return Tier.objects.filter(kind="dedicated", retired=False, vcpus__gte=32).order_by("slug")[0]


def _measured(tiers: list[str]) -> None:
    """The same GBM run on every tier named (a copy per tier, labelled so): a server's share
    of the work is then its vCPUs' over the threads the run used."""
    for slug in tiers:
        import_copy(GBM_RUN, f"copy-for-{slug}", Tier.objects.get(slug=slug))


@pytest.fixture
def from_bill(owner):
    bill = focus_bill(owner, catalog=True)
    accounts = aws_compute_accounts(bill)
    found = baseline_from_bill(bill, accounts=accounts)
    return bill, accounts, found


def _plan(bill, accounts, alt: str, **baseline) -> dict:
    return {"name": "from the bill", "currency": "USD", "workloads": GBM_WORK,
            "candidates": [{"tier": alt}],
            "baseline": {"monthly": "1", "bill": {"id": bill.pk, "accounts": accounts},
                         **baseline}}  # fmt: skip


def test_the_bills_tiers_become_the_baseline_and_the_options_carry_them(owner, from_bill):
    bill, accounts, found = from_bill
    tiers = plan_tiers(found)
    assert tiers and {t["tier"] for t in tiers} == {t.tier for t in found.tiers}
    alt = _alternative()
    _measured([t["tier"] for t in tiers] + [alt.slug])
    client = token_client(owner)[0]
    body = _plan(bill, accounts, alt.slug, sizing="matched")
    made = client.post("/api/v1/plans", json.dumps(body), content_type="application/json")
    assert made.status_code == 201, made.content
    stored = Plan.objects.get(code=made.json()["id"])
    assert stored.inputs["baseline"]["tiers"] == tiers  # count = hours ÷ 730, the bill's cost
    assert stored.inputs["baseline"]["monthly"] == str(found.monthly)  # the bill's whole figure
    for line, tier in zip(sorted(found.tiers, key=lambda t: t.tier), tiers, strict=False):
        assert Decimal(tier["count"]) == (line.hours_a_month / 730).quantize(Decimal("1E-6"))
    from tests.test_api_openapi_document import Answers

    got = client.get(f"/api/v1/plans/{stored.code}")
    Answers().check("/plans/{id}", "get", got)  # the answer as docs/openapi.yaml says
    answer = got.json()["comparison"]
    baseline = answer["baseline"]
    said = baseline["provenance"]["bill"]
    assert said["name"] == bill.name and said["period_start"] == "2024-09-01"
    assert {t["tier"] for t in said["tiers"]} == {t["tier"] for t in tiers}
    assert said["unmatched"] == [] or all(u["tier"] is None for u in said["unmatched"])
    assert Decimal(baseline["monthly"][0]) == found.monthly  # the same money as before
    matched = baseline["matched"]
    assert matched["missing"] == [] and matched["capacity"] is not None
    carries = sum(Decimal(t["count"]) * Decimal(t["share"]) for t in matched["tiers"])
    assert Decimal(matched["capacity"]) == pytest.approx(carries, abs=Decimal("0.001"))
    assert answer["options"], (answer["no_number"], alt.slug)
    option = answer["options"][0]
    said = [m for m in option["messages"] if m["code"] == "matched.note"]
    assert len(said) == 1
    share_alt = Decimal(said[0]["params"]["share"]["number"])
    need = max(1, math.ceil(Decimal(matched["capacity"]) / share_alt))
    assert option["parts"][0]["servers_by_month"] == [need] * len(baseline["monthly"])


def test_a_tier_with_no_figure_is_said_and_the_options_are_sized_to_the_work(owner) -> None:
    load_default_catalog()
    alt = _alternative()
    _measured([alt.slug])
    # a tier whose vCPUs the catalog does not list: the model gives it no figure
    unknown = Tier.objects.filter(vcpus__isnull=True, retired=False).order_by("slug").first()
    assert unknown is not None
    client = token_client(owner)[0]
    tiers = [{"tier": unknown.slug, "count": "3", "monthly": "100"}]
    body = {"currency": "USD", "workloads": GBM_WORK, "candidates": [{"tier": alt.slug}],
            "baseline": {"monthly": "100", "sizing": "matched", "tiers": tiers}}  # fmt: skip
    answer = client.post("/api/v1/evaluate", json.dumps(body), content_type="application/json")
    assert answer.status_code == 200, answer.content
    found = answer.json()
    matched = found["baseline"]["matched"]
    assert matched["capacity"] is None and matched["missing"] == [unknown.slug]
    option = found["options"][0]
    codes = [m["code"] for m in option["messages"] if m["code"].startswith("matched.")]
    assert codes == ["matched.no_capacity"]
    sized = client.post("/api/v1/evaluate", json.dumps({**body, "baseline": {"monthly": "100"}}),
                        content_type="application/json").json()  # fmt: skip
    assert (
        option["parts"][0]["servers_by_month"]
        == sized["options"][0]["parts"][0]["servers_by_month"]
    )  # the workloads' count, not an invented one


def _matched_plan(owner, from_bill) -> Plan:
    bill, accounts, found = from_bill
    alt = _alternative()
    _measured([t.tier for t in found.tiers] + [alt.slug])
    data = _plan(bill, accounts, alt.slug, sizing="matched")
    return services.plan_create(owner=owner, plan=services.parse_owned(data, owner))


def test_a_private_share_says_the_owners_bill_without_its_name_or_lines(owner, from_bill):
    bill, accounts, found = from_bill
    plan = _matched_plan(owner, from_bill)
    client = token_client(owner)[0]
    made = client.post(f"/api/v1/plans/{plan.code}/shares")
    assert made.status_code == 201, made.content
    share = Share.objects.get(token=made.json()["token"])
    frozen = json.dumps(share.snapshot)
    assert bill.name not in frozen and bill.sha256 not in frozen
    assert not any(account in frozen for account in accounts)
    said = share.snapshot["results"]["baseline"]["provenance"]["bill"]
    assert said["shared"] is True and said["monthly"] == str(found.monthly)
    assert not {"name", "period_start", "lines", "tiers", "unmatched", "bill"} & set(said)
    shown = client.get(f"/api/v1/shared/{share.token}").json()
    assert bill.name not in json.dumps(shown)
    page = Client().get(f"/s/{share.token}/")
    html = page.content.decode()
    assert page.status_code == 200
    assert "From the owner" in html, html[html.find("Baseline (today)") :][:1500]
    assert bill.name not in html and "2024-09" not in html
    # recomputed today from the same evidence: nothing changed (the matched counts, the bill's
    # part of the provenance), so the page shows no "today" column
    assert 'class="shared with-today"' not in html
    today = services.recompute_snapshot_inputs(share)
    assert today["diff"]["figures"] == [], today["diff"]["figures"][:3]


def test_a_share_with_the_bill_chosen_carries_the_plans_aggregates_only(owner, from_bill):
    bill, accounts, found = from_bill
    plan = _matched_plan(owner, from_bill)
    client = token_client(owner)[0]
    made = client.post(f"/api/v1/plans/{plan.code}/shares?include_bill=true")
    assert made.status_code == 201, made.content
    share = Share.objects.get(token=made.json()["token"])
    frozen = json.dumps(share.snapshot)
    assert bill.sha256 not in frozen and not any(a in frozen for a in accounts)
    assert "bill_commitments" not in frozen and '"filters"' not in frozen
    said = share.snapshot["results"]["baseline"]["provenance"]["bill"]
    assert said["name"] == bill.name and said["period_start"] == "2024-09-01"
    assert said["lines"] == found.lines and {t["tier"] for t in said["tiers"]} == {
        t.tier for t in found.tiers}  # fmt: skip
    assert "bill" not in said and "sha256" not in said
    html = Client().get(f"/s/{share.token}/").content.decode()
    assert bill.name in html and 'class="shared with-today"' not in html
    assert services.recompute_snapshot_inputs(share)["diff"]["figures"] == []


def test_the_editors_share_form_asks_before_showing_the_bill(owner, from_bill):
    bill, _accounts, _found = from_bill
    plan = _matched_plan(owner, from_bill)
    browser = Client()
    browser.force_login(owner)
    page = browser.get(f"/plans/{plan.code}/").content.decode()
    assert 'name="include_bill"' in page
    browser.post(f"/plans/{plan.code}/share")
    browser.post(f"/plans/{plan.code}/share", {"include_bill": "on"})
    private, chosen = Share.objects.filter(plan=plan).order_by("id")
    assert "name" not in private.snapshot["results"]["baseline"]["provenance"]["bill"]
    assert chosen.snapshot["results"]["baseline"]["provenance"]["bill"]["name"] == bill.name
    # viewing the plan, then its share, leaves nothing "changed since you last viewed it"
    browser.get(f"/plans/{plan.code}/")
    Client().get(f"/s/{private.token}/")
    cell = browser.get(f"/plans/{plan.code}/figures").content.decode()
    assert "changed since you last viewed it" not in cell


def test_the_editor_shows_the_bills_tiers_and_takes_the_matched_sizing(owner, from_bill):
    from tests.support.dashboard import form_data

    bill, _accounts, _found = from_bill
    browser = Client()
    browser.force_login(owner)
    data = form_data(baseline__bill=str(bill.pk), baseline__bill_providers="AWS",
                     baseline__sizing="matched", cand_0__tier=_alternative().slug,
                     action="save")  # fmt: skip
    saved = browser.post("/plans/new", data)
    assert saved.status_code == 302, saved.content.decode()[:3000]
    plan = Plan.objects.get()
    expected = plan_tiers(baseline_from_bill(bill, providers=["AWS"]))
    assert plan.inputs["baseline"]["sizing"] == "matched"
    assert plan.inputs["baseline"]["tiers"] == expected and expected
    page = browser.get(saved["Location"]).content.decode()
    assert 'data-testid="bill-tiers"' in page
    assert '<option value="matched" selected>' in page
    names = {t.slug: t.name for t in Tier.objects.filter(slug__in=[t["tier"] for t in expected])}
    assert all(name in page for name in names.values())


@pytest.mark.parametrize(("language", "dearer", "never"), [
    ("en", "a month more against the whole bill", "saves \u2212"),
    ("de", "im Monat mehr gegenüber der ganzen Rechnung", "spart \u2212"),
])  # fmt: skip
def test_a_move_dearer_than_the_bill_says_it_costs_more_never_saves_a_negative(
    owner, from_bill, language, dearer, never
):
    """The FOCUS sample's AWS compute is $17.89 a month and the dedicated server far more:
    the headline against staying and committing says the move costs more (a finance lead
    reads "saves -$332.10", a minus sign before the amount, as a saving)."""
    plan = _matched_plan(owner, from_bill)
    browser = Client()
    browser.force_login(owner)
    browser.cookies["django_language"] = language
    page = browser.get(f"/plans/{plan.code}/").content.decode()
    headline = page[page.index('data-testid="vs-bill-commitments"') :]
    headline = headline[: headline.index("</p>")]
    assert dearer in headline and never not in headline, headline
