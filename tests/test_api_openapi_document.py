"""docs/openapi.yaml documents every endpoint, and its plan schema is the code's.

The Plan schema at the end of the file is generated from `planner.compute.schema.json_schema()`
(the same field tables as SCHEMA_BOUNDS): `python -m tests.test_api_openapi_document --write`
rewrites it after a schema change, and this test fails until someone does.
"""

import re
import sys
from pathlib import Path

import yaml

from planner.compute.schema import SCHEMA_BOUNDS, json_schema

DOC = Path(__file__).resolve().parent.parent / "docs" / "openapi.yaml"
MARKER = "# --- Plan: generated from planner.compute.schema.json_schema()"


def plan_schema() -> dict:
    schema = json_schema()
    schema.pop("$schema", None)
    return schema


def document() -> dict:
    return yaml.safe_load(DOC.read_text())


def test_the_plan_schema_in_the_document_is_the_codes():
    assert document()["components"]["schemas"]["Plan"] == plan_schema(), (
        "docs/openapi.yaml is out of date: python -m tests.test_api_openapi_document --write"
    )


def _field(node: dict, name: str) -> dict:
    """The property `name` of an object schema, looking through arrays, anyOf and oneOf."""
    while "properties" not in node:
        node = node["items"] if "items" in node else (node.get("anyOf") or node["oneOf"])[0]
    return node["properties"][name]


def test_every_bounded_plan_field_is_documented():
    plan = document()["components"]["schemas"]["Plan"]
    workload_kinds = {
        s["properties"]["kind"]["enum"][0]: s
        for s in plan["properties"]["workloads"]["items"]["oneOf"]
    }
    for path, spec in SCHEMA_BOUNDS.items():
        node = plan
        for part in path.split("."):
            if part.startswith("workloads[kind="):
                node = workload_kinds[part.removeprefix("workloads[kind=").removesuffix("]")]
            else:
                node = _field(node, part.removesuffix("[]"))
        if spec.max is not None and spec.type not in ("str",):
            assert node["maximum"] == spec.max, path
        if spec.min is not None:
            assert node.get("minimum", node.get("exclusiveMinimum")) == spec.min, path


def test_every_api_route_is_documented():
    from django.urls import URLPattern, reverse

    from planner.api import urls as api_urls

    documented = set(document()["paths"])
    prefix = reverse("api:evaluate").removesuffix("evaluate")
    assert prefix == "/api/v1/"
    for pattern in api_urls.urlpatterns:
        assert isinstance(pattern, URLPattern)
        route = re.sub(r"<str:(\w+)>", r"{\1}", str(pattern.pattern)).replace("{code}", "{id}")
        assert f"/{route}" in documented, route


def write() -> None:
    text = DOC.read_text()
    head = text[: text.index(MARKER)]
    marker = text[text.index(MARKER) :].splitlines()[:2]
    block = yaml.safe_dump({"Plan": plan_schema()}, sort_keys=False, allow_unicode=True, width=100)
    indented = "".join(f"    {line}\n" for line in block.splitlines())
    DOC.write_text(head + "\n".join(marker) + "\n" + indented)


if __name__ == "__main__":
    if "--write" in sys.argv:
        write()
        print(f"wrote the Plan schema into {DOC}")
