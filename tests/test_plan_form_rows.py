"""The editor's rows answer "changed?" as Django's forms do, whatever is posted (a blank
row takes a short cut past Django's per-input check), and blank rows stay out of the plan
while a typed one goes in (real posts)."""

import pytest
from django import forms
from django.http import QueryDict

from planner.compute import schema
from planner.web import formsets
from tests.support.dashboard import DEDICATED, form_data, login

ROWS = [("candidate", ""), ("commitment", ""), ("owned", "")] + [
    ("workload", kind) for kind in schema.WORKLOAD_FIELDS
]


def posted(row: type[forms.Form], prefix: str, case: str) -> QueryDict:
    """One row's post: blank, empty strings, spaces, one value typed, every box ticked."""
    data = QueryDict(mutable=True)
    names = list(row.base_fields)
    typed = next(n for n in names if not isinstance(row.base_fields[n], forms.BooleanField))
    for name in names:
        key = f"{prefix}-0-{name}"
        box = isinstance(row.base_fields[name], forms.BooleanField)
        if case == "empty strings" and not box:
            data[key] = ""
        elif case == "spaces" and not box:
            data[key] = "  "
        elif case == "one typed" and name == typed:
            data[key] = "12"
        elif case == "boxes ticked" and box:
            data[key] = "on"
    return data


@pytest.mark.parametrize(("section", "kind"), ROWS)
@pytest.mark.parametrize("case", ["blank", "empty strings", "spaces", "one typed", "boxes ticked"])
def test_a_row_is_changed_exactly_when_djangos_form_says_so(section, kind, case):
    formset = formsets.formset_class(section, "en", kind)
    prefix = formsets.prefix(section, kind)
    row = formset.form(posted(formset.form, prefix, case), prefix=f"{prefix}-0",
                       empty_permitted=True, use_required_attribute=False)  # fmt: skip
    assert row.has_changed() == forms.Form.has_changed(row)


@pytest.mark.django_db
@pytest.mark.usefixtures("two_tier_catalog")
def test_blank_rows_stay_out_of_the_plan_and_a_typed_row_goes_in(owner):
    client = login(owner)
    blank = client.post("/plans/new", form_data(action="save"))
    typed = client.post("/plans/new", form_data(action="save", wl_gbm_0__trainings_per_month="20",
                                                wl_gbm_0__rows="1000000", wl_gbm_0__features="50",
                                                wl_gbm_0__trees="100"))  # fmt: skip
    assert blank.status_code == typed.status_code == 302
    plans = {len(p.inputs.get("workloads") or []): p for p in owner.plans.all()}
    assert set(plans) == {0, 1} and plans[1].inputs["workloads"][0]["kind"] == "gbm"
    assert plans[0].inputs["candidates"][0]["parts"][0]["tier"] == DEDICATED


@pytest.mark.parametrize(
    "counts",
    [{"TOTAL_FORMS": "3", "INITIAL_FORMS": "0"}, {"TOTAL_FORMS": "1", "INITIAL_FORMS": "0",
     "MIN_NUM_FORMS": "0", "MAX_NUM_FORMS": "1000"}, {"TOTAL_FORMS": "007", "INITIAL_FORMS": "2"},
     {"TOTAL_FORMS": "", "INITIAL_FORMS": "0"}, {"INITIAL_FORMS": "0"}, {},
     {"TOTAL_FORMS": " 2", "INITIAL_FORMS": "0"}, {"TOTAL_FORMS": "-1", "INITIAL_FORMS": "0"},
     {"TOTAL_FORMS": "2.0", "INITIAL_FORMS": "0"}, {"TOTAL_FORMS": "٣", "INITIAL_FORMS": "0"},
     {"TOTAL_FORMS": "x", "INITIAL_FORMS": "0"}, {"TOTAL_FORMS": "2", "INITIAL_FORMS": "0",
     "MAX_NUM_FORMS": ""}, {"TOTAL_FORMS": "2", "INITIAL_FORMS": "0", "MIN_NUM_FORMS": "a"},
     {"TOTAL_FORMS": "99999999999999999999", "INITIAL_FORMS": "0"}],
)  # fmt: skip
def test_the_posted_counts_read_as_djangos_management_form_reads_them(counts):
    data = QueryDict(mutable=True)
    for name, value in counts.items():
        data[f"cand-{name}"] = value
    ours = formsets.RowManagementForm(data, prefix="cand")
    django = forms.formsets.ManagementForm(data, prefix="cand")
    assert ours.is_valid() == django.is_valid()
    assert ours.cleaned_data == django.cleaned_data
    assert ours.errors == django.errors
