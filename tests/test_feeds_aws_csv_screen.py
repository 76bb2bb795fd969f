"""The AWS CSV form read a block at a time (catalog/feeds/csv_screen.py): the same prices
as reading it line by line, and a damaged line anywhere refused by its own line number.

The blocks are made small here (a few kB) so that a generated offer file of a few
thousand lines spans many of them and the damage falls after blocks already screened.
"""

from pathlib import Path

import pytest

from bench import aws_offer_synth
from catalog.feeds import aws, csv_screen
from catalog.feeds.base import FeedRefused
from catalog.feeds.sync import sync_source
from catalog.models import FeedImport
from common.messages import plain
from tests.support.feeds import catalog_state

TYPES = 8  # 3,232 lines; 192 of Linux/Shared products, giving 104 prices


@pytest.fixture
def offer(tmp_path) -> Path:
    path = tmp_path / "offer.csv"
    aws_offer_synth.write_csv(path, TYPES)
    return path


@pytest.fixture
def blocks(monkeypatch) -> list[csv_screen.Block]:
    """Small blocks, and each block the screen yields, in order."""
    monkeypatch.setattr(csv_screen, "BLOCK_CHARS", 4_000)
    seen: list[csv_screen.Block] = []
    screen = csv_screen.screen

    def recording(*args, **kwargs):
        for block in screen(*args, **kwargs):
            seen.append(block)
            yield block

    monkeypatch.setattr(csv_screen, "screen", recording)
    return seen


def read(path: Path) -> list:
    return list(aws._CsvOffer(path, "us-east-1", None).records())


def refusal(path: Path) -> list[str]:
    with pytest.raises(FeedRefused) as refused:
        read(path)
    return [plain(reason) for reason in refused.value.reasons]


def line_by_line(monkeypatch) -> None:
    monkeypatch.setattr(aws, "_block_pattern", lambda columns: None)


def line_of(path: Path, after: int, has: tuple[str, ...], lacks: tuple[str, ...] = ()) -> int:
    """The number of the first line after `after` holding each field of `has` and none of
    `lacks` (whole quoted fields)."""
    for number, text in enumerate(path.read_text().split("\n"), 1):
        fields = set(text.split(","))
        wanted = all(f'"{f}"' in fields for f in has)
        if number > after and wanted and not any(f'"{f}"' in fields for f in lacks):
            return number
    raise AssertionError(f"no line after {after} with {has}")


def damage(path: Path, number: int, old: str, new: str) -> str:
    """Line `number` with `old` replaced by `new` (once); that line's new text."""
    lines = path.read_text().split("\n")
    assert old in lines[number - 1], lines[number - 1]
    lines[number - 1] = lines[number - 1].replace(old, new, 1)
    path.write_text("\n".join(lines))
    return lines[number - 1]


def test_the_screened_blocks_give_exactly_the_prices_of_the_line_by_line_reading(
    offer, blocks, monkeypatch
):
    screened = read(offer)
    assert len(blocks) > 100 and all(block.rest is None for block in blocks)
    kept = ("Linux", "Shared", "NA", "No License required", "Used")
    lines = [set(line.split(",")) for line in offer.read_text().split("\n")]
    candidates = sum(all(f'"{f}"' in fields for f in kept) for fields in lines)
    assert sum(len(block.lines) for block in blocks) == candidates == 192  # 8 types x 24
    line_by_line(monkeypatch)
    assert screened == read(offer) and len(screened) == TYPES * 13


@pytest.mark.parametrize(
    "old, new, column",
    [
        ('","USD"', '-","USD"', "PricePerUnit"),
        ('"WT', '"wt', "SKU"),
        ('"2025-12-01"', '"2025-02-30"', "EffectiveDate"),
        ('"USD"', '"XTS"', "Currency"),
        ('"OnDemand"', '"Ondemand"', "TermType"),
    ],
    ids=["price", "sku", "date", "currency", "term-type"],
)
def test_a_damaged_line_of_a_product_not_kept_is_refused_by_its_number(
    offer, blocks, old, new, column
):
    """An on-demand line of a Windows product after line 2,000, in a block after hundreds
    of screened ones: the screen hands that block on, and it is read line by line."""
    number = line_of(offer, 2_000, ("OnDemand", "Windows"))
    damage(offer, number, old, new)
    problems = refusal(offer)
    assert len(problems) == 1 and problems[0].startswith(f"Line {number}, column {column}: ")
    assert len(blocks) > 50 and blocks[-1].rest is not None
    assert all(block.first_line <= number for block in blocks)


KEPT = ("Linux", "Shared", "NA", "No License required", "Used")


@pytest.mark.parametrize("screened", [True, False], ids=["screened", "line-by-line"])
def test_a_reservation_term_in_another_form_is_skipped_on_a_line_not_kept(
    offer, blocks, monkeypatch, screened
):
    """AWS writes Dedicated Host reservations as "1 yr"/"3 yr" and "AllUpfront" (issue 28):
    a product the importer does not keep is skipped before its terms are checked, as the
    JSON reader does, and the file gives the same prices."""
    if not screened:
        line_by_line(monkeypatch)
    expected = read(offer)
    number = line_of(offer, 3_000, ("Reserved", "3yr", "All Upfront"), lacks=("Linux",))
    damage(offer, number, '"3yr"', '"3 yr"')
    damage(offer, number, '"All Upfront"', '"AllUpfront"')
    assert read(offer) == expected


def test_a_reservation_term_in_another_form_is_refused_on_a_kept_line(offer, blocks):
    number = line_of(offer, 1_000, ("Reserved", "3yr", *KEPT))
    damage(offer, number, '"3yr"', '"3 yr"')
    assert refusal(offer) == [
        f"Line {number}, column LeaseContractLength: 3 yr is not a value this feed may hold."
    ]


def test_a_rate_code_not_of_its_sku_and_term_is_refused(offer, blocks):
    number = line_of(offer, 1_500, ("OnDemand", "RHEL"))
    damage(offer, number, ".JRTCKXETXF.", ".JRTCKXETXG.")
    assert refusal(offer)[0].startswith(f"Line {number}, column RateCode: ")


def test_a_line_short_of_a_field_is_refused_by_its_number(offer, blocks):
    damage(offer, 2_500, '"","",', '"",')
    assert refusal(offer)[0].startswith("Line 2500 has 43 fields; the header has 44.")


def test_a_line_that_is_not_utf8_is_named(offer, blocks):
    data = offer.read_bytes().split(b"\n")
    data[2_222] = data[2_222].replace(b"Compute", b"Comp\xffute", 1)
    offer.write_bytes(b"\n".join(data))
    assert refusal(offer) == ["Line 2223 is not UTF-8 text."]


def test_a_leap_day_and_a_quote_inside_a_field_are_read_line_by_line_and_kept(
    offer, blocks, monkeypatch
):
    """Neither is in the block pattern's form (29 February is left to the calendar, a
    doubled quote to csv), so the screen hands on their block; both lines are valid."""
    expected = read(offer)
    kept = line_of(offer, 1_200, ("Linux", "Shared", "Used", "NA"))
    damage(offer, kept, '"2025-12-01"', '"2028-02-29"')
    damage(offer, kept + 1, '"Up to 10 Gigabit"', '"Up to 10 ""Gigabit"""')
    blocks.clear()
    screened = read(offer)
    assert blocks[-1].rest is not None and blocks[-1].first_line <= kept
    line_by_line(monkeypatch)
    assert screened == read(offer) and len(screened) == len(expected)


@pytest.mark.django_db
def test_a_damaged_file_read_in_blocks_is_refused_whole_and_changes_nothing(offer, blocks):
    number = line_of(offer, 3_100, ("USD",))
    damage(offer, number, '"USD"', '"usd"')
    before = catalog_state()
    result = sync_source("aws", ["us-east-1"], file=offer)[0]
    assert result.status == "refused"
    assert result.messages[0]["params"]["line"] == number
    assert catalog_state() == before and FeedImport.objects.get().status == "refused"


def a2_as_csv(path: Path, host_lease: str) -> int:
    """The genuine A2 offer (../shared/reference/feeds) written in the CSV form: one line a
    price dimension, its columns as `bench.aws_offer_synth` writes them; the Dedicated Host
    reservations' lease as AWS's CSV writes it ("1 yr", issue 28), their purchase options
    as the JSON has them ("AllUpfront", "NoUpfront"). Returns the number of host lines."""
    import csv
    import json

    from tests.support.feeds import sample

    document = json.loads(sample("aws/ec2-us-east-1-20200709-selected.json").read_text())
    hosts = 0
    with path.open("w", newline="") as out:
        writer = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n")
        writer.writerow(["FormatVersion", document["formatVersion"]])
        writer.writerow(["Disclaimer", document["disclaimer"]])
        writer.writerow(["Publication Date", document["publicationDate"]])
        writer.writerow(["Version", document["version"]])
        writer.writerow(["OfferCode", document["offerCode"]])
        writer.writerow(aws_offer_synth.CSV_HEADER)
        for term_type, by_sku in document["terms"].items():
            for sku, terms in by_sku.items():
                product = document["products"][sku]
                host = product["productFamily"] == "Dedicated Host"
                for term in terms.values():
                    attributes = dict(term.get("termAttributes", {}))
                    if host and "LeaseContractLength" in attributes:
                        attributes["LeaseContractLength"] = host_lease.format(
                            attributes["LeaseContractLength"][0]
                        )
                    for dimension in term["priceDimensions"].values():
                        cells = {
                            "SKU": sku, "OfferTermCode": term["offerTermCode"],
                            "RateCode": dimension["rateCode"], "TermType": term_type,
                            "PriceDescription": dimension["description"],
                            "EffectiveDate": term["effectiveDate"][:10],
                            "StartingRange": dimension.get("beginRange", ""),
                            "EndingRange": dimension.get("endRange", ""),
                            "Unit": dimension["unit"],
                            "PricePerUnit": dimension["pricePerUnit"]["USD"],
                            "Currency": "USD", "Product Family": product["productFamily"],
                            "serviceCode": "AmazonEC2",
                            **{k: attributes.get(k, "") for k in
                               ("LeaseContractLength", "PurchaseOption", "OfferingClass")},
                            **{column: product["attributes"].get(name, "") for column, name
                               in aws_offer_synth.ATTRIBUTE_COLUMNS.items()},
                        }  # fmt: skip
                        writer.writerow([cells.get(c, "") for c in aws_offer_synth.CSV_HEADER])
                        hosts += host and term_type == "Reserved"
    return hosts


@pytest.mark.parametrize("screened", [True, False], ids=["screened", "line-by-line"])
def test_the_genuine_a2_offer_in_csv_form_with_host_reservations_reads_as_its_json(
    tmp_path, monkeypatch, screened
):
    """Issue 28, "Genuine AWS CSV lines": A2's Dedicated Host reservations, written as AWS's
    CSV writes them ("1 yr"/"3 yr", "AllUpfront"/"NoUpfront"), no longer refuse the file:
    the CSV gives exactly the prices of the JSON it was derived from."""
    from tests.support.feeds import sample

    if not screened:
        line_by_line(monkeypatch)
    path = tmp_path / "a2.csv"
    assert a2_as_csv(path, "{} yr") > 0
    from_json = list(
        aws._JsonOffer(sample("aws/ec2-us-east-1-20200709-selected.json"), "us-east-1", None)
        .records()
    )  # fmt: skip
    assert from_json and read(path) == from_json
