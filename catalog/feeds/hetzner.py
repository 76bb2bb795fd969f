"""Hetzner's server auction ("Serverbörse") live data (docs/formats.md §3).

Two shapes, told apart by their keys. The current feed (`live_data_sb.json`, since 2026) is
nested: `{"server": [{Id, Hardware{CPU, RAM, Storage}, Prices{monthly{EUR, USD},
hourly{…}, setup{…}, fixed}, IPPrices{…}, Details{…, Datacenter}, Timer{…}}]}`. The
retired flat feed (sample H1, an array or `{"server": […]}`) has `id`, `cpu`, `ram_size`,
`price`, `setup_price`, `hourly_price`, `hdd_hr`, `serverDiskData`, `datacenter`,
`next_reduce`, `next_reduce_timestamp`.

Each auction server is one tier, keyed by its id and the datacenter's site
(`hetzner-auction-2424913-fsn1-fixed-monthly`), a dedicated server at a fixed monthly
price: Hetzner bills by the hour up to a monthly cap, so the month's price is the cap
(the feed's monthly price), never the hourly price times 730. Prices are in EUR, before VAT and
without the IPv4 address (charged on top): `vat_included` is false. The file lists every
server on offer, so a server that left it is retired. Prices fall over time: a lower
price is a new row dated on the capture day; a second change of the same server on the
same day is reported and waits for the next day (catalog/FORMAT.md).

`effective_from` is the capture date: for the flat shape the moment the file was
written (`next_reduce_timestamp` less `next_reduce`), else the day of the import.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from django.utils import timezone

from catalog.feeds import config
from catalog.feeds.base import (
    FeedPrice,
    FeedRefused,
    Problems,
    Progress,
    Reading,
    Source,
    non_negative_decimal,
)
from catalog.feeds.plausible import price_messages
from common.django import clock
from common.messages import msg

PROVIDER = "Hetzner"
FLAT_KEYS = ("id", "cpu", "ram_size", "price", "setup_price", "datacenter")
NESTED_KEYS = ("Id", "Hardware", "Prices", "Details")
_CENT = Decimal("0.01")
_MICRO = Decimal("0.000001")
_GIB_PER_GB = Decimal(10**9) / Decimal(2**30)  # disks are sold in decimal GB
_DISK = re.compile(
    r"^(?:(\d+)\s*x\s*)?(.*?)([\d.,]+)\s*(GB|TB)\b(.*)$", re.IGNORECASE
)  # "2x SSD SATA 500 GB", "500 GB SSD", "2 x 3.84 TB NVMe SSD"


class HetznerAuction(Source):
    name = "hetzner"
    provider = PROVIDER
    complete = True
    vat_included = False
    content_types = ("application/json", "text/json", "text/plain", "application/octet-stream")

    def url(self, region: str) -> str:
        return config.hetzner_url()

    def scope_tiers(self, region: str) -> dict[str, Any]:
        # One file speaks for every auction server, whatever its datacenter.
        return {"provider__name": PROVIDER, "slug__startswith": "hetzner-auction-"}

    def read(self, path: Path, region: str, progress: Progress | None = None) -> Reading:
        try:
            document = json.loads(path.read_bytes())
        except (ValueError, UnicodeDecodeError) as exc:
            raise FeedRefused([msg("feeds.malformed_json", offset=getattr(exc, "pos", 0),
                                   error=str(exc)[:200])]) from None  # fmt: skip
        servers = document.get("server") if isinstance(document, dict) else document
        if not isinstance(servers, list):
            raise FeedRefused([msg("feeds.missing_keys", keys="server")])
        moment = _captured(servers) or timezone.now().astimezone(dt.UTC)
        captured = moment.date() if _captured(servers) else clock.today()
        records = _Servers(captured, progress).records(servers)
        # The version is the capture's moment: a later snapshot of the same day supersedes
        # an earlier one's prices (catalog/FORMAT.md, "same-day snapshots").
        version = moment.strftime("%Y-%m-%dT%H:%M:%SZ")
        return Reading(records=iter(records), version=version,
                       notes=[msg("feeds.hetzner_net_prices")])  # fmt: skip


def _captured(servers: list[Any]) -> dt.datetime | None:
    """When the flat feed was written: its first server's next price cut, less the seconds
    left until it (the nested feed's timer is not documented: the import's time is used)."""
    first = servers[0] if servers and isinstance(servers[0], dict) else {}
    timestamp, left = first.get("next_reduce_timestamp"), first.get("next_reduce")
    if not isinstance(timestamp, int) or not isinstance(left, int):
        return None
    try:
        return dt.datetime.fromtimestamp(timestamp - left, dt.UTC)
    except (OverflowError, OSError, ValueError):
        return None


class _Servers:
    def __init__(self, captured: dt.date, progress: Progress | None) -> None:
        self.captured = captured
        self.progress = progress
        self.problems = Problems()

    def records(self, servers: list[Any]) -> list[FeedPrice]:
        out = []
        for index, server in enumerate(servers):
            where = f"server[{index}]"
            if isinstance(server, dict) and "Id" in server:
                record = self._nested(server, where)
            elif isinstance(server, dict) and "id" in server:
                record = self._flat(server, where)
            else:
                self.problems.add(msg("feeds.json_missing", where=where, key="Id"))
                continue
            if record:
                out.append(record)
        if self.progress:
            self.progress(0, len(out))
        self.problems.refuse_if_any()
        return out

    # The two shapes ----------------------------------------------------------------------

    def _flat(self, server: dict[str, Any], where: str) -> FeedPrice | None:
        missing = [key for key in FLAT_KEYS if key not in server]
        if missing:
            self.problems.add(msg("feeds.json_missing", where=where, key=", ".join(missing)))
            return None
        specials = [str(x) for x in server.get("specials") or []]
        disks = [str(d) for d in server.get("hdd_hr") or server.get("hdd_arr") or []]
        ecc = server.get("is_ecc")
        extra = {
            **_gpu("GPU" in specials, server.get("information") or server.get("description")),
            "ecc": ecc if isinstance(ecc, bool) else ("ECC" in specials) if specials else None,
            "fixed_price": _flag(server.get("fixed_price")),
        }
        return self._price(
            where, server["id"], server["cpu"], server["ram_size"], disks,
            server["datacenter"], server["price"], server["setup_price"], extra,
            server.get("hourly_price"),
        )  # fmt: skip

    def _nested(self, server: dict[str, Any], where: str) -> FeedPrice | None:
        missing = [key for key in NESTED_KEYS if not isinstance(server.get(key), dict)]
        missing = [k for k in missing if k != "Id"] + ([] if "Id" in server else ["Id"])
        if missing:
            self.problems.add(msg("feeds.json_missing", where=where, key=", ".join(missing)))
            return None
        hardware, prices, details = server["Hardware"], server["Prices"], server["Details"]
        monthly = (prices.get("monthly") or {}).get("EUR")
        setup = (prices.get("setup") or {}).get("EUR", 0)
        required = {"Prices.monthly.EUR": monthly, "Details.Datacenter": details.get("Datacenter"),
                    "Hardware.CPU": hardware.get("CPU")}  # fmt: skip
        for key, value in required.items():
            if value is None:
                self.problems.add(msg("feeds.json_missing", where=where, key=key))
                return None
        extra = {"gpus": None, "ecc": None,  # the nested feed names no GPU or ECC field
                 "fixed_price": _flag(prices.get("fixed"))}  # fmt: skip
        return self._price(
            where, server["Id"], hardware["CPU"], _ram_gb(hardware.get("RAM")),
            [str(d) for d in hardware.get("Storage") or []], details["Datacenter"], monthly, setup,
            extra, (prices.get("hourly") or {}).get("EUR"),
        )  # fmt: skip

    # What both become --------------------------------------------------------------------

    def _price(self, where: str, server_id: Any, cpu: Any, ram: Any, disks: list[str],
               datacenter: Any, monthly: Any, setup: Any, extra: dict[str, Any],
               hourly: Any) -> FeedPrice | None:  # fmt: skip
        if not isinstance(server_id, int) or isinstance(server_id, bool) or server_id <= 0:
            return self._bad(where, "id", server_id)
        site = str(datacenter).split("-")[0].strip().lower()
        if not re.fullmatch(r"[a-z]{3}\d", site):
            return self._bad(where, "datacenter", datacenter)
        amount, fee = non_negative_decimal(monthly), non_negative_decimal(setup)
        if amount is None:
            return self._bad(where, "price", monthly)
        if fee is None:
            return self._bad(where, "setup_price", setup)
        if problems := price_messages(where, amount, "month", "EUR", fee):
            for problem in problems:
                self.problems.add(problem)
            return None
        hourly_amount = None
        if hourly is not None:
            hourly_amount = non_negative_decimal(hourly)
            if hourly_amount is None:
                return self._bad(where, "hourly_price", hourly)
            if problems := price_messages(where, hourly_amount, "hour", "EUR"):
                for problem in problems:
                    self.problems.add(problem)
                return None
        ram_gib = non_negative_decimal(ram)
        storage_gib, storage_text = _storage(disks)
        cpu = str(cpu).strip()
        name = f"#{server_id} {cpu}"
        if ram_gib is not None:
            name += f", {ram_gib.normalize():f} GB"
        if storage_text:
            name += f", {storage_text}"
        return FeedPrice(
            slug=f"hetzner-auction-{server_id}-{site}-fixed-monthly",
            provider=PROVIDER,
            tier={
                "name": f"{name} ({datacenter})"[:200],
                "region": site.upper(),
                "pricing_model": "fixed_monthly",
                "kind": "dedicated",
                "cpu_model": cpu[:120] or None,
                "ram_gib": ram_gib,  # sold in GB, binary already (docs/design.md, "Units")
                "storage_gib": storage_gib,
                "storage_type": storage_text[:120] or None,
                **extra,
                "retired": False,
            },
            amount=amount.quantize(_CENT, ROUND_HALF_UP),
            unit="month",
            currency="EUR",
            effective_from=self.captured,
            source_key=str(server_id),
            setup_fee=fee.quantize(_CENT, ROUND_HALF_UP),
            vat_included=False,
            hourly_amount=None if hourly_amount is None else hourly_amount.quantize(_MICRO),
        )

    def _bad(self, where: str, key: str, value: Any) -> None:
        self.problems.add(msg("feeds.json_value", where=where, key=key, value=str(value)))
        return None


def _flag(value: Any) -> bool | None:
    return value if isinstance(value, bool) else None


def _gpu(has_gpu: bool, lines: Any) -> dict[str, Any]:
    """GPUs from the flat feed: none without the "GPU" special, else one per "GPU - model"
    line of its hardware list (unknown when it names none)."""
    if not has_gpu:
        return {"gpus": 0}
    models = [str(line)[len("GPU - "):].strip() for line in lines or []
              if str(line).startswith("GPU - ")]  # fmt: skip
    if not models:
        return {"gpus": None}
    return {"gpus": len(models), "gpu_model": models[0][:120]}


def _ram_gb(value: Any) -> Any:
    """The nested feed's RAM: a number of GB, "64 GB", or module lines ("4x RAM 16384 MB")."""
    if isinstance(value, int | float | str) and not isinstance(value, bool):
        match = re.fullmatch(r"\s*([\d.]+)\s*(?:GB)?\s*", str(value))
        return match.group(1) if match else None
    if isinstance(value, list):
        total = 0
        for line in value:
            match = re.search(r"(?:(\d+)\s*x\s*)?RAM\s+(\d+)\s*MB", str(line), re.IGNORECASE)
            if not match:
                return None
            total += int(match.group(1) or 1) * int(match.group(2))
        return Decimal(total) / 1024 if value else None
    return None


def _storage(disks: list[str]) -> tuple[Decimal | None, str]:
    """Total GiB and the disks as text ("2 x 500 GB SSD"); None when a disk is unreadable."""
    total = Decimal(0)
    groups: dict[str, int] = {}
    for disk in disks:
        match = _DISK.match(disk.strip())
        if not match:
            return None, ", ".join(disks)
        count = int(match.group(1) or 1)
        size = Decimal(match.group(3).replace(",", ""))
        size_gb = size * 1000 if match.group(4).upper() == "TB" else size
        total += count * size_gb
        kind = " ".join(f"{match.group(2)} {match.group(5)}".split())
        label = f"{size.normalize():f} {match.group(4).upper()} {kind}".strip()
        groups[label] = groups.get(label, 0) + count
    text = ", ".join(f"{count} x {label}" for label, count in groups.items())
    return ((total * _GIB_PER_GB).quantize(_CENT) if disks else None), text
