"""Forms: the catalog page's filters, the admin's price change and the import upload."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from catalog.models import CURRENCIES, Kind, Price, PricingModel
from catalog.pricing_models import GROUPS
from common.django import clock

SORTS = {
    "monthly": _("monthly price"),
    "per_vcpu_hour": _("per vCPU-hour"),
    "per_gib_hour": _("per GiB-hour"),
    "per_gpu_hour": _("per GPU-hour"),
    "vcpus": _("vCPUs"),
    "ram_gib": _("RAM"),
    "name": _("name"),
}


# The catalog table's optional columns (the name is always shown), in table order.
COLUMNS = {
    "provider": _("Provider"),
    "kind": _("Kind"),
    "region": _("Region"),
    "vcpus": _("vCPUs"),
    "ram_gib": _("RAM"),
    "gpus": _("GPUs"),
    "cpu": _("CPU"),
    "price": _("Price"),
    "per_vcpu_hour": _("per vCPU-hour"),
    "per_gib_hour": _("per GiB-hour"),
    "per_gpu_hour": _("per GPU-hour"),
    "source": _("Price source"),
}
DEFAULT_COLUMNS = [c for c in COLUMNS if c != "cpu"]


class TierFilterForm(forms.Form):
    """GET filters of the catalog page. Every field is optional; bad values are reported."""

    q = forms.CharField(label=_("Search"), required=False, max_length=100)
    provider = forms.ChoiceField(label=_("Provider"), required=False)
    kind = forms.ChoiceField(
        label=_("Kind"), required=False, choices=[("", _("any")), *Kind.choices]
    )
    pricing_model = forms.ChoiceField(
        label=_("Pricing model"), required=False, choices=[("", _("any")), *PricingModel.choices]
    )
    # Any model of a group (every savings plan, every reservation): catalog/pricing_models.py.
    pricing = forms.ChoiceField(
        label=_("Pricing group"), required=False, choices=[("", _("any")), *GROUPS.items()]
    )
    region = forms.ChoiceField(label=_("Region"), required=False)
    min_vcpus = forms.IntegerField(label=_("Min vCPUs"), required=False, min_value=0)
    min_ram_gib = forms.DecimalField(label=_("Min RAM (GiB)"), required=False, min_value=0)
    min_gpus = forms.IntegerField(label=_("Min GPUs"), required=False, min_value=0)
    currency = forms.ChoiceField(
        label=_("Currency"),
        required=False,
        choices=[("", _("as priced"))] + [(c, c) for c in CURRENCIES],
    )
    as_of = forms.DateField(
        label=_("Prices as of"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    sort = forms.ChoiceField(label=_("Sort by"), required=False, choices=list(SORTS.items()))
    dir = forms.ChoiceField(
        label=_("Order"),
        required=False,
        choices=[("asc", _("ascending")), ("desc", _("descending"))],
    )
    retired = forms.BooleanField(label=_("Show retired tiers"), required=False)
    confirmed = forms.BooleanField(label=_("Confirmed prices only"), required=False)
    cpu_vendor = forms.ChoiceField(label=_("CPU vendor"), required=False)
    cpu_generation = forms.ChoiceField(label=_("CPU generation"), required=False)
    avx512 = forms.BooleanField(label=_("AVX-512"), required=False)
    gpu_model = forms.ChoiceField(label=_("GPU model"), required=False)
    per = forms.ChoiceField(
        label=_("Prices"),
        required=False,
        choices=[("month", _("monthly")), ("hour", _("hourly"))],
        widget=forms.RadioSelect,
    )
    cols = forms.MultipleChoiceField(
        label=_("Columns"),
        required=False,
        choices=list(COLUMNS.items()),
        widget=forms.CheckboxSelectMultiple,
    )
    page = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)

    # Filters shown folded away under "More filters", and the column chooser's fields.
    MORE = ("cpu_vendor", "cpu_generation", "avx512", "gpu_model", "min_vcpus", "min_ram_gib",
            "min_gpus", "as_of", "sort", "dir", "retired")  # fmt: skip
    VIEW = ("per", "cols")

    def __init__(
        self, *args, providers: list[str], regions: list[str],
        choices: dict[str, list[str]] | None = None, **kwargs
    ) -> None:  # fmt: skip
        super().__init__(*args, **kwargs)
        self.fields["provider"].choices = [("", _("any"))] + [(p, p) for p in providers]
        self.fields["region"].choices = [("", _("any"))] + [(r, r) for r in regions]
        for name, values in (choices or {}).items():
            self.fields[name].choices = [("", _("any"))] + [(v, v) for v in values]

    @property
    def more_open(self) -> bool:
        """Unfold "More filters" when one of them is set (or wrong)."""
        return any(self.data.get(name) for name in self.MORE if name not in ("sort", "dir"))

    def main_fields(self) -> list:
        return [f for f in self if f.name not in (*self.MORE, *self.VIEW, "page")]

    def more_fields(self) -> list:
        return [self[name] for name in self.MORE]

    def columns(self) -> list[str]:
        """The chosen columns, in table order; the defaults when none was chosen."""
        chosen = self.value("cols") or DEFAULT_COLUMNS
        return [c for c in COLUMNS if c in chosen]

    def offer_currencies(self, codes: list[str]) -> None:
        """List only currencies that have a rate (`currencies_with_rates`), plus the one
        asked for, so a link naming another still shows what it cannot convert."""
        asked = self.value("currency")
        shown = [c for c in CURRENCIES if c in codes or c == asked]
        self.fields["currency"].choices = [("", _("as priced"))] + [(c, c) for c in shown]

    def value(self, name: str):
        """The cleaned value, or the default where the field was missing or invalid."""
        cleaned = getattr(self, "cleaned_data", {})
        value = cleaned.get(name)
        defaults = {"sort": "monthly", "dir": "asc", "page": 1, "as_of": clock.today(),
                    "retired": False, "confirmed": False, "avx512": False, "per": "month",
                    "cols": []}  # fmt: skip
        return value if value not in (None, "") else defaults.get(name)


class PriceChangeForm(forms.ModelForm):
    """Admin form for a price. On an existing row it describes a *new* row: rows are never
    overwritten, so the new price needs its own effective-from date."""

    class Meta:
        model = Price
        fields = ["tier", "amount", "unit", "currency", "setup_fee", "effective_from", "source",
                  "source_url", "confirmed"]  # fmt: skip

    def clean(self) -> dict:
        cleaned = super().clean()
        tier = cleaned.get("tier")
        day = cleaned.get("effective_from")
        if tier and day and Price.objects.filter(tier=tier, effective_from=day).exists():
            self.add_error(
                "effective_from",
                _("This tier already has a price from %(day)s. Prices are never overwritten: "
                  "give the new price its own effective-from date.") % {"day": day.isoformat()},
            )  # fmt: skip
        return cleaned

    def validate_unique(self) -> None:
        # clean() checks (tier, effective_from) against every row, this one included.
        pass


class ImportUploadForm(forms.Form):
    file = forms.FileField(label=_("Catalog file (CSV or JSON)"))
