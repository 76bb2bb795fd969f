"""The account page: a user's API tokens (list, create — key shown once — revoke)."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from planner.models import ApiToken


class TokenForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Name"),
        max_length=100,
        help_text=gettext_lazy("What the key is for, e.g. “CI pipeline”."),
    )


def _page(request: HttpRequest, form: TokenForm, new_key: str = "", status: int = 200):
    tokens = ApiToken.objects.filter(user=request.user)
    context = {"form": form, "tokens": tokens, "new_key": new_key}
    return render(request, "planner/account.html", context, status=status)


@login_required
def account(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return _page(request, TokenForm())
    form = TokenForm(request.POST)
    if not form.is_valid():
        return _page(request, form, status=400)
    # Rendered, not redirected: the raw key exists only in this response.
    _token, raw = ApiToken.issue(user=request.user, name=form.cleaned_data["name"])
    response = _page(request, TokenForm(), new_key=raw, status=201)
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def revoke_token(request: HttpRequest, token_id: int) -> HttpResponse:
    token = get_object_or_404(ApiToken, pk=token_id, user=request.user)
    token.revoke()
    messages.success(request, _("Token “%(name)s” revoked.") % {"name": token.name})
    return redirect("account")
