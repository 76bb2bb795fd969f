"""The catalog's models: keys, currencies, specs, the current price."""

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from catalog.models import Tier, slug_validator, validate_currency
from tests.support.catalog import add_price, make_tier


@pytest.mark.parametrize(
    "slug",
    [
        "aws-c5.4xlarge-us-east-1-on-demand",
        "inmotion-hosting-extreme-dedicated-fixed-monthly",
        "a",
        "x1",
    ],
)
def test_it_accepts_lowercase_keys_with_dots_and_dashes(slug):
    slug_validator(slug)


@pytest.mark.parametrize(
    "slug", ["AWS-c5", "c5_4xlarge", "c5 4xlarge", "-c5", "c5.", "c5/4", "", "ä-tier"]
)
def test_it_refuses_keys_outside_the_alphabet(slug):
    with pytest.raises(ValidationError):
        slug_validator(slug)


def test_it_refuses_unknown_currency_codes():
    validate_currency("EUR")
    with pytest.raises(ValidationError):
        validate_currency("EUE")


@pytest.mark.django_db
def test_a_tier_without_vcpus_or_ram_says_specs_unknown():
    known = make_tier("known")
    unknown = make_tier(
        "inmotion-essential",
        provider="InMotion Hosting",
        vcpus=None,
        ram_gib=None,
        cores=None,
        gpus=None,
    )
    assert not known.specs_unknown
    assert unknown.specs_unknown
    assert Tier.objects.get(slug="inmotion-essential").vcpus is None


@pytest.mark.django_db
def test_the_current_price_is_the_newest_not_in_the_future():
    tier = make_tier()
    add_price(tier, "0.70", "2025-01-01")
    add_price(tier, "0.68", "2026-01-19")
    add_price(tier, "0.60", "2027-01-01")
    assert tier.current_price(dt.date(2026, 6, 1)).amount == Decimal("0.68")
    assert tier.current_price(dt.date(2025, 6, 1)).amount == Decimal("0.70")
    assert tier.current_price(dt.date(2024, 6, 1)) is None


@pytest.mark.django_db
def test_a_provider_key_is_derived_from_its_name():
    tier = make_tier(provider="InMotion Hosting")
    assert tier.provider.slug == "inmotion-hosting"
