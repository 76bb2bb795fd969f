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


# The editor's lists are Django formsets: a row's field is "<prefix>-<n>-<field>". Tests
# write it as a keyword, "cand_0__tier" (Python names hold no "-"); `field_name` translates.
_ROW_KEY = re.compile(r"^(cand|commit|owned|wl_[a-z_]+?)_(\d+)__(\w+)$")
FORMSETS = ("cand", "commit", "owned", "wl_gbm", "wl_sklearn", "wl_features", "wl_hpo",
            "wl_inference", "wl_nn", "wl_deep_learning")  # fmt: skip


def field_name(key: str) -> str:
    """The posted name of a field: "cand_0__tier" → "cand-0-tier"; others unchanged."""
    match = _ROW_KEY.match(key)
    return f"{match.group(1)}-{match.group(2)}-{match.group(3)}" if match else key


def form_data(**changes: Any) -> dict[str, str]:
    """What the editor posts for a three-field plan: spend 480, one Extreme server (rates as
    the form shows them: percentages)."""
    data = {
        "currency": "USD",
        "name": "",
        "horizon_months": "36",
        "annual_discount_rate": "7",
        "utilisation_target": "70",
        "monthly_growth": "0",
        "spot_interruption_allowance": "10",
        "baseline__monthly": "480",
        "baseline__count": "1",
        "one_time__other": "0",
        "monthly__egress": "0",
        "monthly__other": "0",
        "cand-0-tier": DEDICATED,
        "cand-0-count": "1",
        "cand-1-tier": "",
        "cand-2-tier": "",
    }
    data.update({field_name(k): str(v) for k, v in changes.items()})
    return with_management(data)


def with_management(data: dict[str, str]) -> dict[str, str]:
    """The formsets' management fields: as many rows as the data names (at least one)."""
    for prefix in FORMSETS:
        rows = [int(k.split("-")[1]) for k in data if k.startswith(f"{prefix}-") and
                k.split("-")[1].isdigit()]  # fmt: skip
        data.setdefault(f"{prefix}-TOTAL_FORMS", str(max(rows, default=0) + 1))
        data.setdefault(f"{prefix}-INITIAL_FORMS", "0")
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
    name = field_name(field)
    match = re.search(rf'id="id_{re.escape(name)}_error"[^>]*>(.*?)</span>', html, re.S)
    return match.group(1).strip() if match else ""
