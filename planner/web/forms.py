"""The plan editor's form: the plan's scalar fields, and its lists as Django formsets.

The form only collects what was typed (numbers as the reader writes them, see
`planner.web.fields`) and assembles the plan's plain data, the JSON the API takes; the
schema (`parse_plan`) validates it, and its errors, keyed by paths such as
"candidates[1].parts[0].tier", are put back beside the field each path names, in the
reader's language. There is no second set of rules here.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from django import forms
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from common.django.message_render import render
from common.messages import Message, Number, msg
from planner.compute import schema
from planner.compute.schema import FieldSpec
from planner.web import fields as f
from planner.web import formsets
from planner.web.fields import KIND_TITLES  # noqa: F401  (templates and tests read it here)

TOP = ("name", "currency", "horizon_months", "annual_discount_rate", "utilisation_target",
       "monthly_growth", "spot_interruption_allowance")  # fmt: skip
ASSUMPTIONS = TOP[2:]
SECTIONS = (("baseline", schema.BASELINE_FIELDS), ("one_time", schema.ONE_TIME_FIELDS),
            ("monthly", schema.MONTHLY_FIELDS))  # fmt: skip
_ROW_PATH = re.compile(r"^(candidates\[\d+\]\.parts\[\d+\]|baseline\.commitments\[\d+\]"
                       r"|workloads\[\d+\]|owned\[\d+\])(?:\.(\w+))?")  # fmt: skip
_CANDIDATE_PATH = re.compile(
    r"^candidates\[(\d+)\](?:\.(name|migration|running_both|retraining))?$"
)

# --- schema errors in the reader's language --------------------------------------------

# The editor's wording for the schema's refusals: the same codes and parameters, said to a
# manager at a form rather than to a program sending JSON ("Enter a number." where the API
# says "expected a number, got a string"). A code not listed is shown as the API words it.
FORM_WORDING: dict[str, str] = {
    "schema.required": "schema.form.required",
    "schema.unknown_field": "schema.form.unknown_field",
    "schema.expected_integer": "schema.form.whole_number",
    "schema.expected_number": "schema.form.number",
    "schema.expected_decimal": "schema.form.number",
    "schema.not_finite": "schema.form.not_finite",
    "schema.at_least": "schema.form.at_least",
    "schema.above": "schema.form.above",
    "schema.at_most": "schema.form.at_most",
    "schema.max_places": "schema.form.max_places",
    "schema.max_length": "schema.form.max_length",
    "schema.max_items": "schema.form.max_items",
    "schema.unknown_tier": "schema.form.unknown_tier",
    "schema.tier_key": "schema.form.tier_key",
    "schema.currency_code": "schema.form.currency_code",
    "schema.unknown_currency": "schema.form.unknown_currency",
    "schema.unknown_value": "schema.form.unknown_value",
    "schema.one_of": "schema.form.one_of",
    "schema.migration_pair": "schema.form.migration_pair",
    "schema.ops_rate": "schema.form.ops_rate",
    "schema.count_for_fixed": "schema.form.count_for_fixed",
    "schema.count_only_fixed": "schema.form.count_only_fixed",
    "schema.usage_only": "schema.form.usage_only",
    "schema.usage_both": "schema.form.usage_both",
    "schema.cpu_workload": "schema.form.cpu_workload",
    "schema.usage_hours": "schema.form.usage_hours",
}


# Units counted in whole things: a bound on them reads "at least 1 server", "2 servers".
COUNTED_UNITS = {
    "schema.unit.servers": "schema.form.count.servers",
    "schema.unit.months": "schema.form.count.months",
    "schema.unit.rows": "schema.form.count.rows",
    "schema.unit.features": "schema.form.count.features",
    "schema.unit.trees": "schema.form.count.trees",
    "schema.unit.folds": "schema.form.count.folds",
    "schema.unit.trials": "schema.form.count.trials",
    "schema.unit.samples": "schema.form.count.samples",
    "schema.unit.epochs": "schema.form.count.epochs",
    "schema.unit.combinations": "schema.form.count.combinations",
}
_BOUNDS = ("schema.at_least", "schema.at_most", "schema.above")


def error_text(message: Message, language: str | None = None, spec: FieldSpec | None = None) -> str:
    """A schema refusal in the editor's words and the reader's language."""
    return render(form_message(message, spec), language)


def form_message(message: Message, spec: FieldSpec | None = None) -> Message:
    if message.code in _BOUNDS:
        value = message.params["value"]
        number = value.value if isinstance(value, Number) else Decimal(str(value))
        unit = message.params.get("unit")
        bound = message.code.split(".")[1]
        if spec is not None and f.is_percent(spec):
            return msg(f"schema.form.{bound}_amount", amount=msg("schema.form.percent",
                       value=Number(Decimal(str(number)) * 100)))  # fmt: skip
        if isinstance(unit, Message) and unit.code in COUNTED_UNITS and number == int(number):
            return msg(f"schema.form.{bound}_amount",
                       amount=msg(COUNTED_UNITS[unit.code], count=int(number)))  # fmt: skip
    if message.code == "schema.max_places" and spec is not None and f.is_percent(spec):
        return msg("schema.form.max_places", n=max(0, int(message.params["n"]) - 2))
    return Message(FORM_WORDING.get(message.code, message.code), message.params)


# --- the form -----------------------------------------------------------------------------


def _spec(specs: Iterable[FieldSpec], name: str) -> FieldSpec:
    return next(s for s in specs if s.name == name)


@functools.lru_cache(maxsize=32)
def _scalar_fields(language: str, currencies: tuple[str, ...]) -> dict[str, forms.Field]:
    """The plan's own fields, built once per language and currency list and shared by every
    form (nothing changes a field once built: see `formsets.SharedFields`)."""
    fields: dict[str, forms.Field] = {}
    for name in TOP:
        spec = _spec(schema.PLAN_FIELDS, name)
        fields[name] = formsets.form_field(spec, formsets._label(spec, "plan"), language)
    fields["currency"] = forms.CharField(
        label=f.LABELS["currency"], required=False,
        widget=forms.Select(choices=[(c, c) for c in currencies]),
    )  # fmt: skip
    for section, specs in SECTIONS:
        for spec in specs:
            if spec.type not in ("list", "object"):
                label = formsets._label(spec, section)
                fields[f"{section}__{spec.name}"] = formsets.form_field(spec, label, language)
    fields["baseline__monthly"].widget.attrs["data-first-answer"] = "1"
    with translation.override(language):  # issue 21: what growth does, where it is entered
        growth = fields["monthly_growth"]
        growth.help_text = f"{growth.help_text}. {GROWTH_HELP}"
    return fields


BILL = "baseline__bill"
BILL_FILTERS = ("providers", "accounts", "regions", "services", "instance_types", "tags")


def _bill_fields(choices: list[tuple[int, str]]) -> dict[str, forms.Field]:
    """The baseline-from-a-bill fields: the bill, its filters, the trend (made per form:
    the choices are the reader's own bills)."""
    fields: dict[str, forms.Field] = {
        BILL: forms.ChoiceField(
            label=_("Take the baseline from your bill"), required=False,
            choices=[("", _("No bill: the spend entered above"))]
            + [(str(pk), label) for pk, label in choices],
            help_text=_("The chosen compute usage lines become the baseline, at the bill's "
                        "effective cost a month; it replaces the monthly spend entered."),
        ),
    }  # fmt: skip
    labels = {
        "providers": _("Providers (comma-separated; empty: all)"),
        "accounts": _("Accounts (comma-separated; empty: all)"),
        "regions": _("Regions (comma-separated; empty: all)"),
        "services": _("Services (comma-separated; empty: all)"),
        "instance_types": _("Instance types (comma-separated; empty: all)"),
        "tags": _("Tags, key=value or key (comma-separated; any of them; empty: all)"),
    }
    for name in BILL_FILTERS:
        fields[f"{BILL}_{name}"] = forms.CharField(label=labels[name], required=False,
                                                   max_length=50_000)  # fmt: skip
    fields[f"{BILL}_growth"] = forms.BooleanField(
        label=_("Monthly growth from the bill's trend"), required=False
    )
    return fields


GROWTH_HELP = gettext_lazy(
    "How much the work grows each month, compounded: today's bill and sized options grow "
    "with it; a fixed count does not, so the plan says from which month it cannot carry "
    "the work."
)


LOCALE_CURRENCY = {"en": "USD", "de": "EUR"}  # the currency a reader's language starts in


class PlanForm(forms.Form):
    """The whole plan: scalar fields here, lists in formsets; `parsed` once valid."""

    def __init__(
        self,
        data: Mapping[str, Any] | None = None,
        *,
        plan: Mapping[str, Any] | None = None,
        tier_labels: Mapping[str, str] | None = None,
        currencies: Iterable[str] = ("USD", "EUR"),
        language: str = "en",
        parse: Any = None,
        full_list_max: int = 500,
        bills: Iterable[tuple[int, str]] = (),
        take_bill: Any = None,
    ) -> None:
        plan = plan or {}
        # The owner's imported bills, and the service that takes a baseline from one.
        self.bill_choices = list(bills)
        self.take_bill = take_bill
        self.stored_tiers = list((plan.get("baseline") or {}).get("tiers") or ())  # issue 25
        self.language = language
        # A new plan starts in the reader's own currency where a rate exists (German: EUR).
        own = LOCALE_CURRENCY.get(language.split("-")[0], "USD")
        self.locale_currency = own if own in set(currencies) else "USD"
        self.parse = parse or schema.parse_plan
        self.parsed: schema.Plan | None = None
        self.plan_data: dict[str, Any] = {}
        self.section_errors: dict[str, list[str]] = {}
        self.tier_labels = tier_labels or {}  # read only: shared by every form of a generation
        # Small catalogs only: a larger one's datalist is filled by the search as one types.
        small = len(self.tier_labels) <= full_list_max
        self.full_tier_list = list(self.tier_labels.items()) if small else []
        super().__init__(data, initial=self._initial_values(plan))
        self.fields.update(_scalar_fields(language, tuple(sorted(set(currencies)))))
        if self.bill_choices or (plan.get("baseline") or {}).get("bill"):
            self.fields.update(_bill_fields(self.bill_choices))
        self.candidates = formsets.build("candidate", data, plan, language)
        self.commitments = formsets.build("commitment", data, plan, language)
        self.owned = formsets.build("owned", data, plan, language)
        self.workloads = {
            kind: formsets.build("workload", data, plan, language, kind)
            for kind in schema.WORKLOAD_FIELDS
        }
        for row in (*self.candidates.forms, *self.commitments.forms):
            row.tier_note = self._tier_note(row["tier"].value())

    def _tier_note(self, slug: str | None) -> str:
        """The chosen tier by its name; a stored plan may name one retired since: say so."""
        if not slug:
            return ""
        return self.tier_labels.get(slug) or _("%(tier)s (no longer offered)") % {"tier": slug}

    @property
    def all_formsets(self) -> list[formsets.RowFormSet]:
        return [self.candidates, self.commitments, self.owned, *self.workloads.values()]

    def _initial_values(self, plan: Mapping[str, Any]) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for name in TOP:
            spec = _spec(schema.PLAN_FIELDS, name)
            values[name] = formsets.initial_value(spec, plan.get(name, spec.default))
        values["currency"] = plan.get("currency") or self.locale_currency
        for section, specs in SECTIONS:
            given = plan.get(section) or {}
            for spec in specs:
                if spec.type not in ("list", "object"):
                    value = given.get(spec.name, spec.default)
                    values[f"{section}__{spec.name}"] = formsets.initial_value(spec, value)
        if choice := (plan.get("baseline") or {}).get("bill"):
            values[f"{BILL}"] = str(choice.get("id", ""))
            for name in BILL_FILTERS:
                values[f"{BILL}_{name}"] = ", ".join(choice.get(name) or ())
            values[f"{BILL}_growth"] = bool(choice.get("growth_from_trend"))
        return values

    @property
    def has_bill_fields(self) -> bool:
        return BILL in self.fields

    @property
    def bill_filter_fields(self) -> list[forms.BoundField]:
        return self.bound([f"{BILL}_{name}" for name in BILL_FILTERS] + [f"{BILL}_growth"])

    @property
    def bill_tiers(self) -> list[dict[str, Any]]:
        """The baseline's machines by tier as the bill gave them (issue 25): the ones just
        taken from the bill on a post, else the stored plan's; each with its tier's name."""
        given = (self.plan_data.get("baseline") or {}).get("tiers") if self.plan_data else None
        rows = self.stored_tiers if given is None else given
        return [{**row, "name": self.tier_labels.get(row["tier"], row["tier"])} for row in rows]

    def _bill(self) -> dict[str, Any] | None:
        """`baseline.bill` as typed: the bill chosen and its filters (comma-separated)."""
        chosen = self.cleaned_data.get(BILL) if BILL in self.fields else None
        if not chosen:
            return None
        choice: dict[str, Any] = {"id": int(chosen)}
        for name in BILL_FILTERS:
            typed = str(self.cleaned_data.get(f"{BILL}_{name}") or "")
            if values := [v.strip() for v in typed.split(",") if v.strip()]:
                choice[name] = values
        if self.cleaned_data.get(f"{BILL}_growth"):
            choice["growth_from_trend"] = True
        return choice

    # reading -------------------------------------------------------------------------------

    def _object(self, section: str, specs: Iterable[FieldSpec]) -> dict[str, Any]:
        out = {}
        for spec in specs:
            if spec.type in ("list", "object"):
                continue
            value = formsets.plain_value(spec, self.cleaned_data.get(f"{section}__{spec.name}"))
            if value is not None:
                out[spec.name] = value
        return out

    def assemble(self) -> dict[str, Any]:
        """The plan as plain data (what the API would take), recording where each row went."""
        data: dict[str, Any] = {}
        for name in TOP:
            spec = _spec(schema.PLAN_FIELDS, name)
            value = formsets.plain_value(spec, self.cleaned_data.get(name))
            if value is not None:
                data[name] = value
        for section, specs in SECTIONS:
            data[section] = self._object(section, specs)
        if (bill := self._bill()) is not None:
            data["baseline"]["bill"] = bill
        commitments = self._rows(self.commitments, "baseline.commitments")
        if commitments:
            data["baseline"]["commitments"] = commitments
        data["candidates"] = self._candidates()
        workloads: list[dict[str, Any]] = []
        for formset in self.workloads.values():
            for form in formset.forms:
                if (values := form.values()) is not None:
                    form.path = f"workloads[{len(workloads)}]"
                    workloads.append(values)
        data["workloads"] = workloads
        if owned := self._rows(self.owned, "owned"):
            data["owned"] = owned
        return data

    @staticmethod
    def _rows(formset: formsets.RowFormSet, path: str) -> list[dict[str, Any]]:
        rows = []
        for form in formset.forms:
            if (values := form.values()) is not None:
                form.path = f"{path}[{len(rows)}]"
                rows.append(values)
        return rows

    def _candidates(self) -> list[dict[str, Any]]:
        """Rows sharing an option name are the parts of one candidate."""
        candidates: list[dict[str, Any]] = []
        by_name: dict[str, int] = {}
        for form in self.candidates.forms:
            values = form.values()
            if values is None:
                continue
            name = values.pop("name", "")
            # the option's own one-time overrides (issue 21): the first row that gives one
            said = {k: values.pop(k) for k in formsets.OPTION_FIELDS if k in values}
            index = by_name.get(name) if name else None
            if index is None:
                index = len(candidates)
                candidates.append({"name": name, "parts": []})
                if name:
                    by_name[name] = index
            for key, value in said.items():
                candidates[index].setdefault(key, value)
            form.path = f"candidates[{index}].parts[{len(candidates[index]['parts'])}]"
            candidates[index]["parts"].append(values)
        return candidates

    # validating ---------------------------------------------------------------------------

    def full_clean(self) -> None:
        super().full_clean()
        if not self.is_bound:
            return
        for formset in self.all_formsets:
            formset.full_clean()
        if any(fs.non_form_errors() for fs in self.all_formsets):
            for formset in self.all_formsets:
                for error in formset.non_form_errors():
                    self.add_error(None, error)
            return
        if self._other_currency():
            return
        self.plan_data = self.assemble()
        refused: dict[str, list[Message]] = {}
        if self.take_bill is not None:  # the baseline from the chosen bill's lines
            self.plan_data, refused = self.take_bill(self.plan_data)
        try:
            self.parsed = self.parse(self.plan_data)
        except schema.PlanValidationError as exc:
            self.parsed = None
            refused = {**exc.details, **refused}
        if refused:
            self.parsed = None
            for path, messages in _refusals(refused, self.plan_data).items():
                self._place(path, messages)

    def is_valid(self) -> bool:
        return self.is_bound and not self.errors and self.parsed is not None

    def _other_currency(self) -> bool:
        """Refuse, beside its field, an amount typed in another currency than the plan's
        ("1.234,56 €" or "EUR 480" in a USD plan): refused, never converted (docs/design.md,
        "Money conventions"). True when one was."""
        plan_currency = str(self.cleaned_data.get("currency") or "USD")
        refused = False
        for form in (self, *(fm for fs in self.all_formsets for fm in fs.forms)):
            for name, value in list((getattr(form, "cleaned_data", None) or {}).items()):
                if isinstance(value, f.TypedAmount) and not f.in_plan_currency(
                    value, plan_currency
                ):
                    form.add_error(name, _(
                        "This amount is in %(typed)s, but the plan is in %(plan)s: enter it in "
                        "%(plan)s, or change the plan's currency to %(typed)s."
                    ) % {"typed": value.currency, "plan": plan_currency})  # fmt: skip
                    refused = True
        return refused

    def refuse(self, exc: schema.PlanValidationError) -> None:
        """A plan the schema took but the engine refused (its figures pass a maximum:
        docs/design.md, "Bounds"): said beside the field that drives them."""
        self.parsed = None
        for path, messages in _refusals(exc.details, self.plan_data).items():
            self._place(path, messages)

    def _place(self, path: str, messages: list[Message]) -> None:
        form, name = self.field_for(path)
        spec = getattr(form, "specs", None) and next(
            (s for s in form.specs if s.name == name), None
        )
        if form is self and name in self.fields:
            spec = _top_spec(name)
        texts = [error_text(m, self.language, spec) for m in messages]
        if form is None:
            section = path.split("[")[0].split(".")[0] or "__all__"
            self.section_errors.setdefault(section, []).extend(texts)
            self.add_error(None, texts)
        elif name not in form.errors:
            form.add_error(name, texts)

    def field_for(self, path: str) -> tuple[forms.Form | None, str | None]:
        """The form and field a schema error path names ((None, None): the plan as a whole)."""
        if match := _ROW_PATH.match(path):
            row = next((fm for fs in self.all_formsets for fm in fs.forms
                        if fm.path == match.group(1)), None)  # fmt: skip
            if row is not None:
                name = match.group(2)
                if name not in row.fields:
                    name = row.specs[1].name  # an error about the row: beside its first input
                return row, name
        if match := _CANDIDATE_PATH.match(path):
            first = f"candidates[{match.group(1)}].parts[0]"
            row = next((fm for fm in self.candidates.forms if fm.path == first), None)
            if row is not None:
                return row, match.group(2) or "tier"
        if path == "baseline":
            return self, "baseline__monthly"
        if path.startswith("baseline.bill") and BILL in self.fields:
            rest = path.removeprefix("baseline.bill").lstrip(".").split("[")[0]
            name = f"{BILL}_{rest}" if rest in BILL_FILTERS else BILL
            if rest == "growth_from_trend":
                name = f"{BILL}_growth"
            return self, name
        name = path.replace(".", "__")
        return (self, name) if name in self.fields else (None, None)

    # template helpers -----------------------------------------------------------------

    @property
    def fields_with_errors(self) -> list[forms.BoundField]:
        """Every field with an error, the rows' included (the partial lists only these)."""
        out = [self[name] for name in self.fields if self.errors.get(name)]
        for formset in self.all_formsets:
            for form in formset.forms:
                out += [form[name] for name in form.fields if form.errors.get(name)]
        return out

    def bound(self, names: Iterable[str]) -> list[forms.BoundField]:
        return [self[name] for name in names]

    @property
    def assumption_fields(self) -> list[forms.BoundField]:
        return self.bound(ASSUMPTIONS)

    def section(self, section: str) -> list[forms.BoundField]:
        return [self[n] for n in self.fields if n.startswith(f"{section}__")]

    @property
    def one_time_fields(self) -> list[forms.BoundField]:
        return self.section("one_time")

    @property
    def monthly_fields(self) -> list[forms.BoundField]:
        return self.section("monthly")

    def workload_sections(self) -> list[dict[str, Any]]:
        return [
            {"kind": kind, "title": f.KIND_TITLES[kind], "formset": formset,
             "open": formset.filled() or formset.has_errors()}
            for kind, formset in self.workloads.items()
        ]  # fmt: skip


def _top_spec(name: str) -> FieldSpec | None:
    if "__" not in name:
        return next((s for s in schema.PLAN_FIELDS if s.name == name), None)
    section, field_name = name.split("__", 1)
    specs = dict(SECTIONS).get(section, ())
    return next((s for s in specs if s.name == field_name), None)


def _refusals(details: Mapping[str, list[Message]], data: Mapping[str, Any]) -> dict:
    """The schema's errors as a manager should read them: one cause, said once.

    An empty monthly spend is "missing", not "both given"; a part whose own value was
    refused does not also raise "describe a CPU workload" (it was only sized because its
    count was refused)."""
    out: dict[str, list[Message]] = {}
    parts_refused = any(p.startswith("candidates[") and ".parts[" in p for p in details)
    for path, messages in details.items():
        kept = []
        for message in messages:
            if message.code == "schema.cpu_workload" and parts_refused:
                continue
            if (
                message.code == "schema.one_of"
                and path == "baseline"
                and not ((data.get("baseline") or {}).keys() & {"monthly", "tier"})
            ):
                message = msg("schema.form.baseline_missing")
            kept.append(message)
        if kept:
            out[path] = kept
    return out
