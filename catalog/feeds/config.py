"""The feeds' settings, each with its default (README, "Price feeds").

Read from Django settings when the project sets them (config/settings.py may map them
to environment variables), else the defaults here, so a test can override any of them
with pytest-django's `settings` fixture.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

DEFAULTS = {
    # A regional EC2 offer file is hundreds of MB; the all-region one is larger still.
    "CATALOG_FEED_MAX_BYTES": 2 * 1024**3,
    # A feed whose record count falls by more than this share against the last import
    # of the same source and region is refused as incomplete.
    "CATALOG_FEED_MAX_DROP": 0.2,
    "CATALOG_FEED_ATTEMPTS": 4,
    "CATALOG_FEED_BACKOFF_SECONDS": 2.0,
    "CATALOG_FEED_TIMEOUT_SECONDS": 60.0,
    # Where the AWS Price List files are published (a mirror may serve the same paths).
    "CATALOG_FEED_AWS_BASE_URL": "https://pricing.us-east-1.amazonaws.com",
    # AWS regions synced when none is named: US East (N. Virginia) and Europe (Frankfurt).
    "CATALOG_FEED_AWS_REGIONS": ("us-east-1", "eu-central-1"),
    # The Azure Retail Prices API and the regions synced when none is named: US East and
    # West Europe (the Netherlands).
    "CATALOG_FEED_AZURE_BASE_URL": "https://prices.azure.com/api/retail/prices",
    "CATALOG_FEED_AZURE_REGIONS": ("eastus", "westeurope"),
    # A region's Virtual Machines run to tens of pages of 1,000 items; more than this many
    # pages is refused as a link loop.
    "CATALOG_FEED_AZURE_MAX_PAGES": 500,
    # Hetzner's server auction (the nested document that replaced the flat one in 2026).
    "CATALOG_FEED_HETZNER_URL": "https://www.hetzner.com/_resources/app/data/app/live_data_sb.json",
    # OVHcloud's public order catalogue (eco range) and the subsidiaries synced by default.
    "CATALOG_FEED_OVH_BASE_URL": "https://eu.api.ovh.com/v1/order/catalog/public/eco",
    "CATALOG_FEED_OVH_SUBSIDIARIES": ("FR",),
    # The operating systems AWS and Azure prices are imported for, each its own tiers
    # (linux, rhel, suse, windows; Azure lists Linux and Windows VM prices only).
    "CATALOG_FEED_OPERATING_SYSTEMS": ("linux",),
}


def _get(name: str):
    return getattr(settings, name, DEFAULTS[name])


def max_bytes() -> int:
    return int(_get("CATALOG_FEED_MAX_BYTES"))


def max_drop() -> float:
    return float(_get("CATALOG_FEED_MAX_DROP"))


def attempts() -> int:
    return max(1, int(_get("CATALOG_FEED_ATTEMPTS")))


def backoff_seconds() -> float:
    return float(_get("CATALOG_FEED_BACKOFF_SECONDS"))


def timeout_seconds() -> float:
    return float(_get("CATALOG_FEED_TIMEOUT_SECONDS"))


def aws_regions() -> tuple[str, ...]:
    return tuple(_get("CATALOG_FEED_AWS_REGIONS"))


def download_dir() -> Path:
    """Where downloads land (and stay until the next sync of the same file)."""
    return Path(getattr(settings, "CATALOG_FEED_DIR", Path(settings.VAR_DIR) / "feeds"))


def aws_base_url() -> str:
    return str(_get("CATALOG_FEED_AWS_BASE_URL")).rstrip("/")


def azure_base_url() -> str:
    return str(_get("CATALOG_FEED_AZURE_BASE_URL"))


def azure_regions() -> tuple[str, ...]:
    return tuple(_get("CATALOG_FEED_AZURE_REGIONS"))


def azure_max_pages() -> int:
    return max(1, int(_get("CATALOG_FEED_AZURE_MAX_PAGES")))


def hetzner_url() -> str:
    return str(_get("CATALOG_FEED_HETZNER_URL"))


def ovh_base_url() -> str:
    return str(_get("CATALOG_FEED_OVH_BASE_URL"))


def ovh_subsidiaries() -> tuple[str, ...]:
    return tuple(_get("CATALOG_FEED_OVH_SUBSIDIARIES"))


def operating_systems() -> tuple[str, ...]:
    return tuple(_get("CATALOG_FEED_OPERATING_SYSTEMS"))
