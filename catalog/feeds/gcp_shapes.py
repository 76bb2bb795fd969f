"""GCP predefined machine types' shapes: the table `catalog/data/gcp_machine_types.csv`.

The Cloud Billing Catalog prices a machine family per vCPU-hour and per GiB-hour; what a
machine type holds (vCPUs, GiB, GPUs) is not in it. The table names its source (Google's
machine family pages) and its date in its header comment. `refresh` rewrites the rows
from the Compute Engine API's machine types as `gcloud compute machine-types list
--format=json` prints them (`name`, `guestCpus`, `memoryMb`, `accelerators[]
{guestAcceleratorType, guestAcceleratorCount}`), for the families already listed, keeping
the header comment and its source; a list that lacks a field is refused, nothing written.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from pathlib import Path

TABLE = Path(__file__).resolve().parents[1] / "data" / "gcp_machine_types.csv"
SOURCE = "Google Cloud documentation, machine family pages"
COLUMNS = ("machine_type", "family", "vcpus", "ram_gib", "gpus", "gpu_model", "gpu_mem_gib",
           "source_date")  # fmt: skip
# The API's accelerator type → the table's GPU model and its memory (GiB).
GPU_TYPES = {"nvidia-tesla-a100": ("A100", 40), "nvidia-a100-80gb": ("A100 80GB", 80)}


@dataclass(frozen=True)
class Shape:
    name: str
    family: str
    vcpus: int
    ram_gib: Decimal
    gpus: int
    gpu_model: str
    gpu_mem_gib: Decimal | None
    source_date: dt.date


def shapes(table: Path = TABLE) -> dict[str, Shape]:
    return _shapes(table)


@cache
def _shapes(table: Path) -> dict[str, Shape]:
    with table.open(encoding="utf-8", newline="") as file:
        rows = csv.DictReader(line for line in file if not line.startswith("#"))
        return {
            row["machine_type"]: Shape(
                name=row["machine_type"],
                family=row["family"],
                vcpus=int(row["vcpus"]),
                ram_gib=Decimal(row["ram_gib"]),
                gpus=int(row["gpus"]),
                gpu_model=row["gpu_model"],
                gpu_mem_gib=Decimal(row["gpu_mem_gib"]) if row["gpu_mem_gib"] else None,
                source_date=dt.date.fromisoformat(row["source_date"]),
            )
            for row in rows
        }


class RefreshError(ValueError):
    """The machine type list is not in the API's form (which entry, which field)."""


def refresh(listing: Path, today: dt.date, table: Path = TABLE) -> int:
    """Rewrite the table's rows from a `gcloud compute machine-types list --format=json`
    output; returns how many rows were written. Zones repeat a type: the first is kept."""
    try:
        entries = json.loads(listing.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise RefreshError(f"{listing}: not JSON ({exc})") from None
    if not isinstance(entries, list):
        raise RefreshError(f"{listing}: expected a JSON list of machine types")
    families = {shape.family for shape in shapes(table).values()}
    rows: dict[str, tuple] = {}
    for index, entry in enumerate(entries):
        try:
            name, cpus, memory = entry["name"], int(entry["guestCpus"]), int(entry["memoryMb"])
        except (KeyError, TypeError, ValueError) as exc:
            raise RefreshError(f"entry {index}: name, guestCpus, memoryMb ({exc})") from None
        family = name.split("-", 1)[0]
        if family not in families or name in rows or "-custom" in name:
            continue
        gpus, model, memory_gib = 0, "", ""
        for accelerator in entry.get("accelerators") or []:
            kind = accelerator.get("guestAcceleratorType", "")
            if kind not in GPU_TYPES:
                raise RefreshError(f"entry {index} ({name}): unknown accelerator {kind!r}")
            gpus += int(accelerator.get("guestAcceleratorCount", 0))
            model, memory_gib = GPU_TYPES[kind][0], str(GPU_TYPES[kind][1])
        ram = Decimal(memory) / 1024
        rows[name] = (name, family, cpus, f"{ram.normalize():f}", gpus, model, memory_gib,
                      today.isoformat())  # fmt: skip
    header = "".join(line for line in table.read_text(encoding="utf-8").splitlines(True)
                     if line.startswith("#"))  # fmt: skip
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows(rows[name] for name in sorted(rows, key=_order))
    table.write_text(header + out.getvalue(), encoding="utf-8")
    _shapes.cache_clear()
    return len(rows)


def _order(name: str) -> tuple:
    parts = name.split("-")
    return (parts[0], parts[1] if len(parts) > 1 else "",
            int("".join(c for c in parts[-1] if c.isdigit()) or 0))  # fmt: skip
