"""Files a feed used to accept with wrong data (issue 28, "Accepted with wrong data"), each
derived at test time from a genuine sample in ../shared/reference/feeds: refused naming
line or key and field, or imported with what was dropped and why in the import record."""

from __future__ import annotations

import pytest
from django.test import Client

from catalog.feeds.sync import sync_source
from catalog.models import FeedImport, Tier
from common.messages import Message, plain
from tests.support.feeds import (
    A1,
    E1,
    E2,
    E4,
    H1,
    O1,
    Z1,
    aws_first_kept_on_demand,
    azure_on_demand,
    catalog_state,
    derive_json,
    derive_text,
)

pytestmark = pytest.mark.django_db


def refused(result: FeedImport, before: dict) -> str:
    """The import ended refused, wrote nothing, and the catalog page answers (issue 28:
    "/catalog/ answers 200 whatever a refused file held"); its text."""
    text = " | ".join(plain(Message.from_json(m)) for m in result.messages)
    assert result.status == FeedImport.Status.REFUSED, text
    assert catalog_state() == before
    assert Client().get("/catalog/").status_code == 200
    return text


def test_a_zero_price_is_refused_for_each_provider(tmp_path):
    """0.00 is never a free tier: it is below every price's lower bound."""
    before = catalog_state()
    azure = derive_json(tmp_path, Z1, lambda d: azure_on_demand(d).update(retailPrice=0.0))
    assert "amount: 0.0 is outside the plausible bounds (>= 0.0001 USD/hour)" in refused(
        sync_source("azure", ["eastus"], file=azure)[0], before)  # fmt: skip

    aws = derive_json(tmp_path, A1, lambda d: aws_first_kept_on_demand(d)["dimension"][
        "pricePerUnit"].update(USD="0.0000000000"))  # fmt: skip
    assert "JRTCKXETXF, amount: 0 is outside the plausible bounds" in refused(
        sync_source("aws", ["us-east-1"], file=aws)[0], before)  # fmt: skip

    hetzner = derive_json(tmp_path, H1, lambda d: d[0].update(price=0))
    assert "server[0], amount: 0 is outside the plausible bounds (>= 0.105 EUR/month)" in refused(
        sync_source("hetzner", file=hetzner)[0], before)  # fmt: skip

    def free(document):
        for part in [*document["plans"], *document["addons"]]:
            for pricing in part.get("pricings", []):
                pricing["price"] = 0

    ovh = derive_json(tmp_path, O1, free)
    assert "plans[0] default, amount: 0 is outside the plausible bounds" in refused(
        sync_source("ovh", ["FR"], file=ovh)[0], before)  # fmt: skip


def test_an_aws_price_in_exponent_form_is_refused(tmp_path):
    path = derive_json(tmp_path, A1, lambda d: aws_first_kept_on_demand(d)["dimension"][
        "pricePerUnit"].update(USD="1e3"))  # fmt: skip
    text = refused(sync_source("aws", ["us-east-1"], file=path)[0], catalog_state())
    assert "pricePerUnit: 1e3 USD is not a value this feed may hold" in text


def test_an_aws_price_that_is_no_number_refuses_the_file_on_a_product_not_kept(tmp_path):
    def change(document):
        windows = next(s for s, p in document["products"].items()
                       if p["attributes"].get("operatingSystem") == "Windows"
                       and s in document["terms"]["OnDemand"])  # fmt: skip
        (term,) = document["terms"]["OnDemand"][windows].values()
        (dimension,) = term["priceDimensions"].values()
        dimension["pricePerUnit"]["USD"] = "abc"

    path = derive_json(tmp_path, A1, change)
    text = refused(sync_source("aws", ["us-east-1"], file=path)[0], catalog_state())
    assert "terms.OnDemand." in text and "pricePerUnit: abc USD" in text


@pytest.mark.parametrize(("key", "value"), [("vcpu", "sixteen"), ("memory", "lots GiB")])
def test_a_malformed_vcpu_or_memory_figure_is_refused_not_made_unknown(tmp_path, key, value):
    path = derive_json(tmp_path, A1, lambda d: aws_first_kept_on_demand(d)["product"][
        "attributes"].update({key: value}))  # fmt: skip
    text = refused(sync_source("aws", ["us-east-1"], file=path)[0], catalog_state())
    assert f"{key}: {value} is not a value this feed may hold" in text


def test_an_ovh_catalogue_in_another_currency_than_its_subsidiarys_is_refused(tmp_path):
    path = derive_json(tmp_path, O1, lambda d: d["locale"].update(currencyCode="USD"))
    text = refused(sync_source("ovh", ["FR"], file=path)[0], catalog_state())
    assert "locale, currencyCode: USD, but the feed for FR is priced in EUR." in text


def test_an_ovh_pricing_whose_capacities_key_was_renamed_is_refused(tmp_path):
    def rename(document):
        for pricing in document["plans"][0]["pricings"]:
            pricing["capacity"] = pricing.pop("capacities")

    text = refused(sync_source("ovh", ["FR"], file=derive_json(tmp_path, O1, rename))[0],
                   catalog_state())  # fmt: skip
    assert "lacks the required key capacities (renew, installation)" in text


def test_an_ovh_upfront_renewal_over_zero_months_is_refused(tmp_path):
    def zero(document):
        renew = next(p for p in document["plans"][0]["pricings"]
                     if p["mode"] == "upfront12" and "renew" in p["capacities"])  # fmt: skip
        renew["interval"] = 0

    text = refused(sync_source("ovh", ["FR"], file=derive_json(tmp_path, O1, zero))[0],
                   catalog_state())  # fmt: skip
    assert "upfront12, interval, intervalUnit: 0 month is not a value this feed may hold" in text


def test_an_ecb_rate_under_a_renamed_attribute_is_refused_not_dropped(tmp_path):
    path = derive_text(tmp_path, E1, lambda t: t.replace("rate='1.1252'", "value='1.1252'"))
    text = refused(sync_source("ecb", file=path)[0], catalog_state())
    assert "Cube 2025-05-09 USD lacks the required key rate." in text


def test_an_ecb_daily_csv_cut_in_the_middle_of_a_number_is_refused(tmp_path):
    """E2 ends "…,37.728, 19.3849, \\n"; cut after "19.38" the ZAR rate reads 19.38."""
    path = derive_text(tmp_path, E2, lambda t: t[: t.index("19.3849") + len("19.38")])
    text = refused(sync_source("ecb", file=path)[0], catalog_state())
    assert "Line 2 has 30 fields; the header has 31." in text
    assert "The file ends in the middle of line 2, without its line break" in text


def test_an_ecb_history_cut_off_at_a_line_break_is_refused(tmp_path):
    """Newest first: a history cut after 2,000 of its 6,983 days lacks 1999-2018. (That
    the genuine E4 imports whole is test_feeds_ecb_samples.py's history test: E3, E4
    zipped, into an empty catalog, then E4 itself; a third import of 163,318 rates here
    added 20 s and nothing it does not assert.)"""
    path = derive_text(tmp_path, E4, lambda t: "".join(t.splitlines(keepends=True)[:2001]))
    text = refused(sync_source("ecb-history", file=path)[0], catalog_state())
    assert "The history starts on 2018-" in text and "not on 1999-01-04" in text


def test_two_conflicting_azure_meters_for_one_size_refuse_both(tmp_path):
    """FORMAT.md: one tier offered twice at different prices records neither, and the
    import's record names both meters."""

    def rival(document):
        item = dict(azure_on_demand(document), retailPrice=0.2, meterId="rival-meter")
        document["Items"].append(item)
        document["Count"] += 1

    path = derive_json(tmp_path, Z1, rival)
    result = sync_source("azure", ["eastus"], file=path)[0]
    text = " | ".join(plain(Message.from_json(m)) for m in result.messages)
    assert result.status == FeedImport.Status.IMPORTED and result.refused_rows == 1
    assert "azure-standard-d2s-v3-eastus-on-demand is offered twice" in text
    assert "rival-meter/" in text
    assert not Tier.objects.filter(slug="azure-standard-d2s-v3-eastus-on-demand").exists()
    assert Tier.objects.filter(slug="azure-standard-d2s-v3-eastus-spot").exists()
