"""The login page: Django's LoginView, answering 400 when a field itself is malformed."""

from __future__ import annotations

from django.contrib.auth.views import LoginView
from django.forms import Form
from django.forms.forms import NON_FIELD_ERRORS
from django.http import HttpResponse


class PlannerLoginView(LoginView):
    """A field the form refuses (missing, or with a NUL byte) is a bad request, 400, naming it.

    Wrong credentials stay Django's usual page (200, "Please enter a correct username
    and password"): the request was well formed, only the answer is no.
    """

    def form_invalid(self, form: Form) -> HttpResponse:
        response = super().form_invalid(form)
        if set(form.errors) - {NON_FIELD_ERRORS}:
            response.status_code = 400
        return response
