"""The editor's form takes numbers as people type them and maps schema errors by path."""

import re
from decimal import Decimal

import pytest

from planner.models import Plan
from planner.web.fields import read_number
from tests.support.dashboard import field_error, form_data, login

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("two_tier_catalog")]


@pytest.mark.parametrize(
    ("text", "language", "number"),
    [("1,234.50", "en", "1234.50"), ("$480", "en", "480"), ("1.234,56", "de", "1234.56"),
     ("480 €", "de", "480"), ("349.99", "de", "349.99"), ("1.234", "de", "1234")],
)  # fmt: skip
def test_a_number_reads_as_the_reader_types_it(text, language, number):
    assert read_number(text, language) == Decimal(number)


def test_text_that_is_no_number_is_left_for_the_schema_to_refuse():
    assert read_number("lots", "en") is None


def test_a_discount_rate_of_7_is_stored_as_seven_percent(owner):
    response = login(owner).post("/plans/new", form_data(annual_discount_rate="7", action="save"))
    assert response.status_code == 302
    assert Decimal(Plan.objects.get().inputs["annual_discount_rate"]) == Decimal("0.07")


def test_an_error_in_the_second_row_lands_beside_that_row(owner):
    data = form_data(cand_1__tier="no-such-tier", cand_1__count="1", action="save")
    html = login(owner).post("/plans/new", data).content.decode()
    assert "not offered" in field_error(html, "cand_1__tier")
    assert field_error(html, "cand_0__tier") == ""


def test_a_count_of_minus_one_does_not_also_ask_for_a_workload(owner):
    html = login(owner).post("/plans/new", form_data(cand_0__count="-1")).content.decode()
    assert "at least 1 server." in field_error(html, "cand_0__count")
    assert "CPU workload" not in html


def test_every_candidate_cell_has_a_label_and_described_ids_exist(owner):
    html = login(owner).get("/plans/new").content.decode()
    assert '<label class="visually-hidden" for="id_cand-0-tier">' in html
    for ids in re.findall(r'aria-describedby="([^"]+)"', html):
        for one in ids.split():
            assert f'id="{one}"' in html
