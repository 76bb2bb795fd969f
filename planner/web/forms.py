# ruff: noqa: RUF001, RUF002  (the en dash of ranges, as a reader sees them)
"""The plan editor's form, generated from the one plan schema.

Each field of `planner.compute.schema` (its field tables and bounds) becomes a form
field; the form only turns typed text into numbers in the reader's language
(German "349,99" or "349.99") and then hands the assembled plain data to
`services.parse` (`schema.parse_plan`). Its errors, keyed by paths such as
"workloads[2].rows", are put back beside the field they name. There is no second
set of rules here: bounds, required fields and cross-checks are the schema's.

Lists become numbered slots: candidate rows (rows sharing a name are the parts
of one candidate), reserved terms still running, and per workload kind as many
slots as the plan has (plus one empty). A slot left empty is not in the plan.
"""

from __future__ import annotations

import copy
import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django import forms
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from common import formatting
from common.message_render import render
from common.messages import Message
from planner.compute import schema
from planner.compute.schema import FieldSpec

SPARE_CANDIDATES = 2
MIN_CANDIDATE_ROWS = 3
SPARE_COMMITMENTS = 1
_SLOT_RE = re.compile(r"^(cand|commit|wl_([a-z_]+?))_(\d+)__")

# --- labels and help, translatable (the schema's own docs are for the API reference) -----

LABELS: dict[str, Promise] = {
    "name": gettext_lazy("Name"),
    "currency": gettext_lazy("Currency"),
    "horizon_months": gettext_lazy("Horizon"),
    "annual_discount_rate": gettext_lazy("Discount rate"),
    "utilisation_target": gettext_lazy("Utilisation target"),
    "monthly_growth": gettext_lazy("Monthly growth"),
    "spot_interruption_allowance": gettext_lazy("Spot re-run allowance"),
    "baseline.monthly": gettext_lazy("Current monthly spend"),
    "baseline.tier": gettext_lazy("or: current tier"),
    "baseline.count": gettext_lazy("Servers of that tier"),
    "commitment.months_remaining": gettext_lazy("Months remaining"),
    "commitment.monthly": gettext_lazy("Monthly cost"),
    "commitment.tier": gettext_lazy("or: tier"),
    "commitment.count": gettext_lazy("Count"),
    "commitment.description": gettext_lazy("Description"),
    "one_time.migration_hours": gettext_lazy("Migration work"),
    "one_time.migration_rate": gettext_lazy("Engineer rate"),
    "one_time.running_both_months": gettext_lazy("Months running both"),
    "one_time.retraining": gettext_lazy("Retraining and re-validation"),
    "one_time.other": gettext_lazy("Other one-time costs"),
    "monthly.ops_hours_per_server": gettext_lazy("Operations hours per server"),
    "monthly.ops_rate": gettext_lazy("Operations rate"),
    "monthly.egress": gettext_lazy("Egress"),
    "monthly.other": gettext_lazy("Other monthly costs"),
    "part.name": gettext_lazy("Option name"),
    "part.tier": gettext_lazy("Tier"),
    "part.mode": gettext_lazy("Sizing"),
    "part.count": gettext_lazy("Fixed count"),
    "part.gpu_hours_per_month": gettext_lazy("GPU-hours a month"),
    "part.instance_hours_per_month": gettext_lazy("Instance-hours a month"),
    "part.min_term_months": gettext_lazy("Minimum term"),
    "workload.name": gettext_lazy("Name"),
    "trainings_per_month": gettext_lazy("Trainings a month"),
    "searches_per_month": gettext_lazy("Searches a month"),
    "runs_per_month": gettext_lazy("Runs a month"),
    "rows": gettext_lazy("Rows"),
    "features": gettext_lazy("Features"),
    "trees": gettext_lazy("Trees"),
    "grid_size": gettext_lazy("Grid size"),
    "folds": gettext_lazy("Folds"),
    "dataset_gb": gettext_lazy("Dataset size"),
    "must_fit_one_box": gettext_lazy("Must fit in one server's RAM"),
    "trials": gettext_lazy("Trials"),
    "trial_hours_single_thread": gettext_lazy("Trial length on one thread"),
    "deadline_hours": gettext_lazy("Deadline per job"),
    "peak_rps": gettext_lazy("Peak requests per second"),
    "p99_ms": gettext_lazy("p99 latency bound"),
    "n_plus_one": gettext_lazy("One spare server (N+1)"),
    "samples": gettext_lazy("Samples"),
    "epochs": gettext_lazy("Epochs"),
    "task": gettext_lazy("Task"),
    "gpu_hours_per_month": gettext_lazy("GPU-hours a month"),
}
UNITS: dict[str, Promise] = {
    "months": gettext_lazy("months"),
    "per year": gettext_lazy("per year"),
    "share of threads": gettext_lazy("share of threads"),
    "per month": gettext_lazy("per month"),
    "share of work re-run": gettext_lazy("share of work re-run"),
    "currency/month": gettext_lazy("currency/month"),
    "currency/hour": gettext_lazy("currency/hour"),
    "currency": gettext_lazy("currency"),
    "servers": gettext_lazy("servers"),
    "engineer hours": gettext_lazy("engineer hours"),
    "hours/server/month": gettext_lazy("hours/server/month"),
    "GPU-hours/month": gettext_lazy("GPU-hours/month"),
    "instance-hours/month": gettext_lazy("instance-hours/month"),
    "hours": gettext_lazy("hours"),
    "rows": gettext_lazy("rows"),
    "features": gettext_lazy("features"),
    "trees": gettext_lazy("trees"),
    "combinations": gettext_lazy("combinations"),
    "folds": gettext_lazy("folds"),
    "GB (decimal)": gettext_lazy("GB (decimal)"),
    "trials": gettext_lazy("trials"),
    "requests/s": gettext_lazy("requests/s"),
    "ms": gettext_lazy("ms"),
    "samples": gettext_lazy("samples"),
    "epochs": gettext_lazy("epochs"),
}
KIND_TITLES: dict[str, Promise] = {
    "gbm": gettext_lazy("Gradient boosting trainings (XGBoost, LightGBM)"),
    "sklearn": gettext_lazy("scikit-learn grid searches"),
    "features": gettext_lazy("Feature engineering (pandas, polars)"),
    "hpo": gettext_lazy("Hyperparameter searches (Optuna)"),
    "inference": gettext_lazy("CPU inference"),
    "nn": gettext_lazy("Small neural-network trainings (PyTorch)"),
    "deep_learning": gettext_lazy("Deep learning that stays on GPUs"),
}
CHOICE_LABELS: dict[str, Promise] = {
    "sized": gettext_lazy("sized by the model"),
    "fixed": gettext_lazy("fixed count"),
    "usage": gettext_lazy("usage-based GPU hours"),
    "llm_finetune": gettext_lazy("LLM fine-tuning"),
    "vit_from_scratch": gettext_lazy("vision transformer from scratch"),
    "diffusion": gettext_lazy("diffusion model"),
    "other_deep_learning": gettext_lazy("other deep learning"),
}


def unit_text(unit: str) -> str:
    return str(UNITS.get(unit, unit))


@functools.lru_cache(maxsize=2048)
def bounds_text(spec: FieldSpec, language: str) -> str:
    """The schema's bounds as help: "1 – 120 months" (cached: one form has ~70 fields)."""
    with translation.override(language):
        return _bounds_text(spec, language)


def _bounds_text(spec: FieldSpec, language: str) -> str:
    if (spec.min is None and spec.max is None) or spec.type == "str":
        return unit_text(spec.unit)
    low = formatting.number(spec.min, _places(spec.min), language) if spec.min is not None else ""
    high = formatting.number(spec.max, _places(spec.max), language) if spec.max is not None else ""
    if spec.min_exclusive:
        low = f"> {low}"
    return f"{low} – {high} {unit_text(spec.unit)}".strip()


def _places(value: float) -> int:
    return 0 if float(value).is_integer() else len(f"{value:g}".split(".")[-1])


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


def error_text(message: Message, language: str | None = None) -> str:
    """A schema refusal in the editor's words and the reader's language."""
    code = FORM_WORDING.get(message.code, message.code)
    return render(Message(code, message.params), language)


# --- the field layout -----------------------------------------------------------------


def _spec(specs: Iterable[FieldSpec], name: str) -> FieldSpec:
    return next(s for s in specs if s.name == name)


TOP = ("name", "currency", "horizon_months", "annual_discount_rate", "utilisation_target",
       "monthly_growth", "spot_interruption_allowance")  # fmt: skip
ASSUMPTIONS = TOP[2:]


@dataclass
class Slot:
    """One group of fields that becomes one object in a list of the plan."""

    prefix: str  # "cand_0", "commit_1", "wl_gbm_0"
    kind: str  # candidate | commitment | workload
    specs: tuple[FieldSpec, ...]
    workload_kind: str = ""
    path: str = ""  # set once assembled: "candidates[1].parts[0]", "workloads[3]"

    def name(self, field_name: str) -> str:
        return f"{self.prefix}__{field_name}"


@dataclass
class Layout:
    candidates: int = MIN_CANDIDATE_ROWS
    commitments: int = SPARE_COMMITMENTS
    workloads: dict[str, int] = field(
        default_factory=lambda: dict.fromkeys(schema.WORKLOAD_FIELDS, 1)
    )

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Layout:
        """As many slots as the posted form had (so a post renders the same rows back)."""
        empty = dict.fromkeys(schema.WORKLOAD_FIELDS, 0)
        layout = cls(candidates=0, commitments=0, workloads=empty)
        for key in data:
            match = _SLOT_RE.match(key)
            if not match:
                continue
            index = int(match.group(3)) + 1
            if match.group(1) == "cand":
                layout.candidates = max(layout.candidates, index)
            elif match.group(1) == "commit":
                layout.commitments = max(layout.commitments, index)
            elif match.group(2) in layout.workloads:
                layout.workloads[match.group(2)] = max(layout.workloads[match.group(2)], index)
        layout.candidates = min(max(layout.candidates, 1), 100)
        layout.commitments = min(max(layout.commitments, 1), 20)
        for kind, count in layout.workloads.items():
            layout.workloads[kind] = min(max(count, 1), 50)
        return layout

    @classmethod
    def from_plan(cls, plan: Mapping[str, Any]) -> Layout:
        parts = sum(len(_parts(c)) for c in plan.get("candidates") or [])
        commitments = len((plan.get("baseline") or {}).get("commitments") or [])
        kinds = [w.get("kind") for w in plan.get("workloads") or []]
        return cls(
            candidates=max(MIN_CANDIDATE_ROWS, parts + SPARE_CANDIDATES),
            commitments=commitments + SPARE_COMMITMENTS,
            workloads={k: kinds.count(k) + 1 if k in kinds else 1 for k in schema.WORKLOAD_FIELDS},
        )


def _parts(candidate: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    if "parts" in candidate:
        return list(candidate["parts"] or [])
    return [{k: v for k, v in candidate.items() if k != "name"}]


def _slots(layout: Layout) -> list[Slot]:
    part_specs = (_spec(schema.CANDIDATE_FIELDS, "name"), *schema.PART_FIELDS)
    slots = [Slot(f"cand_{i}", "candidate", part_specs) for i in range(layout.candidates)]
    slots += [
        Slot(f"commit_{i}", "commitment", schema.COMMITMENT_FIELDS)
        for i in range(layout.commitments)
    ]
    for kind, count in layout.workloads.items():
        specs = (_spec(schema.WORKLOAD_COMMON, "name"), *schema.WORKLOAD_FIELDS[kind])
        slots += [Slot(f"wl_{kind}_{i}", "workload", specs, kind) for i in range(count)]
    return slots


def _label(spec: FieldSpec, context: str) -> Promise | str:
    return LABELS.get(f"{context}.{spec.name}") or LABELS.get(spec.name) or spec.name


def _form_field(
    spec: FieldSpec, label: Any, language: str, tier_choices: list[tuple[str, str]]
) -> forms.Field:
    help_text = bounds_text(spec, language)
    common = {"label": label, "required": False, "help_text": help_text}
    if spec.type in ("money", "decimal"):
        return forms.DecimalField(localize=True, **common)
    if spec.type == "int":
        return forms.IntegerField(localize=True, **common)
    if spec.type == "number":
        return forms.FloatField(localize=True, **common)
    if spec.type == "bool":
        return forms.BooleanField(**common)
    if spec.type == "enum":
        choices = [("", "—")] + [(c, CHOICE_LABELS.get(c, c)) for c in spec.choices]
        return forms.ChoiceField(choices=choices, **common)
    if spec.type == "tier":
        # A plain select, not a ChoiceField: whether the tier exists is the schema's check.
        return forms.CharField(widget=forms.Select(choices=[("", "—"), *tier_choices]), **common)
    # No max_length: lengths, like every other rule, are the schema's to check.
    return forms.CharField(**common)


def _initial(spec: FieldSpec, value: Any) -> Any:
    """Stored strings back to numbers, so a German page shows "349,99"."""
    if value is None:
        return None
    if spec.type in ("money", "decimal"):
        return Decimal(str(value))
    if spec.type == "number":
        number = float(value)
        return int(number) if number.is_integer() else number
    return value


def _value(spec: FieldSpec, value: Any) -> Any:
    """A cleaned form value as the schema's plain data (None: not given)."""
    if value in (None, ""):
        return None
    if spec.type in ("money", "decimal"):
        return str(value)
    if spec.type == "number":
        return Decimal(str(value))
    return value


# --- the form -----------------------------------------------------------------------------

LayoutKey = tuple[int, int, tuple[tuple[str, int], ...]]


def _layout_key(layout: Layout) -> LayoutKey:
    return (layout.candidates, layout.commitments, tuple(layout.workloads.items()))


@functools.lru_cache(maxsize=64)
def _base_fields(
    language: str,
    layout_key: LayoutKey,
    tiers: tuple[tuple[str, str], ...],
    currencies: tuple[str, ...],
) -> dict[str, forms.Field]:
    """The form's fields for one language, layout, tier list and currency list.

    Built once and kept: a form deep-copies them (Django's `Form.__init__` copies
    `base_fields`), so nothing a form does to its fields reaches this dict. Labels
    stay lazy translations; help texts are `bounds_text` in `language`.
    """
    candidates, commitments, workloads = layout_key
    layout = Layout(candidates=candidates, commitments=commitments, workloads=dict(workloads))
    tier_list = list(tiers)
    fields: dict[str, forms.Field] = {}
    for name in TOP:
        spec = _spec(schema.PLAN_FIELDS, name)
        fields[name] = _form_field(spec, _label(spec, "plan"), language, tier_list)
    fields["currency"].widget = forms.Select(choices=[(c, c) for c in currencies])
    sections = (("baseline", schema.BASELINE_FIELDS), ("one_time", schema.ONE_TIME_FIELDS),
                ("monthly", schema.MONTHLY_FIELDS))  # fmt: skip
    for section, specs in sections:
        for spec in specs:
            if spec.type != "list":
                label = _label(spec, section)
                fields[f"{section}__{spec.name}"] = _form_field(spec, label, language, tier_list)
    contexts = {"candidate": "part", "commitment": "commitment", "workload": "workload"}
    for slot in _slots(layout):
        for spec in slot.specs:
            if slot.kind == "workload" and spec.name == "kind":
                continue
            label = _label(spec, contexts[slot.kind])
            fields[slot.name(spec.name)] = _form_field(spec, label, language, tier_list)
    for name, bound in fields.items():
        if isinstance(bound, forms.DecimalField | forms.IntegerField | forms.FloatField):
            bound.widget.attrs.update({"inputmode": "decimal", "autocomplete": "off"})
        if name in ("baseline__monthly",) or name.startswith("cand_0__"):
            bound.widget.attrs["data-first-answer"] = "1"
    return fields


class PlanForm(forms.Form):
    """The whole plan as one form; `plan` is the parsed `schema.Plan` once valid."""

    def __init__(
        self,
        data: Mapping[str, Any] | None = None,
        *,
        plan: Mapping[str, Any] | None = None,
        tier_choices: list[tuple[str, str]] | None = None,
        currencies: Iterable[str] = ("USD", "EUR"),
        language: str = "en",
        parse: Any = None,
    ) -> None:
        self.layout = Layout.from_data(data) if data is not None else Layout.from_plan(plan or {})
        self.slots = _slots(self.layout)
        self.parse = parse or schema.parse_plan
        self.parsed: schema.Plan | None = None
        self.plan_data: dict[str, Any] = {}
        self.section_errors: dict[str, list[str]] = {}
        tiers = tuple((slug, label) for slug, label in tier_choices or ())
        # The fields for this language, layout, tiers and currencies are built once
        # (~80 fields with translated help) and shared, not deep-copied per form as
        # Form.__init__ would (a tenth of a recompute): nothing changes a field in place
        # once built, and the one change a form makes (_mark_retired_tiers) copies first.
        shared = _base_fields(
            language, _layout_key(self.layout), tiers, tuple(sorted(set(currencies)))
        )
        self.base_fields = {}
        super().__init__(data, initial=self._initial_values(plan or {}))
        self.base_fields, self.fields = shared, dict(shared)
        self._mark_retired_tiers({slug for slug, _label in tiers})

    # building ----------------------------------------------------------------------------

    def _mark_retired_tiers(self, known: set[str]) -> None:
        for name, field_ in list(self.fields.items()):
            if isinstance(field_.widget, forms.Select) and name.endswith("__tier"):
                value = self[name].value()
                if value and value not in known:
                    # A stored plan may name a tier retired since: keep it visible, say so.
                    # This form's own copy: the field itself is shared by every form.
                    label = _("%(tier)s (no longer offered)") % {"tier": value}
                    self.fields[name] = own = copy.deepcopy(field_)
                    own.widget.choices = [*own.widget.choices, (value, label)]
                    self._bound_fields_cache.pop(name, None)

    def _initial_values(self, plan: Mapping[str, Any]) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for name in TOP:
            spec = _spec(schema.PLAN_FIELDS, name)
            values[name] = _initial(spec, plan.get(name, spec.default))
        values["currency"] = plan.get("currency") or "USD"
        sections = (("baseline", schema.BASELINE_FIELDS), ("one_time", schema.ONE_TIME_FIELDS),
                    ("monthly", schema.MONTHLY_FIELDS))  # fmt: skip
        for section, specs in sections:
            given = plan.get(section) or {}
            for spec in specs:
                if spec.type != "list":
                    values[f"{section}__{spec.name}"] = _initial(
                        spec, given.get(spec.name, spec.default)
                    )
        rows = [
            {**part, "name": c.get("name", "")}
            for c in plan.get("candidates") or []
            for part in _parts(c)
        ]
        commitments = (plan.get("baseline") or {}).get("commitments") or []
        by_kind: dict[str, list[Mapping[str, Any]]] = {}
        for w in plan.get("workloads") or []:
            by_kind.setdefault(w.get("kind", ""), []).append(w)
        for slot in _slots(Layout.from_plan(plan)):
            index = int(slot.prefix.rsplit("_", 1)[1])
            source = {"candidate": rows, "commitment": commitments}.get(
                slot.kind, by_kind.get(slot.workload_kind, [])
            )
            item = source[index] if index < len(source) else {}
            for spec in slot.specs:
                default = spec.default if spec.type == "bool" else None
                values[slot.name(spec.name)] = _initial(spec, item.get(spec.name, default))
            if slot.kind == "candidate" and item and item.get("mode") == _inferred_mode(item):
                values[slot.name("mode")] = ""  # shown as "—": the schema infers it again
        return values

    # reading -------------------------------------------------------------------------------

    def _get(self, name: str) -> Any:
        return self.cleaned_data.get(name)

    def _object(self, prefix: str, specs: Iterable[FieldSpec]) -> dict[str, Any]:
        out = {}
        for spec in specs:
            if spec.type in ("list", "object"):
                continue
            value = _value(spec, self._get(f"{prefix}__{spec.name}"))
            if value is not None:
                out[spec.name] = value
        return out

    def _slot_values(self, slot: Slot) -> dict[str, Any] | None:
        values = {}
        given = False
        for spec in slot.specs:
            if slot.kind == "workload" and spec.name == "kind":
                continue
            raw = self._get(slot.name(spec.name))
            has_error = slot.name(spec.name) in self._errors
            if spec.type == "bool":
                values[spec.name] = bool(raw)
                continue
            value = _value(spec, raw)
            if value is not None:
                values[spec.name] = value
                given = given or spec.name != "name"
            given = given or has_error
        if not given:
            return None
        if slot.kind == "workload":
            values["kind"] = slot.workload_kind
        return values

    def assemble(self) -> dict[str, Any]:
        """The plan as plain data (what the API would take), recording where each slot went."""
        data: dict[str, Any] = {}
        for name in TOP:
            spec = _spec(schema.PLAN_FIELDS, name)
            value = _value(spec, self._get(name))
            if value not in (None, ""):
                data[name] = value
        data["baseline"] = self._object("baseline", schema.BASELINE_FIELDS)
        data["one_time"] = self._object("one_time", schema.ONE_TIME_FIELDS)
        data["monthly"] = self._object("monthly", schema.MONTHLY_FIELDS)
        commitments, candidates, workloads = [], [], []
        grouped: dict[str, int] = {}
        for slot in self.slots:
            values = self._slot_values(slot)
            if values is None:
                continue
            if slot.kind == "commitment":
                slot.path = f"baseline.commitments[{len(commitments)}]"
                commitments.append(values)
            elif slot.kind == "workload":
                slot.path = f"workloads[{len(workloads)}]"
                workloads.append(values)
            else:
                name = values.pop("name", "")
                if name and name in grouped:
                    index = grouped[name]
                else:
                    index = len(candidates)
                    candidates.append({"name": name, "parts": []})
                    if name:
                        grouped[name] = index
                slot.path = f"candidates[{index}].parts[{len(candidates[index]['parts'])}]"
                candidates[index]["parts"].append(values)
        if commitments:
            data["baseline"]["commitments"] = commitments
        data["candidates"] = candidates
        data["workloads"] = workloads
        return data

    # validating ---------------------------------------------------------------------------

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        self.plan_data = self.assemble()
        try:
            self.parsed = self.parse(self.plan_data)
        except schema.PlanValidationError as exc:
            self.parsed = None
            for path, messages in exc.details.items():
                self._place(path, [error_text(m) for m in messages])
        return cleaned

    def _place(self, path: str, messages: list[str]) -> None:
        target = self.field_for(path)
        if target is None:
            section = path.split("[")[0].split(".")[0] or "__all__"
            self.section_errors.setdefault(section, []).extend(messages)
            self.add_error(None, messages)
        elif target not in self._errors:  # a type error from the form itself says it already
            self.add_error(target, messages)

    def field_for(self, path: str) -> str | None:
        """The form field a schema error path names (None: the form as a whole)."""
        if path in ("", schema.ROOT, "candidates", "workloads", "body"):
            return None
        if path == "baseline":
            return "baseline__monthly"
        for slot in self.slots:
            if slot.path and (path == slot.path or path.startswith(slot.path + ".")):
                rest = path[len(slot.path) + 1 :]
                name = slot.name(rest) if rest else slot.name(slot.specs[1].name)
                return name if name in self.fields else slot.name(slot.specs[1].name)
        match = re.match(r"^candidates\[(\d+)\]", path)
        if match:  # a candidate-level error: beside its first part's tier
            prefix = f"candidates[{match.group(1)}].parts[0]"
            slot = next((s for s in self.slots if s.path == prefix), None)
            return slot.name("tier") if slot else None
        name = path.replace(".", "__")
        return name if name in self.fields else None

    # template helpers -----------------------------------------------------------------

    @property
    def fields_with_errors(self) -> list[forms.BoundField]:
        """The fields that have errors, in the form's order (the partial lists only these)."""
        errors = self.errors
        return [self[name] for name in self.fields if errors.get(name)]

    def bound(self, names: Iterable[str]) -> list[forms.BoundField]:
        return [self[name] for name in names]

    @property
    def top_fields(self) -> list[forms.BoundField]:
        return self.bound(("name", "currency"))

    @property
    def assumption_fields(self) -> list[forms.BoundField]:
        return self.bound(ASSUMPTIONS)

    def section(self, section: str) -> list[forms.BoundField]:
        return [self[n] for n in self.fields if n.startswith(f"{section}__")]

    def slot_rows(self, kind: str, workload_kind: str = "") -> list[list[forms.BoundField]]:
        rows = []
        for slot in self.slots:
            if slot.kind == kind and slot.workload_kind == workload_kind:
                names = [slot.name(s.name) for s in slot.specs if slot.name(s.name) in self.fields]
                rows.append([self[n] for n in names])
        return rows

    @property
    def candidate_rows(self) -> list[list[forms.BoundField]]:
        order = ("name", "tier", "mode", "count", "gpu_hours_per_month",
                 "instance_hours_per_month", "min_term_months")  # fmt: skip
        rows = []
        for slot in self.slots:
            if slot.kind == "candidate":
                rows.append([self[slot.name(n)] for n in order])
        return rows

    @property
    def commitment_rows(self) -> list[list[forms.BoundField]]:
        return self.slot_rows("commitment")

    @property
    def one_time_fields(self) -> list[forms.BoundField]:
        return self.section("one_time")

    @property
    def monthly_fields(self) -> list[forms.BoundField]:
        return self.section("monthly")

    def workload_sections(self) -> list[dict[str, Any]]:
        out = []
        for kind in schema.WORKLOAD_FIELDS:
            rows = self.slot_rows("workload", kind)
            filled = any(
                (f.value() not in (None, "", False)) and f.field.__class__ is not forms.BooleanField
                and not f.name.endswith("__name")
                for row in rows for f in row
            )  # fmt: skip
            errors = any(f.errors for row in rows for f in row)
            out.append({"kind": kind, "title": KIND_TITLES[kind], "rows": rows,
                        "open": filled or errors})  # fmt: skip
        return out


def _inferred_mode(part: Mapping[str, Any]) -> str:
    if part.get("count") is not None:
        return "fixed"
    if part.get("gpu_hours_per_month") is not None or part.get("instance_hours_per_month"):
        return "usage"
    return "sized"
