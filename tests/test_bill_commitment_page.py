"""The bill page's commitment figures (issue 26, item 3) from the stored aggregates:
utilisation, coverage, unused spend and the savings split.

- Each FOCUS spec worked example (../shared/reference/bills/focus/spec_examples, FOCUS_Spec
  v1.2, CC BY 4.0) imported as a bill gives, on its page, the utilisation and coverage
  the spec's text states for it. The examples leave out columns every FOCUS file carries
  (ServiceCategory, ProviderName, BillingCurrency, BillingAccountId): the imported files
  are GENERATED from them at test time with those columns added (Compute, "Spec example",
  USD, one account per example), every other cell as the spec gives it.
- The real FOCUS sample's figures equal plain sums of its own columns."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest

from bills import page
from bills.commitments import bill_commitment_summary
from bills.services.importing import import_bill
from common import formatting
from tests.support.bills import FOCUS, bill_sample, rows_of, write_csv
from tests.test_bill_commitments import EXAMPLES, STATED

pytestmark = pytest.mark.django_db
ADDED = {"ServiceCategory": "Compute", "ProviderName": "Spec example", "BillingCurrency": "USD"}


def _example_bill(name: str, owner, tmp_path):
    """GENERATED: the spec example with the columns it leaves out added."""
    header, rows = rows_of(bill_sample(EXAMPLES + name))
    rows = [r | ADDED | {"BillingAccountId": name[:60]} for r in rows if any(r.values())]
    target = write_csv(tmp_path / name, [*header, *ADDED, "BillingAccountId"], rows)
    bill = import_bill(target, owner).bill
    page.warm(bill.pk)  # as the upload task and `manage.py import_bill` do
    return bill


def _shown(client, bill, testid: str) -> str:
    html = client.get(f"/bills/{bill.pk}/").content.decode()
    start = html.index(f'data-testid="{testid}">') + len(f'data-testid="{testid}">')
    return html[start : html.index("<", start)].strip()


@pytest.mark.parametrize("name", sorted(STATED))
def test_each_spec_example_on_its_bill_page(name, owner, client, tmp_path, own_cache) -> None:
    bill = _example_bill(name, owner, tmp_path)
    client.force_login(owner)
    said = page.figures(bill)["commitments"]
    utilisation, coverage = STATED[name]
    for figure, stated in (("utilisation", utilisation), ("coverage", coverage)):
        found = said[figure]
        assert (None if found is None else Decimal(found)) == (
            None if stated is None else Decimal(stated)
        ), figure
        shown = formatting.percent(None if stated is None else Decimal(stated), 0, "en")
        assert _shown(client, bill, figure) == shown
        assert (figure in said["reasons"]) == (stated is None)
    # The spec gives no ContractedCost: the split is not claimed, and the page says why.
    assert said["negotiated"] is None and said["reasons"]["negotiated"] == "no_contracted_cost"
    assert _shown(client, bill, "negotiated") == formatting.DASH


def test_unused_spend_of_the_zero_percent_example(owner, client, tmp_path, own_cache) -> None:
    name = "zero_percent_utilization_without_commitment_discount_flexibility.csv"
    bill = _example_bill(name, owner, tmp_path)
    said = page.figures(bill)["commitments"]
    assert Decimal(said["unused"]) == Decimal("1.50")  # the VM_LARGE commitment, unused
    assert Decimal(said["effective"]) == Decimal("3.50")  # 1.50 unused + 2.00 on demand
    client.force_login(owner)
    assert _shown(client, bill, "unused") == formatting.money(Decimal("1.5"), "USD", "en")
    csv_rows = list(csv.DictReader(io.StringIO(
        client.get(f"/bills/{bill.pk}/export.csv").content.decode())))  # fmt: skip
    figures = {r["figure"]: r for r in csv_rows if r["table"] == "commitments"}
    assert Decimal(figures["unused"]["value"]) == Decimal("1.5")
    assert Decimal(figures["utilisation"]["value"]) == 0
    assert figures["negotiated"]["value"] == ""
    assert figures["negotiated"]["reason"] == "no_contracted_cost"


def _d(text: str) -> Decimal:
    return Decimal(text) if text and text != "NULL" else Decimal(0)


def _plain_sums(rows: list[dict[str, str]]) -> dict[str, Decimal]:
    """The figures as plain sums of the file's own columns (see docs/design.md)."""
    usage = [r for r in rows if r["ChargeCategory"] == "Usage"]
    committed = {r["ServiceCategory"] for r in usage if r["PricingCategory"] == "Committed"}
    eligible = [
        r
        for r in usage
        if r["ServiceCategory"] in {"Compute", "AI and Machine Learning"} | committed
    ]
    total = lambda column, chosen: sum((_d(r[column]) for r in chosen), Decimal(0))  # noqa: E731
    on_demand = [r for r in eligible if r["PricingCategory"] != "Committed"]
    used = [r for r in usage if r["CommitmentDiscountStatus"] == "Used"]
    return {
        "list": total("ListCost", eligible),
        "on_demand": total("ListCost", on_demand),
        "contracted": total("ContractedCost", eligible),
        "effective": total("EffectiveCost", eligible),
        "used": total("EffectiveCost", used),
    }


def test_the_real_focus_sample_figures_are_plain_sums_of_its_columns(
    owner, client, own_cache
) -> None:
    bill = import_bill(bill_sample(FOCUS), owner).bill
    page.warm(bill.pk)
    _, rows = rows_of(bill_sample(FOCUS))
    close = lambda a, b: abs(a - b) < Decimal("1e-6")  # noqa: E731  (ten-place sums)
    plain = _plain_sums(rows)
    said = bill_commitment_summary(bill)
    # The sample's commitment rows are all "Used", at an effective cost of 0 (anonymised,
    # as most of its AWS rows): no utilisation is weighed, and the reason says so.
    assert plain["used"] == 0 and bill.lines.filter(commitment_status="Used").exists()
    assert said.utilisation is None and said.reasons["utilisation"] == "commitment_cost_zero"
    assert said.unused == 0
    assert close(said.eligible_list, plain["list"])
    assert close(said.coverage, (plain["list"] - plain["on_demand"]) / plain["list"])
    assert close(said.savings, plain["list"] - plain["effective"])
    # Its Oracle rows give no ContractedCost: the bill's split is not claimed ...
    assert said.negotiated is None and said.reasons["negotiated"] == "no_contracted_cost"
    client.force_login(owner)
    assert _shown(client, bill, "coverage") == formatting.percent(said.coverage, 0, "en")
    assert _shown(client, bill, "negotiated") == formatting.DASH
    assert page.figures(bill)["commitments"] == said.as_json()
    # ... and of its AWS lines (`lines`: any chosen lines of the bill) it is.
    aws = bill_commitment_summary(bill, bill.lines.filter(provider="AWS"))
    plain = _plain_sums([r for r in rows if r["ProviderName"] == "AWS"])
    assert close(aws.negotiated, plain["list"] - plain["contracted"])
    assert close(aws.commitment, plain["contracted"] - plain["effective"])
    assert close(aws.negotiated + aws.commitment, aws.savings)
    assert close(aws.coverage, (plain["list"] - plain["on_demand"]) / plain["list"])


def test_tags_kept_as_sorted_pairs(owner) -> None:
    bill = import_bill(bill_sample(FOCUS), owner).bill
    tags = set(bill.lines.exclude(tags="").values_list("tags", flat=True))
    _, rows = rows_of(bill_sample(FOCUS))
    assert len(tags) == len({r["Tags"] for r in rows if r["Tags"] not in ("", "NULL")})
    assert "application=BrightLensMatrix;business_unit=ViennaAI;environment=dev" in tags


def test_azure_amortized_commitment_usage_and_contracted_cost(owner) -> None:
    """Microsoft's demo EA amortized export: its Reservation and SavingsPlan usage rows are
    the commitment used (no Unused* rows: utilisation 1); UnitPrice x Quantity is the
    contracted cost, so the split is given and adds up to the savings."""
    name = "azure/azure_ea_amortizedcost_small_finops_toolkit.csv"
    bill = import_bill(bill_sample(name), owner).bill
    _, rows = rows_of(bill_sample(name))
    committed = [r for r in rows if r["PricingModel"] in ("Reservation", "SavingsPlan")]
    said = bill_commitment_summary(bill)
    used = sum((Decimal(r["Cost"]) for r in committed), Decimal(0))
    assert used > 0 and abs(said.used - used) < Decimal("1e-9")  # kept to ten places
    assert said.utilisation == 1 and said.unused == 0
    assert said.negotiated is not None and said.commitment is not None
    assert abs(said.negotiated + said.commitment - said.savings) < Decimal("1e-9")


def test_cur_commitment_columns_are_read(owner) -> None:
    """The real legacy CUR sample has usage and tax only: no commitment used or unused,
    and no contracted cost (a CUR gives none), each said by its reason."""
    bill = import_bill(bill_sample("aws_cur/cur_legacy_anonymised_focus_converters.csv"),
                       owner).bill  # fmt: skip
    said = bill_commitment_summary(bill)
    assert said.reasons["utilisation"] == "no_commitment" and said.unused == 0
    assert said.reasons["negotiated"] == "no_contracted_cost"
