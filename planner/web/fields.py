# ruff: noqa: RUF001, RUF002  (the en dash of ranges, as a reader sees them)
"""The plan editor's fields: labels, help, and numbers as people type them.

A number field reads the reader's own format ("1,234.50", "$480" in English; "1.234,56",
"480 €" in German) and hands the schema a Decimal; text it cannot read goes to the schema
as it was typed, for the schema to refuse by path ("Enter a number."): the rules are the
schema's alone. Rates (a fraction in the schema) are typed and shown as percentages.
"""

from __future__ import annotations

import functools
import re
from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from common import formatting
from planner.compute.schema import FieldSpec

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
    "baseline.bill.id": gettext_lazy("Baseline from bill"),
    "baseline.bill.providers": gettext_lazy("Bill lines: providers"),
    "baseline.bill.accounts": gettext_lazy("Bill lines: accounts"),
    "baseline.bill.regions": gettext_lazy("Bill lines: regions"),
    "baseline.bill.services": gettext_lazy("Bill lines: services"),
    "baseline.bill.instance_types": gettext_lazy("Bill lines: instance types"),
    "baseline.bill.tags": gettext_lazy("Bill lines: tags"),
    "baseline.bill.growth_from_trend": gettext_lazy("Monthly growth from the bill's trend"),
    "baseline.sizing": gettext_lazy("Size the options"),
    "baseline.runs_on": gettext_lazy("The quoted spend runs on (tier)"),
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
    "part.migration": gettext_lazy("Migration"),
    "part.running_both": gettext_lazy("Running both"),
    "part.retraining": gettext_lazy("Re-validation"),
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
    "owned.name": gettext_lazy("Name"),
    "owned.count": gettext_lazy("Servers"),
    "purchase_price": gettext_lazy("Purchase price per server"),
    "setup": gettext_lazy("Delivery and set-up per server"),
    "depreciation_years": gettext_lazy("Depreciation"),
    "resale": gettext_lazy("Value at the end"),
    "resale_percent": gettext_lazy("Resale price"),
    "watts": gettext_lazy("Average power draw"),
    "pue": gettext_lazy("PUE"),
    "kwh_price": gettext_lazy("Electricity price"),
    "colocation_monthly": gettext_lazy("Colocation per server"),
    "support_share": gettext_lazy("Support contract"),
    "spares_monthly": gettext_lazy("Spares per server"),
    "financing": gettext_lazy("Financing"),
    "loan_annual_rate": gettext_lazy("Loan interest rate"),
    "loan_months": gettext_lazy("Loan term"),
    "replace_at_end_of_life": gettext_lazy("Replace at end of life"),
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
    "currency/server": gettext_lazy("currency/server"),
    "currency/server/month": gettext_lazy("currency/server/month"),
    "currency/kWh": gettext_lazy("currency/kWh"),
    "years": gettext_lazy("years"),
    "W": gettext_lazy("W"),
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
    "book_value": gettext_lazy("book value"),
    "percent": gettext_lazy("share of the purchase price"),
    "cash": gettext_lazy("cash"),
    "charged": gettext_lazy("charged"),
    "not_charged": gettext_lazy("not charged"),
    "loan": gettext_lazy("lease or loan"),
    "workloads": gettext_lazy("to the workloads described"),
    "matched": gettext_lazy("to the bill's machines (same capacity)"),
}


def unit_text(unit: str) -> str:
    return str(UNITS.get(unit, unit))


@functools.lru_cache(maxsize=2048)
def bounds_text(spec: FieldSpec, language: str) -> str:
    """The schema's bounds as help: "1 – 120 months" (cached: one form has ~70 fields)."""
    with translation.override(language):
        return _bounds_text(spec, language)


def _bounds_text(spec: FieldSpec, language: str) -> str:
    if is_percent(spec):
        low = formatting.number(float(spec.min or 0) * 100, 0, language)
        high = formatting.number(float(spec.max or 0) * 100, 0, language)
        return f"{low} – {high} %"
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


def is_percent(spec: FieldSpec) -> bool:
    """A rate the schema keeps as a fraction (0–1): the form shows and takes percentages."""
    return (
        spec.type == "decimal"
        and spec.min is not None
        and spec.max is not None
        and float(spec.max) <= 1
        and spec.unit not in ("", "facility ÷ IT power")
    )


# --- numbers as people type them ---------------------------------------------------------

# Currency signs and codes a reader may type with an amount ("$480", "480 €", "480 EUR").
_CURRENCY = re.compile(r"[$€£¥]|\b(?:USD|EUR|GBP|CHF|JPY)\b", re.IGNORECASE)
_SIGNS = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY"}
# A "$" is the sign of every dollar: it is the plan's own wherever the plan is in one.
DOLLARS = frozenset({"USD", "CAD", "AUD", "NZD", "SGD", "HKD"})
_SPACES = re.compile(r"[\s\u00a0\u202f']")
_PLAIN = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)$")


def read_number(text: str, language: str) -> Decimal | None:
    """The number in `text` as the reader writes it, or None when it is not one.

    English groups with "," and marks decimals with "."; German the other way round. A
    lone separator followed by exactly three digits groups thousands ("1.234" in German,
    "1,234" in English); otherwise the other sign is accepted as the decimal mark too, so
    "349.99" still reads as 349.99 on a German page.
    """
    cleaned = _SPACES.sub("", _CURRENCY.sub("", text)).replace("%", "")
    cleaned = cleaned.replace("−", "-")  # the minus sign a copied figure may carry
    if not cleaned:
        return None
    group, decimal = (".", ",") if language.startswith("de") else (",", ".")
    if group in cleaned and decimal in cleaned:
        if cleaned.rfind(group) > cleaned.rfind(decimal):
            return None  # "1.234,5" on an English page: ambiguous, refuse
        cleaned = cleaned.replace(group, "")
    elif cleaned.count(group) > 1 or re.search(rf"\{group}\d{{3}}$", cleaned):
        if not re.fullmatch(rf"[+-]?\d{{1,3}}(\{group}\d{{3}})+", cleaned):
            return None
        cleaned = cleaned.replace(group, "")
    cleaned = cleaned.replace(decimal, ".").replace(group, ".")
    if not _PLAIN.match(cleaned):
        return None
    try:
        return Decimal(cleaned)
    except InvalidOperation:
        return None


def typed_currency(text: str) -> str | None:
    """The currency a reader typed with an amount ("1.234,56 €" → EUR, "EUR 480" → EUR,
    "$480" → USD), or None when the text names none."""
    found = _CURRENCY.search(text)
    if found is None:
        return None
    sign = found.group(0)
    return _SIGNS.get(sign, sign.upper())


class TypedAmount(Decimal):
    """An amount read from text that named its currency (`currency`): the form checks it
    against the plan's own (issue 21: never taken silently in another currency)."""

    currency: str
    sign: str


def in_plan_currency(amount: TypedAmount, plan_currency: str) -> bool:
    if amount.currency == plan_currency:
        return True
    return amount.sign == "$" and plan_currency in DOLLARS


class NumberField(forms.CharField):
    """Text in the reader's number format → Decimal; text it cannot read passes through
    unchanged for the schema to refuse; a percentage field divides by 100."""

    def __init__(self, *, spec: FieldSpec, language: str, **kwargs: Any) -> None:
        self.spec, self.language, self.percent = spec, language, is_percent(spec)
        super().__init__(**kwargs)
        self.widget.attrs.update({"inputmode": "decimal", "autocomplete": "off"})

    def to_python(self, value: Any) -> Any:
        text = super().to_python(value)
        if text in ("", None):
            return None
        number = read_number(text, self.language)
        if number is None:
            return text
        if self.percent:
            return number / 100
        currency = typed_currency(text)
        if currency is not None:
            typed = TypedAmount(number)
            typed.currency, typed.sign = currency, _CURRENCY.search(text).group(0)  # type: ignore[union-attr]
            return typed
        return number

    def prepare_value(self, value: Any) -> Any:
        """A stored number in the reader's format (German "349,99"); typed text as typed."""
        if isinstance(value, str) or value is None:
            return value
        number = Decimal(str(value))
        if self.percent:
            number = (number * 100).normalize()
        places = max(0, -number.as_tuple().exponent)  # type: ignore[operator]
        return formatting.number(number, places, self.language)
