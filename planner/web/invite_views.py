"""Staff invite a colleague: a new account without a password, and a link to set one (by
e-mail where an address is given, and shown on the page to hand over in any case)."""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.mail import send_mail
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from common.django.message_render import render as say
from planner.services import accounts


class InviteForm(forms.Form):
    username = forms.CharField(label=_("User name"), max_length=150)
    email = forms.EmailField(label=_("E-mail address"), required=False,
                             help_text=_("The set-password link is sent here."))  # fmt: skip


@login_required
def invite(request: HttpRequest) -> HttpResponse:
    if not request.user.is_staff:
        raise Http404
    if request.method != "POST":
        return _page(request, InviteForm())
    form = InviteForm(request.POST)
    if not form.is_valid():
        return _page(request, form, status=400)
    data = form.cleaned_data
    try:
        user, key = accounts.invite(username=data["username"], email=data["email"],
                                    invited_by=request.user)  # fmt: skip
    except accounts.InviteRefused as refused:
        for problem in refused.problems:
            form.add_error(None, capfirst(say(problem)))
        return _page(request, form, status=400)
    path = reverse("password_reset_confirm", kwargs={"uidb64": key.uidb64, "token": key.token})
    link = request.build_absolute_uri(path)
    context = {"user": user, "link": link, "inviter": request.user}
    if user.email:
        body = render_to_string("registration/invite_email.txt", context, request)
        subject = _("An account for you on planner")
        send_mail(str(subject), body, None, [user.email])
    response = _page(request, InviteForm(), invited=user, link=link, status=201)
    response["Cache-Control"] = "no-store"  # the link sets the password: not kept anywhere
    return response


def _page(request: HttpRequest, form: InviteForm, status: int = 200, **shown) -> HttpResponse:
    return render(request, "registration/invite.html", {"form": form, **shown}, status=status)
