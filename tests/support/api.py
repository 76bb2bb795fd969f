"""Helpers for the JSON API tests: plans that validate, and calling the API as a persona."""

from __future__ import annotations

import json
from typing import Any

from django.test import Client

from planner.models import ApiToken

JSON = "application/json"
# The field-notes case on the default catalog: $480 a month against one Extreme server.
EXTREME = "inmotion-hosting-extreme-dedicated-fixed-monthly"
FIELD_NOTES = {
    "currency": "USD",
    "baseline": {"monthly": "480"},
    "candidates": [{"tier": EXTREME, "count": 1}],
    "one_time": {"migration_hours": 5, "migration_rate": 100, "running_both_months": 0,
                 "retraining": 0},
}  # fmt: skip
TEST_BOX = "test-box"  # the one tier of the one_box_catalog fixture


def fixed_plan(tier: str, *, monthly: str = "480", count: int = 1, **extra: Any) -> dict:
    """The smallest plan the schema accepts: a quoted baseline against a fixed count of one tier."""
    return {
        "currency": "USD",
        "baseline": {"monthly": monthly},
        "candidates": [{"tier": tier, "count": count}],
        **extra,
    }


def token_client(user, name: str = "test") -> tuple[Client, str]:
    """A client that sends a fresh API token of `user` (and enforces CSRF, like a browser)."""
    _token, raw = ApiToken.issue(user=user, name=name)
    return Client(enforce_csrf_checks=True, HTTP_AUTHORIZATION=f"Bearer {raw}"), raw


def session_client(user) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


def csrf_token(client: Client) -> str:
    """The CSRF token a logged-in browser would hold, from a page that sets it."""
    client.get("/account/")
    return client.cookies["csrftoken"].value


def post_json(client: Client, url: str, data: Any, **headers: str):
    body = data if isinstance(data, bytes | str) else json.dumps(data)
    return client.post(url, body, content_type=JSON, headers=headers)


def evaluated(client: Client, plan: dict) -> dict:
    """`POST /api/v1/evaluate` that must answer 200: the comparison's JSON."""
    response = post_json(client, "/api/v1/evaluate", plan)
    assert response.status_code == 200, response.content[:500]
    return response.json()
