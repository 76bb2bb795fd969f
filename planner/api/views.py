"""JSON API v1 (docs/openapi.yaml). Thin: parse, call a service, answer JSON.

Errors are always {"errors": {<field path>: [messages]}}; a plan that is not the
caller's answers exactly like one that does not exist.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import reverse

from changes.selectors import current_generation
from planner.api.auth import api_endpoint, error
from planner.compute.schema import PlanValidationError
from planner.models import Plan, Share
from planner.services import evaluation
from planner.services import plans as services

NOT_FOUND = "not found"


def _not_found() -> JsonResponse:
    return error(404, "__all__", NOT_FOUND)


def _invalid(exc: PlanValidationError) -> JsonResponse:
    # `errors` as it always was; `error_details` the same refusals as codes and parameters.
    return JsonResponse({"errors": exc.errors, "error_details": exc.api_details()}, status=400)


def _own_plan(request: HttpRequest, code: str) -> Plan | None:
    try:
        parsed = uuid.UUID(code)
    except ValueError:
        return None
    return services.plan_for(request.user, parsed)


def _plan_url(request: HttpRequest, plan: Plan) -> str:
    return request.build_absolute_uri(reverse("api:plan", args=[str(plan.code)]))


def _share_url(request: HttpRequest, share: Share) -> str:
    return request.build_absolute_uri(reverse("api:shared", args=[share.token]))


def _plan_summary(request: HttpRequest, plan: Plan) -> dict[str, Any]:
    return {
        "id": str(plan.code),
        "name": plan.name,
        "url": _plan_url(request, plan),
        "created": plan.created.isoformat(),
        "updated": plan.updated.isoformat(),
    }


def _share_summary(request: HttpRequest, share: Share) -> dict[str, Any]:
    return {
        "token": share.token,
        "url": _share_url(request, share),
        "created_at": share.created_at.isoformat(),
        "revoked_at": share.revoked_at.isoformat() if share.revoked_at else None,
        "as_of": share.snapshot.get("as_of"),
    }


@api_endpoint("POST")
def evaluate_plan(request: HttpRequest) -> HttpResponse:
    """A plan in, the comparison out; nothing is stored."""
    generation = current_generation()  # read once: the tiers a plan may name, and the figures
    try:
        plan = services.parse_body(request.api_body, generation=generation)
    except PlanValidationError as exc:
        return _invalid(exc)
    return JsonResponse(evaluation.comparison(plan, generation=generation))


@api_endpoint("GET", "POST")
def plans(request: HttpRequest) -> HttpResponse:
    if request.method == "GET":
        own = Plan.objects.owned_by(request.user)
        return JsonResponse({"plans": [_plan_summary(request, p) for p in own]})
    try:
        parsed = services.parse_body(request.api_body)
    except PlanValidationError as exc:
        return _invalid(exc)
    plan = services.plan_create(owner=request.user, plan=parsed)
    response = JsonResponse({"id": str(plan.code), "url": _plan_url(request, plan)}, status=201)
    response["Location"] = _plan_url(request, plan)
    return response


@api_endpoint("GET")
def plan_detail(request: HttpRequest, code: str) -> HttpResponse:
    """The stored plan and its comparison on today's prices and runs."""
    plan = _own_plan(request, code)
    if plan is None:
        return _not_found()
    body = _plan_summary(request, plan) | {
        "inputs": plan.inputs,
        "comparison": evaluation.comparison(services.stored_plan(plan)),
    }
    return JsonResponse(body)


@api_endpoint("GET", "POST")
def plan_shares(request: HttpRequest, code: str) -> HttpResponse:
    plan = _own_plan(request, code)
    if plan is None:
        return _not_found()
    if request.method == "GET":
        return JsonResponse({"shares": [_share_summary(request, s) for s in plan.shares.all()]})
    share = services.share_create(plan=plan, user=request.user)
    return JsonResponse({"token": share.token, "url": _share_url(request, share)}, status=201)


@api_endpoint("DELETE")
def plan_share_revoke(request: HttpRequest, code: str, token: str) -> HttpResponse:
    plan = _own_plan(request, code)
    share = plan.shares.filter(token=token).first() if plan else None
    if share is None:
        return _not_found()
    services.share_revoke(share)
    return HttpResponse(status=204)


@api_endpoint("GET", anonymous=True)
def shared(request: HttpRequest, token: str) -> HttpResponse:
    """A share's frozen snapshot, without login; revoked and unknown answer alike."""
    share = services.shared(token)
    if share is None:
        return _not_found()
    return JsonResponse({"shared_at": share.created_at.isoformat(), **share.snapshot})
