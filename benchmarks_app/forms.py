from django import forms
from django.utils.translation import gettext_lazy as _

from catalog.models import Tier
from common import safejson

from .models import Profile, Scale, Target

MAX_RUN_FILE_BYTES = 20 * 1024 * 1024
# Django 6.1's own "- Select an option -" has no German yet.
CHOOSE = _("— choose —")


def _targets():
    return Target.objects.filter(imported=False)


class StartRunForm(forms.Form):
    profile = forms.ModelChoiceField(Profile.objects.all(), label=_("Profile"), empty_label=CHOOSE)
    scale = forms.ChoiceField(choices=Scale.choices, initial=Scale.SMOKE, label=_("Scale"))
    target = forms.ModelChoiceField(_targets(), label=_("Target"), empty_label=CHOOSE)
    threads = forms.CharField(
        required=False,
        label=_("Threads"),
        help_text=_("Optional, e.g. 1,2,4; default: the scale's list within the host's CPUs."),
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["target"].queryset = _targets()

    def clean_threads(self) -> list[int] | None:
        raw = self.cleaned_data["threads"].replace(" ", "")
        if not raw:
            return None
        try:
            return [int(part) for part in raw.split(",") if part]
        except ValueError:
            raise forms.ValidationError(_("Whole numbers separated by commas.")) from None


class StartSuiteForm(forms.Form):
    target = forms.ModelChoiceField(_targets(), label=_("Target"), empty_label=CHOOSE)
    scale = forms.ChoiceField(choices=Scale.choices, initial=Scale.SMOKE, label=_("Scale"))

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["target"].queryset = _targets()


class ImportRunForm(forms.Form):
    file = forms.FileField(label=_("Run file (JSON)"))
    tier = forms.CharField(
        label=_("Catalog tier of the host (optional)"), required=False, max_length=200,
        help_text=_("Leave empty to get suggestions by CPU model and vCPUs."),
    )  # fmt: skip

    def clean_tier(self) -> str:
        slug = self.cleaned_data["tier"].strip()
        if slug and not Tier.objects.filter(slug=slug, retired=False).exists():
            raise forms.ValidationError(_("No offered tier has the key %(tier)s.") % {"tier": slug})
        return slug

    def clean_file(self) -> dict:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_RUN_FILE_BYTES:
            raise forms.ValidationError(_("A run file is at most 20 MB."))
        try:
            return safejson.loads(upload.read(), decimals=False)  # stored as JSON again
        except ValueError as exc:
            raise forms.ValidationError(_("Not a JSON file: %(error)s") % {"error": exc}) from None
