"""Request bodies: read with a bound, parsed strictly, validated by the plan schema.

- `read_body`: at most the limit plus one byte is ever read; more is a 413. A declared
  Content-Length over the limit is refused before anything is read. A chunked body
  (`Transfer-Encoding: chunked`, no Content-Length: Django's request reads none of it)
  is read from the server's decoded stream, with the same bound.
- `StrictJsonParser` replaces ninja's parser: only `application/json` (415 for a body of
  any other type; no body at all is malformed JSON, a 400),
  read with `read_body`, decoded by the one safe loader (`common.safejson` through the
  schema's `decode_plan_json`): exact decimals; a duplicate key, nesting too deep, a NUL
  or a lone surrogate is a 400 naming the value's path.
- `PlanBody` is the body parameter of the plan endpoints: ninja's `Body` whose model
  reads through the parser and validates with `services.parse` (the known tiers, every
  problem named by its path), never `request.body`, which would read a declared body whole.
"""

from __future__ import annotations

from typing import Annotated, Any

from django.conf import settings
from django.http import HttpRequest
from ninja.params.models import Body, BodyModel
from ninja.parser import Parser

from planner.api.errors import ApiError
from planner.compute import schema
from planner.compute.schema.parse import decode_plan_json
from planner.services import plans as services

JSON = "application/json"
_CHUNK = 64 * 1024


def max_body_bytes() -> int:
    return int(settings.API_MAX_BODY_BYTES)


def too_large(limit: int) -> ApiError:
    return ApiError(413, "body", f"request body larger than {limit} bytes")


def declared_length(request: HttpRequest) -> int | None:
    """The Content-Length, refused (413) when over the limit before anything is read."""
    declared = request.META.get("CONTENT_LENGTH") or ""
    if not declared:
        return None
    try:
        length = int(declared)
    except ValueError:
        raise ApiError(400, "body", "Content-Length is not a number") from None
    if length > max_body_bytes():
        raise too_large(max_body_bytes())
    return length


def is_chunked(request: HttpRequest) -> bool:
    return "chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower()


def read_body(request: HttpRequest) -> bytes:
    limit = max_body_bytes()
    if declared_length(request) is not None:
        body = request.read(limit + 1)
    elif is_chunked(request):
        body = _read_chunked(request, limit)
    else:
        body = b""
    if len(body) > limit:
        raise too_large(limit)
    return body


def _read_chunked(request: HttpRequest, limit: int) -> bytes:
    """Up to limit + 1 bytes of a body the server de-chunks (gunicorn does; Django's
    runserver gives an empty stream, as it does to Django's own request)."""
    stream = request.environ["wsgi.input"]  # type: ignore[attr-defined]
    parts: list[bytes] = []
    size = 0
    while size <= limit:
        part = stream.read(min(_CHUNK, limit + 1 - size))
        if not part:
            break
        parts.append(part)
        size += len(part)
    return b"".join(parts)


def is_json(request: HttpRequest) -> bool:
    return (request.content_type or "").lower() == JSON


class StrictJsonParser(Parser):
    """ninja's parser, strict: application/json only, bounded, through the safe loader."""

    def parse_body(self, request: HttpRequest) -> Any:
        sends_body = bool(declared_length(request)) or is_chunked(request)
        if sends_body and not is_json(request):
            given = request.content_type or "none"
            raise ApiError(415, "body", f"send the body as {JSON} (Content-Type was {given})")
        return decode_plan_json(read_body(request))


class _PlanBodyModel(BodyModel):
    """Reads the body through the API's parser and validates it as a plan, naming every
    problem by its path (`PlanValidationError`), with the tiers the catalog offers."""

    @classmethod
    def get_request_data(cls, request: HttpRequest, api: Any, path_params: Any) -> Any:
        return api.parser.parse_body(request)

    @classmethod
    def resolve(cls, request: HttpRequest, api: Any, path_params: Any) -> Any:
        data = cls.get_request_data(request, api, path_params)
        plan = services.parse_owned(data, getattr(request, "auth", None))
        return cls.model_construct(**{cls.__read_from_single_attr__: plan})


class _PlanBodyParam(Body):  # type: ignore[misc]
    _model = _PlanBodyModel

    @classmethod
    def _param_source(cls) -> str:
        return "body"


PlanBody = Annotated[schema.Plan, _PlanBodyParam(...)]
