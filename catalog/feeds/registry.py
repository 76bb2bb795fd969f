"""The price feeds by name: `sync_prices SOURCE` picks one here."""

from __future__ import annotations

from catalog.feeds.aws import AwsEc2
from catalog.feeds.aws_savings_plans import AwsSavingsPlans
from catalog.feeds.azure import AzureRetail
from catalog.feeds.base import Source
from catalog.feeds.ecb import EcbDaily, EcbHistory
from catalog.feeds.gcp import GcpComputeEngine
from catalog.feeds.hetzner import HetznerAuction
from catalog.feeds.ovh import OvhEco

SOURCES: dict[str, Source] = {
    source.name: source
    for source in (
        AwsEc2(),
        AwsSavingsPlans(),
        AzureRetail(),
        HetznerAuction(),
        OvhEco(),
        EcbDaily(),
        EcbHistory(),
        GcpComputeEngine(),
    )
}


def get_source(name: str) -> Source:
    try:
        return SOURCES[name]
    except KeyError:
        raise KeyError(
            f"unknown price feed {name!r} (one of {', '.join(sorted(SOURCES))})"
        ) from None
