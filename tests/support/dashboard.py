"""Builders for the dashboard tests: a two-tier catalog, form posts, plans, pages read back."""

from __future__ import annotations

import datetime as dt
import re
import uuid
from typing import Any

from django.test import Client
from django.utils import timezone

from planner.services import plans as services
from tests.support.catalog import add_price, make_tier

DEDICATED = "test-extreme-fixed-monthly"
CLOUD = "aws-c5.4xlarge-us-east-1-on-demand"


def days_ago(days: int) -> dt.date:
    return timezone.localdate() - dt.timedelta(days=days)


def small_catalog() -> None:
    """A dedicated tier at 349.99 a month and a cloud VM at 0.68 an hour, both recent."""
    box = make_tier(DEDICATED, provider="Test Hosting", name="Extreme", kind="dedicated",
                    pricing_model="fixed_monthly", vcpus=32, cores=16, ram_gib=192, managed=True,
                    region="")  # fmt: skip
    add_price(box, "349.99", days_ago(10), unit="month", source="test price list",
              source_url="https://example.com/prices")  # fmt: skip
    vm = make_tier(CLOUD, name="c5.4xlarge")
    add_price(vm, "0.68", days_ago(20), source="test cloud list")


def form_data(**changes: Any) -> dict[str, str]:
    """What the editor posts for a three-field plan: spend 480, one Extreme server."""
    data = {
        "currency": "USD",
        "name": "",
        "horizon_months": "36",
        "annual_discount_rate": "0.07",
        "utilisation_target": "0.7",
        "monthly_growth": "0",
        "spot_interruption_allowance": "0.10",
        "baseline__monthly": "480",
        "baseline__count": "1",
        "one_time__other": "0",
        "monthly__egress": "0",
        "monthly__other": "0",
        "cand_0__tier": DEDICATED,
        "cand_0__count": "1",
        "cand_1__tier": "",
        "cand_2__tier": "",
    }
    data.update({k: str(v) for k, v in changes.items()})
    return data


def saved_plan(owner, **changes: Any):
    """A plan stored the way the editor stores it."""
    plan = services.parse(
        {
            "currency": "USD",
            "name": changes.pop("name", "move to Extreme"),
            "baseline": {"monthly": changes.pop("monthly", "480")},
            "candidates": [{"tier": DEDICATED, "count": 1}],
            **changes,
        }
    )
    return services.plan_create(owner=owner, plan=plan)


def login(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def edit_url(plan) -> str:
    return f"/plans/{plan.code}/"


def missing_plan_url() -> str:
    return f"/plans/{uuid.uuid4()}/"


def charts_in(html: str) -> dict[str, str]:
    """{kind: url} of the charts a page shows."""
    return {kind: url for url, kind in re.findall(r'src="(/charts/([a-z]+)-[0-9a-f]+\.svg)"', html)}


def field_error(html: str, field: str) -> str:
    """The message shown beside a form field ('' when none)."""
    match = re.search(rf'id="id_{re.escape(field)}-error"[^>]*>(.*?)</span>', html, re.S)
    return match.group(1).strip() if match else ""
