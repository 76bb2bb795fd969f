"""JSON API v1 on django-ninja (docs/openapi.yaml is generated from this). Thin: parse,
call a service, answer JSON.

Each endpoint answers the JSON it always has, built by the services; the response models
in `planner.api.schemas` document it. Errors are always {"errors": {<field path>:
[messages]}}; a plan that is not the caller's answers exactly like one that does not exist.
"""

from __future__ import annotations

from typing import Annotated, Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.urls import reverse
from ninja import NinjaAPI, Path, Query
from ninja.errors import AuthenticationError, HttpError, Throttled, ValidationError

from bills.api import router as bills_router
from common.django import clock
from planner.api import schemas
from planner.api.auth import (
    NO_CALLER,
    BearerKey,
    PerUserRate,
    SessionUser,
    anonymous,
    rate_limited,
    unauthorized,
)
from planner.api.body import PlanBody, StrictJsonParser
from planner.api.errors import Answered, ApiError, errors_response, not_found, refusal
from planner.api.merge_patch import merge_patch
from planner.compute import montecarlo
from planner.compute.schema import PlanValidationError
from planner.models import Plan, Share
from planner.services import evaluation, next_runs, rate_limits
from planner.services import plans as services

CALLERS = [BearerKey(), SessionUser()]
Errors = schemas.Errors
# The refusals every endpoint may answer, by who may call it and whether it takes a body.
READ = {401: Errors, 429: Errors}
WRITE = {**READ, 403: Errors}
WITH_BODY = {**WRITE, 400: Errors, 413: Errors, 415: Errors}

api = NinjaAPI(
    title="planner JSON API",
    version="1",
    auth=CALLERS,
    throttle=[PerUserRate()],
    parser=StrictJsonParser(),
    openapi_url=None,
    docs_url=None,
    urls_namespace="api",
)
api.add_router("/bills", bills_router)  # the bill app's endpoints (bills/api.py)

# The README's example (the field-notes case, on the shipped default catalog): the document
# shows it, and schemathesis sends it first, so the success answers are checked too.
EXAMPLE_PLAN = {
    "currency": "USD",
    "baseline": {"monthly": "480"},
    "candidates": [{"tier": "inmotion-hosting-extreme-dedicated-fixed-monthly", "count": 1}],
    "one_time": {"migration_hours": 5, "migration_rate": 100, "running_both_months": 0,
                 "retraining": 0},
}  # fmt: skip
WITH_EXAMPLE = {"requestBody": {"content": {"application/json": {"example": EXAMPLE_PLAN}}}}

UNCERTAINTY_LIMITED = (
    "too many uncertainty requests this minute (UNCERTAINTY_RATE_LIMIT_PER_MINUTE a user,"
    " web and API together): try again after Retry-After seconds"
)
MISSING_IF_MATCH = (
    "send If-Match with the plan's ETag from GET (or * to overwrite whatever is stored)"
)
STALE_PLAN = (
    "the plan was changed since that version: GET it again (its ETag is in this answer's"
    " ETag header) and apply the change to it, or send If-Match: * to overwrite it"
)
IF_MATCH = {
    "name": "If-Match",
    "in": "header",
    "required": True,
    "schema": {"type": "string", "pattern": r'^\s*(\*|"[0-9]+"(\s*,\s*"[0-9]+")*)\s*$'},
    "description": "the ETag a GET of the plan gave (its version), or * for any version",
}
CONDITIONAL = {
    "parameters": [IF_MATCH],
    "responses": {200: {"headers": {"ETag": {"schema": {"type": "string"},
                                              "description": "the plan's new version"}}},
                  412: {"headers": {"ETag": {"schema": {"type": "string"},
                                             "description": "the plan's version now"}}}},
}  # fmt: skip
MERGE_PATCH = {
    "requestBody": {
        "required": True,
        "content": {"application/json": {
            "schema": {"type": "object", "description": "an RFC 7396 JSON merge patch of "
                       "the plan's inputs: the merged plan must pass the Plan schema"},
            "example": {"baseline": {"monthly": "520"}},
        }},
    }
}  # fmt: skip

PlanId = Annotated[str, Path(alias="id", description="the plan's id (a UUID)")]
Seed = Annotated[
    int,
    Query(ge=0, le=2**32 - 1, description="the Monte Carlo's seed; the same seed, the same draws"),
]
Token = Annotated[str, Path(description="a share's token")]


# --- refusals in the one shape ------------------------------------------------------------


def _invalid_plan(request: HttpRequest, exc: PlanValidationError) -> HttpResponse:
    # `errors` as it always was; `error_details` the same refusals as codes and parameters.
    return JsonResponse({"errors": exc.errors, "error_details": exc.api_details()}, status=400)


def _answered(request: HttpRequest, exc: Answered) -> HttpResponse:
    return exc.response


def _no_caller(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    return unauthorized(NO_CALLER).response()


def _throttled(request: HttpRequest, exc: Throttled) -> HttpResponse:
    return rate_limited().response()


def _bad_parameter(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    errors: dict[str, list[str]] = {}
    for error in exc.errors:
        path = ".".join(str(part) for part in error["loc"][1:]) or "__all__"
        errors.setdefault(path, []).append(error["msg"])
    return JsonResponse({"errors": errors}, status=400)


def _http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    return errors_response(exc.status_code, "__all__", str(exc))


def _not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    return not_found().response()


for exc_class, handler in (
    (ApiError, refusal),
    (PlanValidationError, _invalid_plan),
    (Answered, _answered),
    (AuthenticationError, _no_caller),
    (Throttled, _throttled),
    (ValidationError, _bad_parameter),
    (HttpError, _http_error),
    (Http404, _not_found),
):
    api.add_exception_handler(exc_class, handler)  # type: ignore[arg-type]


# --- helpers ---------------------------------------------------------------------------------


def _own_plan(request: HttpRequest, code: str) -> Plan:
    """The caller's plan, or the same 404 as for a plan that does not exist."""
    plan = services.plan_for(request.auth, code)  # type: ignore[attr-defined]
    if plan is None:
        raise not_found()
    return plan


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


# --- endpoints -------------------------------------------------------------------------------


@api.post(
    "/evaluate",
    url_name="evaluate",
    operation_id="evaluate",
    summary="Evaluate a plan without storing it",
    response={200: schemas.Comparison, **WITH_BODY},
    openapi_extra=WITH_EXAMPLE,
)
def evaluate_plan(request: HttpRequest, plan: PlanBody) -> HttpResponse:
    """A plan in, the comparison on today's prices and runs out; nothing is stored."""
    # The cached answer's bytes, byte for byte what JsonResponse would encode.
    return HttpResponse(evaluation.comparison_json(plan), content_type="application/json")


@api.get(
    "/plans",
    url_name="plans",
    operation_id="listPlans",
    summary="The caller's own plans",
    response={200: schemas.PlanList, **READ},
)
def list_plans(request: HttpRequest) -> HttpResponse:
    own = Plan.objects.owned_by(request.auth)  # type: ignore[attr-defined]
    return JsonResponse({"plans": [_plan_summary(request, p) for p in own]})


@api.post(
    "/plans",
    url_name="plans",
    operation_id="createPlan",
    summary="Store a plan, private to its owner",
    response={201: schemas.PlanCreated, **WITH_BODY},
    openapi_extra={**WITH_EXAMPLE, "responses": {201: {"headers": {"Location": {
        "schema": {"type": "string", "format": "uri"}, "description": "the plan's URL"}}}}},
)  # fmt: skip
def create_plan(request: HttpRequest, plan: PlanBody) -> HttpResponse:
    """Stored in the schema's canonical form, defaults filled in."""
    stored = services.plan_create(owner=request.auth, plan=plan)  # type: ignore[attr-defined]
    url = _plan_url(request, stored)
    response = JsonResponse({"id": str(stored.code), "url": url}, status=201)
    response["Location"] = url
    return response


@api.get(
    "/plans/{str:id}",
    url_name="plan",
    operation_id="getPlan",
    summary="Read one of the caller's plans, with its comparison on today's prices",
    response={200: schemas.PlanDetail, 404: Errors, **READ},
    openapi_extra={"responses": {200: {"headers": {"ETag": {
        "schema": {"type": "string"}, "description": "the plan's version, for If-Match"}}}}},
)  # fmt: skip
def plan_detail(request: HttpRequest, code: PlanId) -> HttpResponse:
    """Another caller's plan is the same 404 as one that does not exist. The ETag is the
    plan's version: send it back as If-Match to change the plan."""
    plan = _own_plan(request, code)
    answer = evaluation.answer(services.stored_plan(plan))
    body = _plan_summary(request, plan) | {"inputs": plan.inputs, "comparison": answer.model_dump()}
    response = JsonResponse(body)
    response["ETag"] = services.etag(plan)
    return response


def _expected_version(request: HttpRequest, plan: Plan) -> int | None:
    """The version an If-Match names, checked before anything is read: 428 without one,
    412 when it is not the plan's version now (None: "*", whatever version)."""
    given = request.headers.get("If-Match", "").strip()
    if not given:
        raise ApiError(428, "If-Match", MISSING_IF_MATCH)
    named = {services.version_of_etag(tag) for tag in given.split(",")}
    if None in named:
        return None
    if plan.version not in named:
        raise _stale(plan)
    return plan.version


def _stale(plan: Plan) -> ApiError:
    return ApiError(412, "If-Match", STALE_PLAN, ETag=services.etag(plan))


def _store(request: HttpRequest, plan: Plan, expected: int | None, parsed: Any) -> HttpResponse:
    try:
        stored = services.plan_update(plan, parsed, expected_version=expected)
    except services.StalePlan as stale:  # saved by someone else since the check above
        raise _stale(stale.current) from None
    response = JsonResponse({"id": str(stored.code), "url": _plan_url(request, stored)})
    response["ETag"] = services.etag(stored)
    return response


@api.put(
    "/plans/{str:id}",
    operation_id="replacePlan",
    summary="Replace a plan's inputs, if nobody changed it since it was read",
    response={200: schemas.PlanCreated, 404: Errors, 412: Errors, 428: Errors, **WITH_BODY},
    openapi_extra={**WITH_EXAMPLE, **CONDITIONAL},
)
def replace_plan(request: HttpRequest, code: PlanId, plan: PlanBody) -> HttpResponse:
    """The whole plan, validated as on create. Send `If-Match` with the ETag a GET gave
    (or `*` to overwrite whatever is stored): a plan changed since is refused with 412."""
    own = _own_plan(request, code)
    return _store(request, own, _expected_version(request, own), plan)


@api.patch(
    "/plans/{str:id}",
    operation_id="updatePlan",
    summary="Change some of a plan's inputs (a JSON merge patch), if nobody changed it since",
    response={200: schemas.PlanCreated, 404: Errors, 412: Errors, 428: Errors, **WITH_BODY},
    openapi_extra={**MERGE_PATCH, **CONDITIONAL},
)
def update_plan(request: HttpRequest, code: PlanId) -> HttpResponse:
    """The body is merged into the stored inputs as RFC 7396 says (a key set to null is
    removed; a list is replaced whole), and the result validated as a whole plan."""
    own = _own_plan(request, code)
    expected = _expected_version(request, own)
    patch = api.parser.parse_body(request)
    if not isinstance(patch, dict):
        raise ApiError(400, "body", "send a JSON object: the inputs to change")
    merged = merge_patch(own.inputs, patch)
    return _store(request, own, expected, services.parse_owned(merged, request.auth))


@api.get(
    "/plans/{str:id}/uncertainty",
    url_name="plan-uncertainty",
    operation_id="getPlanUncertainty",
    summary="Which input decides the answer, and the odds that the switch pays back",
    response={200: schemas.PlanUncertainty, 400: Errors, 404: Errors, **READ},
)
def plan_uncertainty(
    request: HttpRequest, code: PlanId, seed: Seed = montecarlo.SEED
) -> HttpResponse:
    """Every uncertain input of the plan moved alone to its low and its high value through
    the engine (the best option's NPV, saving and payback at each end, its break-even), the
    tornado's eight widest, and a Monte Carlo of 10,000 draws of every input at once for the
    three leading options. Cached per plan, data generation, date and seed; another seed
    draws again. Slower than the comparison the first time (seconds): ask for it apart."""
    plan = _own_plan(request, code)
    if not rate_limits.allow_uncertainty(request.auth.pk):  # type: ignore[attr-defined]
        raise ApiError(429, "rate", UNCERTAINTY_LIMITED,
                       Retry_After=str(rate_limits.seconds_to_next_window()))  # fmt: skip
    found = evaluation.uncertainty(services.stored_plan(plan), seed=seed)
    return JsonResponse(
        {"id": str(plan.code), "as_of": clock.today().isoformat(), **found.model_dump()}
    )


@api.get(
    "/plans/{str:id}/next-runs",
    url_name="plan-next-runs",
    operation_id="getPlanNextRuns",
    summary="The benchmark runs that would most likely change the answer, with cost and command",
    response={200: schemas.PlanNextRuns, 400: Errors, 404: Errors, **READ},
)
def plan_next_runs(
    request: HttpRequest, code: PlanId, seed: Seed = montecarlo.SEED
) -> HttpResponse:
    """The tiers whose figure is an estimate, ranked by how often knowing their speed would
    change the answer (one Monte Carlo of the leading options, at most 20 tiers; each tier's
    speed drawn over its band), each with what the run costs, what it would settle, the
    stand-alone runner's command and the import that brings the file back. Shares the
    uncertainty's per-user limit."""
    plan = _own_plan(request, code)
    if not rate_limits.allow_uncertainty(request.auth.pk):  # type: ignore[attr-defined]
        raise ApiError(429, "rate", UNCERTAINTY_LIMITED,
                       Retry_After=str(rate_limits.seconds_to_next_window()))  # fmt: skip
    found = next_runs.next_runs(services.stored_plan(plan), seed=seed)
    answer = next_runs.api_answer(found)
    return JsonResponse({"id": str(plan.code), "as_of": clock.today().isoformat(), **answer})


@api.get(
    "/plans/{str:id}/shares",
    url_name="plan-shares",
    operation_id="listShares",
    summary="The plan's share links, live and revoked",
    response={200: schemas.ShareList, 404: Errors, **READ},
)
def list_shares(request: HttpRequest, code: PlanId) -> HttpResponse:
    plan = _own_plan(request, code)
    return JsonResponse({"shares": [_share_summary(request, s) for s in plan.shares.all()]})


@api.post(
    "/plans/{str:id}/shares",
    url_name="plan-shares",
    operation_id="createShare",
    summary="Freeze a snapshot of the plan behind a new unguessable link",
    response={201: schemas.ShareCreated, 400: Errors, 404: Errors, **WRITE},
)
def create_share(request: HttpRequest, code: PlanId, include_bill: bool = False) -> HttpResponse:
    """The snapshot keeps the plan's inputs, the price rows and measurements it used (by id
    and value) and its results; later price changes never alter it. A plan whose baseline
    is taken from a bill: the share says only "from the owner's bill" and its figure,
    unless `include_bill` (the bill's name, period and lines, as the plan's aggregates)."""
    plan = _own_plan(request, code)
    share = services.share_create(plan=plan, user=request.auth,  # type: ignore[attr-defined]
                                  include_bill=include_bill)  # fmt: skip
    return JsonResponse({"token": share.token, "url": _share_url(request, share)}, status=201)


@api.delete(
    "/plans/{str:id}/shares/{str:token}",
    url_name="plan-share",
    operation_id="revokeShare",
    summary="Revoke a share link (its reads then answer 404)",
    response={204: None, 404: Errors, **WRITE},
)
def revoke_share(request: HttpRequest, code: PlanId, token: Token) -> HttpResponse:
    """Revoked again if it already was."""
    share = _own_plan(request, code).shares.filter(token=token).first()
    if share is None:
        raise not_found()
    services.share_revoke(share)
    return HttpResponse(status=204)


@api.get(
    "/shared/{str:token}",
    url_name="shared",
    operation_id="readShare",
    summary="Read a shared snapshot, without logging in",
    auth=[*CALLERS, anonymous],
    response={200: schemas.Snapshot, 404: Errors, 401: Errors, 429: Errors},
    openapi_extra={"security": [{}]},
)
def read_share(request: HttpRequest, token: Token) -> HttpResponse:
    """A revoked and an unknown token answer the same 404."""
    share = services.shared(token)
    if share is None:
        raise not_found()
    return JsonResponse({"shared_at": share.created_at.isoformat(), **share.snapshot})
