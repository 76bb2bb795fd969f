"""Hetzner's GPU, ECC and fixed-price flag kept as specs, and the hourly price beside the
monthly cap (issue 28), on the genuine H1 sample and a file derived from it."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from catalog.feeds.sync import sync_source
from catalog.models import Price, Tier
from tests.support.feeds import derive_json, sample

pytestmark = pytest.mark.django_db

H1 = "hetzner/sb-20240709-191830.json"


def test_h1_keeps_gpu_ecc_fixed_price_and_the_hourly_price():
    """H1: 20 servers with the GPU special (each "GPU - GeForce GTX 1080"), 826 with ECC,
    492 at a fixed price; server 2424913 costs 30 EUR a month, 0.0481 EUR an hour."""
    servers = json.loads(sample(H1).read_text())
    assert sync_source("hetzner", file=sample(H1))[0].status == "imported"
    tiers = Tier.objects.filter(slug__startswith="hetzner-auction-")
    assert tiers.filter(gpus=1, gpu_model="GeForce GTX 1080").count() == 20
    assert tiers.filter(gpus=0).count() == 1258 - 20
    assert tiers.filter(ecc=True).count() == sum(s["is_ecc"] for s in servers) == 826
    assert tiers.filter(fixed_price=True).count() == 492
    assert not tiers.filter(ecc=None).exists() and not tiers.filter(fixed_price=None).exists()
    first = Price.objects.get(tier__slug="hetzner-auction-2424913-fsn1-fixed-monthly")
    assert (first.amount, first.unit, first.hourly_amount) == (
        Decimal(30), "month", Decimal("0.0481"))  # fmt: skip


def test_a_malformed_hourly_price_refuses_the_file(tmp_path):
    path = derive_json(tmp_path, H1, lambda d: d[2].update(hourly_price="cheap"))
    result = sync_source("hetzner", file=path)[0]
    assert result.status == "refused" and not Tier.objects.exists()
