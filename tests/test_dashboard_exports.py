"""CSV exports: documented columns, dot decimals and ISO dates whatever the page language."""

import csv
import datetime as dt
import io
import re

import pytest
from django.test import Client

from planner.web import exports
from tests.support.dashboard import edit_url, login, saved_plan

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("two_tier_catalog")]
MONEY = re.compile(r"^-?\d+\.\d\d$")


@pytest.fixture
def plan(owner):
    return saved_plan(owner, one_time={"migration_hours": "40", "migration_rate": "87.50"})


def rows(response) -> list[dict[str, str]]:
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "attachment" in response["Content-Disposition"]
    return list(csv.DictReader(io.StringIO(response.content.decode())))


def german(user) -> Client:
    client = login(user)
    client.post("/i18n/setlang/", {"language": "de", "next": "/"})
    return client


def test_the_comparison_csv_has_the_documented_columns_and_plain_numbers(owner, plan):
    table = rows(german(owner).get(f"{edit_url(plan)}comparison.csv"))
    assert list(table[0]) == [name for name, _doc in exports.COMPARISON_COLUMNS]
    baseline, extreme = table
    assert baseline["option_key"] == "baseline"
    assert baseline["total"] == "17280.00"
    assert extreme["rank"] == "1"
    assert extreme["monthly"] == "349.99"
    assert extreme["one_time"] == "3500.00"  # 40 h x 87.50
    assert extreme["total"] == "16099.64"
    assert extreme["saving"] == "1180.36"
    assert extreme["payback_month"] == "27"
    assert extreme["payback"] == "month 27"
    for row in table:
        for column in ("monthly", "total", "saving"):
            assert MONEY.match(row[column]), (column, row[column])
        dt.date.fromisoformat(row["as_of"])
    assert extreme["price_sources"].startswith("test-extreme-fixed-monthly@")
    dt.date.fromisoformat(extreme["price_sources"].split("@")[1])


def test_the_cumulative_csv_has_one_row_a_month_per_series(owner, plan):
    table = rows(german(owner).get(f"{edit_url(plan)}cumulative.csv"))
    assert list(table[0]) == [name for name, _doc in exports.CUMULATIVE_COLUMNS]
    assert len(table) == 2 * 37  # baseline and one option, months 0..36
    first, last = table[37], table[-1]
    assert (first["month"], first["cumulative_cost"]) == ("0", "3500.00")
    assert (last["month"], last["cumulative_cost"]) == ("36", "16099.64")
    start = dt.date.fromisoformat(first["date"])
    assert dt.date.fromisoformat(last["date"]) == exports.month_end(start, 36)
    assert all(MONEY.match(row["cumulative_cost"]) for row in table)


def test_month_ends_clamp_to_the_last_day_of_short_months():
    assert exports.month_end(dt.date(2026, 1, 31), 1) == dt.date(2026, 2, 28)
    assert exports.month_end(dt.date(2026, 11, 30), 3) == dt.date(2027, 2, 28)
    assert exports.month_end(dt.date(2024, 1, 31), 1) == dt.date(2024, 2, 29)


def test_a_shared_plan_exports_its_frozen_figures_without_login(owner, plan):
    login(owner).post(f"{edit_url(plan)}share")
    token = plan.shares.get().token
    table = rows(Client().get(f"/s/{token}/comparison.csv"))
    assert table[1]["total"] == "16099.64"
    assert Client().get(f"/s/{token}/nothing.csv").status_code == 404


def test_exports_of_a_plan_are_for_its_owner_only(other_user, plan):
    assert Client().get(f"{edit_url(plan)}comparison.csv").status_code == 302
    assert login(other_user).get(f"{edit_url(plan)}cumulative.csv").status_code == 404
