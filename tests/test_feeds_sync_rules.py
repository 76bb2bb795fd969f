"""How a feed import behaves, on small files in AWS's real JSON and CSV forms served over
HTTP: what it adds, what it leaves, what it refuses whole, and what it reports."""

import datetime as dt
import json
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from catalog.feeds import registry
from catalog.feeds.sync import sync_source
from catalog.models import FeedImport, Price, Tier
from catalog.tasks import sync_prices
from common.messages import Message, plain
from tests.support.catalog import add_price, make_tier
from tests.support.feeds import AWS_CSV, AWS_JSON, aws_offer, catalog_state, on_demand

pytestmark = pytest.mark.django_db

M6I = "8D49XP354UEYTHGM"
G5 = "2BQ9X5GN6YNS4WTJ"
SIX = {
    "aws-m6i.large-us-west-2-on-demand",
    "aws-m6i.large-us-west-2-reserved-1y-no-upfront",
    "aws-m6i.large-us-west-2-reserved-1y-all-upfront",
    "aws-m6i.large-us-west-2-reserved-3y-convertible-partial-upfront",
    "aws-g5.xlarge-us-west-2-on-demand",
    # the sixth: g5.xlarge has no reservations in the fixture; the Windows and unused-
    # reservation m6i.large variants and the gp3 volume are filtered out
}


@pytest.fixture(autouse=True)
def downloads(settings, tmp_path):
    settings.CATALOG_FEED_BACKOFF_SECONDS = 0
    settings.CATALOG_FEED_DIR = tmp_path / "downloads"


def serve(httpserver, path, name="/offer.json", content_type="application/json") -> str:
    httpserver.clear()
    httpserver.expect_request(name).respond_with_data(path.read_bytes(), content_type=content_type)
    return httpserver.url_for(name)


def run(httpserver, path, **options) -> FeedImport:
    return sync_source("aws", ["us-west-2"], url=serve(httpserver, path), **options)[0]


def texts(result: FeedImport) -> list[str]:
    return [plain(Message.from_json(m)) for m in result.messages]


def slugs() -> set[str]:
    return set(Tier.objects.values_list("slug", flat=True))


def test_the_json_form_imports_each_filtered_tier_with_specs_and_upfront_fee(httpserver):
    result = run(httpserver, AWS_JSON)
    assert (result.status, result.new_tiers, result.records) == ("imported", 5, 5)
    assert slugs() == SIX
    assert result.version == "20260315120000" and result.bytes == AWS_JSON.stat().st_size
    url = httpserver.url_for("/offer.json")
    upfront = Price.objects.get(tier__slug="aws-m6i.large-us-west-2-reserved-1y-all-upfront")
    assert (upfront.amount, upfront.setup_fee, upfront.effective_from) == (
        Decimal(0),
        Decimal(493),
        dt.date(2026, 3, 15),
    )
    assert (upfront.source, upfront.source_url, upfront.confirmed) == (url, url, True)
    assert upfront.source_key == f"{M6I}.6QCMYABX3D"
    assert upfront.tier.min_term_months == 12
    convertible = Price.objects.get(tier__slug__endswith="3y-convertible-partial-upfront")
    assert (convertible.amount, convertible.setup_fee) == (Decimal("0.023"), Decimal(605))
    gpu = Tier.objects.get(slug="aws-g5.xlarge-us-west-2-on-demand")
    assert (gpu.kind, gpu.gpus, gpu.gpu_mem_gib, gpu.vcpus, gpu.ram_gib) == (
        "cloud_gpu",
        1,
        Decimal(24),
        4,
        Decimal(16),
    )
    assert (gpu.cpu_model, gpu.cpu_flags, gpu.storage_type, gpu.network) == (
        "AMD EPYC 7R32",
        "turbo",
        "1 x 250 NVMe SSD",
        "Up to 10 Gigabit",
    )


def test_the_csv_form_of_the_same_offer_imports_the_same_tiers_and_prices(httpserver):
    json_result = run(httpserver, AWS_JSON)
    from_json = sorted(Price.objects.values_list("tier__slug", "amount", "setup_fee",
                                                 "source_key", "source_version"))  # fmt: skip
    Price.objects.all().delete()
    Tier.objects.all().delete()
    FeedImport.objects.all().delete()
    url = serve(httpserver, AWS_CSV, "/offer.csv", "text/csv")
    csv_result = sync_source("aws", ["us-west-2"], url=url)[0]
    assert (csv_result.status, csv_result.new_tiers) == ("imported", json_result.new_tiers)
    assert sorted(Price.objects.values_list("tier__slug", "amount", "setup_fee", "source_key",
                                            "source_version")) == from_json  # fmt: skip


def test_the_same_file_again_is_reported_unchanged_before_it_is_parsed(httpserver, monkeypatch):
    run(httpserver, AWS_JSON)
    before = catalog_state()

    def must_not_parse(*args, **kwargs):
        raise AssertionError("parsed a file already imported")

    monkeypatch.setattr(registry.SOURCES["aws"], "read", must_not_parse)
    again = run(httpserver, AWS_JSON)
    assert again.status == "unchanged" and again.records == 5
    assert texts(again)[0].startswith("This file (SHA-256 ")
    assert catalog_state() == before


def test_a_new_version_with_the_same_prices_changes_nothing(httpserver, tmp_path):
    run(httpserver, AWS_JSON)
    before = catalog_state()

    def next_day(document):
        document["version"] = "20260316120000"
        document["publicationDate"] = "2026-03-16T12:00:00Z"

    again = run(httpserver, aws_offer(tmp_path, next_day))
    assert (again.status, again.unchanged, again.changed_prices, again.new_tiers) == (
        "imported",
        5,
        0,
        0,
    )
    assert catalog_state() == before


def test_a_changed_price_adds_a_row_and_keeps_the_old_one(httpserver, tmp_path):
    run(httpserver, AWS_JSON)

    def cheaper(document):
        document["publicationDate"] = "2026-04-01T00:00:00Z"
        on_demand(document, M6I)["pricePerUnit"]["USD"] = "0.0900000000"

    result = run(httpserver, aws_offer(tmp_path, cheaper))
    assert (result.changed_prices, result.unchanged) == (1, 4)
    rows = Price.objects.filter(tier__slug="aws-m6i.large-us-west-2-on-demand")
    assert list(rows.order_by("effective_from").values_list("effective_from", "amount")) == [
        (dt.date(2026, 3, 15), Decimal("0.096")),
        (dt.date(2026, 4, 1), Decimal("0.09")),
    ]


def test_a_newer_snapshot_of_the_same_day_supersedes_the_feeds_row(httpserver, tmp_path):
    """Identity is (tier, effective_from): a later version of the same feed that day (the
    feed's own timestamp, issue 28) replaces the day's price; no second row."""
    run(httpserver, AWS_JSON)

    def later_that_day(document):
        document["version"] = "20260315180000"
        document["publicationDate"] = "2026-03-15T18:00:00Z"
        on_demand(document, M6I)["pricePerUnit"]["USD"] = "0.0990000000"

    result = run(httpserver, aws_offer(tmp_path, later_that_day))
    assert (result.status, result.refused_rows, result.changed_prices) == ("imported", 0, 1)
    assert (
        "1 price of this day from an earlier snapshot of the same feed was replaced"
        in (texts(result)[1])
    )
    row = Price.objects.get(tier__slug="aws-m6i.large-us-west-2-on-demand")
    assert (row.amount, row.source_version) == (Decimal("0.099"), "20260315180000")


def test_an_older_snapshot_of_the_same_day_is_not_recorded_and_is_reported(httpserver, tmp_path):
    """The day's newest snapshot stands: an older one read afterwards changes nothing."""

    def later_that_day(document):
        document["version"] = "20260315180000"
        document["publicationDate"] = "2026-03-15T18:00:00Z"
        on_demand(document, M6I)["pricePerUnit"]["USD"] = "0.0990000000"

    run(httpserver, aws_offer(tmp_path, later_that_day, name="later.json"))
    result = run(httpserver, AWS_JSON)
    assert (result.status, result.refused_rows, result.unchanged) == ("imported", 1, 4)
    assert texts(result)[1] == (
        "aws-m6i.large-us-west-2-on-demand already has the price 0.099000 USD from "
        "2026-03-15; the feed's 0.096000 USD for the same day is not recorded (prices are "
        "never overwritten)."
    )
    assert Price.objects.get(tier__slug="aws-m6i.large-us-west-2-on-demand").amount == Decimal(
        "0.099"
    )


def test_a_tier_missing_from_the_complete_feed_is_retired_and_returns_when_listed(
    httpserver, tmp_path, settings
):
    settings.CATALOG_FEED_MAX_DROP = 0.5
    run(httpserver, AWS_JSON)

    def without_g5(document):
        document["version"] = "20260401000000"
        del document["products"][G5]
        del document["terms"]["OnDemand"][G5]

    gone = run(httpserver, aws_offer(tmp_path, without_g5))
    assert gone.retired == 1
    g5 = Tier.objects.get(slug="aws-g5.xlarge-us-west-2-on-demand")
    assert g5.retired and g5.prices.count() == 1  # kept for history, never deleted
    back = run(httpserver, AWS_JSON)
    assert back.status == "imported"
    g5.refresh_from_db()
    assert not g5.retired


def test_a_hand_entered_tier_with_the_same_key_is_adopted_and_its_rows_kept(httpserver):
    tier = make_tier("aws-m6i.large-us-west-2-on-demand", name="m6i.large", region="us-west-2",
                     vcpus=2, cores=1, ram_gib=Decimal(8))  # fmt: skip
    hand = add_price(tier, "0.1", "2026-01-05", confirmed=False, source="a quote")
    same_day = add_price(make_tier("aws-g5.xlarge-us-west-2-on-demand", name="g5.xlarge",
                                   region="us-west-2"), "1.2", "2026-03-15")  # fmt: skip
    result = run(httpserver, AWS_JSON)
    assert (result.new_tiers, result.changed_prices, result.refused_rows) == (3, 1, 1)
    hand.refresh_from_db()
    same_day.refresh_from_db()
    assert (hand.amount, hand.confirmed, hand.source) == (Decimal("0.1"), False, "a quote")
    assert same_day.amount == Decimal("1.2")  # a hand-entered row is never changed
    fed = tier.prices.get(effective_from=dt.date(2026, 3, 15))
    assert (fed.amount, fed.confirmed, fed.source_key) == (
        Decimal("0.096"),
        True,
        f"{M6I}.JRTCKXETXF",
    )
    tier.refresh_from_db()
    assert tier.cores == 1  # the feed does not state cores: staff's figure stays
    assert tier.cpu_flags == "avx avx2 avx512 turbo"  # and it fills in what it knows


@pytest.mark.parametrize(
    "damage, reason",
    [
        (lambda text: text[: len(text) // 2], "Not valid JSON near byte"),
        (lambda text: text.replace('"vcpu" :', '"vCpu" :'), "lacks the required key vcpu"),
        (lambda text: text.replace('"offerCode" : "AmazonEC2"', '"offerCode" : "AmazonS3"'),
         "This is the offer file of AmazonS3, not of AmazonEC2."),
        (lambda text: text.replace('"us-west-2"', '"eu-west-1"'),
         "This offer file is for eu-west-1, not for us-west-2."),
    ],
    ids=["truncated-json", "renamed-key", "another-service", "another-region"],
)  # fmt: skip
def test_a_damaged_json_file_is_refused_whole_and_nothing_changes(
    httpserver, tmp_path, damage, reason
):
    run(httpserver, AWS_JSON)  # an earlier import, so "nothing changes" has something to keep
    before = catalog_state()
    path = tmp_path / "damaged.json"
    path.write_text(damage(AWS_JSON.read_text()))
    result = run(httpserver, path)
    assert result.status == "refused"
    assert any(reason in text for text in texts(result)), texts(result)
    assert catalog_state() == before


@pytest.mark.parametrize(
    "damage, reason",
    [
        (lambda text: text.replace('"Tenancy",', '"Tenure",', 1),
         "required keys are missing: Tenancy"),
        (lambda text: text.replace('"0.0600000000"', '"0.06","0"', 1), "has 48 fields"),
        (lambda text: text.replace('"2026-03-01"', '"01/03/2026"', 1),
         "column EffectiveDate: 01/03/2026"),
        (lambda text: text.replace('"1yr","All Upfront"', '"1yr","AllUpfront"', 1),
         "column PurchaseOption: AllUpfront"),
        (lambda text: text + '"8D49XP354UEYTHGM","JRTCKXETXF","unterminated\n', "not valid CSV"),
    ],
    ids=["renamed-column", "extra-field", "spreadsheet-date", "option-spelling", "open-quote"],
)  # fmt: skip
def test_a_damaged_csv_file_is_refused_whole_naming_the_line(httpserver, tmp_path, damage, reason):
    before = catalog_state()
    path = tmp_path / "damaged.csv"
    path.write_text(damage(AWS_CSV.read_text()))
    result = sync_source("aws", ["us-west-2"], url=serve(httpserver, path, "/o.csv", "text/csv"))[0]
    assert result.status == "refused"
    assert any(reason in text for text in texts(result)), texts(result)
    assert catalog_state() == before


def test_a_feed_whose_record_count_falls_by_more_than_the_share_is_refused(
    httpserver, tmp_path, settings
):
    settings.CATALOG_FEED_MAX_DROP = 0.2
    run(httpserver, AWS_JSON)
    before = catalog_state()

    def only_m6i(document):
        del document["products"][G5]
        del document["terms"]["OnDemand"][G5]
        del document["terms"]["Reserved"][M6I]  # 5 offers → 1

    result = run(httpserver, aws_offer(tmp_path, only_m6i))
    assert result.status == "refused"
    assert texts(result)[0].startswith("The feed offers 1 records, 80 % fewer than the 5 of")
    assert texts(result)[0].endswith("more than 20 % fewer is refused as an incomplete feed.")
    assert catalog_state() == before


def test_a_dry_run_reports_what_it_would_do_and_writes_nothing(httpserver):
    before = catalog_state()
    result = run(httpserver, AWS_JSON, dry_run=True)
    assert (result.status, result.new_tiers, result.pk) == ("dry_run", 5, None)
    assert catalog_state() == before and not FeedImport.objects.exists()


def test_the_command_prints_progress_and_the_summary(tmp_path):
    out = StringIO()
    call_command("sync_prices", "aws", "--region", "us-west-2", "--file", str(AWS_JSON),
                 stdout=out)  # fmt: skip
    text = out.getvalue()
    assert "aws us-west-2: imported (version 20260315120000)" in text
    assert "new tiers: 5, changed prices: 0, unchanged: 0, retired: 0, refused rows: 0" in text
    assert "AWS spot prices are not in the Price List bulk feed" in text
    with pytest.raises(CommandError, match="1 of 1 refused"):
        call_command("sync_prices", "aws", "--region", "us-west-2", "--file",
                     str(tmp_path / "missing.json"), stdout=StringIO())  # fmt: skip
    with pytest.raises(CommandError, match="name it with --region"):
        call_command("sync_prices", "aws", "--file", str(AWS_JSON), stdout=StringIO())


def test_the_task_finds_the_file_through_the_region_index_on_the_default_queue(
    httpserver, settings
):
    current = "/offers/v1.0/aws/AmazonEC2/20260315120000/us-west-2/index.json"
    index = {
        "formatVersion": "v1.0",
        "publicationDate": "2026-03-15T12:00:00Z",
        "regions": {"us-west-2": {"regionCode": "us-west-2", "currentVersionUrl": current}},
    }
    httpserver.expect_request(
        "/offers/v1.0/aws/AmazonEC2/current/region_index.json"
    ).respond_with_json(index)
    httpserver.expect_request(current).respond_with_data(
        AWS_JSON.read_bytes(), content_type="application/json"
    )
    settings.CATALOG_FEED_AWS_BASE_URL = httpserver.url_for("/").rstrip("/")
    route = sync_prices.app.amqp.router.route({}, sync_prices.name)
    assert route["queue"].name == "default"  # the control worker's queue, never bench.*
    (result,) = sync_prices.run("aws", ["us-west-2"])
    assert (result["status"], result["new_tiers"]) == ("imported", 5)
    unknown = sync_source("aws", ["mars-north-1"])[0]
    assert texts(unknown) == ["mars-north-1 is not a region of the aws feed."]


def test_the_ecb_daily_file_skips_currencies_the_catalog_does_not_offer(httpserver, tmp_path):
    from tests.support.feeds import FIXTURES

    url = serve(httpserver, FIXTURES / "ecb-daily.xml", "/eurofxref-daily.xml", "text/xml")
    result = sync_source("ecb", url=url)[0]
    assert (result.status, result.changed_prices) == ("imported", 2)
    assert texts(result) == [
        "Rates for ISK were not imported: the catalog offers no such currency."
    ]
    again = json.loads(json.dumps(result.messages))
    assert again == result.messages  # messages are stored as JSON


def test_the_effective_hourly_rate_is_derived_in_the_catalog_frame_not_stored(httpserver):
    """1-year all upfront: 493 / 8760 + 0 = 0.056279; 3-year convertible partial:
    605 / 26280 + 0.023 = 0.046021; on demand: the hourly rate itself."""
    from catalog.pricing import catalog_frame

    run(httpserver, AWS_JSON)
    frame = catalog_frame(dt.date(2026, 4, 1)).set_index("slug")
    effective = frame["effective_hourly"]
    assert effective["aws-m6i.large-us-west-2-reserved-1y-all-upfront"] == pytest.approx(493 / 8760)
    assert effective[
        "aws-m6i.large-us-west-2-reserved-3y-convertible-partial-upfront"
    ] == pytest.approx(605 / 26280 + 0.023)
    assert effective["aws-m6i.large-us-west-2-on-demand"] == pytest.approx(0.096)
    assert not hasattr(Price, "effective_hourly")


def test_staff_read_each_run_and_its_reasons_in_the_admin(client, django_user_model):
    admin = django_user_model.objects.create_superuser("root", "root@example.com", "pw-root-1")
    client.force_login(admin)
    result = sync_source("aws", ["us-west-2"], file=AWS_JSON)[0]
    listing = client.get("/admin/catalog/feedimport/")
    assert listing.status_code == 200 and "us-west-2" in listing.content.decode()
    page = client.get(f"/admin/catalog/feedimport/{result.pk}/change/").content.decode()
    assert "AWS spot prices are not in the Price List bulk feed" in page
    assert client.get("/admin/catalog/feedimport/add/").status_code == 403
