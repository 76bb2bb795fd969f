"""docs/openapi.yaml, generated: ninja's document of the endpoints and their response
models, with the plan schema's own JSON Schema as `Plan` and the API's words around them.

`python manage.py openapi docs/openapi.yaml` writes it; `--check` fails when the file is
not what the code would write (CI's lint stage runs that).
"""

from __future__ import annotations

import copy
import json
from typing import Any

import yaml

from planner.api.auth import RATE_WINDOW_SECONDS
from planner.api.schemas import PLAN_MARKER
from planner.api.views import api
from planner.compute.schema import json_schema

HEADER = (
    "# Generated from planner/api (ninja's endpoints and response models) and the plan\n"
    "# schema (planner/compute/schema): do not edit by hand.\n"
    "# Regenerate: python manage.py openapi docs/openapi.yaml\n"
)

DESCRIPTION = """\
A plan (baseline spend, horizon, money assumptions, candidate tiers, workloads) goes in;
a comparison comes out: per option the servers, monthly and one-time cost, total,
present cost, NPV, savings, payback (month, fraction, label), whether the working set
fits in RAM, and the provenance of every figure — a catalog price row (id,
`effective_from`, source), a benchmark run (id, host, profile `X.Y.Z`, scale), an
"estimate" with its basis (a staff-declared speed factor against a measured tier), or
a field the plan itself entered.

**Money** is a decimal string with two places ("349.99") in the plan's currency.
Hourly prices become monthly ones at 730 hours a month.

**Authentication**: a browser session (unsafe methods need the `X-CSRFToken` header),
or `Authorization: Bearer <key>` with a key created on the account page (`/account/`).
A bad or revoked key is 401 even when a session cookie is also sent. Anonymous callers
may only read shares.

**Limits**: request bodies larger than `API_MAX_BODY_BYTES` (256 KiB) are refused with
413 without being read past the limit, chunked ones included; each user (each IP when
anonymous) may make `API_RATE_LIMIT_PER_MINUTE` calls a minute (default 120), then 429
with `Retry-After`.

**Errors** are always `{"errors": {"<field path>": ["message", ...]}}` and name every
problem at once; paths look like `baseline.monthly`, `workloads[0].rows`; `body` is the
request body itself, `__all__` the whole object. Nothing is stored when a request fails.
A plan refused with 400 also carries `error_details`: the same paths, each message as
`{"code", "params", "text"}` (`text` is the English of `errors`).

**JSON bodies** must be `application/json` (415 otherwise) and are read strictly: a
duplicated key, a NUL character or a lone UTF-16 surrogate in a string, a number of more
than 40 digits, or nesting deeper than 32 levels is a 400 under the path of the value
(with its line and column in the message); numbers are read as exact decimals.
"""

REFUSALS = {
    "400": "Malformed JSON (under `body`) or a plan that breaks the schema (every field named).",
    "401": "No session and no valid API key (`auth`).",
    "403": "A session request without a valid CSRF token (`auth`).",
    "404": "Not found — or not yours; the two are indistinguishable (`__all__`).",
    "413": "The body exceeds `API_MAX_BODY_BYTES` (`body`); it is not read past the limit.",
    "415": "The body is not `application/json` (`body`).",
    "412": "The plan was changed since the version `If-Match` names (`If-Match`); the"
    " `ETag` header gives its version now. Nothing was stored.",
    "428": "No `If-Match` header (`If-Match`): a change must name the version it is based on.",
    "429": "Too many calls this minute (`rate`).",
}
HEADERS = {
    "401": {"WWW-Authenticate": {"schema": {"type": "string", "const": "Bearer"}}},
    "429": {
        "Retry-After": {
            "schema": {"type": "integer", "minimum": 1, "maximum": RATE_WINDOW_SECONDS},
            "description": "seconds until the next window",
        }
    },
}
SECURITY_SCHEMES = {
    "BearerKey": "An API key from the account page (`/account/`), shown once when created.",
    "SessionUser": "A logged-in browser session; POST and DELETE also need `X-CSRFToken`.",
}


def document() -> dict[str, Any]:
    """The OpenAPI 3.1 document of /api/v1/, as plain data."""
    doc = _untitled(json.loads(json.dumps(api.get_openapi_schema(path_prefix=""))))
    doc = _plan_refs(doc)
    doc["info"] = {
        "title": api.title,
        "version": api.version,
        "summary": "Compare a team's cloud spend with dedicated many-core servers, "
        "with every figure sourced.",
        "description": DESCRIPTION,
    }
    doc["servers"] = [{"url": "/api/v1"}]
    doc["security"] = [{name: []} for name in SECURITY_SCHEMES]
    components = doc["components"]
    for name, text in SECURITY_SCHEMES.items():
        components["securitySchemes"][name]["description"] = text
    components["schemas"]["Plan"] = _plan_schema()
    for operation in _operations(doc):
        _describe_refusals(operation["responses"])
        if not operation.get("parameters"):
            operation.pop("parameters", None)
    _prune(doc)
    return {key: doc[key] for key in ("openapi", "info", "servers", "security", "paths")} | {
        "components": doc["components"]
    }


class _Dumper(yaml.SafeDumper):
    """Multi-line text as a literal block, as a person would write it; no anchors."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _text)


def render(doc: dict[str, Any] | None = None) -> str:
    body = yaml.dump(
        doc or document(), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100
    )
    return HEADER + body


def _plan_schema() -> dict[str, Any]:
    schema = json_schema()
    schema.pop("$schema", None)
    return schema


def _operations(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return [op for path in doc["paths"].values() for op in path.values()]


def _describe_refusals(responses: dict[str, Any]) -> None:
    for status, response in responses.items():
        if status in REFUSALS:
            response["description"] = REFUSALS[status]
        if status in HEADERS:
            response["headers"] = {**HEADERS[status], **response.get("headers", {})}


def _untitled(node: Any) -> Any:
    """pydantic's generated titles dropped (each restates its class or field name); the
    document reads field by field."""
    if isinstance(node, list):
        return [_untitled(item) for item in node]
    if not isinstance(node, dict):
        return node
    return {
        key: _untitled(value)
        for key, value in node.items()
        if not (key == "title" and isinstance(value, str))
    }


def _plan_refs(node: Any) -> Any:
    """Each PLAN_MARKER (schemas.PlanJson) becomes a reference to the Plan schema."""
    if isinstance(node, list):
        return [_plan_refs(item) for item in node]
    if not isinstance(node, dict):
        return node
    if node.get(PLAN_MARKER):
        rest = {k: v for k, v in node.items() if k != PLAN_MARKER}
        return {"$ref": "#/components/schemas/Plan", **rest}
    return {key: _plan_refs(value) for key, value in node.items()}


def _refs(node: Any) -> set[str]:
    if isinstance(node, list):
        return set().union(*(_refs(item) for item in node)) if node else set()
    if not isinstance(node, dict):
        return set()
    found = {node["$ref"].rsplit("/", 1)[-1]} if isinstance(node.get("$ref"), str) else set()
    return found.union(*(_refs(value) for value in node.values()))


def _prune(doc: dict[str, Any]) -> None:
    """Drop the component schemas nothing refers to (the plan models' own definitions,
    which the generated Plan holds inline), and sort the rest by name."""
    schemas = doc["components"]["schemas"]
    used: set[str] = set()
    todo = _refs(doc["paths"])
    while todo:
        name = todo.pop()
        if name not in used and name in schemas:
            used.add(name)
            todo |= _refs(schemas[name])
    doc["components"]["schemas"] = {name: copy.deepcopy(schemas[name]) for name in sorted(used)}
