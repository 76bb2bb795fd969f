from django import forms
from django.utils.translation import gettext_lazy as _


class UploadForm(forms.Form):
    """The page's file chooser; without JavaScript the form posts the file whole."""

    file = forms.FileField(label=_("Cost export (CSV, gzip CSV or Parquet)"))
