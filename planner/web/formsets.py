"""The plan's lists as Django formsets: candidate parts, reserved terms still running, owned
servers, and one formset per workload kind.

A row form only collects and shows its fields; it validates nothing itself (every field is
optional and keeps what was typed). `PlanForm` assembles the rows into the schema's plain
data, remembers which plan path each row became, and the schema's errors come back onto the
row and field that path names.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, ClassVar

from django import forms
from django.forms import BaseFormSet, formset_factory
from django.forms.formsets import (
    INITIAL_FORM_COUNT,
    MAX_NUM_FORM_COUNT,
    MIN_NUM_FORM_COUNT,
    TOTAL_FORM_COUNT,
    ManagementForm,
)
from django.forms.utils import ErrorDict
from django.urls import reverse_lazy
from django.utils.functional import cached_property

from planner.compute import schema
from planner.compute.schema import FieldSpec
from planner.compute.schema.docs import OWNED_FIELDS
from planner.web import fields as f

SPARE_ROWS = 1
MIN_CANDIDATE_ROWS = 3

CANDIDATE_ORDER = ("name", "tier", "mode", "count", "gpu_hours_per_month",
                   "instance_hours_per_month", "min_term_months", "migration", "running_both",
                   "retraining")  # fmt: skip
# A candidate row's fields that belong to the option, not the part: its name and its
# one-time overrides (issue 21, item 2), given once on the option's first row.
OPTION_FIELDS = ("migration", "running_both", "retraining")
CONTEXTS = {"candidate": "part", "commitment": "commitment", "owned": "owned",
            "workload": "workload"}  # fmt: skip


# --- how many rows a post may hold: what a plan can, plus the spare rows --------------------


def _max_items(specs: tuple[FieldSpec, ...], name: str) -> int:
    return int(next(s.max_items for s in specs if s.name == name))


# The schema's list limits, as rows. A candidate row is one part of an option: as many
# parts in all as a plan holds options (100). Every part of every option (500 rows) could
# not be posted anyway: Django reads at most DATA_UPLOAD_MAX_NUMBER_FIELDS (1,000) inputs,
# about 140 rows of 7, so a plan with more parts in all is one the API edits.
CANDIDATE_ROWS = _max_items(schema.PLAN_FIELDS, "candidates") + SPARE_ROWS
COMMITMENT_ROWS = _max_items(schema.BASELINE_FIELDS, "commitments") + SPARE_ROWS
OWNED_ROWS = _max_items(schema.PLAN_FIELDS, "owned") + SPARE_ROWS
# Workloads are one list shown as one formset per kind: each may hold all of them, and
# together they may hold them once (plus each kind's spare row).
WORKLOAD_ROWS = _max_items(schema.PLAN_FIELDS, "workloads") + SPARE_ROWS
ALL_WORKLOAD_ROWS = WORKLOAD_ROWS - SPARE_ROWS + SPARE_ROWS * len(schema.WORKLOAD_FIELDS)


@dataclass(frozen=True)
class TooManyRows:
    """A post holding more rows than any plan can: refused before a form is built."""

    section: str  # "candidate", "commitment", "owned" or "workload"
    posted: int
    limit: int


def row_limit(section: str) -> int:
    return {"candidate": CANDIDATE_ROWS, "commitment": COMMITMENT_ROWS,
            "owned": OWNED_ROWS}.get(section, WORKLOAD_ROWS)  # fmt: skip


def too_many_rows(data: Mapping[str, Any]) -> TooManyRows | None:
    """The first list whose posted row count (its TOTAL_FORMS) is more than a plan can
    hold, or None. Only a count of plain digits is read here: anything else is Django's
    management form's to refuse, and no row is built for it either."""

    def posted(name: str) -> int:
        value = data.get(f"{name}-{TOTAL_FORM_COUNT}")
        return int(value) if isinstance(value, str) and value.isascii() and value.isdigit() else 0

    workloads = 0
    for section, kind in (("candidate", ""), ("commitment", ""), ("owned", ""),
                          *(("workload", k) for k in schema.WORKLOAD_FIELDS)):  # fmt: skip
        rows = posted(prefix(section, kind))
        if rows > row_limit(section):
            return TooManyRows(section, rows, row_limit(section))
        if section == "workload":
            workloads += rows
    if workloads > ALL_WORKLOAD_ROWS:
        return TooManyRows("workload", workloads, ALL_WORKLOAD_ROWS)
    return None


def _spec(specs: tuple[FieldSpec, ...], name: str) -> FieldSpec:
    return next(s for s in specs if s.name == name)


def _specs(section: str, workload_kind: str = "") -> tuple[FieldSpec, ...]:
    if section == "candidate":
        option = [_spec(schema.CANDIDATE_FIELDS, n) for n in ("name", *OPTION_FIELDS)]
        by_name = {s.name: s for s in (*option, *schema.PART_FIELDS)}
        return tuple(by_name[n] for n in CANDIDATE_ORDER)
    if section == "commitment":
        return tuple(schema.COMMITMENT_FIELDS)
    if section == "owned":
        return tuple(OWNED_FIELDS)
    return (_spec(schema.WORKLOAD_COMMON, "name"), *schema.WORKLOAD_FIELDS[workload_kind])


def _label(spec: FieldSpec, context: str) -> Any:
    return f.LABELS.get(f"{context}.{spec.name}") or f.LABELS.get(spec.name) or spec.name


def form_field(spec: FieldSpec, label: Any, language: str) -> forms.Field:
    """One schema field as a form field: it collects text, the schema judges it."""
    common = {"label": label, "required": False, "help_text": f.bounds_text(spec, language)}
    if spec.type in ("money", "decimal", "int", "number"):
        return f.NumberField(spec=spec, language=language, **common)
    if spec.type == "bool":
        return forms.BooleanField(initial=spec.default, **common)
    if spec.type == "enum":
        choices = [("", "—")] + [(c, f.CHOICE_LABELS.get(c, c)) for c in spec.choices]
        # A select, not a ChoiceField: whether the value is offered is the schema's check.
        return forms.CharField(widget=forms.Select(choices=choices), **common)
    if spec.type == "tier":
        # Searchable: the datalist is filled by the tier search as the reader types
        # (static/js/plan_form.js sends the typed text as `q`, or nothing when the
        # datalist already holds every tier).
        attrs = {"list": "tier-options", "autocomplete": "off", "data-tier-search": "1",
                 "hx-get": reverse_lazy("plan-tier-options"), "hx-target": "#tier-options",
                 "hx-swap": "innerHTML", "hx-sync": "this:replace",
                 "hx-trigger": "input changed delay:150ms"}  # fmt: skip
        widget = forms.TextInput(attrs={**attrs, "spellcheck": "false"})
        return forms.CharField(widget=widget, **common)
    return forms.CharField(**common)  # lengths, like every rule, are the schema's to check


def initial_value(spec: FieldSpec, value: Any) -> Any:
    """Stored strings back to numbers, so a German page shows "349,99"."""
    if value is None:
        return None
    if spec.type in ("money", "decimal", "number"):
        return Decimal(str(value))
    return value


def plain_value(spec: FieldSpec, value: Any) -> Any:
    """A collected value as the schema's plain data (None: not given)."""
    if value in (None, ""):
        return None
    if isinstance(value, Decimal):
        if spec.type == "int" and value == value.to_integral():
            return int(value)
        return str(value) if spec.type in ("money", "decimal") else value
    return value


class SharedFields(dict):
    """A form class's fields, shared by its instances instead of deep-copied into each.

    Django copies a form's fields (and their widgets) into every instance so that one
    instance may change its own; ours never do (labels, help, widgets and choices are
    set when the class is built), and an editor request builds about twenty forms: the
    copies were a fifth of a recompute's time. An instance still gets its own dict of them.
    """

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, forms.Field]:
        return dict(self)


class RowManagementForm(ManagementForm):
    """Django's management form (TOTAL_FORMS, INITIAL_FORMS, ...) with its fields shared,
    and the common post (each count plain digits, or an optional one absent) read without
    a bound field per count: what Django's cleaning gives for it. Anything else, Django
    cleans (and refuses) as ever."""

    def full_clean(self) -> None:
        counts = _plain_counts(self.data, self.prefix) if self.is_bound else None
        if counts is None:
            super().full_clean()
            return
        self._errors = ErrorDict(renderer=self.renderer)
        self.cleaned_data = counts


_REQUIRED_COUNTS = (TOTAL_FORM_COUNT, INITIAL_FORM_COUNT)


def _plain_counts(data: Mapping[str, Any], prefix: str) -> dict[str, int | None] | None:
    counts: dict[str, int | None] = {}
    for name in (*_REQUIRED_COUNTS, MIN_NUM_FORM_COUNT, MAX_NUM_FORM_COUNT):
        value = data.get(f"{prefix}-{name}")
        if value is None and name not in _REQUIRED_COUNTS:
            counts[name] = None
        elif isinstance(value, str) and value.isascii() and value.isdigit():
            counts[name] = int(value)
        else:
            return None  # empty, signed, spaced, not a number: Django's own cleaning
    return counts


RowManagementForm.base_fields = SharedFields(ManagementForm.base_fields)


class RowForm(forms.Form):
    """One object of a plan's list; `path` is where it went in the assembled plan."""

    section: ClassVar[str] = ""
    workload_kind: ClassVar[str] = ""
    specs: ClassVar[tuple[FieldSpec, ...]] = ()
    path: str = ""
    tier_note: str = ""

    def values(self) -> dict[str, Any] | None:
        """The row as plain data, or None when nothing but defaults was given (not in the
        plan). A value the form could not read counts as given: the schema says why."""
        values: dict[str, Any] = {}
        given = False
        for spec in self.specs:
            raw = self.cleaned_data.get(spec.name)
            if spec.type == "bool":
                values[spec.name] = bool(raw)
                continue
            value = plain_value(spec, raw)
            if value is not None:
                values[spec.name] = value
                given = given or spec.name != "name"
        if not given:
            return None
        if self.section == "workload":
            values["kind"] = self.workload_kind
        return values

    def bound_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields]

    # Whether a field of the row starts from a value (a box ticked by default): set by
    # `formset_class`.
    starts_filled: ClassVar[bool] = True

    def has_changed(self) -> bool:
        """Django's answer, without a bound field per input for a blank row (most posted
        rows are the spare ones): nothing posted and nothing to differ from is unchanged."""
        if self.is_bound and not self.initial and not self.starts_filled:
            posted = self.data
            if all(posted.get(self.add_prefix(name)) in (None, "") for name in self.fields):
                return False
        return super().has_changed()


class RowFormSet(BaseFormSet):
    """Rows of one list; every form is optional (an empty row is not in the plan)."""

    section: ClassVar[str] = ""
    workload_kind: ClassVar[str] = ""

    def filled(self) -> bool:
        return any(
            form[name].value() not in (None, "", False)
            for form in self.forms
            for name, field in form.fields.items()
            if name != "name" and not isinstance(field, forms.BooleanField)
        )

    def has_errors(self) -> bool:
        return any(form.errors for form in self.forms)

    @cached_property
    def management_form(self) -> ManagementForm:
        """Django's own, built from `RowManagementForm` (its fields shared, not copied)."""
        if self.is_bound:
            form = RowManagementForm(self.data, auto_id=self.auto_id, prefix=self.prefix,
                                     renderer=self.renderer)  # fmt: skip
            form.full_clean()
            return form
        initial = {TOTAL_FORM_COUNT: self.total_form_count(),
                   INITIAL_FORM_COUNT: self.initial_form_count(),
                   MIN_NUM_FORM_COUNT: self.min_num, MAX_NUM_FORM_COUNT: self.max_num}  # fmt: skip
        return RowManagementForm(auto_id=self.auto_id, prefix=self.prefix, initial=initial,
                                 renderer=self.renderer)  # fmt: skip


@functools.lru_cache(maxsize=64)
def formset_class(section: str, language: str, workload_kind: str = "") -> type[RowFormSet]:
    """The formset of one list in one language (labels lazy, help in `language`)."""
    specs = _specs(section, workload_kind)
    declared = {s.name: form_field(s, _label(s, CONTEXTS[section]), language) for s in specs}
    attrs = {**declared, "section": section, "workload_kind": workload_kind, "specs": specs}
    form_class = type(f"{section.title()}{workload_kind.title()}Row", (RowForm,), attrs)
    form_class.base_fields = SharedFields(form_class.base_fields)
    form_class.starts_filled = any(
        field.initial not in (None, "", False) for field in form_class.base_fields.values()
    )
    # Django's own bound, should a post reach a formset past `too_many_rows`.
    limit = row_limit(section)
    formset = formset_factory(
        form_class, formset=RowFormSet, extra=0, absolute_max=limit, max_num=limit
    )
    formset.section, formset.workload_kind = section, workload_kind
    return formset


def prefix(section: str, workload_kind: str = "") -> str:
    return {"candidate": "cand", "commitment": "commit", "owned": "owned"}.get(
        section, f"wl_{workload_kind}"
    )


def rows_of(section: str, plan: Mapping[str, Any], workload_kind: str = "") -> list[dict]:
    """A stored plan's objects of one list, as the rows' initial values."""
    if section == "candidate":
        rows = [{**part, "name": c.get("name", ""),
                 **({k: c.get(k) for k in OPTION_FIELDS if c.get(k)} if j == 0 else {})}
                for c in plan.get("candidates") or []
                for j, part in enumerate(parts_of(c))]  # fmt: skip
        for row in rows:
            if row.get("mode") == inferred_mode(row):
                row["mode"] = ""  # shown as "—": the schema infers it again
    elif section == "commitment":
        rows = list((plan.get("baseline") or {}).get("commitments") or [])
    elif section == "owned":
        rows = list(plan.get("owned") or [])
    else:
        rows = [w for w in plan.get("workloads") or [] if w.get("kind") == workload_kind]
    specs = _specs(section, workload_kind)
    return [{s.name: initial_value(s, row.get(s.name)) for s in specs if s.name in row}
            for row in rows]  # fmt: skip


def build(
    section: str,
    data: Mapping[str, Any] | None,
    plan: Mapping[str, Any],
    language: str,
    workload_kind: str = "",
) -> RowFormSet:
    cls = formset_class(section, language, workload_kind)
    name = prefix(section, workload_kind)
    if data is not None:
        return cls(data, prefix=name)
    initial = rows_of(section, plan, workload_kind)
    spare = SPARE_ROWS
    if section == "candidate":
        spare = max(SPARE_ROWS + 1, MIN_CANDIDATE_ROWS - len(initial))
    formset = cls(initial=initial, prefix=name)
    formset.extra = spare
    return formset


def parts_of(candidate: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    if "parts" in candidate:
        return list(candidate["parts"] or [])
    return [{k: v for k, v in candidate.items() if k not in ("name", *OPTION_FIELDS)}]


def inferred_mode(part: Mapping[str, Any]) -> str:
    if part.get("count") is not None:
        return "fixed"
    if part.get("gpu_hours_per_month") is not None or part.get("instance_hours_per_month"):
        return "usage"
    return "sized"
