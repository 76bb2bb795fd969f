"""Helpers for the price-feed tests: the genuine samples, the fixtures, the catalog's state."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from catalog.models import ExchangeRate, Price, Provider, Tier

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT.parent / "shared" / "reference" / "feeds"
FIXTURES = ROOT / "tests" / "fixtures" / "feeds"
AWS_JSON = FIXTURES / "aws-ec2-us-west-2.json"
AWS_CSV = FIXTURES / "aws-ec2-us-west-2.csv"

# The genuine samples (under SAMPLES) the hostile-file tests derive their files from.
A1 = "aws/ec2-us-east-1-20200709-first300.json"
Z1 = "azure/retail-eastus-Standard_D2s_v3-consumption.json"
H1 = "hetzner/sb-20240709-191830.json"
O1 = "ovh/eco-FR-catalog8294-20250513-excerpt.json"
E1 = "ecb/eurofxref-daily-20250509.xml"
E2 = "ecb/eurofxref-20260413.csv"
E4 = "ecb/eurofxref-hist-20260413.csv"


def sample(name: str) -> Path:
    """A genuine sample from ../shared/reference/feeds; skipped where absent, failing in CI."""
    path = SAMPLES / name
    if not path.is_file():
        message = f"genuine feed sample {name} not found under {SAMPLES} (no ../shared here)"
        if os.getenv("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path


def catalog_state() -> dict[str, list[tuple]]:
    """Every row of every catalog table: an all-or-nothing refusal must leave it equal."""
    return {
        "providers": list(Provider.objects.order_by("id").values_list()),
        "tiers": list(Tier.objects.order_by("id").values_list()),
        "prices": list(Price.objects.order_by("id").values_list()),
        "rates": list(ExchangeRate.objects.order_by("id").values_list()),
    }


def aws_offer(tmp_path: Path, change: Callable[[dict[str, Any]], None] | None = None,
              name: str = "offer.json") -> Path:  # fmt: skip
    """The JSON fixture, changed by `change(document)`, written in AWS's own layout."""
    document = json.loads(AWS_JSON.read_text())
    if change:
        change(document)
    path = tmp_path / name
    path.write_text(json.dumps(document, indent=2, separators=(",", " : ")) + "\n")
    return path


def on_demand(document: dict[str, Any], sku: str) -> dict[str, Any]:
    """The single on-demand price dimension of `sku` (to change its price in a test)."""
    (term,) = document["terms"]["OnDemand"][sku].values()
    (dimension,) = term["priceDimensions"].values()
    return dimension


def derive_json(tmp_path: Path, name: str, change: Callable[[Any], None],
                literals: dict[str, str] | None = None) -> Path:  # fmt: skip
    """A genuine sample, parsed, changed by `change(document)` and written to `tmp_path`.
    `literals` puts raw JSON numbers no Python float holds (1e400) in place of the
    marker strings `change` wrote."""
    document = json.loads(sample(name).read_text(encoding="utf-8"))
    change(document)
    text = json.dumps(document, indent=1)
    for marker, literal in (literals or {}).items():
        assert f'"{marker}"' in text, marker
        text = text.replace(f'"{marker}"', literal)
    path = tmp_path / Path(name).name
    path.write_text(text, encoding="utf-8")
    return path


def derive_text(tmp_path: Path, name: str, change: Callable[[str], str]) -> Path:
    """A genuine text sample (XML, CSV) changed by `change(text)`, written to `tmp_path`."""
    text = change(sample(name).read_text(encoding="utf-8"))
    path = tmp_path / Path(name).name
    path.write_text(text, encoding="utf-8", newline="")
    return path


def azure_on_demand(document: dict[str, Any]) -> dict[str, Any]:
    """The Linux on-demand item of Z1 (the one the reader keeps)."""
    (item,) = [i for i in document["Items"] if i["type"] == "Consumption"
               and "Windows" not in i["productName"] and "Spot" not in i["skuName"]
               and "Low Priority" not in i["skuName"]]  # fmt: skip
    return item


def aws_first_kept_on_demand(document: dict[str, Any]) -> dict[str, Any]:
    """A1's first product the reader keeps (Linux, shared, no software or licence): its
    SKU, its on-demand price dimension and the product."""
    sku = next(s for s, p in document["products"].items()
               if p["productFamily"] == "Compute Instance"
               and p["attributes"].get("operatingSystem") == "Linux"
               and p["attributes"].get("tenancy") == "Shared"
               and p["attributes"].get("preInstalledSw") == "NA"
               and p["attributes"].get("capacitystatus") == "Used"
               and p["attributes"].get("licenseModel") == "No License required")  # fmt: skip
    return {"sku": sku, "dimension": on_demand(document, sku), "product": document["products"][sku]}
