"""The editor reads at most the rows a plan can hold: a post with more is refused before a
form is built, with a short page that names the list and repeats none of the rows, and
saves nothing (issue 29, item 1). bench/worst_form.py times the worst post still read."""

import pytest

from planner.compute import schema
from planner.models import Plan
from planner.web import formsets
from tests.support.dashboard import FORMSETS, form_data, login

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("two_tier_catalog")]


def test_every_list_at_201_rows_is_refused_at_once_with_a_short_page(owner):
    client = login(owner)
    data = form_data(action="save")
    for name in FORMSETS:
        data[f"{name}-TOTAL_FORMS"] = "201"
    for headers in ({}, {"HX-Request": "true"}):
        response = client.post("/plans/new", data, headers=headers)
        assert response.status_code == 400
        page = response.content.decode()
        assert 'data-testid="too-many-rows"' in page
        assert "The form sent 201 rows for the options to compare" in page
        assert "a plan holds at most 101" in page
        assert len(response.content) < 4096  # no row shown again
    assert not Plan.objects.exists()


@pytest.mark.parametrize(
    ("name", "section", "what"),
    [("cand", "candidate", "the options to compare"),
     ("commit", "commitment", "the reserved terms still running"),
     ("owned", "owned", "the servers bought"),
     ("wl_hpo", "workload", "the workloads")],
)  # fmt: skip
def test_a_list_is_read_up_to_its_bound_and_refused_one_row_past_it(owner, name, section, what):
    client = login(owner)
    bound = formsets.row_limit(section)
    at_bound = form_data(action="save", **{f"{name}-TOTAL_FORMS": str(bound)})
    assert client.post("/plans/new", at_bound).status_code == 302  # blank rows: not in the plan
    past = form_data(action="save", **{f"{name}-TOTAL_FORMS": str(bound + 1)})
    response = client.post("/plans/new", past)
    assert response.status_code == 400
    assert f"The form sent {bound + 1} rows for {what}" in response.content.decode()
    assert Plan.objects.count() == 1


def test_the_workload_kinds_together_hold_the_plans_workloads_once(owner):
    client = login(owner)
    kinds = [n for n in FORMSETS if n.startswith("wl_")]
    assert len(kinds) == len(schema.WORKLOAD_FIELDS)
    # Each kind within its own bound, together past what a plan holds (50 and a spare each).
    each = formsets.ALL_WORKLOAD_ROWS // len(kinds) + 1
    assert each <= formsets.WORKLOAD_ROWS and each * len(kinds) > formsets.ALL_WORKLOAD_ROWS
    data = form_data(action="save", **{f"{n}-TOTAL_FORMS": str(each) for n in kinds})
    response = client.post("/plans/new", data)
    assert response.status_code == 400
    assert f"The form sent {each * len(kinds)} rows for the workloads" in response.content.decode()


def test_the_bounds_are_the_schemas_list_limits_and_a_spare_row():
    assert formsets.CANDIDATE_ROWS == 100 + 1
    assert formsets.COMMITMENT_ROWS == 20 + 1
    assert formsets.OWNED_ROWS == 10 + 1
    assert len(schema.WORKLOAD_FIELDS) + 50 == formsets.ALL_WORKLOAD_ROWS


def test_the_refusal_is_in_the_readers_language(owner):
    client = login(owner)
    assert client.post("/i18n/setlang/", {"language": "de", "next": "/"}).status_code == 302
    data = form_data(action="save", **{"commit-TOTAL_FORMS": "500"})
    response = client.post("/plans/new", data)
    assert response.status_code == 400
    page = response.content.decode()
    assert "Das Formular hat 500 Zeilen für die noch laufenden Reservierungen gesendet" in page
    assert "ein Plan fasst höchstens 21" in page
