"""The default catalog: loaded by `make run`'s set-up steps, once however often they run."""

import datetime as dt

import pytest
from django.core.management import call_command

from catalog.defaults import load_default_catalog
from catalog.models import ExchangeRate, Price, Tier
from catalog.pricing import catalog_frame
from tests.support.catalog import table_counts

pytestmark = pytest.mark.django_db
EXPECTED = {"Provider": 3, "Tier": 18, "Price": 19, "ExchangeRate": 2}


def test_loading_the_default_catalog_twice_leaves_one_copy_of_each_tier_and_price():
    assert load_default_catalog() == "18 tiers, 19 prices, 2 exchange rates: 39 new"
    assert load_default_catalog() == "18 tiers, 19 prices, 2 exchange rates: 0 new"
    assert table_counts() == EXPECTED


def test_the_bootstrap_command_run_twice_changes_nothing_the_second_time(capsys):
    call_command("bootstrap", "--no-input")
    call_command("bootstrap", "--no-input")
    out = capsys.readouterr().out
    assert "default catalog: 18 tiers, 19 prices, 2 exchange rates: 39 new" in out
    assert "default catalog: 18 tiers, 19 prices, 2 exchange rates: 0 new" in out
    assert table_counts() == EXPECTED


def test_every_default_price_names_its_source_and_quotes_stay_unconfirmed():
    load_default_catalog()
    assert not Price.objects.filter(source="").exists()
    unconfirmed = set(
        Price.objects.filter(confirmed=False).values_list("tier__slug", "effective_from")
    )
    assert unconfirmed == {
        ("aws-c5.4xlarge-spot", dt.date(2026, 11, 30)),
        ("inmotion-hosting-essential-dedicated-fixed-monthly", dt.date(2026, 11, 30)),
        ("inmotion-hosting-advanced-dedicated-fixed-monthly", dt.date(2026, 11, 30)),
        ("inmotion-hosting-extreme-dedicated-fixed-monthly", dt.date(2026, 11, 30)),
    }
    confirmed_without_url = Price.objects.filter(confirmed=True, source_url="")
    assert not confirmed_without_url.exists()
    assert all(rate.source_url for rate in ExchangeRate.objects.all())


def test_the_field_notes_tiers_read_as_the_users_quote_them():
    load_default_catalog()
    frame = catalog_frame(dt.date(2026, 11, 30), "USD").set_index("slug")
    assert frame.loc["inmotion-hosting-extreme-dedicated-fixed-monthly", "monthly"] == 349.99
    assert frame.loc["aws-c5.4xlarge-spot", "monthly"] == 150.0
    assert frame.loc["aws-c5.4xlarge-us-east-1-on-demand", "monthly"] == 496.40
    assert round(frame.loc["aws-p4d.24xlarge-us-east-1-on-demand", "per_gpu_hour"], 2) == 2.74
    # The Hetzner auction server converts at the ECB rate of 2026-01-19.
    assert frame.loc["hetzner-auction-sb-191830-fsn1-fixed-monthly", "monthly"] == 34.89
    extreme = Tier.objects.get(slug="inmotion-hosting-extreme-dedicated-fixed-monthly")
    assert (extreme.vcpus, extreme.cores, extreme.ram_gib, extreme.managed) == (32, 16, 192, True)
    essential = Tier.objects.get(slug="inmotion-hosting-essential-dedicated-fixed-monthly")
    assert essential.specs_unknown


def test_reloading_the_defaults_keeps_what_staff_edited_on_a_tier():
    load_default_catalog()
    Tier.objects.filter(slug="aws-c5.2xlarge-us-east-1-on-demand").update(
        cores=4, cpu_flags="avx512"
    )
    assert load_default_catalog().endswith(": 0 new")
    tier = Tier.objects.get(slug="aws-c5.2xlarge-us-east-1-on-demand")
    assert (tier.cores, tier.cpu_flags) == (4, "avx512")
