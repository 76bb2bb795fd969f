"""Azure VM sizes (vCPUs, memory) read from Microsoft's published size documentation.

The Retail Prices API carries no vCPU or memory figures (docs/formats.md §2). Microsoft
publishes them per size series on Microsoft Learn, written in the public repository
MicrosoftDocs/azure-compute-docs under `articles/virtual-machines/sizes/<family>/
<series>-series.md`: each page has a front matter with its `ms.date` and, under "Sizes in
series", a "Basics" table `| Size Name | vCPUs (Qty.) | Memory (GB) |` (memory in binary
units: the pages' own notes and their earlier versions say GiB).

`parse_page` reads one page; `table_rows` turns pages into the rows of
`catalog/data/azure_vm_sizes.csv`; `manage.py refresh_azure_sizes --docs CHECKOUT` writes
that file from a checkout (or any folder of such pages). Pure: no Django.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

SOURCE_REPO = "MicrosoftDocs/azure-compute-docs"
# Sizes Microsoft's pages name otherwise than the Retail Prices API's armSkuName: the
# Bv1 page's "Standard_B1ls2" is sold as "Standard_B1ls" (1 vCPU, 0.5 GiB); the Dav4
# page's "Standard_D2a_v41" is "Standard_D2a_v4" with its footnote mark run into the name.
# The Edv5 and Lsv2 pages do the same ("Standard_E104id_v52", "Standard_L80s_v26").
API_NAMES = {
    "Standard_B1ls2": "Standard_B1ls",
    "Standard_D2a_v41": "Standard_D2a_v4",
    "Standard_E104id_v52": "Standard_E104id_v5",
    "Standard_L80s_v26": "Standard_L80s_v2",
}
SOURCE_URL = "https://learn.microsoft.com/azure/virtual-machines/sizes/"
_DATE = re.compile(r"^ms\.date:\s*(\d{1,2})/(\d{1,2})/(\d{4})\s*$", re.MULTILINE)
_SIZE = re.compile(r"^Standard_[A-Za-z0-9_-]+$")


@dataclass(frozen=True)
class Size:
    arm_sku_name: str
    vcpus: int
    ram_gib: Decimal
    source_date: dt.date
    source_page: str


def parse_page(text: str, page: str) -> list[Size]:
    """The sizes of one series page's tables with a size name, vCPUs and memory.
    Rows that are not a size (a footnote, a "Standard_X<sup>1</sup>" marker is cleaned)
    are skipped; a page without such a table or date gives nothing."""
    date = _DATE.search(text)
    if not date:
        return []
    month, day, year = (int(g) for g in date.groups())
    when = dt.date(year, month, day)
    lines = text.splitlines()
    found: list[Size] = []
    for index, line in enumerate(lines):
        cells = _cells(line)
        # "| Size Name | vCPUs (Qty.) | Memory (GB) |", or older pages' "| Size | vCPU |
        # Memory: GiB | …" (one table per series: Ev3 and Esv3 share a page).
        if not cells or cells[0].lower() not in ("size name", "size"):
            continue
        names = [c.lower() for c in cells]
        vcpu = next((i for i, n in enumerate(names) if n.startswith("vcpu")), None)
        memory = next((i for i, n in enumerate(names) if n.startswith("memory")), None)
        if vcpu is None or memory is None:
            continue
        found += _rows(lines[index + 2 :], vcpu, memory, when, page)
    return found


def _rows(lines: list[str], vcpu: int, memory: int, when: dt.date, page: str):
    for line in lines:
        cells = _cells(line)
        if not cells:
            return
        name = re.sub(r"<sup>.*?</sup>|\*", "", cells[0]).strip()
        name = API_NAMES.get(name, name)
        if not _SIZE.match(name) or len(cells) <= max(vcpu, memory):
            continue
        try:
            vcpus = int(cells[vcpu].split()[0])
            ram = Decimal(cells[memory].split()[0].replace(",", ""))
        except (ValueError, IndexError, InvalidOperation):
            continue
        yield Size(name, vcpus, ram, when, page)


def _cells(line: str) -> list[str]:
    line = line.strip()
    if not line.startswith("|"):
        return []
    return [cell.strip() for cell in line.strip("|").split("|")]


def table_rows(pages: Iterable[tuple[str, str]]) -> list[Size]:
    """Every size of the pages, (path, text) each; a size on two pages keeps the newest
    page's figures. Sorted by name."""
    sizes: dict[str, Size] = {}
    for page, text in pages:
        for size in parse_page(text, page):
            held = sizes.get(size.arm_sku_name)
            if held is None or size.source_date > held.source_date:
                sizes[size.arm_sku_name] = size
    return [sizes[name] for name in sorted(sizes, key=str.lower)]


HEADER = """\
# Azure VM sizes: vCPUs and memory, keyed by the Retail Prices API's armSkuName.
# Written by `manage.py refresh_azure_sizes` from Microsoft's VM size documentation
# ({repo}, articles/virtual-machines/sizes/*/*-series.md, published at {url}):
# each row's "Basics" table of its series page, source_date = the page's ms.date.
# Memory is in binary units (GiB). A size missing here keeps its vCPUs and RAM unknown
# in the catalog (never guessed). Refreshed {today}{note}.
"""


def render(sizes: list[Size], today: dt.date, note: str = "") -> str:
    out = [HEADER.format(repo=SOURCE_REPO, url=SOURCE_URL, today=today.isoformat(),
                         note=f"; {note}" if note else "")]  # fmt: skip
    out.append("arm_sku_name,vcpus,ram_gib,source_date,source_page\n")
    for size in sizes:
        out.append(f"{size.arm_sku_name},{size.vcpus},{size.ram_gib.normalize():f},"
                   f"{size.source_date.isoformat()},{size.source_page}\n")  # fmt: skip
    return "".join(out)
