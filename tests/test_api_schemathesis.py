"""schemathesis against docs/openapi.yaml, through Django's WSGI handler: generated and
mutated requests to every operation never get a server error, and every answer matches
the document (status, content type, headers, body).

Seeded (hypothesis' derandomize), at most SCHEMATHESIS_EXAMPLES examples per operation,
the rate limit raised for the run. It runs on whatever database the session has: PostgreSQL
in CI's schemathesis lane, and SQLite in the lane CI runs beside it (`.ci/run`). The longer
unseeded run is bench/schemathesis_long.py.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, settings
from schemathesis.specs.openapi.checks import negative_data_rejection, positive_data_acceptance

from catalog.defaults import load_default_catalog
from planner.models import ApiToken
from planner.services import plans as services

pytestmark = [pytest.mark.schemathesis, pytest.mark.django_db]
DOC = os.path.join(os.path.dirname(__file__), "..", "docs", "openapi.yaml")
EXAMPLES = int(os.getenv("SCHEMATHESIS_EXAMPLES", "200"))
# bench/schemathesis_long.py: unseeded, and the answers counted into this JSON file.
RANDOM = os.getenv("SCHEMATHESIS_RANDOM") == "1"
STATS = os.getenv("SCHEMATHESIS_STATS", "")
_answers: dict[str, Counter[int]] = {}
# Every built-in check runs, "rejected valid request" included: the rules between fields are
# in the document (planner/compute/schema/rules.py). It runs as `valid_request_taken`, which
# lets through one refusal the schema cannot foresee: a plan whose figures would pass the
# planner's documented maxima (docs/design.md, "Bounds"; 400 naming the field).
EXCLUDED: list = [positive_data_acceptance]
OUTPUT_BOUNDS = {"engine.too_large", "engine.too_many_servers"}


def valid_request_taken(ctx, response, case):
    if response.status_code == 400 and case.meta and case.meta.generation.mode.is_positive:
        details = (response.json() or {}).get("error_details", {})
        codes = {item["code"] for items in details.values() for item in items}
        if codes and codes <= OUTPUT_BOUNDS:
            return None
    return positive_data_acceptance(ctx, response, case)


EXTREME = "inmotion-hosting-extreme-dedicated-fixed-monthly"
KNOWN_TIERS = {EXTREME, "aws-c5.4xlarge-us-east-1-on-demand"}


@pytest.fixture(autouse=True)
def keep_the_test_connection():
    """A WSGI request closes the database connection when it ends (so a server never keeps
    a broken one); here that is the test's own transaction. Django's test client does the
    same: it lets requests run without closing it."""
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    yield
    for signal in (request_started, request_finished):
        signal.connect(close_old_connections)


@pytest.fixture(autouse=True)
def settings_overrides(settings):
    settings.API_RATE_LIMIT_PER_MINUTE = 10**9
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    load_default_catalog()


@pytest.fixture
def bearer(owner) -> dict[str, str]:
    """The owner's key, and a stored plan with a share (made without the test client, which
    would connect the signal again)."""
    _token, raw = ApiToken.issue(user=owner, name="schemathesis")
    plan = services.parse({"currency": "USD", "baseline": {"monthly": "480"},
                           "candidates": [{"tier": EXTREME, "count": 1}]})  # fmt: skip
    services.share_create(plan=services.plan_create(owner=owner, plan=plan), user=owner)
    return {"Authorization": f"Bearer {raw}"}


def with_catalog_data(body):
    """A generated valid body with the catalog's data in it: tier keys the catalog offers
    and a currency with a rate. The document states these two rules in words (they are
    data, not schema): any string of the tier pattern is not a tier. Every other rule
    between fields is in the schema, so the "rejected valid request" check runs."""
    if isinstance(body, list):
        return [with_catalog_data(item) for item in body]
    if not isinstance(body, dict):
        return body
    # an imported bill is the caller's own data too: a generated plan names none
    out = {key: with_catalog_data(value) for key, value in body.items() if key != "bill"}
    for key in ("tier", "runs_on"):
        if isinstance(out.get(key), str) and out[key] not in KNOWN_TIERS:
            out[key] = EXTREME
    if isinstance(out.get("currency"), str) and out["currency"] not in ("USD", "EUR"):
        out["currency"] = "USD"
    return out


# Loaded at collection: one test per operation. (schemathesis' lazy fixture loader reads a
# private pytest attribute that pytest 9 no longer has.)
schema = schemathesis.openapi.from_path(DOC)
schema.app = WSGIHandler()  # requests go through Django's WSGI handler, in this process


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    derandomize=not RANDOM,  # the fixed seed: the same requests on every run
    deadline=None,
    database=None,
    phases=[Phase.explicit, Phase.generate],  # CI wants the answer, not a shrunk example
    suppress_health_check=list(HealthCheck),
)
def test_no_server_error_and_every_answer_as_documented(case, bearer):
    if case.meta is not None and case.meta.generation.mode.is_positive:
        case.body = with_catalog_data(case.body)
    excluded = EXCLUDED
    if case.media_type == "multipart/form-data":
        # schemathesis sends a file for a multipart part whatever its mutation, so a
        # "negative" upload arrives valid (its own report says "valid object").
        excluded = [*EXCLUDED, negative_data_rejection]
    response = case.call_and_validate(
        headers=bearer, excluded_checks=excluded, additional_checks=[valid_request_taken]
    )
    if STATS:
        _answers.setdefault(case.operation.label, Counter())[response.status_code] += 1


@pytest.fixture(scope="module", autouse=True)
def write_stats():
    yield
    if STATS:
        counts = {op: {str(k): v for k, v in sorted(c.items())} for op, c in _answers.items()}
        Path(STATS).write_text(json.dumps(counts, indent=1))
