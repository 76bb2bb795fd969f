"""A synthetic AWS EC2 regional offer file, in the Price List bulk API's JSON and CSV forms.

Used by bench/catalog_sync.py. The layout follows the documented format (and the
genuine 2020 us-east-1 file described in docs/formats.md §1): five
metadata lines and a header before one CSV line per price dimension; in JSON the
products first, then the on-demand terms, then the reserved ones, pretty-printed with
" : " as AWS does. Each instance type comes in AWS's many variants (operating systems,
tenancies, pre-installed software, capacity status), so the importer's filter keeps
about one product in forty, as in the real file. Prices are made up; the shapes are not.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

VERSION = "20260101000000"
PUBLISHED = "2026-01-01T00:00:00Z"
LOCATION = "US East (N. Virginia)"
REGION = "us-east-1"
OS_LICENCES = (
    ("Linux", "No License required"), ("RHEL", "No License required"),
    ("SUSE", "No License required"), ("Windows", "License Included"),
    ("Windows", "Bring your own license"),
)  # fmt: skip
TENANCIES = ("Shared", "Dedicated", "Host")
SOFTWARE = ("NA", "SQL Std", "SQL Web", "SQL Ent")
CAPACITY = ("Used", "UnusedCapacityReservation", "AllocatedCapacityReservation")
# (class, years, option, term code) as observed in the 2020 file.
RESERVED = (
    ("standard", 1, "No Upfront", "4NA7Y494T4"), ("standard", 1, "Partial Upfront", "HU7G6KETJZ"),
    ("standard", 1, "All Upfront", "6QCMYABX3D"), ("convertible", 1, "No Upfront", "7NE97W5U4E"),
    ("convertible", 1, "Partial Upfront", "CUZHX8X6JH"),
    ("convertible", 1, "All Upfront", "VJWZNREJX2"), ("standard", 3, "No Upfront", "BPH4J8HBKS"),
    ("standard", 3, "Partial Upfront", "38NPMPTW36"), ("standard", 3, "All Upfront", "NQ3QZPMQV9"),
    ("convertible", 3, "No Upfront", "Z2E3P23VKM"),
    ("convertible", 3, "Partial Upfront", "R5XV2EPZQZ"),
    ("convertible", 3, "All Upfront", "MZU6U2429S"),
)  # fmt: skip
HOURLY, UPFRONT, ON_DEMAND = "6YS6EN2CT7", "2TG2D8R56U", "JRTCKXETXF"
CSV_HEADER = (
    "SKU", "OfferTermCode", "RateCode", "TermType", "PriceDescription", "EffectiveDate",
    "StartingRange", "EndingRange", "Unit", "PricePerUnit", "Currency", "RelatedTo",
    "LeaseContractLength", "PurchaseOption", "OfferingClass", "Product Family", "serviceCode",
    "Location", "Location Type", "Instance Type", "Current Generation", "Instance Family", "vCPU",
    "Physical Processor", "Clock Speed", "Memory", "Storage", "Network Performance",
    "Processor Architecture", "Tenancy", "Operating System", "License Model", "usageType",
    "operation", "CapacityStatus", "ECU", "GPU", "GPU Memory", "instanceSKU",
    "Normalization Size Factor", "Pre Installed S/W", "Processor Features", "Region Code",
    "serviceName",
)  # fmt: skip
ATTRIBUTE_COLUMNS = {
    "Location": "location", "Location Type": "locationType", "Instance Type": "instanceType",
    "Current Generation": "currentGeneration", "Instance Family": "instanceFamily",
    "vCPU": "vcpu", "Physical Processor": "physicalProcessor", "Clock Speed": "clockSpeed",
    "Memory": "memory", "Storage": "storage", "Network Performance": "networkPerformance",
    "Processor Architecture": "processorArchitecture", "Tenancy": "tenancy",
    "Operating System": "operatingSystem", "License Model": "licenseModel",
    "usageType": "usagetype", "operation": "operation", "CapacityStatus": "capacitystatus",
    "ECU": "ecu", "GPU": "gpu", "GPU Memory": "gpuMemory", "instanceSKU": "instancesku",
    "Normalization Size Factor": "normalizationSizeFactor", "Pre Installed S/W": "preInstalledSw",
    "Processor Features": "processorFeatures", "Region Code": "regionCode",
    "serviceName": "servicename",
}  # fmt: skip


def _sku(number: int) -> str:
    alphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
    text = ""
    for _ in range(16):
        number, digit = divmod(number, len(alphabet))
        text += alphabet[digit]
    return text


def _variants() -> list[tuple[str, str, str, str, str]]:
    variants = []
    for os_name, licence in OS_LICENCES:
        for tenancy in TENANCIES:
            for software in SOFTWARE if os_name == "Windows" or tenancy == "Shared" else ("NA",):
                for capacity in CAPACITY if tenancy != "Host" else ("Used",):
                    variants.append((os_name, licence, tenancy, software, capacity))
    return variants


VARIANTS = _variants()


def products(types: int) -> Iterator[tuple[dict[str, Any], float, bool]]:
    """(product, on-demand hourly, has reserved terms) for `types` instance types."""
    number = 0
    for index in range(types):
        vcpus = 2 ** (1 + index % 7)
        name = f"z{index // 7}x.{vcpus}xlarge"
        base = round(0.0425 * vcpus * (1 + (index % 13) / 20), 4)
        for os_name, licence, tenancy, software, capacity in VARIANTS:
            number += 1
            attributes = {
                "servicecode": "AmazonEC2", "location": LOCATION, "locationType": "AWS Region",
                "instanceType": name, "currentGeneration": "Yes",
                "instanceFamily": "Compute optimized", "vcpu": str(vcpus),
                "physicalProcessor": "Intel Xeon Platinum 8275CL (Cascade Lake)",
                "clockSpeed": "3.6 GHz", "memory": f"{vcpus * 2} GiB", "storage": "EBS only",
                "networkPerformance": "Up to 10 Gigabit", "processorArchitecture": "64-bit",
                "tenancy": tenancy, "operatingSystem": os_name, "licenseModel": licence,
                "usagetype": f"BoxUsage:{name}", "operation": "RunInstances",
                "capacitystatus": capacity, "ecu": str(vcpus * 4),
                "gpu": str(index % 5) if index % 9 == 0 else "NA", "gpuMemory": "NA",
                "instancesku": _sku(number * 7919), "normalizationSizeFactor": str(vcpus),
                "preInstalledSw": software,
                "processorFeatures": "Intel AVX; Intel AVX2; Intel AVX512; Intel Turbo",
                "regionCode": REGION, "servicename": "Amazon Elastic Compute Cloud",
            }  # fmt: skip
            product = {"sku": _sku(number), "productFamily": "Compute Instance",
                       "attributes": attributes}  # fmt: skip
            hourly = 0.0 if capacity == "AllocatedCapacityReservation" else base
            hourly *= 1 + OS_LICENCES.index((os_name, licence)) * 0.4
            reserved = capacity == "Used" and software == "NA"
            yield product, round(hourly, 4), reserved


def _dimension(sku: str, term: str, rate: str, description: str, unit: str, price: str,
               ranged: bool = True) -> dict[str, Any]:  # fmt: skip
    dimension: dict[str, Any] = {"rateCode": f"{sku}.{term}.{rate}", "description": description}
    if ranged:
        dimension.update(beginRange="0", endRange="Inf")
    dimension.update(unit=unit, pricePerUnit={"USD": price}, appliesTo=[])
    return dimension


def on_demand_term(sku: str, hourly: float) -> dict[str, Any]:
    dimension = _dimension(sku, ON_DEMAND, HOURLY, f"${hourly} per On Demand Instance Hour",
                           "Hrs", f"{hourly:.10f}")  # fmt: skip
    return {
        "offerTermCode": ON_DEMAND, "sku": sku, "effectiveDate": "2025-12-01T00:00:00Z",
        "priceDimensions": {dimension["rateCode"]: dimension}, "termAttributes": {},
    }  # fmt: skip


def reserved_terms(sku: str, hourly: float) -> dict[str, dict[str, Any]]:
    terms = {}
    for offering, years, option, code in RESERVED:
        discount = (0.62 if years == 1 else 0.4) * (1.1 if offering == "convertible" else 1)
        total = hourly * discount * 8760 * years
        upfront = {"No Upfront": 0, "Partial Upfront": 0.5, "All Upfront": 1}[option] * total
        recurring = (total - upfront) / (8760 * years)
        dimensions = {}
        if option != "No Upfront":
            fee = _dimension(sku, code, UPFRONT, "Upfront Fee", "Quantity", f"{upfront:.0f}",
                             ranged=False)  # fmt: skip
            dimensions[fee["rateCode"]] = fee
        hours = _dimension(sku, code, HOURLY, "Linux/UNIX (Amazon VPC), reserved instance applied",
                           "Hrs", f"{recurring:.10f}")  # fmt: skip
        dimensions[hours["rateCode"]] = hours
        terms[f"{sku}.{code}"] = {
            "offerTermCode": code, "sku": sku, "effectiveDate": "2025-12-01T00:00:00Z",
            "priceDimensions": dimensions,
            "termAttributes": {"LeaseContractLength": f"{years}yr", "OfferingClass": offering,
                               "PurchaseOption": option},
        }  # fmt: skip
    return terms


def write_json(path: Path, types: int) -> None:
    """Streamed out, never whole in memory: products, then OnDemand, then Reserved."""

    def block(key: str, value: Any, last: bool, indent: int) -> str:
        body = json.dumps(value, indent=2, separators=(",", " : "))
        body = body.replace("\n", "\n" + " " * indent)
        return f'{" " * indent}"{key}" : {body}{"" if last else ","}\n'

    header = {
        "formatVersion": "v1.0",
        "disclaimer": "This pricing list is for informational purposes only. (synthetic)",
        "offerCode": "AmazonEC2", "version": VERSION, "publicationDate": PUBLISHED,
    }  # fmt: skip
    with path.open("w") as out:
        out.write("{\n")
        for key, value in header.items():
            out.write(f'  "{key}" : {json.dumps(value)},\n')
        # Each section regenerates the (deterministic) products: nothing is held whole.
        out.write('  "products" : {\n')
        count = types * len(VARIANTS)
        for index, (product, _, _) in enumerate(products(types)):
            out.write(block(product["sku"], product, index == count - 1, 4))
        out.write('  },\n  "terms" : {\n    "OnDemand" : {\n')
        for index, (product, hourly, _) in enumerate(products(types)):
            sku = product["sku"]
            term = {f"{sku}.{ON_DEMAND}": on_demand_term(sku, hourly)}
            out.write(block(sku, term, index == count - 1, 6))
        out.write('    },\n    "Reserved" : {\n')
        first = True
        for product, hourly, reserved in products(types):
            if reserved:
                sku = product["sku"]
                out.write(("" if first else ",\n") + block(sku, reserved_terms(sku, hourly),
                                                          True, 6).rstrip("\n"))  # fmt: skip
                first = False
        out.write("\n    }\n  }\n}\n")


def write_csv(path: Path, types: int) -> int:
    """The same offer in the CSV form; returns the number of price lines."""
    lines = 0
    with path.open("w", newline="") as out:
        writer = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n")
        writer.writerow(["FormatVersion", "v1.0"])
        writer.writerow(["Disclaimer", "This pricing list is for informational purposes only."])
        writer.writerow(["Publication Date", PUBLISHED])
        writer.writerow(["Version", VERSION])
        writer.writerow(["OfferCode", "AmazonEC2"])
        writer.writerow(CSV_HEADER)
        for product, hourly, reserved in products(types):
            sku = product["sku"]
            attributes = product["attributes"]
            terms = [("OnDemand", on_demand_term(sku, hourly))]
            if reserved:
                terms += [("Reserved", t) for t in reserved_terms(sku, hourly).values()]
            for term_type, term in terms:
                for dimension in term["priceDimensions"].values():
                    cells = {
                        "SKU": sku, "OfferTermCode": term["offerTermCode"],
                        "RateCode": dimension["rateCode"], "TermType": term_type,
                        "PriceDescription": dimension["description"],
                        "EffectiveDate": term["effectiveDate"][:10],
                        "StartingRange": dimension.get("beginRange", ""),
                        "EndingRange": dimension.get("endRange", ""),
                        "Unit": dimension["unit"], "PricePerUnit": dimension["pricePerUnit"]["USD"],
                        "Currency": "USD", "Product Family": product["productFamily"],
                        "serviceCode": "AmazonEC2",
                        **{k: term["termAttributes"].get(k, "") for k in
                           ("LeaseContractLength", "PurchaseOption", "OfferingClass")},
                        **{column: attributes.get(name, "")
                           for column, name in ATTRIBUTE_COLUMNS.items()},
                    }  # fmt: skip
                    writer.writerow([cells.get(column, "") for column in CSV_HEADER])
                    lines += 1
    return lines
