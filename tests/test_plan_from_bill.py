"""A plan's baseline from an imported bill (issue 25, item 4): the editor and the API take
`baseline.bill`, the monthly is the chosen compute lines' figure, the answer's provenance
and the plan page name the bill, its period and its lines; `/plans/new?bill=<id>` opens the
editor from a bill (owner only); the bill's trend sets `monthly_growth`, said as such."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from pathlib import Path

import pytest
from django.test import Client

from bills.baseline import baseline_from_bill, trend
from bills.models import BillLine
from bills.services.importing import import_bill
from catalog.defaults import load_default_catalog
from planner.models import Plan
from tests.support.api import session_client, token_client
from tests.support.bills import (
    FOCUS,
    GBM_WORK,
    aws_compute_accounts,
    bill_sample,
    focus_bill,
    rows_of,
    write_csv,
)
from tests.support.dashboard import form_data, small_catalog

pytestmark = pytest.mark.django_db


def test_a_plan_built_from_the_focus_samples_aws_compute_lines_names_the_bill(owner) -> None:
    bill = focus_bill(owner, catalog=True)
    accounts = aws_compute_accounts(bill)
    client = token_client(owner)[0]
    plan = {"currency": "USD", "baseline": {"monthly": "1", "bill": {"id": bill.pk,
            "accounts": accounts}}, "workloads": GBM_WORK}  # fmt: skip
    made = client.post("/api/v1/plans", json.dumps(plan), content_type="application/json")
    assert made.status_code == 201, made.content
    stored = Plan.objects.get(code=made.json()["id"])
    expected = baseline_from_bill(bill, accounts=accounts)
    # the monthly is the bill's figure of the chosen lines, whatever was sent
    assert stored.inputs["baseline"]["monthly"] == str(expected.monthly) != "1"
    assert stored.inputs["baseline"]["bill"]["accounts"] == accounts
    body = client.get(f"/api/v1/plans/{stored.code}").json()
    said = body["comparison"]["baseline"]["provenance"]
    assert said["bill"]["bill"] == bill.pk and said["bill"]["name"] == bill.name
    assert said["bill"]["period_start"] == "2024-09-01" and said["bill"]["lines"] > 0
    assert said["bill"]["sha256"] == bill.sha256
    assert "baseline.monthly" not in said["entered"]  # the bill's figure, not typed
    assert {t["instance_type"] for t in said["bill"]["tiers"]} >= {"c5.2xlarge"}
    assert Decimal(body["comparison"]["baseline"]["monthly"][0]) == expected.monthly


def test_another_users_bill_is_refused_as_not_found(owner, other_user) -> None:
    bill = focus_bill(owner)
    client = token_client(other_user, "other")[0]
    plan = {"currency": "USD", "baseline": {"monthly": "1", "bill": {"id": bill.pk}},
            "workloads": GBM_WORK}  # fmt: skip
    refused = client.post("/api/v1/plans", json.dumps(plan), content_type="application/json")
    assert refused.status_code == 400, refused.content
    details = refused.json()["error_details"]
    assert details["baseline.bill.id"][0]["code"] == "bills.plan.not_found"
    assert not Plan.objects.exists()
    evaluated = client.post("/api/v1/evaluate", json.dumps(plan), content_type="application/json")
    assert evaluated.status_code == 400


def test_plans_new_from_a_bill_opens_the_editor_prefilled_owner_only(owner, other_user) -> None:
    bill = focus_bill(owner)
    page = session_client(owner).get(f"/plans/new?bill={bill.pk}")
    assert page.status_code == 200
    html = page.content.decode()
    monthly = baseline_from_bill(bill).monthly
    assert f'value="{monthly}"' in html or f'value="{monthly:,}"' in html
    assert f'<option value="{bill.pk}" selected>' in html
    assert session_client(other_user).get(f"/plans/new?bill={bill.pk}").status_code == 404
    assert session_client(owner).get("/plans/new?bill=x").status_code == 404
    assert session_client(owner).get(f"/plans/new?bill={bill.pk + 99}").status_code == 404


def _editor_client(user) -> Client:
    client = Client()  # the editor's own post (CSRF is the API's and the browser's test)
    client.force_login(user)
    return client


def test_the_editor_saves_a_baseline_from_a_bill_and_the_page_names_it(owner) -> None:
    small_catalog()
    bill = focus_bill(owner)
    client = _editor_client(owner)
    data = form_data(baseline__bill=str(bill.pk), baseline__bill_providers="AWS", action="save")
    saved = client.post("/plans/new", data)
    assert saved.status_code == 302, saved.content.decode()[:3000]
    plan = Plan.objects.get()
    expected = baseline_from_bill(bill, providers=["AWS"])
    assert plan.inputs["baseline"]["monthly"] == str(expected.monthly)
    assert plan.inputs["baseline"]["bill"] == {"id": bill.pk, "providers": ["AWS"],
        "accounts": [], "regions": [], "services": [], "instance_types": [], "tags": [],
        "growth_from_trend": False}  # fmt: skip
    page = client.get(saved["Location"]).content.decode()
    assert 'data-testid="baseline-bill"' in page and bill.name in page
    assert "2024-09-01" in page or "Sep 1, 2024" in page
    # the printed inputs: the bill and its filter, one row each (not a row an account)
    assert page.count("Bill lines: providers") == 1 and "Baseline from bill" in page


def test_a_trend_asked_of_a_one_month_bill_is_refused_beside_its_field(owner) -> None:
    small_catalog()
    bill = focus_bill(owner)
    data = form_data(baseline__bill=str(bill.pk), baseline__bill_growth="on", action="save")
    page = _editor_client(owner).post("/plans/new", data)
    assert page.status_code == 400
    assert "a trend needs two or more" in page.content.decode()
    assert not Plan.objects.exists()


def _two_months(tmp_path: Path) -> Path:
    """GENERATED from the FOCUS sample: its AWS rows again a month later at 1.21 x the cost
    (charge and billing periods moved a month), so the bill spans September and October."""
    header, rows = rows_of(bill_sample(FOCUS))
    aws = [r for r in rows if r["ProviderName"] == "AWS"]
    later = []
    for row in aws:
        moved = dict(row)
        for name in ("ChargePeriodStart", "ChargePeriodEnd", "BillingPeriodStart",
                     "BillingPeriodEnd"):  # fmt: skip
            if moved.get(name):
                moved[name] = _month_on(moved[name])
        for name in ("BilledCost", "EffectiveCost", "ListCost", "ContractedCost"):
            if moved.get(name):
                moved[name] = str(Decimal(moved[name]) * Decimal("1.21"))
        later.append(moved)
    return write_csv(tmp_path / "focus_two_months_GENERATED.csv", header, aws + later)


def _month_on(text: str) -> str:
    day = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    month = day.month % 12 + 1
    moved = day.replace(year=day.year + (day.month == 12), month=month)
    return moved.isoformat().replace("+00:00", "Z")


def test_the_bills_trend_sets_monthly_growth_said_as_such(owner, tmp_path) -> None:
    load_default_catalog()
    bill = import_bill(_two_months(tmp_path), owner).bill
    found = trend(baseline_from_bill(bill))
    assert found.months == ("2024-09", "2024-10")
    compute = BillLine.objects.filter(bill=bill, service_category="Compute",
                                      charge_category="Usage")  # fmt: skip
    sums = [sum(line.cost for line in compute.filter(day__month=m)) for m in (9, 10)]
    assert found.monthly == tuple(sums)
    # The cost is 1.21 x billed a month later; rows whose effective cost was flagged (whole
    # numbers) are no longer flagged at 1.21 x, so the chosen cost grows by more than 21 %.
    growth = Decimal(str(round(float(sums[1] / sums[0]) - 1, 6)))
    assert found.growth == growth and Decimal("0.21") <= growth <= Decimal("0.5")
    client = token_client(owner)[0]
    plan = {
        "currency": "USD",
        "monthly_growth": "0",
        "workloads": GBM_WORK,
        "baseline": {"monthly": "1", "bill": {"id": bill.pk, "growth_from_trend": True}},
    }
    made = client.post("/api/v1/plans", json.dumps(plan), content_type="application/json")
    assert made.status_code == 201, made.content
    body = client.get(made["Location"]).json()
    assert body["inputs"]["monthly_growth"] == str(growth)
    said = body["comparison"]["baseline"]["provenance"]["bill"]["trend"]
    assert (said["first"], said["last"], said["growth"]) == ("2024-09", "2024-10", str(growth))


def test_a_share_carries_the_plans_aggregates_of_the_bill_only(owner) -> None:
    from planner.services import plans as services

    small_catalog()
    bill = focus_bill(owner)
    accounts = aws_compute_accounts(bill)
    data = {"currency": "USD", "workloads": GBM_WORK, "candidates": [
        {"parts": [{"tier": "test-extreme-fixed-monthly", "mode": "fixed", "count": 1}]}],
        "baseline": {"bill": {"id": bill.pk, "accounts": accounts}}}  # fmt: skip
    plan = services.plan_create(owner=owner, plan=services.parse_owned(data, owner))
    share = services.share_create(plan=plan, user=owner)
    frozen = json.dumps(share.snapshot)
    assert bill.name not in frozen and bill.sha256 not in frozen
    assert not any(account in frozen for account in accounts)
    said = share.snapshot["results"]["baseline"]["provenance"]["bill"]
    # the owner did not choose to show the bill: not its period either (issue 25, privacy)
    assert said["shared"] is True and "period_start" not in said and "lines" not in said
    assert said["monthly"] == plan.inputs["baseline"]["monthly"]
    page = Client().get(f"/s/{share.token}/").content.decode()
    assert "From the owner" in page and bill.name not in page


@pytest.mark.parametrize(
    "baseline",
    ["480", {"bill": "7"}, {"bill": {"id": True}}, {"bill": {"id": 10**30}}, {"bill": {"id": 0}}],
)
def test_a_malformed_bill_choice_is_a_400_naming_the_field_never_a_500(owner, baseline) -> None:
    client = token_client(owner)[0]
    plan = {"currency": "USD", "baseline": baseline, "workloads": GBM_WORK}
    answer = client.post("/api/v1/evaluate", json.dumps(plan), content_type="application/json")
    assert answer.status_code == 400, answer.content
    assert any(path.startswith("baseline") for path in answer.json()["errors"])


def _tagged(bill) -> tuple[str, str]:
    """Two tags of the FOCUS sample's compute lines ("k=v"), each on some but not all."""
    tags = BillLine.objects.filter(bill=bill, service_category="Compute", charge_category="Usage")
    seen = sorted({t for line in tags.exclude(tags="").values_list("tags", flat=True)
                   for t in line.split(";") if t.startswith("business_unit=")})  # fmt: skip
    return seen[0], seen[1]


def test_a_baseline_filtered_by_tags_through_the_api_and_the_editor(owner) -> None:
    small_catalog()
    bill = focus_bill(owner)
    first, second = _tagged(bill)
    expected = baseline_from_bill(bill, tags=[first, second])
    assert 0 < expected.lines < baseline_from_bill(bill).lines
    client = token_client(owner)[0]
    plan = {"currency": "USD", "baseline": {"bill": {"id": bill.pk, "tags": [first, second]}},
            "workloads": GBM_WORK}  # fmt: skip
    made = client.post("/api/v1/plans", json.dumps(plan), content_type="application/json")
    assert made.status_code == 201, made.content
    stored = Plan.objects.get(code=made.json()["id"])
    assert stored.inputs["baseline"]["monthly"] == str(expected.monthly)
    said = client.get(f"/api/v1/plans/{stored.code}").json()["comparison"]["baseline"]
    assert said["provenance"]["bill"]["filters"] == {"tags": sorted([first, second])}
    answer = client.get(f"/api/v1/bills/{bill.pk}/baseline?tag={first}&tag={second}")
    assert answer.status_code == 200
    assert answer.json()["baseline"]["monthly"] == str(expected.monthly)
    editor = _editor_client(owner)
    data = form_data(baseline__bill=str(bill.pk), baseline__bill_tags=f"{first}, {second}",
                     action="save")  # fmt: skip
    saved = editor.post("/plans/new", data)
    assert saved.status_code == 302, saved.content.decode()[:3000]
    latest = Plan.objects.order_by("-id").first()
    assert latest.inputs["baseline"]["bill"]["tags"] == [first, second]
    assert latest.inputs["baseline"]["monthly"] == str(expected.monthly)
